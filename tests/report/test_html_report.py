"""The HTML report rendered from hand-built typed results and a small written dataset: static tables
that read without JavaScript, escaping of every text, JSON embedding that no document can break out
of, the query browser's data, and the collection page's links."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from execir.dataset import Dataset, load_dataset
from execir.dataset.records import Document, FolderRecords, Query
from execir.dataset.splits import SplitPlan
from execir.dataset.write import write_folder
from execir.evaluate.collection import averages
from execir.report.html import render_collection_html, render_folder_html, write_collection_html, write_folder_html
from execir.report.html.browser import beater_id, browser_data, canonical_id, outcome_tags, unified_diff
from execir.report.html.markup import Markup, esc, inline_script, json_script, json_text, tag
from execir.report.html.page import CHARTS_ID
from execir.results import (
    CollectionResult,
    Comparison,
    Composition,
    DatasetFacts,
    Estimate,
    FolderResult,
    FolderScore,
    FolderSummary,
    GapAnalyses,
    McNemar,
    OperatorRate,
    QueryRecord,
    RankedDoc,
    RerankSummary,
    Share,
    SystemSummary,
)

TASKS = 6
SYSTEMS = ("bm25", "bm25>>ce")
ATTACK = "</script><script>window.__pwned = 1;</script><!-- <b>bold</b> & \u2028"
QUERY_ATTACK = '<img src=x onerror="window.__pwned = 2">'
MEASURES = ("exec@1", "exec@10", "ndcg@10", "mrr@10")

# (system, task) -> the order of the top documents, as doc ids
RANKINGS: dict[tuple[str, int], list[str]] = {
    ("bm25", 0): ["a0", "c0", "b0"],  # own arith_swap mutant first
    ("bm25", 1): ["c1", "a1", "b1"],
    ("bm25", 2): ["b2", "a2", "c2"],  # both mutants above the canonical
    ("bm25", 3): ["c0", "c3", "a3"],  # another task's canonical first
    ("bm25", 4): ["c4", "a4", "b4"],
    ("bm25", 5): [f"{k}{i}" for i in range(5) for k in "abc"][:10] + ["c5"],  # canonical at rank 11
    ("bm25>>ce", 0): ["c0", "a0", "b0"],
    ("bm25>>ce", 1): ["a1", "c1", "b1"],
    ("bm25>>ce", 2): ["c2", "a2", "b2"],
    ("bm25>>ce", 3): ["c3", "a3", "b3"],
    ("bm25>>ce", 4): ["b4", "c4", "a4"],
    ("bm25>>ce", 5): ["c5", "a5", "b5"],
}


def program(task: int, op: str) -> str:
    body = {"": "a + b", "a": "a - b", "b": "a * b"}[op]
    extra = f"    # {ATTACK}\n" if task == 0 and op == "" else ""
    return f"def f{task}(a, b):\n    total = 0\n{extra}    total = {body}\n    return total\n"


def make_dataset(root: Path) -> Path:
    """Six python tasks, each with a canonical ``c<i>`` and two failing mutants ``a<i>`` (arith_swap) and ``b<i>`` (compare_swap)."""
    documents = []
    for i in range(TASKS):
        documents.append(Document(f"c{i}", program(i, ""), f"t{i}", f"t{i}", "canonical", "python", 2, verdict="PASS"))
        documents.append(Document(f"a{i}", program(i, "a"), f"t{i}", f"t{i}", "mutant", "python", 1, operator="arith_swap", verdict="FAIL"))
        documents.append(Document(f"b{i}", program(i, "b"), f"t{i}", f"t{i}", "mutant", "python", 1, operator="compare_swap", verdict="FAIL"))
    texts = {i: f"Combine two numbers, case {i}." + (f" {QUERY_ATTACK}" if i == 0 else "") for i in range(TASKS)}
    queries = tuple(Query(f"t{i}", texts[i], f"t{i}", f"t{i}", "t2c-description", "description", "python") for i in range(TASKS))
    qrels = tuple((f"t{i}", f"{k}{i}", 2 if k == "c" else 1) for i in range(TASKS) for k in "cab")
    records = FolderRecords("toy-html", "t2c-description", "python", tuple(documents), queries, qrels)
    write_folder(root, records, SplitPlan(0, (0.0, 0.0, 1.0), {f"t{i}": "test" for i in range(TASKS)}), {"source": {"name": "toy"}})
    return root


def make_records(dataset: Dataset) -> list[QueryRecord]:
    """Every system's record per query, derived from :data:`RANKINGS` as the evaluation derives them."""
    records = []
    for (system, i), order in RANKINGS.items():
        qid = f"t{i}"
        judged = dataset.qrels[qid]
        scores = {doc: 1.0 - 0.05 * rank for rank, doc in enumerate(order)}
        top = tuple(RankedDoc(d, scores[d], judged.get(d, 0), dataset.docs[d].kind, dataset.docs[d].operator, dataset.docs[d].task_id) for d in order[:10])
        rank = order.index(f"c{i}") + 1
        beaten = tuple(sorted(d for d in order[: rank - 1] if judged.get(d) == 1))
        records.append(QueryRecord(system, qid, qid, 1.0 if judged.get(order[0]) == 2 else 0.0, rank, scores[f"c{i}"], beaten, top))
    return records


