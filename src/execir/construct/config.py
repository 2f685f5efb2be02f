"""Declared configuration of a benchmark build (defaults defined once, here)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from execir.errors import ExecIRError

DEFAULT_MAX_MUTANTS = 4
DEFAULT_SEED = 0


@dataclass(frozen=True)
class BuildConfig:
    """Everything that determines the content of a built dataset."""

    source: str
    """Loader name: ``humaneval``, ``mbpp``, ``jsonl``, ``humaneval-x``, ``humanevalpack`` or ``mbxp``."""
    path: Path | None
    """Task file (a data folder for the multilingual sources); None means the bundled HumanEval
    (or ``../shared/data`` for the multilingual sources when it is beside the checkout)."""
    out: Path
    language: str = "python"
    operators: str | None = None
    """``--operators`` spec: operator or family names to include, ``-name`` to exclude; None: all."""
    seed: int = DEFAULT_SEED
    max_mutants: int = DEFAULT_MAX_MUTANTS
    max_candidates_per_task: int = 48
    """Upper bound on mutants executed per task while looking for ``max_mutants`` failing ones."""
    canonical_repeats: int = 3
    """A canonical must PASS this many times in a row before its task is admitted."""
    limit_tasks: int | None = None
    """Use only the first N tasks (quick experiments)."""

    def __post_init__(self) -> None:
        if self.max_mutants < 0:
            raise ExecIRError(f"--max-mutants must be >= 0, got {self.max_mutants}")
        if self.canonical_repeats < 1:
            raise ExecIRError(f"canonical_repeats must be >= 1, got {self.canonical_repeats}")
        if self.limit_tasks is not None and self.limit_tasks < 1:
            raise ExecIRError(f"--limit must be >= 1, got {self.limit_tasks}")

    def to_json(self) -> dict[str, object]:
        """JSON-able form; the output directory is left out (it does not change content)."""
        data = asdict(self)
        data.pop("out")
        data["path"] = self.path.name if self.path else None
        return data
