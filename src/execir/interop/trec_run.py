"""Runs that every external tool ranks exactly as ExecIR does.

pytrec_eval, ranx, ir_measures, BEIR and MTEB each re-sort a run by score and break ties their own
way (``trec_eval``: document id descending; BEIR and MTEB: Python's stable sort, or id descending;
ranx: its own), so a run with tied scores gives different numbers in every tool, and none of them
applies ExecIR's ``pessimistic`` policy (a correct document tied with a wrong one ranks after it).

:func:`tie_ordered` fixes the order once, under an ExecIR tie policy
(:mod:`execir.metrics.ties`), and replaces the scores by ``n - rank + 1`` (``n`` documents kept,
rank from 1): integers held exactly as floats, strictly decreasing, so no tool can reorder them.
The anchor of a code-to-code query (document id == query id) is dropped first, as ExecIR, BEIR's
and MTEB's ``ignore_identical_ids`` do. :func:`trec_run_text` writes that run as a TREC run file;
:func:`raw_scores_text` keeps the retriever's own scores, in the same order, beside it.

Every function here is pure: nothing is read or written, inputs are never modified.
"""

from __future__ import annotations

from execir.metrics.ranking import rank_run
from execir.metrics.ties import TiePolicy, check_ties
from execir.types import Qrels, Run

RAW_SCORES_HEADER = "query-id\tcorpus-id\trank\tscore\n"
"""The first line of :func:`raw_scores_text` (the BEIR qrels header style, with a rank column)."""


def _check_depth(depth: int | None) -> None:
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be a positive integer or None, got {depth!r}")


def tie_ordered(run: Run, qrels: Qrels, *, ties: TiePolicy = "pessimistic", drop_identical: bool = True, depth: int | None = None) -> Run:
    """Each query's ranking under ``ties``, with scores ``n - rank + 1`` strictly decreasing.

    ``qrels`` supplies the grades the ``pessimistic`` policy needs (ExecIR's graded qrels or the
    strict ones: both give the same order of relevant against non-relevant documents).
    ``drop_identical`` removes the document whose id equals the query id before ranking.
    ``depth`` keeps the top ``depth`` documents (None: all). The result's dicts are in rank order;
    every query of ``run`` is kept, even with no documents left.
    """
    check_ties(ties)
    _check_depth(depth)
    kept = {qid: {doc: score for doc, score in scores.items() if not (drop_identical and doc == qid)} for qid, scores in run.items()}
    ordered: Run = {}
    for qid, ranking in rank_run(kept, qrels, ties=ties).items():
        top = ranking if depth is None else ranking[:depth]
        ordered[qid] = {doc: float(len(top) - index) for index, (doc, _) in enumerate(top)}
    return ordered


def _ranked(ordered: Run, depth: int | None) -> list[tuple[str, int, str]]:
    """``(query id, rank, doc id)`` rows of a tie-ordered run, best first, cut at ``depth``."""
    _check_depth(depth)
    rows: list[tuple[str, int, str]] = []
    for qid, scores in ordered.items():
        docs = sorted(scores, key=lambda doc: -scores[doc])  # stable: equal scores keep the dict's order
        for index, doc in enumerate(docs if depth is None else docs[:depth]):
            rows.append((qid, index + 1, doc))
    return rows


def _format_score(score: float) -> str:
    """Integer-valued scores as integers (``17``), others in shortest round-trip form."""
    return str(int(score)) if score.is_integer() else repr(score)


def trec_run_text(ordered: Run, system: str, depth: int | None = None) -> str:
    """A TREC run file (``qid Q0 docid rank score system`` per line) of a :func:`tie_ordered` run.

    Rows follow each query's scores, best first; ``depth`` cuts each query to its top ``depth``
    documents (cut to ``k`` for ``trec_eval``'s uncut ``recip_rank`` to equal ExecIR's ``mrr@k``).
    """
    if not system or any(c.isspace() for c in system):
        raise ValueError(f"system name must be non-empty without whitespace, got {system!r}")
    return "".join(f"{qid} Q0 {doc} {rank} {_format_score(ordered[qid][doc])} {system}\n" for qid, rank, doc in _ranked(ordered, depth))


def raw_scores_text(ordered: Run, run: Run, depth: int | None = None, *, allow_unscored: bool = False) -> str:
    """The retriever's own scores (from ``run``) in the order of ``ordered``, as TSV with the header
    ``query-id, corpus-id, rank, score``; scores in shortest round-trip form (``repr``). With
    ``allow_unscored``, a document that ``run`` lacks (a candidate beyond a rerank depth, which the
    reranker never scored) gets an empty score field; otherwise it is an error."""
    lines = [RAW_SCORES_HEADER]
    for qid, rank, doc in _ranked(ordered, depth):
        score = run.get(qid, {}).get(doc)
        if score is None and allow_unscored:
            lines.append(f"{qid}\t{doc}\t{rank}\t\n")
            continue
        if score is None:
            raise ValueError(f"ordered run has query '{qid}', document '{doc}' that the raw run lacks")
        lines.append(f"{qid}\t{doc}\t{rank}\t{float(score)!r}\n")
    return "".join(lines)
