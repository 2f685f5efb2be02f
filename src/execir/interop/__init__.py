"""Interoperability with the tools users evaluate with: pytrec_eval, ranx, ir_measures, BEIR, MTEB
and Hugging Face ``datasets`` (see ``docs/interop.md``).

* :func:`tie_ordered`, :func:`trec_run_text`, :func:`raw_scores_text`: a run whose scores strictly
  decrease in ExecIR's tie-policy order (so no tool re-sorts ties its own way), as a TREC run file,
  with the retriever's own scores kept beside it.
* :func:`strict_qrels`: ExecIR's graded qrels as the binary qrels other tools need (grade 1 -> 0).
* :data:`TOOL_NAMES` / :func:`tool_name`: each ExecIR measure's name in each tool.
* :func:`beir_load`: a folder as BEIR's ``(corpus, queries, qrels)``, strict relevance by default.
* :func:`mteb_task`: a folder as an MTEB retrieval task (``mteb.evaluate(model, tasks=[mteb_task(folder)])``);
  :func:`mteb_model`: a trained folder as an MTEB encoder that puts its declared prompts on those tasks' queries.
* :func:`export_mteb_results`: an evaluation's ``results.json`` as MTEB result files.
* :func:`export_pairs`: a built dataset's verified documents as DPO/KTO/reward rows (TRL's column
  names) or sentence-transformers triplets, one file per problem-disjoint split.
"""

from execir.interop.beir_load import beir_load
from execir.interop.mteb_export import export_mteb_results
from execir.interop.mteb_model import mteb_model
from execir.interop.mteb_task import mteb_task
from execir.interop.names import TOOL_NAMES, TOOLS, tool_name
from execir.interop.pair_rows import PairOptions
from execir.interop.pairs_export import export_pairs
from execir.interop.qrels import strict_qrels
from execir.interop.trec_run import RAW_SCORES_HEADER, raw_scores_text, tie_ordered, trec_run_text

__all__ = [
    "RAW_SCORES_HEADER",
    "PairOptions",
    "TOOLS",
    "TOOL_NAMES",
    "beir_load",
    "export_mteb_results",
    "export_pairs",
    "mteb_model",
    "mteb_task",
    "raw_scores_text",
    "strict_qrels",
    "tie_ordered",
    "tool_name",
    "trec_run_text",
]
