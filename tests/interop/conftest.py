"""One synthetic folder per session, written as a build writes it, and ExecIR's own numbers on it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from execir.interop import raw_scores_text, tie_ordered, trec_run_text
from execir.metrics import evaluate
from execir.metrics.ties import TIE_POLICIES
from execir.types import Qrels, Run

from .synthetic import Synthetic, make_synthetic, split_qrels, write_synthetic

MEASURES: tuple[str, ...] = ("exec@1", "exec@10", "ndcg@10", "mrr@10", "recall@10", "map@10")
SPLITS_JUDGED: tuple[str, ...] = ("train", "dev", "test")
SYSTEM = "toy"


@dataclass(frozen=True)
class SplitCase:
    """One split of the folder under one tie policy: the files to feed and ExecIR's numbers."""

    split: str
    ties: str
    qrels: Qrels
    """ExecIR's graded qrels of the split."""
    raw: Run
    """The retriever's raw run over the split's queries (anchors included, scores tied)."""
    run_path: Path
    """The tie-ordered TREC run, every document."""
    run10_path: Path
    """The tie-ordered TREC run cut to depth 10 (for uncut ``recip_rank``)."""
    scores_path: Path
    execir: dict[str, dict[str, float]]
    """measure -> query -> value (ExecIR, anchor dropped)."""

    def mean(self, measure: str) -> float:
        """ExecIR's mean over the split's judged queries."""
        values = self.execir[measure]
        return sum(values.values()) / len(values)


def without_anchor(run: Run) -> Run:
    """The run with every document whose id is its query's id removed (what ExecIR evaluates)."""
    return {qid: {doc: s for doc, s in scores.items() if doc != qid} for qid, scores in run.items()}


@pytest.fixture(scope="session")
def synthetic() -> Synthetic:
    """The records and raw run."""
    return make_synthetic()


@pytest.fixture(scope="session")
def folder(tmp_path_factory: pytest.TempPathFactory, synthetic: Synthetic) -> Path:
    """The folder as ``write_folder`` writes it."""
    return write_synthetic(tmp_path_factory.mktemp("interop") / synthetic.records.name, synthetic)


@pytest.fixture(scope="session")
def cases(tmp_path_factory: pytest.TempPathFactory, synthetic: Synthetic) -> list[SplitCase]:
    """Every judged split under every tie policy, with the run files a build would write."""
    runs = tmp_path_factory.mktemp("runs")
    out: list[SplitCase] = []
    for split in SPLITS_JUDGED:
        qrels = split_qrels(synthetic, split)
        if not qrels:
            continue
        raw = {qid: synthetic.run[qid] for qid in qrels}
        for ties in TIE_POLICIES:
            ordered = tie_ordered(raw, qrels, ties=ties)  # type: ignore[arg-type]
            stem = runs / f"{split}-{ties}"
            (run_path := stem.with_suffix(".trec")).write_text(trec_run_text(ordered, SYSTEM))
            (run10_path := stem.with_suffix(".10.trec")).write_text(trec_run_text(ordered, SYSTEM, depth=10))
            (scores_path := stem.with_suffix(".scores.tsv")).write_text(raw_scores_text(ordered, raw))
            values = evaluate(qrels, without_anchor(raw), MEASURES, ties=ties)  # type: ignore[arg-type]
            out.append(SplitCase(split, ties, qrels, raw, run_path, run10_path, scores_path, values))
    return out
