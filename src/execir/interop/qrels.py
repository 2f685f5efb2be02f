"""ExecIR's graded qrels in the binary form other tools score correctly.

Every external tool treats any grade above 0 as relevant, so grade 1 (a verified-failing same-task
document) would count as a hit. The strict form keeps every judgement but maps 2 -> 1 (correct)
and 1 -> 0 (judged, not relevant), the in-memory twin of ``qrels-strict/<split>.tsv``.
"""

from __future__ import annotations

from execir.types import Qrels, Relevance


def strict_qrels(qrels: Qrels) -> Qrels:
    """Binary qrels: grade >= 2 -> 1, any other judged grade -> 0 (still listed). A new dict."""
    return {qid: {doc: 1 if grade >= Relevance.CORRECT else 0 for doc, grade in docs.items()} for qid, docs in qrels.items()}
