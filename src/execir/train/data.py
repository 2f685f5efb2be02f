"""Training data from dataset folders: the training split's pairs, the dev split's candidate sets.

Every folder of a build (or only those whose task ``--task`` names) contributes its training pairs;
the folders' problems must be disjoint across splits (a build splits by problem, so they are), and
a folder whose training problems meet its other splits' problems is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execir.dataset.layout import qrels_file
from execir.dataset.read import Dataset, discover, load_dataset
from execir.dataset.records import SPLITS
from execir.dataset.spec import get_spec
from execir.errors import ExecIRError
from execir.train.pairs import PairSource


@dataclass(frozen=True)
class Folder:
    """One dataset folder's training split (and dev split, when asked) as the recipe reads them."""

    path: Path
    name: str
    task: str
    manifest_sha256: str | None
    train: PairSource
    dev: PairSource | None

    def to_json(self) -> dict[str, Any]:
        """Provenance: path, task, manifest hash, problem and query counts."""
        return {
            "path": str(self.path),
            "name": self.name,
            "task": self.task,
            "manifest_sha256": self.manifest_sha256,
            "train_queries": len(self.train.queries),
            "train_problems": len(self.train.problems),
            "dev_queries": len(self.dev.queries) if self.dev else 0,
            "dev_problems": len(self.dev.problems) if self.dev else 0,
        }


def _matches(dataset: Dataset, tasks: Sequence[str]) -> bool:
    return not tasks or dataset.name in tasks or dataset.task in tasks or dataset.root.name in tasks


def load_folders(datasets: Sequence[Path], *, split: str, dev_split: str | None, tasks: Sequence[str] = ()) -> list[Folder]:
    """Every selected folder under ``datasets`` with its ``split`` and ``dev_split`` judgements."""
    folders: list[Folder] = []
    seen: list[str] = []
    for root in datasets:
        if not root.exists():
            raise ExecIRError(f"dataset {root} does not exist")
        for path in discover(root):
            train = load_dataset(path, split)
            seen.append(train.task or path.name)
            if not _matches(train, tasks):
                continue
            dev = load_dataset(path, dev_split) if dev_split is not None else None
            _check_disjoint(path, train, split)
            folders.append(Folder(path, train.name, train.task, train.manifest_sha256, PairSource.of(train), PairSource.of(dev) if dev else None))
    if not folders:
        raise ExecIRError(f"--task {', '.join(tasks)}: no such folder (found tasks: {', '.join(dict.fromkeys(seen))})")
    return folders


def _check_disjoint(path: Path, train: Dataset, split: str) -> None:
    """Refuse a folder whose training problems also appear in another split's queries."""
    problems = set(train.query_task.values())
    for other in SPLITS:
        if other == split or not (path / qrels_file(other)).is_file():
            continue
        shared = problems & set(load_dataset(path, other).query_task.values())
        if shared:
            raise ExecIRError(
                f"{path}: split '{split}' shares {len(shared)} problem(s) with '{other}' (e.g. {sorted(shared)[0]}); splits must be problem-disjoint"
            )


def mine_rankings(folder: Folder, spec: str, *, device: str | None, progress: bool, top_k: int = 100) -> dict[str, tuple[str, ...]]:
    """A first-stage retriever's ranking (best first, ties by doc id) of the folder's whole corpus
    for each training query, for mined hard negatives."""
    from execir.retrieve import get_retriever
    from execir.retrieve.base import apply_task

    retriever = get_retriever(spec, device=device, progress=progress)
    try:
        apply_task(retriever, get_spec(folder.task) if folder.task else None)
    except ExecIRError:
        apply_task(retriever, None)
    retriever.index(dict(folder.train.corpus))
    run = retriever.search(dict(folder.train.queries), top_k=top_k)
    return {q: tuple(sorted(scores, key=lambda d: (-scores[d], d))) for q, scores in run.items()}
