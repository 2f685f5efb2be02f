"""BM25 over the code-aware tokenizer, backed by ``bm25s``.

Scoring is bm25s' ``method="lucene"`` variant with ``k1=1.5`` and ``b=0.75`` (the bm25s and
Lucene defaults; see :class:`BM25Retriever`). Query and documents go through the same
:class:`~execir.retrieve.tokenize.CodeTokenizer` (operators are not tokens by default).

Every document gets a score for every query (0.0 when it shares no term), so ``search`` always
returns ``min(top_k, len(corpus))`` documents, zero-score ones included when needed to fill
``top_k``, ordered by (score desc, doc id asc). Scores are bm25s' float32 values, exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import bm25s
import numpy as np

from execir.errors import ExecIRError
from execir.retrieve.tokenize import CodeTokenizer
from execir.retrieve.topk import top_k_row
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


class BM25Retriever:
    """Lexical retriever: ``index(corpus)`` then ``search(queries, top_k=...)``."""

    def __init__(
        self,
        *,
        k1: float = 1.5,
        b: float = 0.75,
        method: str = "lucene",
        tokenizer: CodeTokenizer | None = None,
        progress: bool = True,
    ) -> None:
        self.k1, self.b, self.method = k1, b, method
        self.tokenizer = tokenizer or CodeTokenizer()
        self.progress = progress
        self.name = "bm25"
        self._doc_ids: list[str] = []
        self._bm25: bm25s.BM25 | None = None

    @property
    def encoded_texts(self) -> int:
        """Always 0: no model encodes anything here."""
        return 0

    def use_task(self, task: TaskSpec | None) -> None:
        """No-op: lexical scoring is the same for every task."""

    def index(self, corpus: dict[str, str]) -> None:
        """Tokenize and index the corpus (documents sorted by id for deterministic ties)."""
        if not corpus:
            raise ExecIRError("bm25: cannot index an empty corpus")
        self._doc_ids = sorted(corpus)
        tokens = self.tokenizer.tokenize_many([corpus[d] for d in self._doc_ids])
        self._bm25 = bm25s.BM25(k1=self.k1, b=self.b, method=self.method)
        self._bm25.index(tokens, show_progress=self.progress)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every indexed document (index order = sorted doc ids) for one query."""
        if self._bm25 is None:
            raise ExecIRError("bm25: call index(corpus) before search")
        ids = self._bm25.get_tokens_ids(self.tokenizer.tokenize(query))
        if not ids:
            return np.zeros(len(self._doc_ids), dtype=np.float32)
        return np.asarray(self._bm25.get_scores_from_ids(ids))

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        """Top ``top_k`` documents per query with full-precision BM25 scores."""
        run: Run = {}
        for qid in sorted(queries):
            scores = self.scores(queries[qid])
            best = top_k_row(scores, top_k)
            run[qid] = {self._doc_ids[i]: float(scores[i]) for i in best.tolist()}
        return run

    @property
    def doc_ids(self) -> list[str]:
        """Indexed document ids in index order."""
        return list(self._doc_ids)

    def config(self) -> dict[str, Any]:
        """JSON-able resolved configuration."""
        return {
            "retriever": "bm25",
            "backend": f"bm25s=={bm25s.__version__}",
            "method": self.method,
            "k1": self.k1,
            "b": self.b,
            "tokenizer": self.tokenizer.config(),
        }
