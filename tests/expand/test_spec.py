"""--expand spec parsing: defaults, parameters, generators and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.errors import ExecIRError
from execir.expand import parse_expansion, parse_expansions
from execir.expand.spec import GENERATOR_ENV, PARAMS


def test_defaults_are_pyserini_and_hyde_ones() -> None:
    assert parse_expansion("rm3").params == {"fb_docs": 10, "fb_terms": 10, "orig_weight": 0.5, "max_df": 0.1}
    assert parse_expansion("rocchio").params == {"k": 5, "alpha": 0.4, "beta": 0.6}
    hyde = parse_expansion("hyde:openai:http://127.0.0.1:9/v1@m", environ={})
    assert hyde.params == {"n": 8, "max_tokens": 512, "temperature": 0.7, "seed": 0}
    assert hyde.generator is not None and (hyde.generator.backend, hyde.generator.target, hyde.generator.model) == ("openai", "http://127.0.0.1:9/v1", "m")


def test_parameters_override_defaults() -> None:
    spec = parse_expansion("rm3, fb_docs=3,orig_weight=0.25")
    assert spec.params["fb_docs"] == 3 and spec.params["orig_weight"] == 0.25 and spec.params["fb_terms"] == 10
    assert parse_expansion("hyde:openai:https://x.test/v1@a@b,n=2", environ={}).generator.model == "b"  # type: ignore[union-attr]


def test_hf_generator_and_env_default(tmp_path: Path) -> None:
    assert parse_expansion(f"query2doc:hf:{tmp_path}").generator.target == str(tmp_path)  # type: ignore[union-attr]
    spec = parse_expansion("query2doc,n=2", environ={GENERATOR_ENV: f"hf:{tmp_path}"})
    assert spec.generator is not None and spec.generator.backend == "hf" and spec.params["n"] == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("rm4", "'rm4' is not an expansion kind"),
        ("rm3,k=3", "rm3 has no parameter 'k'"),
        ("rm3,fb_docs=two", "fb_docs must be an integer"),
        ("rm3,fb_docs=0", "fb_docs=0 is out of range"),
        ("rm3,orig_weight=1.5", "orig_weight=1.5 is out of range"),
        ("rocchio,alpha=x", "alpha must be a number"),
        ("rocchio,beta", "parameter 'beta' must be key=value"),
        ("rm3:hf:/tmp", "rm3 takes no generator"),
        ("hyde", "hyde needs a generator"),
        ("hyde:gpt4", "must start with openai: or hf:"),
        ("hyde:openai:127.0.0.1@m", "openai:<http(s) base_url>@<model>"),
        ("hyde:openai:http://h/v1@", "openai:<http(s) base_url>@<model>"),
        ("query2doc:hf:/no/such/model/dir", "does not exist"),
        ("hyde:openai:http://h/v1@m,temperature=3", "temperature=3 is out of range"),
    ],
)
def test_bad_specs_fail_clearly(spec: str, message: str) -> None:
    with pytest.raises(ExecIRError, match="--expand") as caught:
        parse_expansion(spec, environ={})
    assert message in str(caught.value)


def test_a_kind_given_twice_is_refused() -> None:
    with pytest.raises(ExecIRError, match="both rm3"):
        parse_expansions(("rm3", "rm3,fb_docs=5"))


def test_every_kind_has_defaults() -> None:
    assert set(PARAMS) == {"rm3", "rocchio", "hyde", "query2doc"}