def summary(name: str, exec1: float, *, per_operator: dict[str, OperatorRate]) -> SystemSummary:
    analyses = GapAnalyses(TASKS, 10, "pessimistic", Share(0.5, 2, 4), Share(0.33, 2, 6), Share(0.33, 2, 6), Share(0.17, 1, 6), per_operator)
    return SystemSummary(
        name=name,
        spec=name,
        config={"name": name, "note": "<config & more>"},
        encoded_texts=18,
        queries=TASKS,
        metrics={m: Estimate(exec1, max(0.0, exec1 - 0.2), min(1.0, exec1 + 0.2)) for m in reversed(MEASURES)},
        tie_rate=0.0,
        density_ablation={0: {"exec@1": 1.0, "ndcg@10": 1.0}, 1: {"exec@1": exec1 + 0.1, "ndcg@10": exec1 + 0.1}, 2: {"exec@1": exec1, "ndcg@10": exec1}},
        analyses=analyses,
        by_language={"python": {"n": 4.0, "exec@1": exec1, "ndcg@10": exec1}, "java": {"n": 2.0, "exec@1": exec1 / 2, "ndcg@10": exec1}},
    )


def make_result() -> FolderResult:
    """Two systems (one reranked) and their comparison."""
    facts = DatasetFacts("/data/toy", "toy-html", "t2c-description", "python", "test", "cd" * 32, {"name": "toy"}, TASKS, 3 * TASKS)
    config = {"seed": 0, "measures": list(MEASURES)}  # the leaderboard's column order (the metrics dicts are in reverse)
    bm25 = summary("bm25", 2 / 6, per_operator={"arith_swap": OperatorRate(6, 2, 2 / 6), "compare_swap": OperatorRate(6, 1, 1 / 6)})
    ce = summary("bm25>>ce", 4 / 6, per_operator={"arith_swap": OperatorRate(6, 1, 1 / 6), "compare_swap": OperatorRate(6, 1, 1 / 6)})
    rerank = RerankSummary(
        "bm25", "ce", {"model": "toy"}, TASKS, 18, 1.5, {"candidates_executed": 18.0}, 0.25, {"exec@1": Estimate(1 / 3, 0.0, 2 / 3)}, McNemar(3, 1, 0.625)
    )
    ce = replace(ce, rerank=rerank)
    comparison = Comparison("bm25", "bm25>>ce", TASKS, 2 / 6, 4 / 6, -2 / 6, -0.67, 0.0, 1, 2, 3, 1, 3, 0.625, 0.625)
    return FolderResult("9.9.9", facts, config, "pessimistic", (bm25, ce), (comparison,), {"score": 0.25, "report": 0.5})


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return load_dataset(make_dataset(tmp_path_factory.mktemp("html") / "ds"))


