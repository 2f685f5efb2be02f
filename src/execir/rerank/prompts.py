"""How a model reranker sees its input: the request's pairs, their order, and LLM prompt templates.

Everything here is pure (no model, no tokenizer object), so the cross-encoder and the LLM reranker
share one tested definition of:

* **the pairs of a request** (:func:`plan_pairs`): every (query, candidate) pair of every query,
  each distinct (query text, document text) pair scored once, scores mapped back to every
  candidate (:func:`assemble`);
* **pair order** for cross-encoders (:func:`order_pair`): (query, document) unless the model
  declares it was trained on (text, code) pairs, in which case the text side always comes first
  (a code-to-text query is code, so its pair is passed as (description, program)). A model
  declares it with ``execir.json`` beside its weights: ``{"pair_order": "text-code"}``
  (:data:`PAIR_ORDER_FILE`, :func:`parse_pair_order`);
* **LLM prompt families** (:class:`LLMFamily`): the yes/no judgement template of Qwen3-Reranker,
  with the instruction slot filled from the task spec, and longest-first truncation of the query
  and the document (never of the template) to a token budget (:func:`longest_first`,
  :func:`truncate_segments`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from execir.dataset.spec import NL2CODE
from execir.errors import ExecIRError
from execir.model_identity import MODEL_FILE

from .base import RerankRequest

PairOrder = Literal["query-document", "text-code"]
PAIR_ORDERS: tuple[PairOrder, ...] = ("query-document", "text-code")
PAIR_ORDER_FILE = MODEL_FILE
"""The file beside a model's weights that may declare ``{"pair_order": "text-code"}``."""

DEFAULT_INSTRUCTION = NL2CODE
"""The LLM instruction when no task is set (no task means text to code)."""


@dataclass(frozen=True)
class PairPlan:
    """The distinct text pairs of a request and where each candidate's score comes from.

    ``texts`` holds each distinct (query text, document text) pair once, in first-seen order;
    ``slots`` maps every query id (in the request's order) to its candidates as (doc id, index
    into ``texts``); ``pairs`` counts (query, candidate) pairs before de-duplication."""

    texts: tuple[tuple[str, str], ...]
    slots: Mapping[str, tuple[tuple[str, int], ...]]
    pairs: int


def plan_pairs(request: RerankRequest) -> PairPlan:
    """Every query of ``request`` (those with text, and those with candidates) with its candidates.

    Raises :class:`ExecIRError` for a query with candidates but no text, or a candidate without
    text. A candidate listed twice for a query is scored once."""
    index: dict[tuple[str, str], int] = {}
    slots: dict[str, tuple[tuple[str, int], ...]] = {}
    pairs = 0
    for qid in dict.fromkeys([*request.queries, *request.candidates]):
        candidates = tuple(dict.fromkeys(request.candidates.get(qid, ())))
        if candidates and qid not in request.queries:
            raise ExecIRError(f"rerank: query '{qid}' has candidates but no text")
        row: list[tuple[str, int]] = []
        for doc_id in candidates:
            if doc_id not in request.documents:
                raise ExecIRError(f"rerank: candidate '{doc_id}' of query '{qid}' has no document text")
            key = (request.queries[qid], request.documents[doc_id])
            row.append((doc_id, index.setdefault(key, len(index))))
        slots[qid] = tuple(row)
        pairs += len(row)
    return PairPlan(texts=tuple(index), slots=slots, pairs=pairs)


def assemble(plan: PairPlan, scores: Sequence[float]) -> dict[str, dict[str, float]]:
    """query id -> candidate id -> score, from one score per distinct pair of ``plan``."""
    if len(scores) != len(plan.texts):
        raise ValueError(f"{len(scores)} scores for {len(plan.texts)} pairs")
    return {qid: {doc_id: float(scores[i]) for doc_id, i in row} for qid, row in plan.slots.items()}


