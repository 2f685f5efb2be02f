"""What each ExecIR measure is called in the tools users evaluate with, and which files to feed them.

The table is data so that ``docs/interop.md`` and the cross-tool tests read the same names: every
entry is proven equal to ExecIR's value by ``tests/interop`` (on the strict qrels and a
:func:`~execir.interop.trec_run.tie_ordered` run). ``{k}`` stands for the cutoff.
"""

from __future__ import annotations

TOOLS: tuple[str, ...] = ("pytrec_eval", "ranx", "ir_measures", "beir", "mteb")
"""The tools, in the order of the table's columns."""

TOOL_NAMES: dict[str, dict[str, str]] = {
    "exec": {
        "pytrec_eval": "success_{k}",
        "ranx": "hit_rate@{k}",
        "ir_measures": "Success@{k}",
        "beir": "Accuracy@{k}",
        "mteb": "hit_rate_at_{k}",
    },
    "ndcg": {
        "pytrec_eval": "ndcg_cut_{k}",
        "ranx": "ndcg@{k}",
        "ir_measures": "nDCG@{k}",
        "beir": "NDCG@{k}",
        "mteb": "ndcg_at_{k}",
    },
    "mrr": {
        "pytrec_eval": "recip_rank",
        "ranx": "mrr@{k}",
        "ir_measures": "RR@{k}",
        "beir": "MRR@{k}",
        "mteb": "mrr_at_{k}",
    },
    "recall": {
        "pytrec_eval": "recall_{k}",
        "ranx": "recall@{k}",
        "ir_measures": "R@{k}",
        "beir": "Recall@{k}",
        "mteb": "recall_at_{k}",
    },
    "map": {
        "pytrec_eval": "map_cut_{k}",
        "ranx": "map@{k}",
        "ir_measures": "AP@{k}",
        "beir": "MAP@{k}",
        "mteb": "map_at_{k}",
    },
}
"""ExecIR measure family -> tool -> the tool's name for it (``{k}``: the cutoff).

Notes the names alone do not say: pytrec_eval's ``recip_rank`` has no cutoff, so it equals
``mrr@k`` only on a run cut to depth ``k`` (``trec_run_text(..., depth=k)``); ``success_{k}`` is
requested as ``success.{k}``; ``P_1`` also equals ``exec@1`` (and ``precision_at_1``/``P@1`` in
MTEB/BEIR). BEIR's ``Accuracy@{k}`` and ``MRR@{k}`` come from ``EvaluateRetrieval.evaluate_custom``
(metrics ``top_k_accuracy`` and ``mrr``), the others from ``EvaluateRetrieval.evaluate``. BEIR and
MTEB round their means to 5 decimals (MTEB's ``mrr_at_{k}`` excepted).
"""


def tool_name(measure: str, tool: str) -> str:
    """The ``tool``'s name for an ExecIR measure such as ``"ndcg@10"`` (a cutoff is required)."""
    family, sep, cutoff = measure.strip().lower().partition("@")
    if not sep or not cutoff.isdigit() or int(cutoff) < 1:
        raise ValueError(f"measure {measure!r}: expected <name>@<k>, e.g. 'ndcg@10'")
    if family not in TOOL_NAMES:
        raise ValueError(f"measure {measure!r}: no mapping (known: {', '.join(f'{m}@k' for m in TOOL_NAMES)})")
    if tool not in TOOLS:
        raise ValueError(f"unknown tool {tool!r} (known: {', '.join(TOOLS)})")
    return TOOL_NAMES[family][tool].format(k=int(cutoff))
