"""ExecIR evaluation results as MTEB result files, which ``mteb.ResultCache(out).load_results()`` reads.

One file per system and folder: ``OUT/results/<model>/<revision>/<TaskName>.json`` (MTEB's cache
layout, ``<model>`` with ``/`` written ``__``) and ``model_meta.json`` beside it. The task name is
:func:`~execir.interop.mteb_task.task_name` of the folder, the same name ``mteb_task(folder)``
gives, and ``dataset_revision`` the manifest's sha256 as there.

Only measures whose definitions agree carry MTEB's names (proven per query against pytrec_eval,
which MTEB uses, in ``tests/interop``; ExecIR's nDCG gives grade 1 zero gain, which equals nDCG on
the strict qrels): ``exec@k`` -> ``hit_rate_at_k`` (and ``exec@1`` -> ``precision_at_1``), ``ndcg@k``
-> ``ndcg_at_k``, ``mrr@k`` -> ``mrr_at_k``, ``recall@k`` -> ``recall_at_k``, ``map@k`` -> ``map_at_k``,
``p@k`` -> ``precision_at_k``. The values are ExecIR's, under its tie policy (``execir_ties``);
MTEB's own run breaks score ties by document id instead. Everything else ExecIR measured has no
MTEB counterpart and goes under ``execir_``-prefixed keys (MTEB keeps unknown keys): the 95%
bootstrap bounds (``execir_<name>_ci_low``/``_ci_high``), measures without a cutoff
(``execir_mrr``), intrusion shares, the near-clone analyses, the tie rate and the query count.
MTEB's ``accuracy`` (its ``recall_at_1``) is left out: it is not exec@1 when a query has several
correct documents. ``evaluation_time`` and ``kg_co2_emissions`` are null: an ExecIR evaluation
times its phases for all systems together and does not track emissions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from execir.dataset.files import atomic_write_bytes, json_bytes, sha256_hex
from execir.dataset.layout import MANIFEST
from execir.errors import ExecIRError, InputError, MissingDependencyError
from execir.interop.mteb_task import NO_REVISION, eval_languages, source_name, task_name
from execir.interop.names import TOOL_NAMES
from execir.metrics import parse_measure
from execir.results import FolderResult, SystemSummary

RESULTS_FILE = "results.json"
MODEL_META = "model_meta.json"
MODEL_PREFIX = "execir/"
"""MTEB model names are ``organization/name``: an ExecIR system ``bm25`` is ``execir/bm25`` (characters
a file name cannot hold on every system, as in ``dense>>exec``, become ``_``)."""

MTEB_NAMES: dict[str, str] = {family: names["mteb"] for family, names in TOOL_NAMES.items()} | {"p": "precision_at_{k}"}
"""ExecIR measure family -> MTEB score name (``{k}``: the cutoff)."""


@dataclass(frozen=True)
class MtebResultFile:
    """One written MTEB result: which system, under which model name, revision and task."""

    system: str
    model_name: str
    revision: str
    task_name: str
    path: Path


@dataclass(frozen=True)
class MtebResult:
    """One system on one folder in MTEB's form, before it is written."""

    system: str
    model_name: str
    revision: str
    task_result: dict[str, Any]
    """The ``TaskResult`` JSON (``task_name``, ``dataset_revision``, ``mteb_version``, ``scores`` ...)."""


def mteb_score_name(measure: str) -> str | None:
    """MTEB's name for an ExecIR measure (``ndcg@10`` -> ``ndcg_at_10``), None when MTEB has none."""
    parsed = parse_measure(measure)
    if parsed.k is None or parsed.name not in MTEB_NAMES:
        return None
    return MTEB_NAMES[parsed.name].format(k=parsed.k)


