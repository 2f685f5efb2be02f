"""Write an evaluation's outputs: results.json, TREC runs, per-query records, report.md, report.html.

``runs/<slug>.trec`` lists each query's top documents (to the evaluation depth) in the tie policy's
order with scores that strictly decrease (``n - rank + 1``), so pytrec_eval, ranx, ir_measures, BEIR
and MTEB, scoring it against the folder's strict qrels, reproduce ExecIR's numbers; the system's own
scores (a reranked system's: the reranker's) are in ``runs/<slug>.scores.tsv`` in the same order
(empty for candidates beyond ``--rerank-depth``, which the reranker did not score).
A query-expanded system's expanded queries (RM3's weighted terms, Rocchio's feedback documents,
HyDE's and Query2doc's prompts and generated texts) go to ``expansions/<slug>.jsonl``.
``<slug>`` is the system name made file-safe (:func:`system_slug`: ``dense>>ce:org/model`` becomes
``dense--ce_org_model``); it is also the TREC file's system column."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from execir.dataset import Dataset
from execir.dataset.files import atomic_write_bytes, json_bytes, jsonl_bytes
from execir.errors import MissingDependencyError
from execir.evaluate.pipeline import SystemResult
from execir.interop.trec_run import raw_scores_text, tie_ordered, trec_run_text
from execir.metrics import rank_run
from execir.report.html import write_folder_html
from execir.report.markdown import render_report
from execir.report.plots import density_plot, leaderboard_plot, operator_plot
from execir.results import FolderResult, QueryRecord, RankedDoc

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")
_MAX_SLUG = 120


def system_slug(name: str) -> str:
    """A file-safe form of a system name: ``>>`` becomes ``--``, every other run of characters outside
    ``[A-Za-z0-9._+-]`` one ``_``, no leading dot; long names are cut and end in a hash of the name."""
    slug = _UNSAFE.sub("_", name.replace(">>", "--")).lstrip(".") or "system"
    if len(slug) > _MAX_SLUG:
        slug = f"{slug[: _MAX_SLUG - 13]}-{hashlib.sha256(name.encode()).hexdigest()[:12]}"
    return slug


def system_slugs(names: list[str]) -> dict[str, str]:
    """name -> slug for every system; names whose slugs collide get a hash of the name appended."""
    slugs = {name: system_slug(name) for name in names}
    seen: dict[str, int] = {}
    for slug in slugs.values():
        seen[slug.lower()] = seen.get(slug.lower(), 0) + 1  # case-insensitive file systems
    return {name: slug if seen[slug.lower()] == 1 else f"{slug}-{hashlib.sha256(name.encode()).hexdigest()[:8]}" for name, slug in slugs.items()}


def per_query_records(dataset: Dataset, system: SystemResult, ranked: dict[str, list[tuple[str, float]]]) -> list[QueryRecord]:
    """Per system and query: every computed measure, the top 10 with relevance, kind and operator, and
    the canonical's rank and score (None when it is beyond the depth). Scores are the system's own
    (a reranked system's: the reranker's)."""
    records = []
    shown = system.shown_scores
    for query_id in sorted(dataset.qrels):
        judged = dataset.qrels[query_id]
        scores = shown.get(query_id, {})
        top = tuple(
            RankedDoc(
                doc_id,
                score if system.raw_scores is None else scores.get(doc_id),
                judged.get(doc_id, 0),
                dataset.docs[doc_id].kind,
                dataset.docs[doc_id].operator,
                dataset.docs[doc_id].task_id,
            )
            for doc_id, score in ranked.get(query_id, [])[:10]
        )
        detail = system.query_details.get(query_id, {})
        canonical = detail.get("canonical")
        records.append(
            QueryRecord(
                system=system.name,
                query_id=query_id,
                task_id=dataset.query_task.get(query_id),
                exec_at_1=system.per_query["exec@1"].get(query_id, 0.0),
                canonical_rank=detail.get("canonical_rank"),
                canonical_score=scores.get(canonical) if canonical is not None else None,
                beaten_by=tuple(detail.get("beaten_by", ())),
                top10=top,
                measures={m: values.get(query_id, 0.0) for m, values in system.per_query.items()},
            )
        )
    return records


def write_outputs(out: Path, dataset: Dataset, systems: list[SystemResult], result: FolderResult, depth: int) -> Path:
    """Write every output file atomically; returns the report path. Run files and figures of an
    earlier evaluation into the same directory are removed first, so none is left stale."""
    runs, pngs, expansions = out / "runs", out / "figures", out / "expansions"
    for stale in [*runs.glob("*.trec"), *runs.glob("*.scores.tsv"), *pngs.glob("*.png"), *expansions.glob("*.jsonl")]:
        stale.unlink()
    ties = result.tie_policy
    per_query: list[QueryRecord] = []
    slugs = system_slugs([s.name for s in systems])
    for system in systems:
        ranked = rank_run(system.run, dataset.qrels, ties=ties)  # type: ignore[arg-type]
        ordered = tie_ordered(system.run, dataset.qrels, ties=ties, depth=depth)  # type: ignore[arg-type]
        slug = slugs[system.name]
        atomic_write_bytes(out / "runs" / f"{slug}.trec", trec_run_text(ordered, slug).encode("utf-8"))
        reranked = system.raw_scores is not None  # a rerank depth leaves candidates unscored
        atomic_write_bytes(out / "runs" / f"{slug}.scores.tsv", raw_scores_text(ordered, system.shown_scores, allow_unscored=reranked).encode("utf-8"))
        per_query.extend(per_query_records(dataset, system, ranked))
        if system.expansion_records:  # the expanded queries: weighted terms, or prompts and generated texts
            atomic_write_bytes(out / "expansions" / f"{slug}.jsonl", jsonl_bytes(system.expansion_records))
    atomic_write_bytes(out / "per_query.jsonl", jsonl_bytes(r.to_json() for r in per_query))
    write_results(out, result)
    figures = write_figures(out, result)
    report = render_report(result, per_query, dataset, figures)
    atomic_write_bytes(out / "report.md", report.encode("utf-8"))
    try:
        write_folder_html(out, result, per_query, dataset)
    except MissingDependencyError:
        pass  # report.html needs plotly (the report extra); report.md is complete without it
    return out / "report.md"


def write_results(out: Path, result: FolderResult) -> None:
    """Write ``results.json`` (the one place a folder's result becomes JSON)."""
    atomic_write_bytes(out / "results.json", json_bytes(result.to_json()))


def write_figures(out: Path, result: FolderResult) -> dict[str, str]:
    """Write the report's PNG figures; returns {figure name: relative path} (empty without matplotlib)."""
    try:
        figures = {"leaderboard": leaderboard_plot(result), "density": density_plot(result), "operators": operator_plot(result)}
    except MissingDependencyError:
        return {}
    paths = {}
    for name, data in figures.items():
        atomic_write_bytes(out / "figures" / f"{name}.png", data)
        paths[name] = f"figures/{name}.png"
    return paths
