"""A dataset folder in BEIR's in-memory shapes, with the relevance other tools score correctly.

``beir_load(folder)`` returns what ``beir.datasets.data_loader.GenericDataLoader(folder,
qrels_folder="qrels-strict").load(split)`` returns (corpus ``id -> {"title", "text"}``, queries
``id -> text``, qrels ``qid -> doc -> int``), read and checked by ExecIR's own reader (manifest
hashes, ids, grades). Two differences, both deliberate: a document without a title gets ``""``
(BEIR's loader gives ``None``, which its own ``SentenceBERT.encode_corpus`` cannot concatenate), and
``split="all"`` merges every split's judgements (BEIR's loader reads one file).

Relevance: ``strict`` (the default) is the folder's ``qrels-strict`` form, 1 = correct and 0 = a
listed hard negative; ``graded`` is ExecIR's ``qrels`` (2 correct, 1 verified-failing near clone),
which every other tool would count as relevant at grade 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from execir.dataset import Dataset, load_dataset
from execir.dataset.layout import CORPUS, strict_qrels_file
from execir.dataset.records import SPLITS
from execir.errors import ExecIRError
from execir.interop.qrels import strict_qrels
from execir.jsonl import iter_jsonl
from execir.types import Qrels

RelevanceMode = Literal["strict", "graded"]
RELEVANCE_MODES: tuple[RelevanceMode, ...] = ("strict", "graded")

BeirCorpus = dict[str, dict[str, str]]
BeirQueries = dict[str, str]


@dataclass(frozen=True)
class JudgedFolder:
    """One split of a folder with the qrels of one relevance mode and every document's title."""

    dataset: Dataset
    relevance: RelevanceMode
    qrels: Qrels
    """The split's qrels in the chosen mode (every judged query, hard negatives listed)."""
    titles: dict[str, str]
    """Document id -> title (``""`` when the row has none, as in every ExecIR folder)."""

    def beir(self) -> tuple[BeirCorpus, BeirQueries, Qrels]:
        """``(corpus, queries, qrels)`` as BEIR's ``GenericDataLoader.load`` returns them (copies)."""
        corpus = {doc: {"text": text, "title": self.titles.get(doc, "")} for doc, text in self.dataset.corpus.items()}
        return corpus, dict(self.dataset.queries), {qid: dict(docs) for qid, docs in self.qrels.items()}


def load_judged(path: Path | str, *, split: str = "test", relevance: str = "strict") -> JudgedFolder:
    """Load ``path`` (one dataset folder) for ``split`` (a split name or ``all``) with ``relevance``
    ``strict`` or ``graded``; user errors raise :class:`~execir.errors.ExecIRError`."""
    root = Path(path)
    if relevance not in RELEVANCE_MODES:
        raise ExecIRError(f"relevance '{relevance}': expected one of {', '.join(RELEVANCE_MODES)}")
    if not root.is_dir():
        raise ExecIRError(f"{root}: no such dataset folder")
    dataset = load_dataset(root, split)
    if relevance == "strict":
        _require_strict_files(root, split)
        qrels = strict_qrels(dataset.qrels)
        mode: RelevanceMode = "strict"
    else:
        qrels = {qid: dict(docs) for qid, docs in dataset.qrels.items()}
        mode = "graded"
    return JudgedFolder(dataset=dataset, relevance=mode, qrels=qrels, titles=_titles(root / CORPUS))


def beir_load(path: Path | str, *, split: str = "test", relevance: str = "strict") -> tuple[BeirCorpus, BeirQueries, Qrels]:
    """``(corpus, queries, qrels)`` of one folder in BEIR's in-memory shapes: corpus
    ``id -> {"title", "text"}``, queries ``id -> text`` (the split's judged queries only), qrels
    ``qid -> doc -> int`` (strict: 1 correct, 0 listed hard negative; graded: ExecIR's 2/1)."""
    return load_judged(path, split=split, relevance=relevance).beir()


def _require_strict_files(root: Path, split: str) -> None:
    """The strict form is defined by an ExecIR folder's ``qrels-strict`` files: a BEIR folder made
    elsewhere has none, and its grades need not follow ExecIR's scale."""
    wanted = [s for s in SPLITS if (root / f"qrels/{s}.tsv").is_file()] if split == "all" else [split]
    missing = [strict_qrels_file(s) for s in wanted if not (root / strict_qrels_file(s)).is_file()]
    if missing:
        raise ExecIRError(
            f"{root}: {', '.join(missing)} missing: not an ExecIR dataset folder, so its grades have no strict form "
            "(use relevance='graded' to score its qrels as they are)"
        )


def _titles(path: Path) -> dict[str, str]:
    """Each document's ``title`` field (rows without one are left out)."""
    titles: dict[str, str] = {}
    for _, record in iter_jsonl(path):
        title = record.get("title") if isinstance(record, dict) else None
        if isinstance(title, str) and title:
            titles[str(record["_id"])] = title
    return titles
