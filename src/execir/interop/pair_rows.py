"""Rows for other trainers from verified query pools: TRL's DPO and KTO, sentence-transformers
triplets, and pointwise reward rows.

Every row is ``(columns, metadata)``: ``columns`` are the trainer's own, under its names (TRL's
dataset formats: preference ``prompt``/``chosen``/``rejected``, unpaired preference
``prompt``/``completion``/``label``; sentence-transformers' ``anchor``/``positive``/``negative_1..n``,
in that column order, which is the order its losses read); ``metadata`` says where the row came
from. The prompt is the query under an instruction (:data:`PROMPT_INSTRUCTIONS`, or the user's):
t2c asks for code from the task text, c2t for a description of the code (chosen: the task's own
description; rejected: a counterfactual one), c2c for code doing the same as the anchor.

* ``dpo``: for each positive, up to ``negatives`` negatives of the query's pool, a seeded choice.
* ``kto``: the documents of those pairs, each once: positives ``label=True``, negatives ``False``.
* ``reward``: every judged document (grades 2 and 1) of every query, ``label`` 1 (passes / own description) or 0,
  with the oracle's ``verdict`` beside it (TRL's RewardTrainer takes the ``dpo`` rows as they are:
  prompt/chosen/rejected is its explicit-prompt preference type).
* ``triplets``: for each positive exactly ``negatives`` negatives: the seeded pool negatives first,
  then, when the pool has fewer, seeded documents of *other* problems of the same split (counted as
  ``filled``, kind ``other-problem``, no operator or verdict: they were never run against this
  query's task); a row that cannot be filled is left out (counted as ``dropped``).

Every seeded choice is :func:`execir.train.pairs.seeded_key` of the seed and the ids involved, so a
query's rows do not depend on which other queries are present.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from execir.dataset.spec import Direction
from execir.errors import ExecIRError
from execir.interop.pair_pools import Judged, QueryPool, SplitPools
from execir.train.pairs import seeded_key

PAIR_FORMATS: tuple[str, ...] = ("dpo", "kto", "triplets", "reward")
DEFAULT_NEGATIVES = 3

PROMPT_INSTRUCTIONS: dict[Direction, str] = {
    "t2c": "Write a {language} function that does what the following task asks.",
    "c2t": "Describe in plain English what the following {language} code does.",
    "c2c": "Write a program that does the same as the following {language} code.",
}
"""The default instruction above each query (``{language}``: the code side's language, left out when unknown)."""

OTHER_PROBLEM = "other-problem"
"""The kind of a triplet negative filled from another problem (grade 0 for the query: no operator, no verdict)."""

Row = tuple[dict[str, Any], dict[str, Any]]
"""(trainer columns, metadata columns) of one row."""


@dataclass(frozen=True)
class PairOptions:
    """What ``execir export pairs`` writes."""

    format: str
    negatives: int = DEFAULT_NEGATIVES
    """dpo/kto: negatives per positive (at most); triplets: negative columns (exactly); reward: unused."""
    seed: int = 0
    instruction: str | None = None
    """dpo/kto/reward: replaces the default instruction ("" for none); triplets: prepended to the anchor as is."""
    conversational: bool = False
    """dpo/kto/reward: TRL's conversational format (message lists) instead of plain strings."""

    def __post_init__(self) -> None:
        if self.format not in PAIR_FORMATS:
            raise ExecIRError(f"--format {self.format!r}: expected one of {', '.join(PAIR_FORMATS)}")
        if self.negatives < 1:
            raise ExecIRError(f"--negatives {self.negatives}: expected at least 1")
        if self.conversational and self.format == "triplets":
            raise ExecIRError("--conversational applies to --format dpo, kto and reward (triplets are plain texts)")


@dataclass(frozen=True)
class RowCounts:
    """What one folder's split gave."""

    queries: int = 0
    rows: int = 0
    without_positive: int = 0
    """Queries with no grade-2 document (no row)."""
    without_negative: int = 0
    """Queries with positives but no grade-1 document (no dpo row; triplets filled from other problems)."""
    filled: int = 0
    """Triplet negatives taken from other problems of the split."""
    dropped: int = 0
    """Triplet rows left out for want of negatives."""

    def __add__(self, other: RowCounts) -> RowCounts:
        return RowCounts(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def to_json(self) -> dict[str, int]:
        """The counts by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def default_instruction(pool: QueryPool) -> str:
    """The instruction of the pool's direction, with its language."""
    return " ".join(PROMPT_INSTRUCTIONS[pool.spec.direction].format(language=pool.language).split())


def prompt_text(pool: QueryPool, options: PairOptions) -> str:
    """The query under its instruction."""
    instruction = default_instruction(pool) if options.instruction is None else options.instruction
    return f"{instruction}\n\n{pool.query}" if instruction else pool.query


def chosen_negatives(pool: QueryPool, positive: Judged, options: PairOptions) -> list[Judged]:
    """Up to ``negatives`` of the pool's negatives for one positive, in seeded order."""
    order = sorted(pool.negatives, key=lambda n: (seeded_key(options.seed, "negative", pool.query_id, positive.doc_id, n.doc_id), n.doc_id))
    return order[: options.negatives]


def split_rows(split: SplitPools, options: PairOptions) -> tuple[list[Row], RowCounts]:
    """Every row of one folder's split in the chosen format, and the counts."""
    build = ROW_BUILDERS[options.format]
    rows: list[Row] = []
    counts = RowCounts()
    for pool in split.pools:
        pool_rows, pool_counts = build(pool, split, options)
        base = RowCounts(queries=1, without_positive=int(not pool.positives), without_negative=int(bool(pool.positives) and not pool.negatives))
        rows += pool_rows
        counts = counts + base + pool_counts
    return rows, counts


def _message(text: str, role: str, options: PairOptions) -> str | list[dict[str, str]]:
    return [{"role": role, "content": text}] if options.conversational else text


def _origin(pool: QueryPool) -> dict[str, Any]:
    return {"folder": pool.folder, "query_id": pool.query_id, "problem": pool.problem, "task_id": pool.task_id}


def _document(doc: Judged) -> dict[str, Any]:
    return {"doc_id": doc.doc_id, "kind": doc.kind, "operator": doc.operator, "verdict": doc.verdict}


def _dpo(pool: QueryPool, split: SplitPools, options: PairOptions) -> tuple[list[Row], RowCounts]:
    prompt = _message(prompt_text(pool, options), "user", options)
    rows: list[Row] = []
    for positive in pool.positives:
        for negative in chosen_negatives(pool, positive, options):
            columns = {"prompt": prompt, "chosen": _message(positive.text, "assistant", options), "rejected": _message(negative.text, "assistant", options)}
            meta = {
                **_origin(pool),
                "chosen_id": positive.doc_id,
                "rejected_id": negative.doc_id,
                "chosen_kind": positive.kind,
                "rejected_kind": negative.kind,
                "chosen_verdict": positive.verdict,
                "operator": negative.operator,
                "verdict": negative.verdict,
            }
            rows.append((columns, meta))
    return rows, RowCounts(rows=len(rows))


def _pointwise(pool: QueryPool, docs: list[Judged], options: PairOptions, label: Callable[[bool], bool | int]) -> list[Row]:
    prompt = _message(prompt_text(pool, options), "user", options)
    rows: list[Row] = []
    for doc in docs:
        columns = {"prompt": prompt, "completion": _message(doc.text, "assistant", options), "label": label(doc.passing)}
        rows.append((columns, {**_origin(pool), **_document(doc)}))
    return rows


def _kto(pool: QueryPool, split: SplitPools, options: PairOptions) -> tuple[list[Row], RowCounts]:
    negatives = {n.doc_id: n for p in pool.positives for n in chosen_negatives(pool, p, options)}
    docs = [*pool.positives, *(negatives[d] for d in sorted(negatives))] if negatives else []
    rows = _pointwise(pool, docs, options, bool)
    return rows, RowCounts(rows=len(rows))


def _reward(pool: QueryPool, split: SplitPools, options: PairOptions) -> tuple[list[Row], RowCounts]:
    rows = _pointwise(pool, [*pool.positives, *pool.negatives], options, int)
    return rows, RowCounts(rows=len(rows))


def _fill(pool: QueryPool, split: SplitPools, positive: Judged, options: PairOptions, count: int) -> list[Judged]:
    """``count`` seeded documents of other problems of the split (fewer when there are not enough)."""
    others = [d for d in split.documents if d.problem != pool.problem and d.doc_id != pool.query_id]
    others.sort(key=lambda d: (seeded_key(options.seed, "fill", pool.query_id, positive.doc_id, d.doc_id), d.doc_id))
    return others[:count]


def _triplets(pool: QueryPool, split: SplitPools, options: PairOptions) -> tuple[list[Row], RowCounts]:
    anchor = f"{options.instruction or ''}{pool.query}"
    rows: list[Row] = []
    filled = dropped = 0
    for positive in pool.positives:
        negatives = chosen_negatives(pool, positive, options)
        extra = _fill(pool, split, positive, options, options.negatives - len(negatives)) if len(negatives) < options.negatives else []
        if len(negatives) + len(extra) < options.negatives:
            dropped += 1
            continue
        filled += len(extra)
        chosen = [*negatives, *extra]
        columns = {"anchor": anchor, "positive": positive.text, **{f"negative_{i}": n.text for i, n in enumerate(chosen, start=1)}}
        meta = {
            **_origin(pool),
            "positive_id": positive.doc_id,
            "negative_ids": [n.doc_id for n in chosen],
            "negative_kinds": [n.kind if n.problem == pool.problem else OTHER_PROBLEM for n in chosen],
            "negative_operators": [n.operator if n.problem == pool.problem else "" for n in chosen],
            "negative_verdicts": [n.verdict if n.problem == pool.problem else "" for n in chosen],
        }
        rows.append((columns, meta))
    return rows, RowCounts(rows=len(rows), filled=filled, dropped=dropped)


ROW_BUILDERS: dict[str, Callable[[QueryPool, SplitPools, PairOptions], tuple[list[Row], RowCounts]]] = {
    "dpo": _dpo,
    "kto": _kto,
    "reward": _reward,
    "triplets": _triplets,
}