@pytest.fixture(scope="module")
def page(dataset: Dataset) -> str:
    return render_folder_html(make_result(), make_records(dataset), dataset)


class Tables(HTMLParser):
    """Every table's rows (cell texts) by table id, the texts outside scripts, and every script's content."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.tags: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "table":
            self._table = dict(attrs).get("id") or f"table-{len(self.tables)}"
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "script":
            self._script = dict(attrs)
            self.scripts.append((self._script, ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        elif self._cell is not None:
            self._cell.append(data)


def parse(text: str) -> Tables:
    parser = Tables()
    parser.feed(text)
    parser.close()
    return parser


def embedded(text: str, element_id: str) -> Any:
    """The JSON data of one ``<script type="application/json">`` element, read as a browser would."""
    found = [body for attrs, body in parse(text).scripts if attrs.get("id") == element_id]
    assert len(found) == 1 and parse(text).scripts
    return json.loads(found[0])


def test_leaderboard_reads_without_javascript(page: str) -> None:
    rows = parse(page).tables["leaderboard"]
    assert rows[0] == ["system", *MEASURES, "texts encoded"]
    assert [r[0] for r in rows[1:]] == ["bm25>>ce", "bm25"]  # best exec@1 first
    assert rows[1][1] == "0.667 [0.467, 0.867]" and rows[2][1] == "0.333 [0.133, 0.533]"
    assert all(re.fullmatch(r"\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", cell) for row in rows[1:] for cell in row[1:-1])


def test_static_tables_carry_significance_operators_ablation_and_languages(page: str) -> None:
    tables = parse(page).tables
    assert tables["significance"][1] == ["bm25 vs bm25>>ce", "6", "0.333", "0.667", "-0.333 [-0.670, +0.000]", "1/2/3", "1/3", "0.62", "0.62", "no"]
    assert tables["operators"][0] == ["operator", "n", "bm25>>ce", "bm25"]
    assert tables["operators"][1] == ["arith_swap", "6", "16.7% (1/6)", "33.3% (2/6)"]
    assert [r[0] for r in tables["ablation"][1:]] == ["0", "1", "2"] and tables["ablation"][3][1:] == ["0.667 / 0.667", "0.333 / 0.333"]
    assert {(r[0], r[1], r[2]) for r in tables["languages"][1:]} == {(s, g, n) for s in SYSTEMS for g, n in (("java", "2"), ("python", "4"))}
    assert tables["gaps"][1][0] == "bm25>>ce" and tables["timing"][1:] == [["score", "0.25"], ["report", "0.50"]]


def test_reranked_system_is_described_by_its_stages(page: str) -> None:
    assert "first stage <code>bm25</code> &gt;&gt; reranker <code>ce</code>" in page
    card = page.split("<h3>bm25&gt;&gt;ce</h3>", 1)[1].split("</details>", 1)[0]
    assert "<h4>rerank</h4>" in card and "<dt>first stage</dt><dd>bm25</dd>" in card and "<dt>seconds per query</dt><dd>0.25</dd>" in card
    assert "<dt>exec@1</dt><dd>0.333 " in card and "[0.000, 0.667]" in card and "<dt>wins</dt><dd>3</dd>" in card
    assert "<h4>rerank</h4>" not in page.split("<h3>bm25</h3>", 1)[1].split("</details>", 1)[0]  # a first stage has none
    assert "&lt;config &amp; more&gt;" in page and "<config" not in page


def test_every_text_is_escaped_and_no_document_ends_a_script(page: str) -> None:
    parsed = parse(page)
    assert "window.__pwned" not in "".join(body for attrs, body in parsed.scripts if attrs.get("type") != "application/json")
    assert page.count("</script>") == len(parsed.scripts)  # only the page's own scripts close
    assert "<img" not in page and "<!-- <b>" not in page
    data = embedded(page, "execir-queries")
    assert ATTACK in data["texts"]["c0"] and QUERY_ATTACK in data["queries"]["t0"]["text"]


def test_json_embedding_round_trips_hostile_text() -> None:
    value = {"a</script>": ["</SCRIPT><!--", "&amp;", "\u2028\u2029", "é"]}
    text = json_text(value)
    assert not set("<>&\u2028\u2029") & set(text) and json.loads(text) == value
    script = json_script("x", value)
    assert script.startswith('<script type="application/json" id="x">') and script.count("</script>") == 1
    assert inline_script("var s = '</script>'; var t = '</SCRIPT>';").count("</script>") == 1


def test_markup_escapes_what_it_did_not_build() -> None:
    assert esc("<a href='x'>&</a>") == "&lt;a href=&#x27;x&#x27;&gt;&amp;&lt;/a&gt;"
    assert esc(Markup("<b>")) == "<b>" and "<i>" + tag("b", "x") == "&lt;i&gt;<b>x</b>"
    assert tag("a", "<x>", href='"q"', data_chart="c", class_=None) == '<a href="&quot;q&quot;" data-chart="c">&lt;x&gt;</a>'


def test_browser_data_tags_outcomes_operators_and_diffs(dataset: Dataset) -> None:
    records = make_records(dataset)
    data = browser_data(records, dataset, ["bm25>>ce", "bm25"])
    assert data["systems"] == ["bm25>>ce", "bm25"] and data["operators"] == ["arith_swap", "compare_swap"]
    by_key = {(data["systems"][r["s"]], r["q"]): r for r in data["records"]}
    assert by_key["bm25", "t0"]["o"] == ["miss1", "below-mutant"] and by_key["bm25", "t0"]["ops"] == ["arith_swap"]
    assert by_key["bm25", "t2"]["ops"] == ["arith_swap", "compare_swap"] and by_key["bm25", "t2"]["b"] == "b2"  # the highest-ranked one
    assert by_key["bm25", "t5"]["o"] == ["miss1", "beyond10"] and len(by_key["bm25", "t5"]["top"]) == 10
    assert by_key["bm25", "t3"]["b"] == "c0" and by_key["bm25", "t3"]["ops"] == []  # another task's document at rank 1
    assert by_key["bm25>>ce", "t3"]["o"] == ["hit1"] and by_key["bm25>>ce", "t3"]["d"] is None
    diff = data["diffs"][by_key["bm25", "t0"]["d"]]
    assert "-    total = a + b" in diff and "+    total = a - b" in diff and diff.startswith("--- canonical c0 (canonical)")
    assert by_key["bm25>>ce", "t0"]["top"][0] == ["c0", 1.0, 2] and data["docs"]["a0"] == ["mutant", "arith_swap", "t0"]
    shown = {d for r in data["records"] for d, _, _ in r["top"]}
    assert set(data["texts"]) == shown | {r["c"] for r in data["records"]}  # each shown text once
    assert sum(r["o"].count("hit1") for r in data["records"]) == 6


def test_browser_helpers(dataset: Dataset) -> None:
    assert canonical_id(dataset, "t1") == "c1" and canonical_id(dataset, "nope") is None
    hit = QueryRecord("s", "q", "t", 1.0, 1, 0.9, (), (RankedDoc("c", 0.9, 2, "canonical", None, "t"),))
    assert outcome_tags(hit) == ["hit1"] and beater_id(hit) is None
    lost = QueryRecord("s", "q", "t", 0.0, None, None, ("m2",), ())
    assert outcome_tags(lost) == ["miss1", "below-mutant", "beyond10"] and beater_id(lost) == "m2"
    assert unified_diff("a\nb\n", "a\nc\n", "x", "y").split("\n") == ["--- x", "+++ y", "@@ -1,2 +1,2 @@", " a", "-b", "+c"]
    assert unified_diff("a\u2028b\x0c\r\nc", "a\u2028b\x0c\nd", "x", "y").split("\n")[2:] == ["@@ -1,2 +1,2 @@", " a\u2028b\x0c", "-c", "+d"]


def test_charts_are_embedded_once_with_plotly_once(page: str) -> None:
    charts = embedded(page, CHARTS_ID)
    assert set(charts) == {"leaderboard", "density", "operators", "languages"}
    assert [t["name"] for t in charts["leaderboard"]["data"]] == ["exec@1", "exec@10", "ndcg@10"]
    assert charts["leaderboard"]["data"][0]["y"] == ["bm25>>ce", "bm25"]
    assert charts["operators"]["data"][0]["y"] == ["arith_swap (n=6)", "compare_swap (n=6)"]
    assert page.count("plotly.js v") == 1 and 'data-chart="operators"' in page


def test_result_from_json_renders_the_same(dataset: Dataset) -> None:
    result = make_result()
    records = make_records(dataset)
    assert render_folder_html(FolderResult.from_json(result.to_json()), records, dataset) == render_folder_html(result, records, dataset)


def test_one_system_and_no_records(dataset: Dataset) -> None:
    result = make_result()
    one = FolderResult(result.toolkit_version, result.dataset, result.config, "trec", result.systems[:1], (), {})
    page = render_folder_html(one, [], dataset)
    assert "Only one system was evaluated." in page and embedded(page, "execir-queries")["records"] == []


def _collection() -> CollectionResult:
    def folder(name: str, subtype: str, ndcg: dict[str, float]) -> FolderSummary:
        scores = tuple(
            FolderScore(
                s,
                {"exec@1": Estimate(v / 2, 0, v), "ndcg@10": Estimate(v, v - 0.1, v + 0.1), "mrr@10": Estimate(v, 0, 1)},
                0.25,
                0.125,
                {},
                first_stage="bm25" if ">>" in s else None,
                deltas={"exec@1": Estimate(0.1, -0.05, 0.25), "ndcg@10": Estimate(0.2, 0.1, 0.3)} if ">>" in s else {},
            )
            for s, v in ndcg.items()
        )
        composition = Composition(6, 18, 1.0, 2.0, 9.0, {"canonical": 6, "mutant": 12}, {"python": 6})
        return FolderSummary(name, f"t2c-{subtype}", "t2c", subtype, "python", "test", composition, scores, f"{name}/report.md")

    folders = (folder("t2c-description", "description", {"bm25": 0.5, "bm25>>ce": 0.7}), folder("t2c-search<x>", "search", {"bm25": 0.1, "bm25>>ce": 0.2}))
    return CollectionResult("test", "pessimistic", folders, averages(folders), 3.5)


def test_collection_page_links_each_folder_report(tmp_path: Path) -> None:
    collection = _collection()
    path = write_collection_html(tmp_path, collection, {"t2c-description": make_result()})
    page = path.read_text(encoding="utf-8")
    assert path == tmp_path / "report.html" and page == render_collection_html(collection, {"t2c-description": make_result()})
    assert 'href="t2c-description/report.html"' in page and 'href="t2c-search&lt;x&gt;/report.html"' in page
    tables = parse(page).tables
    assert tables["averages"][1:] == [["bm25>>ce", "0.450", "0.450"], ["bm25", "0.300", "0.300"]]
    leaderboard = tables["folder-leaderboard"]
    assert leaderboard[1][:3] == ["t2c-description", "bm25>>ce", "0.350 [0.000, 0.700]"]
    assert leaderboard[1][-1] == "bm25>>ce vs bm25: Holm p 0.62" and leaderboard[3][-1] == "n/a"
    assert tables["subtypes"][0] == ["language", "system", "description", "search"]
    assert tables["reranking"][1] == ["t2c-description", "bm25>>ce", "bm25", "+0.100 [-0.050, +0.250]", "+0.200 [+0.100, +0.300]"]
    assert set(embedded(page, CHARTS_ID)) == {"averages", "folders", "subtypes"} and page.count("plotly.js v") == 1


def test_write_folder_html_is_atomic_and_complete(tmp_path: Path, dataset: Dataset) -> None:
    path = write_folder_html(tmp_path / "out", make_result(), make_records(dataset), dataset)
    assert path == tmp_path / "out" / "report.html" and sorted(p.name for p in path.parent.iterdir()) == ["report.html"]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "http://" not in text.split("<script>", 1)[0] and "https://" not in text.split("<script>", 1)[0]  # nothing fetched by the static part
