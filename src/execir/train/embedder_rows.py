"""Training rows for a bi-encoder: (anchor, positive, negative_1 .. negative_n) with verified hard negatives.

For every training query and every one of its positives (grade 2) the recipe emits one row: the
query as anchor (a description for text-to-code, a program for code-to-text and code-to-code), the
positive document (a passing program, a rewrite, or for code-to-text the true description) and
exactly ``n`` negatives of the *same problem* (grade 1: verified-failing mutants, human bugs,
failing candidates, counterfactual descriptions), because MultipleNegativesRankingLoss needs the
same number of negative columns in every row:

* ``n`` or more grade-1 documents: ``n`` distinct ones, a seeded sample;
* fewer (but at least one): all of them, then seeded draws among them (with replacement) up to ``n``
  (``padded`` counts the repeats);
* none: ``n`` seeded documents of *other training problems* (easy negatives), so the row still
  trains; ``rows_without_hard`` counts these rows. They never come from a dev or test problem.

Three options change the rows of code queries (:class:`~execir.train.embedder_config.EmbedderSettings`):
``anchor_prompt`` is put before every anchor (the task's query prompt); ``self_positive`` makes a
code-to-code anchor's own program (the document with the query's id: the canonical, which passes)
one more positive against the same negatives; ``mirror`` adds, per passing rewrite, a row with the
rewrite as anchor and the query's own program as positive. Code-to-code folders exclude that
document from every ranking, and every hard negative of the anchor is a single edit of it, so a
prompted model can learn "unlike the query" instead of "does what the query does"; the last two
options work against that (they lessen it, the README measures by how much).

Every row records the problems of all its texts. The batch guard
(:func:`problem_disjoint_batches`) never puts two rows whose problem sets meet into one batch, so
no in-batch negative (another row's positive or negatives) is a correct program of the anchor's
problem, and no text appears twice in a batch (sentence-transformers' ``NO_DUPLICATES`` guarantee).

Seeded choices are sha256 keys of the seed and the ids involved (:func:`~execir.train.pairs.seeded_key`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from execir.train.pairs import EasyPool, PairSource, judged_docs, seeded_key


@dataclass(frozen=True)
class Row:
    """One training row: texts in column order (anchor, positive, negatives) with their ids."""

    anchor: str
    positive: str
    negatives: tuple[str, ...]
    query_id: str
    positive_id: str
    negative_ids: tuple[str, ...]
    folder: str
    problems: frozenset[str]
    """The problems of the anchor, the positive and every negative."""
    anchor_id: str = ""
    """The document whose text is the anchor (a mirrored row); empty when the anchor is the query."""

    @property
    def texts(self) -> tuple[str, ...]:
        """The row's columns: anchor, positive, negative_1 .. negative_n."""
        return (self.anchor, self.positive, *self.negatives)


