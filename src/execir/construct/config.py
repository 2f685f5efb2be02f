"""Declared configuration of a benchmark build (defaults defined once, here)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from execir.errors import ExecIRError

DEFAULT_MAX_MUTANTS = 4
DEFAULT_SEED = 0
DEFAULT_REWRITES = 2
DEFAULT_COUNTERFACTUALS = 3
DEFAULT_SPLITS: tuple[float, float, float] = (0.5, 0.1, 0.4)


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
    """One language, or several comma-separated (``python,cpp,java``): a multi-language build adds
    cross-language code-to-code folders and one text-to-code folder per language."""
    tasks: str | None = None
    """``--tasks`` spec (``t2c,c2t,c2c``, ``t2c-search``...); None: every task the source supports."""
    rewrites: int = DEFAULT_REWRITES
    """Semantics-preserving rewrites of each canonical tried as extra correct documents (kept if they PASS)."""
    counterfactuals: int = DEFAULT_COUNTERFACTUALS
    """Counterfactual descriptions per task (code-to-text hard negatives)."""
    candidates: Path | None = None
    """``--candidates FILE.jsonl``: user programs, each executed and judged 2 (passes) or 1 (fails)."""
    distractors: Path | None = None
    """``--distractors FILE.jsonl``: user descriptions added as code-to-text hard negatives."""
    splits: tuple[float, float, float] = DEFAULT_SPLITS
    """train, dev, test fractions of the problems (problem-disjoint, seeded by ``seed``)."""
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
        if self.rewrites < 0 or self.counterfactuals < 0:
            raise ExecIRError("--rewrites and --counterfactuals must be >= 0")
        if not self.languages or len(set(self.languages)) != len(self.languages):
            raise ExecIRError(f"--language {self.language!r}: expected one language or distinct comma-separated languages")

    @property
    def languages(self) -> tuple[str, ...]:
        """The build's languages, in the order given."""
        return tuple(part.strip() for part in self.language.split(",") if part.strip())

    def to_json(self) -> dict[str, object]:
        """JSON-able form; the output directory is left out (it does not change content)."""
        data = asdict(self)
        data.pop("out")
        data["path"] = self.path.name if self.path else None
        data["candidates"] = self.candidates.name if self.candidates else None
        data["distractors"] = self.distractors.name if self.distractors else None
        data["splits"] = list(self.splits)
        return data
