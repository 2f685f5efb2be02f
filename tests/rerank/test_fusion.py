"""Score fusion: per-query z-scores of the reranker and the first stage, interpolated by the weight."""

from __future__ import annotations

import math

import pytest

from execir.dataset.spec import TASK_SPECS, get_spec
from execir.errors import ExecIRError
from execir.rerank.base import Reranker, RerankRequest, RerankStats
from execir.rerank.fusion import FusionReranker, FusionWeights, fused_scores, parse_weight, parse_weights, standardised


class _Fixed:
    """A reranker with given scores."""

    name = "fixed"

    def __init__(self, scores: dict[str, dict[str, float]]) -> None:
        self.scores = scores
        self.tasks: list[object] = []

    def use_task(self, task: object) -> None:
        self.tasks.append(task)

    def score(self, request: RerankRequest) -> dict[str, dict[str, float]]:
        return {q: dict(self.scores[q]) for q in request.candidates}

    def stats(self) -> RerankStats:
        return RerankStats(1, 3, 0.5, {"model_calls": 3.0})

    def config(self) -> dict[str, object]:
        return {"model": "fixed"}


# The first stage ranks a > b > c on a cosine scale; the reranker b > c > a on a logit scale.
FIRST = {"q": {"a": 0.62, "b": 0.61, "c": 0.40}}
INNER = {"q": {"a": -3.0, "b": 2.0, "c": 1.5}}
REQUEST = RerankRequest(queries={"q": "text"}, candidates={"q": ("a", "b", "c")}, documents={"a": "", "b": "", "c": ""}, first_scores=FIRST)


def order(scores: dict[str, float]) -> list[str]:
    return sorted(scores, key=lambda d: -scores[d])


def test_standardised_has_mean_zero_and_unit_spread() -> None:
    z = standardised([1.0, 2.0, 6.0])
    assert math.isclose(sum(z), 0.0, abs_tol=1e-12) and math.isclose(sum(v * v for v in z) / 3, 1.0)
    assert standardised([4.0, 4.0, 4.0]) == [0.0, 0.0, 0.0] and standardised([]) == []
    assert standardised([1e9, 1e9 + 1e-6]) == [0.0, 0.0]  # a spread far below the values' precision is no signal


def test_the_weight_moves_the_order_from_the_first_stage_to_the_reranker() -> None:
    assert order(fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 0.0)) == ["a", "b", "c"]
    assert order(fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 1.0)) == ["b", "c", "a"]
    # halfway: b is second for the first stage and first for the reranker, so it leads; a (first, last) and
    # c (last, second) balance by their z-scores, not by the raw scales
    half = fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 0.5)
    assert order(half)[0] == "b"
    za, zb, zc = standardised([0.62, 0.61, 0.40])
    ia, ib, ic = standardised([-3.0, 2.0, 1.5])
    assert half == pytest.approx({"a": (za + ia) / 2, "b": (zb + ib) / 2, "c": (zc + ic) / 2})


def test_fusion_does_not_depend_on_either_scale() -> None:
    scaled_inner = {d: 10.0 * v - 7.0 for d, v in INNER["q"].items()}
    scaled_first = {d: 3.0 * v + 100.0 for d, v in FIRST["q"].items()}
    assert fused_scores(("a", "b", "c"), scaled_inner, scaled_first, 0.4) == pytest.approx(fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 0.4))


def test_the_reranker_passes_the_task_and_reports_the_inner_counts() -> None:
    inner = _Fixed(INNER)
    fused = FusionReranker(inner, 0.25)
    assert isinstance(fused, Reranker) and fused.name == "fuse:0.25:fixed"
    fused.use_task(None)
    assert inner.tasks == [None]
    scores = fused.score(REQUEST)
    assert scores["q"] == pytest.approx(fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 0.25))
    assert fused.stats() == inner.stats()
    assert fused.config() == {"fuse": {"weight": 0.25, "weights": {"default": 0.25}, "normalise": "z-score per query", "inner": {"model": "fixed"}}}


def test_missing_first_stage_scores_are_a_clear_error() -> None:
    request = RerankRequest(queries={"q": "t"}, candidates={"q": ("a", "b")}, documents={"a": "", "b": ""}, first_scores={"q": {"a": 1.0}})
    with pytest.raises(ExecIRError, match="needs the first stage's scores; query 'q' has none for b"):
        FusionReranker(_Fixed({"q": {"a": 1.0, "b": 0.0}}), 0.5).score(request)


def test_an_inner_reranker_that_skips_a_candidate_is_caught() -> None:
    with pytest.raises(ExecIRError, match="did not score exactly the candidates"):
        FusionReranker(_Fixed({"q": {"a": 1.0}}), 0.5).score(REQUEST)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0", 0.0), ("1", 1.0), ("0.3", 0.3), ("1.01", None), ("-0.1", None), ("nan", None), ("inf", None), ("x", None), ("", None)],
)
def test_parse_weight(text: str, expected: float | None) -> None:
    assert parse_weight(text) == expected


def test_a_weight_outside_the_unit_interval_is_refused() -> None:
    with pytest.raises(ExecIRError, match="are not all in"):
        FusionReranker(_Fixed(INNER), 2.0)
    with pytest.raises(ExecIRError, match="are not all in"):
        FusionReranker(_Fixed(INNER), FusionWeights(0.5, {"c2t": -0.1}))


def test_a_task_can_have_its_own_weight() -> None:
    weights = parse_weights("0.9, c2t=0.3", TASK_SPECS)
    assert weights == FusionWeights(0.9, {"c2t": 0.3}) and weights.text() == "0.9,c2t=0.3"
    fused = FusionReranker(_Fixed(INNER), weights)
    assert fused.name == "fuse:0.9,c2t=0.3:fixed"
    fused.use_task(get_spec("c2t"))
    assert fused.weight == 0.3 and fused.score(REQUEST)["q"] == pytest.approx(fused_scores(("a", "b", "c"), INNER["q"], FIRST["q"], 0.3))
    fused.use_task(get_spec("c2c-java"))  # a language's code-to-code folder is the c2c task
    assert fused.weight == 0.9
    fused.use_task(None)  # a folder whose task is unknown takes the default
    assert fused.weight == 0.9
    fused.use_task(get_spec("c2t"))
    assert fused.config()["fuse"] == {"weight": 0.3, "weights": {"default": 0.9, "c2t": 0.3}, "normalise": "z-score per query", "inner": {"model": "fixed"}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "the fusion weight 'x' must be a number"),
        ("0.5,c2t", "'c2t' is not <task>=<weight>"),
        ("0.5,=0.3", "is not <task>=<weight>"),
        ("0.5,t2c=0.3", "unknown task 't2c' in the fusion weights (known: c2c, c2c-rewrite, c2t, t2c-description"),
        ("0.5,c2t=0.3,c2t=0.4", "task 'c2t' has two fusion weights"),
        ("0.5,c2t=2", "the fusion weight '2' of c2t must be a number from 0 to 1"),
    ],
)
def test_bad_weights_say_what_is_wrong(text: str, message: str) -> None:
    result = parse_weights(text, TASK_SPECS)
    assert isinstance(result, str) and message in result