@dataclass(frozen=True)
class RowCounts:
    """How many rows a folder (or several) gave, and how their negatives were filled."""

    queries: int = 0
    rows: int = 0
    hard: int = 0
    """Negative slots filled by distinct grade-1 documents."""
    padded: int = 0
    """Negative slots filled by repeating a grade-1 document (the problem had fewer than n)."""
    easy: int = 0
    """Negative slots filled by other training problems' documents (rows without any grade-1 document)."""
    rows_without_hard: int = 0
    queries_without_positive: int = 0
    self_positives: int = 0
    """Rows whose positive is the code-to-code anchor's own program."""
    mirrored: int = 0
    """Rows whose anchor is a passing rewrite and whose positive is the code-to-code query's own program."""

    def __add__(self, other: RowCounts) -> RowCounts:
        return RowCounts(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def to_json(self) -> dict[str, int]:
        """The counts by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def row_negatives(source: PairSource, pool: EasyPool, seed: int, query_id: str, positive: str, hard: Sequence[str], n: int) -> tuple[list[str], str]:
    """The ``n`` negative ids of one row and how they were filled (``hard``, ``padded`` or ``easy``)."""
    if n == 0:
        return [], "hard"
    if hard:
        ranked = sorted(hard, key=lambda d: (seeded_key(seed, "row-hard", query_id, positive, d), d))
        chosen = ranked[:n]
        extra = [ranked[seeded_key(seed, "row-pad", query_id, positive, str(i)) % len(ranked)] for i in range(n - len(chosen))]
        return chosen + extra, "padded" if extra else "hard"
    problem = source.query_problem[query_id]
    easy = [pool.random(seed, query_id, f"{positive}#{i}", problem) for i in range(n)]
    return [d for d in easy if d is not None], "easy"


def own_program(source: PairSource, query_id: str) -> bool:
    """True when a code-to-code query's own program is a document of its problem."""
    code_to_code = source.query_first and not source.query_is_text
    problem = source.query_problem[query_id]
    return code_to_code and query_id in source.corpus and source.doc_problem.get(query_id) == problem


def build_rows(
    source: PairSource,
    *,
    seed: int,
    negatives: int,
    pool: EasyPool | None = None,
    anchor_prompt: str = "",
    self_positive: bool = False,
    mirror: bool = False,
) -> tuple[list[Row], RowCounts]:
    """The training rows of one folder's split (recipe in the module docstring) and their counts;
    ``pool`` (default: this split's problems) supplies the easy negatives of rows without hard ones."""
    pool = pool or EasyPool(source, source.problems)
    rows: list[Row] = []
    counts = RowCounts()
    for query_id in sorted(source.queries):
        positives, hard = judged_docs(source, query_id)
        own = own_program(source, query_id)
        if positives and self_positive and own:
            positives = [query_id, *positives]
        if not positives:
            counts = counts + RowCounts(queries=1, queries_without_positive=1)
            continue
        query_counts = RowCounts(queries=1)
        # (anchor document, positive): the query itself (""), then each passing rewrite mirrored onto the query's own program
        plan = [("", positive) for positive in positives]
        plan += [(rewrite, query_id) for rewrite in positives if mirror and own and rewrite != query_id]
        for anchor_id, positive in plan:
            key = f"{anchor_id}>{positive}" if anchor_id else positive
            negative_ids, how = row_negatives(source, pool, seed, query_id, key, hard, negatives)
            if len(negative_ids) < negatives:
                continue  # no other training problem to draw an easy negative from
            row = _row(source, query_id, positive, negative_ids, anchor_prompt)
            rows.append(replace(row, anchor=anchor_prompt + source.corpus[anchor_id], anchor_id=anchor_id) if anchor_id else row)
            distinct = len(set(negative_ids))
            query_counts = query_counts + RowCounts(
                rows=1,
                self_positives=int(positive == query_id and not anchor_id),
                mirrored=int(bool(anchor_id)),
                hard=distinct if how != "easy" else 0,
                padded=negatives - distinct if how == "padded" else 0,
                easy=negatives if how == "easy" else 0,
                rows_without_hard=int(how == "easy" and negatives > 0),
            )
        counts = counts + query_counts
    return rows, counts


def _row(source: PairSource, query_id: str, positive: str, negative_ids: Sequence[str], anchor_prompt: str) -> Row:
    docs = (positive, *negative_ids)
    problems = frozenset({source.query_problem[query_id], *(source.doc_problem[d] for d in docs)})
    return Row(
        anchor=anchor_prompt + source.queries[query_id],
        positive=source.corpus[positive],
        negatives=tuple(source.corpus[d] for d in negative_ids),
        query_id=query_id,
        positive_id=positive,
        negative_ids=tuple(negative_ids),
        folder=source.folder,
        problems=problems,
    )


def problem_disjoint_batches(rows: Sequence[Row], order: Sequence[int], batch_size: int) -> list[list[int]]:
    """Batches of row indices, filled in ``order``: a row joins the open batch only if it shares no
    problem and no text with the rows already there; rows that do not fit wait, in order, for the
    next batch. Every row lands in exactly one batch; the last batches may be short."""
    pending = list(order)
    batches: list[list[int]] = []
    while pending:
        batch: list[int] = []
        problems: set[str] = set()
        texts: set[str] = set()
        waiting: list[int] = []
        for index in pending:
            row = rows[index]
            row_texts = set(row.texts)
            if len(batch) < batch_size and problems.isdisjoint(row.problems) and texts.isdisjoint(row_texts):
                batch.append(index)
                problems |= row.problems
                texts |= row_texts
            else:
                waiting.append(index)
        batches.append(batch)
        pending = waiting
    return batches


def rows_digest(rows: Sequence[Row]) -> str:
    """sha256 of the rows' ids in order (part of a checkpoint's fingerprint)."""
    digest = hashlib.sha256()
    for row in rows:
        mirrored = (f"anchor={row.anchor_id}",) if row.anchor_id else ()
        digest.update("\t".join((row.folder, row.query_id, row.positive_id, *row.negative_ids, *mirrored)).encode() + b"\n")
    return digest.hexdigest()
