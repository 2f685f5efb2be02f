"""Which measures an evaluation computes and shows (``--metrics`` and ``--k``).

The report always needs ``exec@1``, ``exec@10``, ``nDCG@10`` and ``MRR@10`` (leaderboard order,
reranking deltas, the collection's averages), so they are always computed: ``--metrics`` chooses
the measures shown in the leaderboard and recorded in ``per_query.jsonl`` besides them, never
fewer. ``--k`` gives the cut-offs of the names in ``--metrics`` written without one (``exec`` with
``--k 1,5,10`` is exec@1, exec@5, exec@10); without ``--metrics`` it applies to every default
measure family.
"""

from __future__ import annotations

from execir.errors import ExecIRError
from execir.metrics.measures import parse_measure

REQUIRED_MEASURES: tuple[str, ...] = ("exec@1", "exec@10", "ndcg@10", "mrr@10")
"""Computed in every evaluation whatever ``--metrics`` says (the report reads them)."""
DISPLAY_MEASURES: tuple[str, ...] = REQUIRED_MEASURES
"""The leaderboard's measures when ``--metrics`` is not given."""
DEFAULT_FAMILIES: tuple[str, ...] = ("exec", "ndcg", "mrr", "recall", "map")
"""The measure names ``--k`` expands when ``--metrics`` is not given."""


def _cutoffs(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() and int(p) >= 1 for p in parts):
        raise ExecIRError(f"--k must be a comma list of positive integers (e.g. 1,5,10), got '{text}'")
    return tuple(dict.fromkeys(int(p) for p in parts))


def _names(text: str) -> list[str]:
    names = [p.strip().lower() for p in text.split(",")]
    if not all(names):
        raise ExecIRError(f"--metrics must be a comma list of measure names (e.g. exec@1,ndcg@10), got '{text}'")
    return names


def chosen_measures(metrics: str | None, k: str | None) -> tuple[str, ...] | None:
    """The measures ``--metrics``/``--k`` choose, canonically spelled and deduplicated (None:
    neither option given). Raises ExecIRError naming the bad part."""
    if metrics is None and k is None:
        return None
    names = _names(metrics) if metrics is not None else list(DEFAULT_FAMILIES)
    cutoffs = _cutoffs(k) if k is not None else ()
    if cutoffs and all("@" in n for n in names):
        raise ExecIRError("--k applies to measure names without a cut-off (e.g. --metrics exec,ndcg --k 1,10), but every --metrics name has one")
    out: list[str] = []
    for name in names:
        expanded = [f"{name}@{c}" for c in cutoffs] if cutoffs and "@" not in name else [name]
        for text in expanded:
            try:
                out.append(str(parse_measure(text)))
            except ValueError as exc:
                raise ExecIRError(f"--metrics: {exc}") from None
    return tuple(dict.fromkeys(out))


def computed_measures(chosen: tuple[str, ...] | None) -> tuple[str, ...]:
    """The required measures followed by the chosen ones not among them."""
    return tuple(dict.fromkeys([*REQUIRED_MEASURES, *(chosen or ())]))


def check_depth(depth: int, measures: tuple[str, ...]) -> None:
    """Refuse a depth below 1 or below a measure's cut-off (the run holds ``depth`` documents per query)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ExecIRError(f"--depth must be a positive integer, got {depth!r}")
    too_deep = [m for m in measures if (parse_measure(m).k or 0) > depth]
    if too_deep:
        raise ExecIRError(
            f"--depth {depth} is below the cut-off of {', '.join(too_deep)}: use --depth of at least {max(parse_measure(m).k or 0 for m in too_deep)}"
        )
