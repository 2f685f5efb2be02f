"""The retriever protocol every ranking system implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from execir.types import Run


@runtime_checkable
class Retriever(Protocol):
    """Ranks a fixed corpus for a batch of queries.

    Usage: ``r.index(corpus)`` once, then ``r.search(queries, top_k=100)``.
    ``encoded_texts`` counts texts actually encoded by a model during this object's lifetime
    (0 when every embedding came from the cache; always 0 for lexical retrievers).
    """

    name: str

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