def system_scores(result: FolderResult, system: SystemSummary, languages: list[str]) -> dict[str, Any]:
    """One MTEB scores entry (``hf_subset`` ``default``) for ``system``: mapped means, ``main_score``
    (nDCG@10) and the ``execir_`` extras."""
    if "ndcg@10" not in system.metrics:
        raise ExecIRError(f"system '{system.name}' has no ndcg@10, MTEB's main score for retrieval (evaluate with it among the measures)")
    scores: dict[str, Any] = {"hf_subset": "default", "languages": list(languages), "main_score": system.metrics["ndcg@10"].mean}
    for measure, estimate in sorted(system.metrics.items()):
        name = mteb_score_name(measure)
        key = name if name is not None else "execir_" + measure.replace("@", "_at_")
        scores[key] = estimate.mean
        extra = key if name is None else f"execir_{key}"
        scores[f"{extra}_ci_low"], scores[f"{extra}_ci_high"] = estimate.low, estimate.high
    if "exec@1" in system.metrics:
        scores["precision_at_1"] = system.metrics["exec@1"].mean
    analyses = system.analyses
    scores.update(
        {
            f"execir_intrusion_at_{analyses.k}": analyses.intrusion.share,
            f"execir_coreb_intrusion_at_{analyses.k}": analyses.coreb_intrusion.share,
            "execir_paired_mutant_share_of_misses": analyses.paired_mutant_share_of_misses.share,
            "execir_canonical_below_distractor": analyses.canonical_below_distractor.share,
            "execir_tie_rate": system.tie_rate,
            "execir_queries": system.queries,
            "execir_ties": result.tie_policy,
        }
    )
    return scores


def mteb_results(result: FolderResult, *, source: str | None, mteb_version: str, names: Mapping[str, str] | None = None) -> list[MtebResult]:
    """Every system of one folder's result in MTEB's form (pure: no file is read or written)."""
    facts = result.dataset
    folder_task = facts.task or facts.name
    languages = eval_languages(folder_task, _result_languages(result))
    name = task_name(facts.name, source)
    out = []
    for system in result.systems:
        model = (names or {}).get(system.name) or MODEL_PREFIX + re.sub(r'[<>:"\\|?*/]', "_", system.name)
        if "/" not in model:
            raise ExecIRError(f"model name '{model}' for system '{system.name}': MTEB needs 'organization/name'")
        task_result = {
            "dataset_revision": facts.manifest_sha256 or NO_REVISION,
            "task_name": name,
            "mteb_version": mteb_version,
            "scores": {facts.split: [system_scores(result, system, languages) | {"mteb_version": mteb_version}]},
            "evaluation_time": None,
            "kg_co2_emissions": None,
            "date": None,
        }
        out.append(MtebResult(system=system.name, model_name=model, revision=system_revision(system, result.toolkit_version), task_result=task_result))
    return out


def system_revision(system: SystemSummary, toolkit_version: str) -> str:
    """The encoder's recorded revision (``sha256-...``) for a dense system, else ``execir-<toolkit
    version>``; characters a folder name should not hold become ``-``."""
    encoder = system.config.get("encoder")
    revision = encoder.get("revision") if isinstance(encoder, Mapping) else None
    return re.sub(r"[^A-Za-z0-9._-]", "-", str(revision or f"execir-{toolkit_version}"))


def export_mteb_results(results: Path, out: Path, *, names: Mapping[str, str] | None = None) -> list[MtebResultFile]:
    """Write MTEB result files for ``results`` (a folder's or a collection's ``results.json``, or the
    directory holding it) under ``out/results/``; returns what was written."""
    TaskResult, ModelMeta, mteb_version = _mteb()
    written: list[MtebResultFile] = []
    seen: dict[Path, str] = {}
    for path, folder in read_results(results):
        for item in mteb_results(folder, source=_source(folder), mteb_version=mteb_version, names=names):
            TaskResult.model_validate(item.task_result)  # what MTEB reads back, checked before writing
            meta = ModelMeta.create_empty({"name": item.model_name, "revision": item.revision})
            directory = out / "results" / meta.model_name_as_path() / item.revision
            target = directory / f"{item.task_result['task_name']}.json"
            if target in seen:
                raise ExecIRError(f"{path} and {seen[target]} both give {target} (the same system on the same task twice)")
            seen[target] = str(path)
            atomic_write_bytes(target, json_bytes(item.task_result))
            atomic_write_bytes(directory / MODEL_META, json.dumps(meta.to_dict(), default=str, indent=2, sort_keys=True).encode() + b"\n")
            written.append(MtebResultFile(item.system, item.model_name, item.revision, item.task_result["task_name"], target))
    return written


