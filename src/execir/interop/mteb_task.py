"""A dataset folder as an MTEB retrieval task: ``mteb.evaluate(model, tasks=[mteb_task(folder)])``.

The task reads the folder with ExecIR's reader (no hub, no ``datasets`` cache) and hands MTEB the
split's corpus, judged queries and qrels directly, so the dataset never leaves the machine. Its
metadata comes from the folder's manifest:

* name ``ExecIR-<source>-<folder>`` (``ExecIR-humaneval-t2c-description``), ``-graded`` appended
  for graded relevance, so the two never share an MTEB cache entry;
* ``dataset = {"path": <folder>, "revision": <sha256 of manifest.json>}``: a changed folder is a
  new revision, never a cached result;
* category ``t2t`` (MTEB's ``t2c`` means text-to-*category*), ``eval_langs`` ``eng-Latn`` for a text
  side plus ``<language>-Code`` per programming language, main score ``ndcg_at_10``;
* ``prompt = {"query": <task instruction>}``: instruct wrappers put the instruction on queries only.

``ignore_identical_ids`` is on: a code-to-code anchor's query id is its own document id, and ExecIR
never credits it. With strict relevance (the default) MTEB's numbers then equal ExecIR's under
``ties="trec"`` (MTEB's pytrec_eval breaks score ties by document id, descending).

Building a task runs MTEB's ``AbsTask.__init__``, which seeds ``random``, ``numpy`` and ``torch``
with 42, as every MTEB task does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, get_args

from execir.dataset import get_spec
from execir.errors import ExecIRError, MissingDependencyError
from execir.interop.beir_load import JudgedFolder, load_judged
from execir.language_declarations import DECLARATIONS

MAIN_SCORE = "ndcg_at_10"
TEXT_LANGUAGE = "eng-Latn"
NO_REVISION = "no_revision_available"
"""MTEB's own placeholder, for a folder without a manifest."""

MTEB_CODE_LANGUAGES: dict[str, str] = {
    **{name: d.mteb_code for name, d in DECLARATIONS.items()},
    "c++": "c++",
    "javascript": "javascript",
    "c": "c",
    "csharp": "c#",
    "c#": "c#",
    "swift": "swift",
    "scala": "scala",
    "shell": "shell",
    "sql": "sql",
}
"""Language name -> MTEB's programming-language code (used as ``<code>-Code``): every declared
language's ``mteb_code``, and the names folders from other tools use."""

_DESCRIPTION = (
    "ExecIR {task} benchmark from {source} ({languages}): {query}. Relevance was decided by executing programs against the "
    "task's tests. This task scores {relevance}."
)
_RELEVANCE_TEXT = {
    "strict": "strict relevance: 1 = a program verified to pass, 0 = a listed same-task hard negative verified to fail",
    "graded": "ExecIR's graded relevance (2 = verified to pass, 1 = same-task verified-failing near clone), so grade 1 counts as relevant",
}


def mteb_task(path: Path | str, *, relevance: str = "strict", split: str = "test", name: str | None = None) -> Any:
    """The folder at ``path`` as an ``mteb`` ``AbsTaskRetrieval`` evaluated on ``split`` (a split
    name or ``all``) with ``relevance`` ``strict`` (``qrels-strict``) or ``graded`` (``qrels``);
    ``name`` replaces the task name taken from the manifest."""
    folder = load_judged(path, split=split, relevance=relevance)
    return _task_class(folder, task_metadata(folder, name=name))()


def task_name(folder: str, source: str | None, *, relevance: str = "strict") -> str:
    """``ExecIR-<source>-<folder>`` (``ExecIR-<folder>`` without a source), ``-graded`` for graded qrels."""
    stem = f"ExecIR-{source}-{folder}" if source else f"ExecIR-{folder}"
    return f"{stem}-graded" if relevance == "graded" else stem


def source_name(manifest: Mapping[str, Any]) -> str | None:
    """The source's name from a folder manifest (``source`` or ``build.source``), None when absent."""
    build = manifest.get("build")
    for record in (manifest.get("source"), build.get("source") if isinstance(build, Mapping) else None):
        if isinstance(record, Mapping) and record.get("name"):
            return str(record["name"])
    return None


def eval_languages(task: str, languages: Iterable[str]) -> list[str]:
    """MTEB ``eval_langs``: ``eng-Latn`` when queries or documents are text, then ``<code>-Code`` for
    each programming language MTEB knows (others are left out)."""
    spec = _spec(task)
    text = spec is None or "text" in (spec.query_kind, spec.document_kind)
    codes = sorted({f"{MTEB_CODE_LANGUAGES[lang]}-Code" for lang in languages if lang in MTEB_CODE_LANGUAGES})
    return [TEXT_LANGUAGE, *codes] if text else codes