def parse_pair_order(text: str | None, source: str) -> PairOrder:
    """The pair order declared by an ``execir.json`` text (None: no file -> ``query-document``).

    The file is a JSON object; its optional ``pair_order`` is ``"text-code"`` or
    ``"query-document"``; other keys are ignored. ``source`` names the file in errors."""
    if text is None:
        return "query-document"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExecIRError(f"{source}: not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ExecIRError(f"{source}: expected a JSON object")
    value = data.get("pair_order", "query-document")
    if value not in PAIR_ORDERS:
        raise ExecIRError(f"{source}: field 'pair_order': expected one of {', '.join(PAIR_ORDERS)}, got {value!r}")
    return value


def read_pair_order(model_dir: Path) -> PairOrder:
    """The pair order a model directory declares in :data:`PAIR_ORDER_FILE` (none: query-document)."""
    path = model_dir / PAIR_ORDER_FILE
    return parse_pair_order(path.read_text(encoding="utf-8") if path.is_file() else None, str(path))


def order_pair(query: str, document: str, *, order: PairOrder, query_kind: str, document_kind: str) -> tuple[str, str]:
    """The pair a cross-encoder gets: (query, document), or (text side, code side) for a
    ``text-code`` model when the query is code and the document text (code to text)."""
    if order == "text-code" and query_kind == "code" and document_kind == "text":
        return document, query
    return query, document


@dataclass(frozen=True)
class LLMFamily:
    """A yes/no LLM reranker's prompt: ``prefix + body + suffix``, scored by P(yes) of the next token.

    ``body`` has the fields ``{instruction}``, ``{query}`` and ``{document}`` (each once, in that
    order)."""

    name: str
    prefix: str
    suffix: str
    body: str
    yes: str
    no: str

    def segments(self, instruction: str, query: str, document: str) -> tuple[str, tuple[int, int], tuple[int, int]]:
        """The body text and the character spans of the query and of the document in it."""
        head, rest = self.body.split("{query}")
        middle, tail = rest.split("{document}")
        before_query = head.format(instruction=instruction)
        query_start = len(before_query)
        document_start = query_start + len(query) + len(middle)
        text = before_query + query + middle + document + tail
        return text, (query_start, query_start + len(query)), (document_start, document_start + len(document))

    def prompt(self, instruction: str, query: str, document: str) -> str:
        """The whole prompt text for one pair (untruncated)."""
        return self.prefix + self.segments(instruction, query, document)[0] + self.suffix


QWEN3 = LLMFamily(
    name="qwen3",
    prefix=(
        "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. "
        'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n'
    ),
    suffix="<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    body="<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {document}",
    yes="yes",
    no="no",
)
FAMILIES: dict[str, LLMFamily] = {QWEN3.name: QWEN3}


def infer_family(model: str, family: str | None) -> tuple[LLMFamily, bool]:
    """The prompt family (by name, else from the model name) and whether it was guessed: a name
    matching no family gets Qwen3's template and ``True``."""
    if family is not None:
        if family not in FAMILIES:
            raise ExecIRError(f"llm reranker: unknown family '{family}' (known: {', '.join(FAMILIES)})")
        return FAMILIES[family], False
    lowered = model.lower()
    for name, spec in FAMILIES.items():
        if name in lowered:
            return spec, False
    return QWEN3, True


def longest_first(query_len: int, document_len: int, budget: int) -> tuple[int, int]:
    """Tokens kept of the query and the document so that together they fit ``budget``: the longer
    one is cut first, down to the shorter one's length, then both alternately (the document keeps
    the odd token)."""
    if query_len + document_len <= budget:
        return query_len, document_len
    budget = max(budget, 0)
    short = min(query_len, document_len)
    if short <= budget // 2:
        return (query_len, budget - query_len) if query_len == short else (budget - document_len, document_len)
    return budget // 2, budget - budget // 2


def truncate_segments(offsets: Sequence[tuple[int, int]], query_span: tuple[int, int], document_span: tuple[int, int], budget: int) -> list[int] | None:
    """Indices of the body tokens to keep so that at most ``budget`` remain, cutting the ends of
    the query's and the document's tokens (longest first) and never the template around them.

    ``offsets`` are the tokens' character spans in the body. A segment's tokens run from the first
    token ending after the segment starts to the first token starting at or after its end (a token
    straddling the start of a segment counts as the segment's). None when the template tokens
    alone exceed ``budget``."""
    n = len(offsets)
    if n <= budget:
        return list(range(n))

    def span(start_index: int, chars: tuple[int, int]) -> tuple[int, int]:
        begin = next((i for i in range(start_index, n) if offsets[i][1] > chars[0]), n)
        return begin, next((i for i in range(begin, n) if offsets[i][0] >= chars[1]), n)

    q0, q1 = span(0, query_span)
    d0, d1 = span(q1, document_span)
    fixed = n - (q1 - q0) - (d1 - d0)
    if fixed > budget:
        return None
    keep_q, keep_d = longest_first(q1 - q0, d1 - d0, budget - fixed)
    return [*range(q0 + keep_q), *range(q1, d0 + keep_d), *range(d1, n)]