def read_results(results: Path) -> list[tuple[Path, FolderResult]]:
    """Every folder result of ``results``: a folder's ``results.json`` is itself, a collection's
    lists its folders (their ``results.json`` beside each folder's report)."""
    path = results / RESULTS_FILE if results.is_dir() else results
    document = _read_json(path)
    if isinstance(document, dict) and "systems" in document and "dataset" in document:
        return [(path, _folder_result(path, document))]
    if isinstance(document, dict) and isinstance(document.get("folders"), list):
        out = []
        for number, folder in enumerate(document["folders"]):
            report = folder.get("report") if isinstance(folder, dict) else None
            if not isinstance(report, str):
                raise InputError(str(path), 0, f"folders[{number}].report", "expected the folder report's relative path")
            folder_path = path.parent / Path(report).parent / RESULTS_FILE
            out.append((folder_path, _folder_result(folder_path, _read_json(folder_path))))
        if not out:
            raise InputError(str(path), 0, "folders", "the collection lists no folder")
        return out
    raise InputError(str(path), 0, None, "not an ExecIR results.json (expected a folder's 'systems' and 'dataset', or a collection's 'folders')")


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise InputError(str(path), 0, None, "no such file (expected an evaluation's results.json)")
    try:
        return json.loads(path.read_bytes())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(path), getattr(exc, "lineno", 0), None, f"invalid JSON ({exc})") from None


def _folder_result(path: Path, document: Any) -> FolderResult:
    try:
        return FolderResult.from_json(document)
    except KeyError as exc:
        raise InputError(str(path), 0, str(exc.args[0]), "missing from this results.json (not an ExecIR folder result?)") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise InputError(str(path), 0, None, f"not an ExecIR folder result ({exc})") from None


def _result_languages(result: FolderResult) -> set[str]:
    """The folder's language and its queries' languages (as ``mteb_task`` takes them from the folder)."""
    languages = {result.dataset.language, *(lang for system in result.systems for lang in system.by_language)}
    return languages - {"", "multi"}


def _source(result: FolderResult) -> str | None:
    """The source's name: from the result, else from the evaluated folder's manifest when it is still
    the one evaluated (same sha256)."""
    if result.dataset.source and result.dataset.source.get("name"):
        return str(result.dataset.source["name"])
    manifest = Path(result.dataset.path) / MANIFEST
    if result.dataset.manifest_sha256 and manifest.is_file():
        data = manifest.read_bytes()
        if sha256_hex(data) == result.dataset.manifest_sha256:
            try:
                return source_name(json.loads(data))
            except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
                return None
    return None


def _mteb() -> tuple[Any, Any, str]:
    try:
        from mteb.models.model_meta import ModelMeta
        from mteb.results import TaskResult
    except ImportError:
        raise MissingDependencyError("mteb is not installed (pip install 'execir[interop]')") from None
    return TaskResult, ModelMeta, importlib_metadata.version("mteb")


def format_written(files: Sequence[MtebResultFile], out: Path) -> str:
    """One line per written file, then how to read them back."""
    lines = [f"{f.path}  ({f.system} -> {f.model_name} @ {f.revision}, {f.task_name})" for f in files]
    lines.append(f"read back: mteb.ResultCache('{out}').load_results()")
    return "\n".join(lines)
