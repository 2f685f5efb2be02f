"""BM25 over the code-aware tokenizer, backed by ``bm25s``.

Scoring is bm25s' ``method="lucene"`` variant with ``k1=1.5`` and ``b=0.75`` (the bm25s and
Lucene defaults; see :class:`BM25Retriever`). Query and documents go through the same
:class:`~execir.retrieve.tokenize.CodeTokenizer` (operators are not tokens by default).

Every document gets a score for every query (0.0 when it shares no term), so ``search`` always
returns ``min(top_k, len(corpus))`` documents, zero-score ones included when needed to fill
``top_k``, ordered by (score desc, doc id asc). Scores are bm25s' float32 values, exactly.

Memory: ``index`` streams the corpus through the tokenizer into integer term ids (one shared vocabulary
dict, no per-document lists of token strings) and hands bm25s the ids, so indexing costs the id lists
plus bm25s' sparse score matrix. ``search`` scores one query at a time (one float32 vector over the
corpus, from bm25s' precomputed matrix) and keeps only its top ``top_k``, so memory grows with
queries x ``top_k``, never queries x corpus. The selection is :func:`~execir.retrieve.topk.top_k_row`
rather than bm25s' own ``retrieve``, whose top-k breaks ties arbitrarily; the scores are the ones
``retrieve`` ranks by.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import bm25s
import numpy as np
from tqdm import tqdm

from execir.errors import ExecIRError
from execir.retrieve.tokenize import CodeTokenizer
from execir.retrieve.topk import top_k_row
from execir.types import Run

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def term_ids(tokenizer: CodeTokenizer, texts: Iterable[str]) -> tuple[list[list[int]], dict[str, int]]:
    """Each text's tokens as term ids, and the vocabulary (term -> id, in first-seen order).

    Every occurrence of a term refers to the vocabulary's one ``int`` object, so a document costs a
    pointer per token rather than a string per token.
    """
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(token, len(vocab)) for token in tokenizer.tokenize(text)] for text in texts]
    return ids, vocab


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
        texts = (corpus[d] for d in self._doc_ids)
        bar = tqdm(texts, total=len(self._doc_ids), desc="bm25 tokenize", disable=not self.progress, leave=False)
        ids, vocab = term_ids(self.tokenizer, bar)
        if not vocab:
            raise ExecIRError(f"bm25: none of the {len(ids)} documents has a term to index (tokenizer: {self.tokenizer.config()})")
        self._bm25 = bm25s.BM25(k1=self.k1, b=self.b, method=self.method)
        self._bm25.index((ids, vocab), show_progress=self.progress)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every indexed document (index order = sorted doc ids) for one query."""
        if self._bm25 is None:
            raise ExecIRError("bm25: call index(corpus) before search")
        ids = self._bm25.get_tokens_ids(self.tokenizer.tokenize(query))
        if not ids:
            return np.zeros(len(self._doc_ids), dtype=np.float32)
        return np.asarray(self._bm25.get_scores_from_ids(ids))

    def weighted_scores(self, weights: Mapping[str, float]) -> np.ndarray:
        """``sum_t weights[t] * BM25(t, d)`` for every indexed document (index order), float64.

        bm25s scores a bag of tokens (a repeated token counts again) but has no per-term weights, so
        a weighted query (RM3) is summed here from bm25s' own per-term score columns; terms the
        index lacks score nothing. With unit weights it equals :meth:`scores` up to float32 rounding.
        """
        bm25 = self._index_or_fail()
        data, indices, indptr = bm25.scores["data"], bm25.scores["indices"], bm25.scores["indptr"]
        out = np.zeros(len(self._doc_ids), dtype=np.float64)
        for term in sorted(weights):
            term_id = bm25.vocab_dict.get(term)
            if term_id is None or term_id + 1 >= len(indptr):
                continue
            lo, hi = int(indptr[term_id]), int(indptr[term_id + 1])
            out[indices[lo:hi]] += weights[term] * data[lo:hi].astype(np.float64)
            if bm25.nonoccurrence_array is not None:
                out += weights[term] * float(bm25.nonoccurrence_array[term_id])
        return out

    def document_frequency(self, term: str) -> int:
        """Number of indexed documents containing ``term`` (0 for a term the index lacks)."""
        bm25 = self._index_or_fail()
        term_id = bm25.vocab_dict.get(term)
        indptr = bm25.scores["indptr"]
        return 0 if term_id is None or term_id + 1 >= len(indptr) else int(indptr[term_id + 1] - indptr[term_id])

    def _index_or_fail(self) -> bm25s.BM25:
        if self._bm25 is None:
            raise ExecIRError("bm25: call index(corpus) before search")
        return self._bm25

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