def task_metadata(folder: JudgedFolder, *, name: str | None = None) -> Any:
    """The ``mteb.TaskMetadata`` of a loaded folder (see the module docstring for each field)."""
    TaskMetadata = _mteb_attr("mteb.abstasks.task_metadata", "TaskMetadata")
    dataset = folder.dataset
    manifest = dataset.manifest
    source = source_name(manifest)
    languages = eval_languages(dataset.task or dataset.name, _languages(folder))
    spec = _spec(dataset.task or dataset.name)
    facts = _mapping(manifest.get("facts"))
    description = _DESCRIPTION.format(
        task=dataset.name,
        source=source or "an unnamed source",
        languages=", ".join(languages) or "unknown language",
        query=str(facts.get("query") or (f"{spec.query_kind} queries, {spec.document_kind} documents" if spec else "queries")),
        relevance=_RELEVANCE_TEXT[folder.relevance],
    )
    return TaskMetadata(
        name=name or task_name(dataset.name, source, relevance=folder.relevance),
        description=description,
        dataset={"path": str(dataset.root.resolve()), "revision": dataset.manifest_sha256 or NO_REVISION},
        type="Retrieval",
        category="t2t",
        modalities=["text"],
        eval_splits=[dataset.split],
        eval_langs=languages,
        main_score=MAIN_SCORE,
        domains=["Programming"],
        task_subtypes=["Code retrieval"],
        license=_license(manifest),
        reference=_reference(manifest),
        annotations_creators="algorithmic",
        dialect=[],
        sample_creation="multiple",
        bibtex_citation="",
        prompt={"query": spec.instruction} if spec else None,
    )


def _task_class(folder: JudgedFolder, metadata: Any) -> type:
    """A subclass per task: MTEB keeps ``metadata`` on the class (``unload_data`` drops any instance copy)."""
    base = _base_class()
    return type("ExecIRRetrieval", (base,), {"metadata": metadata, "_folder": folder, "__module__": __name__})


@lru_cache(maxsize=1)
def _base_class() -> type:
    AbsTaskRetrieval = _mteb_attr("mteb.abstasks.retrieval", "AbsTaskRetrieval")

    class ExecIRRetrievalBase(AbsTaskRetrieval):  # type: ignore[misc, valid-type]
        """An ExecIR folder's split, loaded from memory (``_folder``), anchors ignored."""

        ignore_identical_ids = True
        data_loaded: bool = False
        _folder: JudgedFolder

        def load_data(self, num_proc: int | None = None, *, timer: Any = None, **kwargs: Any) -> None:
            """Hand MTEB the split's corpus, judged queries and qrels (no hub, no ``datasets`` cache)."""
            if self.data_loaded:
                return
            self.dataset = {"default": {self._folder.dataset.split: split_data(self._folder)}}
            self.data_loaded = True

    return ExecIRRetrievalBase


def split_data(folder: JudgedFolder) -> dict[str, Any]:
    """MTEB's ``RetrievalSplitData`` of a loaded folder: ``datasets.Dataset`` corpus (``id``,
    ``title``, ``text``) and queries (``id``, ``text``), qrels, no ``top_ranked``."""
    datasets = _import("datasets")
    corpus, queries, qrels = folder.beir()
    doc_ids = list(corpus)
    query_ids = list(queries)
    return {
        "corpus": datasets.Dataset.from_dict({"id": doc_ids, "title": [corpus[d]["title"] for d in doc_ids], "text": [corpus[d]["text"] for d in doc_ids]}),
        "queries": datasets.Dataset.from_dict({"id": query_ids, "text": [queries[q] for q in query_ids]}),
        "relevant_docs": qrels,
        "top_ranked": None,
    }


def _languages(folder: JudgedFolder) -> set[str]:
    dataset = folder.dataset
    return {dataset.language, *(info.language for info in dataset.query_info.values())} - {"", "multi"}


def _spec(task: str) -> Any:
    try:
        return get_spec(task)
    except ExecIRError:
        return None


def _license(manifest: Mapping[str, Any]) -> str:
    """The manifest's (or its source's) license when MTEB knows it or it is a URL, else ``not specified``."""
    licenses = set(get_args(_mteb_attr("mteb.types", "Licenses")))
    for record in _provenance(manifest):
        value = record.get("license")
        if isinstance(value, str) and value.lower() in licenses:
            return value.lower()
        if isinstance(value, str) and value.startswith(("http://", "https://")):
            return value
    return "not specified"


def _reference(manifest: Mapping[str, Any]) -> str | None:
    for record in _provenance(manifest):
        for key in ("reference", "url", "homepage"):
            value = record.get(key)
            if isinstance(value, str) and value.startswith(("http://", "https://")):
                return value
    return None


def _provenance(manifest: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The manifest, its ``source`` and its ``build.source`` records."""
    return [manifest, _mapping(manifest.get("source")), _mapping(_mapping(manifest.get("build")).get("source"))]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _mteb_attr(module: str, attr: str) -> Any:
    return getattr(_import(module), attr)


def _import(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(f"{module.split('.')[0]} is not installed (pip install 'execir[interop]')") from None
