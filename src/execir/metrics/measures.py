"""The registry of ranking measures and their parsing into validated objects.

A measure name is ``<name>@<k>`` (``"ndcg@10"``, ``"exec@1"``); names are case-insensitive and
``k`` is a positive integer. ``k`` may be omitted (``"mrr"``) for every measure except ``p``,
meaning "the whole ranked list".

Relevance semantics (ExecIR graded qrels, see :class:`execir.types.Relevance`):

* **Relevant** for every binary measure means ``rel >= 2`` (the task's correct solution).
  A rel-1 document (a same-task mutant proven to fail) is *not* relevant; it simply occupies
  its rank, like any other wrong document.
* **nDCG** (CoREB protocol) uses ``gain(rel) = rel if rel >= 2 else 0`` with the
  ``1 / log2(rank + 1)`` discount; the ideal DCG is computed from the ideal ordering of the
  gains of all judged documents of the query (not only the retrieved ones), cut at ``k``.
  This equals ``trec_eval``'s ``ndcg_cut_k`` on qrels whose rel-1 labels are mapped to 0.

Measures:

``exec@k``    1 if a relevant document is in the top k, else 0 (``trec_eval`` ``success_k``).
``ndcg@k``    normalised discounted cumulative gain at k, as above.
``mrr@k``     reciprocal rank of the first relevant document within the top k, else 0.
``recall@k``  relevant documents in the top k / relevant documents judged (0 when none judged).
``map@k``     average precision at k, normalised by the number of relevant documents judged.
``p@k``       relevant documents in the top k / k (``trec_eval`` ``P_k``).
"""

from __future__ import annotations

from dataclasses import dataclass

KNOWN_MEASURES: tuple[str, ...] = ("exec", "ndcg", "mrr", "recall", "map", "p")
"""Every measure name :func:`parse_measure` accepts."""

_NEEDS_K: frozenset[str] = frozenset({"p"})


@dataclass(frozen=True)
class Measure:
    """A validated measure: ``name`` from :data:`KNOWN_MEASURES`, cutoff ``k`` (None: no cutoff)."""

    name: str
    k: int | None

    def __post_init__(self) -> None:
        if self.name not in KNOWN_MEASURES:
            raise ValueError(_unknown(self.name))
        if self.k is None and self.name in _NEEDS_K:
            raise ValueError(f"measure '{self.name}' needs a cutoff, e.g. '{self.name}@10'")
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1):
            raise ValueError(f"measure '{self.name}': cutoff must be a positive integer, got {self.k!r}")

    def __str__(self) -> str:
        return self.name if self.k is None else f"{self.name}@{self.k}"


def _unknown(text: str) -> str:
    known = ", ".join(f"{m}@k" for m in KNOWN_MEASURES)
    return f"unknown measure '{text}'; known measures: {known}"


def parse_measure(text: str) -> Measure:
    """Parse ``"ndcg@10"`` into ``Measure("ndcg", 10)``; raise ValueError naming bad input."""
    if not isinstance(text, str):
        raise ValueError(f"measure must be a string like 'ndcg@10', got {text!r}")
    name, sep, cutoff = text.strip().lower().partition("@")
    if name not in KNOWN_MEASURES:
        raise ValueError(_unknown(text))
    if not sep:
        return Measure(name, None)
    if not cutoff.isdigit():
        raise ValueError(f"measure '{text}': cutoff must be a positive integer")
    return Measure(name, int(cutoff))
