"""ExecIR metrics: ranking measures, gap analyses and statistics.

* :func:`evaluate` / :func:`parse_measure`: per-query ranking measures (semantics in
  :mod:`execir.metrics.measures`), cross-checked against ``pytrec_eval``.
* :func:`evaluate_arrays` / :class:`RunMatrix`: the same values for a run held as score arrays
  (dense, top-k or ragged; :mod:`execir.metrics.run_matrix`), without dicts of scores.
* :func:`rank_run` / :data:`TiePolicy`: ranked lists under an explicit tie policy
  (:mod:`execir.metrics.ties`; ``pessimistic`` by default).
* :mod:`execir.metrics.analyses` and :mod:`execir.metrics.ablation`: where retrievers prefer a
  buggy near clone, and how that depends on the number of mutants per task.
* :mod:`execir.metrics.stats`: bootstrap CIs, exact McNemar, Holm, win/tie/loss.
"""

from execir.metrics.ablation import density_ablation
from execir.metrics.analyses import DocInfo, gap_analyses, tie_rate
from execir.metrics.evaluate import evaluate, evaluate_arrays
from execir.metrics.measures import KNOWN_MEASURES, Measure, parse_measure
from execir.metrics.ranking import rank_run
from execir.metrics.run_matrix import RunMatrix
from execir.metrics.ties import TiePolicy

__all__ = [
    "KNOWN_MEASURES",
    "DocInfo",
    "Measure",
    "RunMatrix",
    "TiePolicy",
    "density_ablation",
    "evaluate",
    "evaluate_arrays",
    "gap_analyses",
    "parse_measure",
    "rank_run",
    "tie_rate",
]
