"""Training groups for a listwise cross-encoder: one positive against several negatives of its query.

For every training query and every one of its positives (grade 2) the recipe emits one group
``(positive, hard_1 .. hard_h, easy_1 .. easy_e)``: up to ``hard`` distinct grade-1 documents of the
same problem (a seeded sample; or, with a first-stage ranking, the highest-ranked same-problem
non-positives) and ``easy`` documents of other training problems (seeded; or the highest-ranked
ones, as in :mod:`execir.train.pairs`). The loss is the softmax cross-entropy of the positive among
its group, so every update compares a program with the near clones of the same task side by side,
which a pointwise loss only sees in separate batches.

With the defaults (two hard, one easy) a group holds four texts, as many as a positive's two pairs
of pairs in the pointwise recipe, so both cost the same forward passes per positive. A query with
fewer hard negatives than asked keeps the ones it has (``queries_without_hard`` counts those with
none); a group needs at least one negative.

With ``text`` above zero, a text-to-code query also gives each positive a *text-side* group: the
positive pair, then up to ``text`` counterfactuals of the query's own description (one antonym,
number or negation edit, as the code-to-text task's hard negatives are made;
:func:`execir.texts.counterfactual.counterfactuals`, seeded) against the same program. The model
then learns to check a description against the code word by word, which code-to-text asks for and
which the code-side groups never show (their text never changes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from execir.errors import ExecIRError
from execir.texts.counterfactual import Counterfactual, counterfactuals, select
from execir.train.pairs import EasyPool, Pair, PairCounts, PairSource, hard_negatives, judged_docs, mined_easy_negatives, seeded_key

Group = tuple[Pair, ...]
"""The positive first, then its negatives; the listwise loss's target is index 0."""


@dataclass(frozen=True)
class GroupShape:
    """How many negatives of each kind a group asks for."""

    hard: int = 2
    easy: int = 1
    text: int = 0
    """Counterfactual descriptions per text-side group (0: no text-side groups)."""

    def __post_init__(self) -> None:
        if self.hard < 0 or self.easy < 0 or self.text < 0 or self.hard + self.easy < 1:
            raise ExecIRError(f"a listwise group needs at least one negative (got {self.hard} hard, {self.easy} easy, {self.text} text)")


def seeded_sample(docs: Sequence[str], limit: int, seed: int, *parts: str) -> list[str]:
    """``limit`` of ``docs`` in a seeded order that depends only on the seed, the parts and each id."""
    return sorted(docs, key=lambda d: (seeded_key(seed, "hard", *parts, d), d))[:limit]


def _easy(pool: EasyPool, seed: int, query_id: str, positive: str, problem: str, index: int, count: int) -> list[str]:
    """``count`` distinct easy negatives for the query's ``index``-th positive: mined when the
    query's ranking has enough, else seeded documents of other training problems."""
    if pool.mined is not None:
        ranked = mined_easy_negatives(pool.mined.get(query_id, ()), query_id, pool.source, pool.problems, (index + 1) * count)
        if len(ranked) >= (index + 1) * count:
            return ranked[index * count : (index + 1) * count]
    picked: list[str] = []
    for attempt in range(50 * count):
        if len(picked) == count:
            break
        doc = pool.random(seed, query_id, f"{positive}#{attempt}", problem)
        if doc is None:
            break
        if doc not in picked:
            picked.append(doc)
    return picked


def text_group(source: PairSource, query_id: str, positive: str, edits: Sequence[Counterfactual], limit: int, seed: int) -> list[Group]:
    """The positive's text-side group: up to ``limit`` of the query description's counterfactuals
    ``edits`` (a seeded choice per positive) against the program; none when ``limit`` is 0 or there
    is no counterfactual."""
    if limit < 1 or not edits:
        return []
    description, code = source.queries[query_id], source.corpus[positive]
    chosen = select(list(edits), limit, seed=seed_for(seed, query_id, positive), key=description)
    negatives = [Pair(c.text, code, 0.0, query_id, positive, "counterfactual", source.folder) for c in chosen]
    return [(source.pair(query_id, positive, 1.0, "positive"), *negatives)]


def query_counterfactuals(source: PairSource, query_id: str, limit: int) -> list[Counterfactual]:
    """Every counterfactual of a description query (none when ``limit`` is 0 or queries are not descriptions)."""
    return counterfactuals(source.queries[query_id]) if limit >= 1 and source.query_is_text else []


def seed_for(seed: int, *parts: str) -> int:
    """A 32-bit seed for the counterfactual sampler from the run's seed and the ids."""
    return seeded_key(seed, "text", *parts) % (2**32)


def build_groups(
    source: PairSource,
    *,
    seed: int,
    shape: GroupShape = GroupShape(),
    mined: Mapping[str, Sequence[str]] | None = None,
    mined_easy: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[Group], PairCounts]:
    """The training groups of one folder's split (recipe in the module docstring) and their counts
    (``positives`` = groups; ``hard``, ``easy`` and ``counterfactual`` = negatives of each kind)."""
    pool = EasyPool(source, source.problems, mined_easy)
    groups: list[Group] = []
    counts = PairCounts()
    for query_id in sorted(source.queries):
        positives, graded = judged_docs(source, query_id)
        if not positives:
            counts = counts + PairCounts(queries=1, queries_without_positive=1)
            continue
        ranking = mined.get(query_id, ()) if mined is not None else None
        edits = query_counterfactuals(source, query_id, shape.text)
        query_groups = [
            g
            for index, positive in enumerate(positives)
            for g in _positive_groups(source, pool, seed, shape, query_id, positive, index, graded, ranking, edits)
        ]
        kinds = [p.kind for g in query_groups for p in g]
        counts = counts + PairCounts(
            queries=1,
            positives=kinds.count("positive"),
            easy=kinds.count("easy"),
            hard=kinds.count("hard"),
            queries_without_hard=int(kinds.count("hard") == 0),
            counterfactual=kinds.count("counterfactual"),
        )
        groups += query_groups
    return groups, counts


def _positive_groups(
    source: PairSource,
    pool: EasyPool,
    seed: int,
    shape: GroupShape,
    query_id: str,
    positive: str,
    index: int,
    graded: Sequence[str],
    ranking: Sequence[str] | None,
    edits: Sequence[Counterfactual],
) -> list[Group]:
    """The code-side group of one positive (none without a negative), then its text-side group."""
    if ranking is not None:
        hard = hard_negatives(ranking, query_id, source, shape.hard)
    else:
        hard = seeded_sample(graded, shape.hard, seed, query_id, positive)
    easy = _easy(pool, seed, query_id, positive, source.query_problem[query_id], index, shape.easy) if shape.easy else []
    if not hard and not easy:
        return []
    members = [source.pair(query_id, positive, 1.0, "positive")]
    members += [source.pair(query_id, d, 0.0, "hard") for d in hard]
    members += [source.pair(query_id, d, 0.0, "easy") for d in easy]
    return [tuple(members), *text_group(source, query_id, positive, edits, shape.text, seed)]
