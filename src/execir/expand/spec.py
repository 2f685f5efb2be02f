"""``--expand`` specs: one string names a query expansion and its parameters.

Grammar (parameters are optional ``,key=value`` pairs after the head)::

    rm3[,fb_docs=10,fb_terms=10,orig_weight=0.5,max_df=0.1]   BM25 pseudo-relevance feedback
    rocchio[,k=5,alpha=0.4,beta=0.6]                          dense pseudo-relevance feedback
    hyde[:GENERATOR][,n=8,max_tokens=512,temperature=0.7,seed=0]
    query2doc[:GENERATOR][,n=1,max_tokens=128,temperature=0.0,seed=0]

``GENERATOR`` is ``openai:<base_url>@<model>`` (an OpenAI-compatible chat completions endpoint;
the key, when the server needs one, comes from ``$OPENAI_API_KEY``) or ``hf:<local model dir>``
(a transformers causal LM). Without one, ``$EXECIR_EXPAND_GENERATOR`` is used. The rm3 and rocchio
defaults are pyserini's (``set_rm3``; ``--prf-depth 5 --rocchio-alpha 0.4 --rocchio-beta 0.6``),
with Anserini's feedback-term filter (terms in more than ``max_df`` of the documents are not
feedback terms); hyde's are the HyDE repository's (n=8, 512 tokens, temperature 0.7).

What each kind applies to: rm3 to BM25, rocchio to dense retrievers (local or hosted embeddings),
hyde and query2doc to both; never to a hybrid. Expansion is for text-to-code ``search`` and
``description`` queries; other folders get no expanded system (the report says so).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from execir.errors import ExecIRError

Kind = Literal["rm3", "rocchio", "hyde", "query2doc"]
GENERATOR_ENV = "EXECIR_EXPAND_GENERATOR"
SUBTYPES: tuple[str, ...] = ("search", "description")
"""Text-to-code subtypes an expansion applies to."""

_INT, _FLOAT = "int", "float"
PARAMS: dict[str, dict[str, tuple[str, float | int]]] = {
    "rm3": {"fb_docs": (_INT, 10), "fb_terms": (_INT, 10), "orig_weight": (_FLOAT, 0.5), "max_df": (_FLOAT, 0.1)},
    "rocchio": {"k": (_INT, 5), "alpha": (_FLOAT, 0.4), "beta": (_FLOAT, 0.6)},
    "hyde": {"n": (_INT, 8), "max_tokens": (_INT, 512), "temperature": (_FLOAT, 0.7), "seed": (_INT, 0)},
    "query2doc": {"n": (_INT, 1), "max_tokens": (_INT, 128), "temperature": (_FLOAT, 0.0), "seed": (_INT, 0)},
}
"""kind -> parameter -> (type, default): the defaults, defined once."""

RANGES: dict[str, tuple[float, float | None, bool]] = {
    "orig_weight": (0, 1, False),
    "max_df": (0, 1, True),
    "alpha": (0, None, False),
    "beta": (0, None, False),
    "temperature": (0, 2, False),
    "seed": (0, None, False),
}
"""parameter -> (low, high or None, low excluded); every other parameter is an integer >= 1."""

APPLIES_TO: dict[str, tuple[str, ...]] = {"rm3": ("bm25",), "rocchio": ("dense",), "hyde": ("bm25", "dense"), "query2doc": ("bm25", "dense")}
"""kind -> retriever families (``bm25``: the BM25 retriever; ``dense``: any embedding retriever)."""

EXPAND_SPEC_HELP = """expansion specs (--expand, repeatable; each adds <retriever>+<kind> beside every retriever it applies to,
on text-to-code search and description folders):
  rm3[,fb_docs=10,fb_terms=10,orig_weight=0.5,max_df=0.1]  RM3 pseudo-relevance feedback over ExecIR's BM25
  rocchio[,k=5,alpha=0.4,beta=0.6]              Rocchio over the cached embeddings of the top k documents (dense)
  hyde[:GEN][,n=8,max_tokens=512,temperature=0.7,seed=0]  HyDE: mean embedding of the query and n generated passages
  query2doc[:GEN][,n=1,max_tokens=128,temperature=0,seed=0]  Query2doc: the query plus a few-shot pseudo-document
  GEN: openai:<base_url>@<model> (chat completions; key from OPENAI_API_KEY when set) or hf:<local model dir>;
       default $EXECIR_EXPAND_GENERATOR"""


@dataclass(frozen=True)
class GeneratorSpec:
    """Where generated text comes from: an OpenAI-compatible endpoint or a local causal LM."""

    backend: Literal["openai", "hf"]
    target: str
    """The base URL (openai) or the model directory (hf)."""
    model: str = ""
    """The model name sent to the endpoint (openai only)."""

    def label(self) -> str:
        """Human-readable, secret-free identity (no key is part of a spec)."""
        return f"openai:{self.target}@{self.model}" if self.backend == "openai" else f"hf:{self.target}"


@dataclass(frozen=True)
class ExpansionSpec:
    """A parsed ``--expand`` spec."""

    kind: Kind
    params: dict[str, float | int] = field(default_factory=dict)
    """Every parameter of the kind, defaults filled in."""
    generator: GeneratorSpec | None = None
    text: str = ""
    """The spec as given."""

    def applies_to(self, family: str) -> bool:
        """True when this kind expands a retriever of ``family`` (``bm25`` or ``dense``)."""
        return family in APPLIES_TO[self.kind]

    def to_json(self) -> dict[str, object]:
        """JSON-able record of the resolved spec."""
        return {"kind": self.kind, "params": dict(self.params), "generator": self.generator.label() if self.generator else None, "spec": self.text}


def _fail(spec: str, why: str) -> ExecIRError:
    return ExecIRError(f"--expand '{spec}': {why}; valid forms: rm3[,k=v...], rocchio[,k=v...], hyde[:GEN][,k=v...], query2doc[:GEN][,k=v...]")


def parse_generator(text: str, spec: str) -> GeneratorSpec:
    """``openai:<base_url>@<model>`` or ``hf:<dir>`` -> :class:`GeneratorSpec` (the directory must exist)."""
    backend, _, rest = text.partition(":")
    if backend == "openai":
        url, _, model = rest.rpartition("@")
        if not url.startswith(("http://", "https://")) or not model:
            raise _fail(spec, f"generator '{text}' must be openai:<http(s) base_url>@<model>")
        return GeneratorSpec("openai", url.rstrip("/"), model)
    if backend == "hf":
        if not rest:
            raise _fail(spec, "generator hf: needs a local model directory")
        path = Path(rest).expanduser()
        if not path.is_dir():
            raise _fail(spec, f"generator model directory {rest} {'is not a directory' if path.exists() else 'does not exist'}")
        return GeneratorSpec("hf", str(path))
    raise _fail(spec, f"generator '{text}' must start with openai: or hf:")


def _value(spec: str, kind: str, key: str, raw: str) -> float | int:
    if key not in PARAMS[kind]:
        raise _fail(spec, f"{kind} has no parameter '{key}' (it has {', '.join(PARAMS[kind])})")
    kind_of, _ = PARAMS[kind][key]
    try:
        value: float | int = int(raw) if kind_of == _INT else float(raw)
    except ValueError:
        raise _fail(spec, f"{key} must be {'an integer' if kind_of == _INT else 'a number'}, got '{raw}'") from None
    low, high, open_low = RANGES.get(key, (1, None, False))
    if value < low or (open_low and value == low) or (high is not None and value > high):
        where = f"{'(' if open_low else '['}{low}, {high if high is not None else 'inf'}{']' if high is not None else ')'}"
        raise _fail(spec, f"{key}={raw} is out of range {where}")
    return value


def parse_expansion(spec: str, *, environ: dict[str, str] | None = None) -> ExpansionSpec:
    """Parse and validate one ``--expand`` spec (see the module docstring)."""
    env = os.environ if environ is None else environ
    head, *pairs = [part.strip() for part in spec.strip().split(",")]
    kind, _, generator_text = head.partition(":")
    if kind not in PARAMS:
        raise _fail(spec, f"'{kind}' is not an expansion kind")
    params: dict[str, float | int] = {key: default for key, (_, default) in PARAMS[kind].items()}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or not key or not raw:
            raise _fail(spec, f"parameter '{pair}' must be key=value")
        params[key.strip()] = _value(spec, kind, key.strip(), raw.strip())
    generator = None
    if kind in ("hyde", "query2doc"):
        generator_text = generator_text or env.get(GENERATOR_ENV, "")
        if not generator_text:
            raise _fail(spec, f"{kind} needs a generator ({kind}:openai:<base_url>@<model> or {kind}:hf:<dir>, or ${GENERATOR_ENV})")
        generator = parse_generator(generator_text, spec)
    elif generator_text:
        raise _fail(spec, f"{kind} takes no generator")
    return ExpansionSpec(kind, params, generator, spec.strip())  # type: ignore[arg-type]


def parse_expansions(specs: tuple[str, ...]) -> tuple[ExpansionSpec, ...]:
    """Parse every spec; two specs of one kind are refused (their systems would share a name)."""
    parsed = tuple(parse_expansion(s) for s in specs)
    seen: dict[str, str] = {}
    for p in parsed:
        if p.kind in seen:
            raise ExecIRError(
                f"--expand '{seen[p.kind]}' and --expand '{p.text}' are both {p.kind}; give each kind once (systems are named <retriever>+{p.kind})"
            )
        seen[p.kind] = p.text
    return parsed
