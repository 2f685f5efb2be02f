"""The retriever protocol every ranking system implements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


@runtime_checkable
class Retriever(Protocol):
    """Ranks a fixed corpus for a batch of queries.

    Usage: ``r.use_task(spec)`` for the dataset folder's task, ``r.index(corpus)`` once, then
    ``r.search(queries, top_k=100)``; the evaluator calls ``use_task`` again before indexing each
    folder. A task changes only prompts and request options (never lexical scoring), and a
    retriever that ignores tasks implements it as a no-op.
    ``encoded_texts`` counts texts actually encoded by a model during this object's lifetime
    (0 when every embedding came from the cache; always 0 for lexical retrievers).
    """

    name: str

    def use_task(self, task: TaskSpec | None) -> None:
        """Prepare for ``task`` (None: text to code); call before :meth:`index` and :meth:`search`."""
        ...

    def index(self, corpus: dict[str, str]) -> None:
        """Prepare the corpus (doc id -> text) for searching."""
        ...

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Return the top ``top_k`` documents with scores for every query id."""
        ...

    @property
    def encoded_texts(self) -> int:
        """Number of texts encoded by a model (cache misses) since construction."""
        ...


def retriever_usage(retriever: object) -> dict[str, Any] | None:
    """``retriever.usage()`` when the retriever calls an embedding API (requests, tokens, estimated
    cost, cache hits); None for local retrievers (``usage`` is not part of the protocol)."""
    usage = getattr(retriever, "usage", None)
    return usage() if callable(usage) else None


NOT_COUNTS = frozenset({"usd_per_million_tokens", "usd_per_thousand_searches"})
"""Numbers in a usage block that are rates, not running counts."""


def usage_since(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any] | None:
    """The usage between two :func:`retriever_usage` snapshots of one retriever: its running counts
    (requests, tokens, cost, cache hits; a hybrid's per part) minus those of ``before``."""
    if after is None or before is None:
        return after
    out: dict[str, Any] = {}
    for key, value in after.items():
        earlier = before.get(key)
        if isinstance(value, dict):
            out[key] = usage_since(earlier if isinstance(earlier, dict) else None, value)
        elif isinstance(value, int | float) and not isinstance(value, bool) and isinstance(earlier, int | float) and key not in NOT_COUNTS:
            out[key] = value - earlier
        else:
            out[key] = value
    return out


def apply_task(retriever: object, task: TaskSpec | None) -> None:
    """``retriever.use_task(task)`` when the retriever has it (stand-ins written before tasks may not)."""
    use_task = getattr(retriever, "use_task", None)
    if callable(use_task):
        use_task(task)
