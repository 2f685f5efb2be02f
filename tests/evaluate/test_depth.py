"""Evaluation to a depth: the first stage returns its top ``depth`` documents, and every measure and
analysis works from that truncated run. A document beyond the depth is unranked (after every
retrieved one): exec@1 and the exec@1 density ablation equal a full-depth evaluation's whenever a
query's own pool is within the depth, and a canonical beyond it is reported as such."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from execir.dataset import load_dataset
from execir.dataset.records import Document, FolderRecords, Query
from execir.dataset.splits import SplitPlan
from execir.dataset.write import write_folder
from execir.errors import ExecIRError
from execir.evaluate.config import EvalConfig
from execir.evaluate.measures import check_depth, chosen_measures, computed_measures
from execir.evaluate.outputs import write_outputs
from execir.evaluate.pipeline import Timer, compare_systems, evaluate_systems, folder_result
from execir.evaluate.second_stage import search_depth, truncate
from execir.metrics.ablation import density_ablation
from execir.metrics.corpus import DocInfo
from execir.types import Run

TASKS = [f"t{i}" for i in range(8)]


def _dataset(root: Path) -> Path:
    documents = []
    for t in TASKS:
        documents.append(Document(f"{t}-c", f"def f_{t}(x):\n    return x\n", t, t, "canonical", "python", 2, operator="", verdict="PASS"))
        for m in range(2):
            documents.append(
                Document(f"{t}-m{m}", f"def f_{t}(x):\n    return x + {m + 1}\n", t, t, "mutant", "python", 1, operator="const_incr", verdict="FAIL")
            )
    queries = tuple(Query(t, f"task {t}", t, t, "t2c-description", "description", "python") for t in TASKS)
    qrels = tuple((t, d.id, d.grade) for t in TASKS for d in documents if d.task_id == t)
    records = FolderRecords("depth", "t2c-description", "python", tuple(documents), queries, qrels)
    write_folder(root, records, SplitPlan(0, (0.0, 0.0, 1.0), {t: "test" for t in TASKS}), {"source": {"name": "toy"}})
    return root


def _full_run() -> Run:
    """t0..t6: own pool in the top 3 (canonical first for even tasks); t7: its mutants first, its canonical 15th."""
    rng = random.Random(0)
    docs = [f"{t}-{k}" for t in TASKS for k in ("c", "m0", "m1")]
    run: Run = {}
    for t in TASKS:
        if t == "t7":
            others = [d for d in docs if not d.startswith("t7")]
            order = ["t7-m0", "t7-m1", *[d for d in others if d.endswith("-c")], *[d for d in others if not d.endswith("-c")]]
            order.insert(14, "t7-c")
        else:
            own = [f"{t}-c", f"{t}-m0", f"{t}-m1"] if int(t[1]) % 2 == 0 else [f"{t}-m0", f"{t}-c", f"{t}-m1"]
            rest = [d for d in docs if d not in own]
            rng.shuffle(rest)
            order = own + rest
        run[t] = {d: float(len(order) - i) for i, d in enumerate(order)}
    return run


class TopK:
    """Returns the top ``top_k`` of a fixed run, and records the ``top_k`` asked for."""

    name = "fixed"
    encoded_texts = 0

    def __init__(self, run: Run) -> None:
        self.run = run
        self.asked: list[int] = []

    def index(self, corpus: dict[str, str]) -> None: ...

    def search(self, queries: dict[str, str], *, top_k: int) -> Run:
        self.asked.append(top_k)
        return {q: dict(sorted(self.run[q].items(), key=lambda x: -x[1])[:top_k]) for q in queries}


def _evaluate(tmp_path: Path, depth: int) -> tuple:
    dataset = load_dataset(_dataset(tmp_path / "ds"))
    retriever = TopK(_full_run())
    config = EvalConfig(dataset=tmp_path / "ds", out=tmp_path / f"out{depth}", retrievers=("fixed",), depth=depth, bootstrap_resamples=50, progress=False)
    timer = Timer()
    systems = evaluate_systems(dataset, config, timer, factory=lambda spec: retriever)
    result = folder_result(dataset, config, systems, compare_systems(systems, config), timer)
    report = write_outputs(config.out, dataset, systems, result, config.run_depth)
    return systems[0], result, report, retriever


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    root = tmp_path_factory.mktemp("depth")
    return _evaluate(root / "full", 24), _evaluate(root / "cut", 10)


def test_the_first_stage_is_searched_to_the_depth(both: tuple) -> None:
    (full, _, _, full_retriever), (cut, result, report, cut_retriever) = both
    assert full_retriever.asked == [24] and cut_retriever.asked == [10]
    assert all(len(docs) == 10 for docs in cut.run.values()) and all(len(docs) == 24 for docs in full.run.values())
    assert result.config["depth"] == result.config["run_depth"] == 10
    assert len((report.parent / "runs" / "fixed.trec").read_text().splitlines()) == 8 * 10


def test_exec1_and_its_ablation_match_a_full_depth_run(both: tuple) -> None:
    (full, full_result, _, _), (cut, cut_result, _, _) = both
    assert cut.per_query["exec@1"] == full.per_query["exec@1"]
    assert {q: v for q, v in cut.per_query["ndcg@10"].items() if q != "t7"} == {q: v for q, v in full.per_query["ndcg@10"].items() if q != "t7"}
    full_ablation, cut_ablation = full_result.system("fixed").density_ablation, cut_result.system("fixed").density_ablation
    assert {lv: v["exec@1"] for lv, v in cut_ablation.items()} == {lv: v["exec@1"] for lv, v in full_ablation.items()}


def test_a_canonical_beyond_the_depth_is_reported_so(both: tuple) -> None:
    (full, _, _, _), (cut, result, report, _) = both
    assert full.query_details["t7"]["canonical_rank"] == 15 and cut.query_details["t7"]["canonical_rank"] is None
    assert cut.query_details["t7"]["beaten_by"] == ["t7-m0", "t7-m1"]  # ranked mutants outrank an unranked canonical
    row = next(r for r in map(json.loads, (report.parent / "per_query.jsonl").read_text().splitlines()) if r["query_id"] == "t7")
    assert row["canonical_rank"] is None and row["canonical_score"] is None and row["exec@1"] == 0.0 and "ndcg@10" in row
    assert "### fixed: t7 (canonical beyond the depth)" in report.read_text()
    assert "top 10 documents per query are scored" in report.read_text()
    assert result.system("fixed").analyses.canonical_below_distractor.numerator == 4  # t1, t3, t5 (a mutant first) and t7


def test_truncation_keeps_ablation_exact_on_random_runs() -> None:
    rng = random.Random(3)
    docs = {
        f"{t}-{k}": DocInfo(t, "canonical" if k == "c" else "mutant", None if k == "c" else "op", 2 if k == "c" else 1)
        for t in TASKS
        for k in ("c", "m0", "m1", "m2")
    }
    qrels = {t: {d: info.grade for d, info in docs.items() if info.task_id == t} for t in TASKS}
    for _ in range(20):
        run: Run = {}
        for t in TASKS:
            own = [d for d in docs if d.startswith(f"{t}-")]
            rest = [d for d in docs if d not in own]
            rng.shuffle(own)
            rng.shuffle(rest)
            order = own[:2] + rest[:3] + own[2:] + rest[3:]  # the pool within the top 7
            run[t] = {d: float(len(order) - i) for i, d in enumerate(order)}
        full = density_ablation(qrels, run, docs, {t: t for t in TASKS}, measures=("exec@1", "ndcg@10"))
        cut = density_ablation(qrels, truncate(run, 10), docs, {t: t for t in TASKS}, measures=("exec@1", "ndcg@10"))
        assert cut == full


def test_search_depth_adds_one_for_identical_ids_and_never_exceeds_the_corpus() -> None:
    corpus = {f"d{i}": "" for i in range(50)}
    assert search_depth(SimpleNamespace(corpus=corpus, queries={"q": ""}), 10) == 10  # type: ignore[arg-type]
    assert search_depth(SimpleNamespace(corpus=corpus, queries={"d3": ""}), 10) == 11  # type: ignore[arg-type]
    assert search_depth(SimpleNamespace(corpus=corpus, queries={"q": ""}), 100) == 50  # type: ignore[arg-type]
    assert truncate({"q": {"a": 1.0, "b": 3.0, "c": 2.0}}, 2) == {"q": {"b": 3.0, "c": 2.0}}


def test_measure_options() -> None:
    assert chosen_measures(None, None) is None
    assert chosen_measures("exec,NDCG@10,mrr@10", "1,5") == ("exec@1", "exec@5", "ndcg@10", "mrr@10")
    assert chosen_measures(None, "1") == ("exec@1", "ndcg@1", "mrr@1", "recall@1", "map@1")
    assert computed_measures(("recall@100",)) == ("exec@1", "exec@10", "ndcg@10", "mrr@10", "recall@100")
    for metrics, k, message in [
        ("bleu@1", None, "unknown measure 'bleu@1'"),
        ("exec@x", None, "cutoff must be a positive integer"),
        ("exec@1", "1", "every --metrics name has one"),
        ("exec", "0", "--k must be"),
        ("exec,,ndcg", None, "comma list"),
        ("p", None, "needs a cutoff"),
    ]:
        with pytest.raises(ExecIRError, match=message):
            chosen_measures(metrics, k)
    check_depth(10, computed_measures(None))
    with pytest.raises(ExecIRError, match="--depth 5 is below the cut-off of exec@10, ndcg@10, mrr@10"):
        check_depth(5, computed_measures(None))
    with pytest.raises(ExecIRError, match="positive integer"):
        check_depth(0, ())
