"""Resource limits of one run and the policy that derives them from the canonical's CPU time."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

DEFAULT_FACTOR = 5.0
"""CPU budget = max(floor, factor x canonical CPU seconds)."""
DEFAULT_FLOOR = 0.25
WALL_MULTIPLIER = 4.0
"""The wall-clock backstop is this many times the CPU budget (never below ``WALL_FLOOR``)."""
WALL_FLOOR = 2.0
NOFILE = 256
STDOUT_MULTIPLE = 4
"""A stdio case's stdout cap is this many times its expected output's size, never below the
limits' ``output_kb`` (the floor): a correct large output fits, an unbounded writer is still cut off."""


@dataclass(frozen=True)
class Limits:
    """Budget of one run. Time is CPU time of the whole process tree; wall time is a backstop."""

    cpu_seconds: float
    wall_seconds: float
    memory_mb: int = 1024
    file_size_mb: int = 16
    nproc: int = 64
    output_kb: int = 1024
    nofile: int = NOFILE
    address_space: bool = True
    """Bound memory with RLIMIT_AS too (False for JVM/V8, which reserve more than they use: the
    slot's memory cgroup bounds them)."""
    compile_cpu_seconds: float = 0.0
    """CPU budget of a compile step (0: none); budgeted apart from the run."""
    compile_wall_seconds: float = 0.0

    def __post_init__(self) -> None:
        if not (self.cpu_seconds > 0 and self.wall_seconds > 0):
            raise ValueError("cpu_seconds and wall_seconds must be positive")
        if min(self.memory_mb, self.file_size_mb, self.nproc, self.output_kb) <= 0:
            raise ValueError("limits must be positive")

    @classmethod
    def from_canonical(cls, cpu_seconds: float, *, factor: float = DEFAULT_FACTOR, floor: float = DEFAULT_FLOOR) -> Limits:
        """Budget scaled from the canonical's CPU time, with a floor and a wall backstop."""
        cpu = round(max(floor, factor * max(cpu_seconds, 0.0)), 3)
        return cls(cpu_seconds=cpu, wall_seconds=round(max(WALL_FLOOR, WALL_MULTIPLIER * cpu), 3))

    @classmethod
    def admission(cls) -> Limits:
        """Generous limits for a canonical whose runtime is not yet known."""
        return cls(cpu_seconds=10.0, wall_seconds=30.0)

    def for_expected_output(self, expected: str) -> Limits:
        """These limits with the stdout cap of a stdio case whose expected output is ``expected``:
        :data:`STDOUT_MULTIPLE` times its UTF-8 size, or ``output_kb`` when that is larger."""
        needed = math.ceil(STDOUT_MULTIPLE * len(expected.encode("utf-8", "surrogatepass")) / 1024)
        return self if needed <= self.output_kb else replace(self, output_kb=needed)

    def key(self) -> str:
        """Stable text used in cache keys."""
        return ",".join(f"{k}={v}" for k, v in sorted(asdict(self).items()))

    def wire(self) -> dict[str, float | int | bool]:
        """What the sandbox driver needs (per-process rlimits)."""
        return {
            "cpu_rlimit": math.ceil(self.cpu_seconds) + 1,
            "cpu_seconds": self.cpu_seconds,
            "memory_mb": self.memory_mb,
            "file_size_mb": self.file_size_mb,
            "nproc": self.nproc,
            "nofile": self.nofile,
            "address_space": self.address_space,
            "compile_seconds": self.compile_cpu_seconds,
            "compile_rlimit": math.ceil(self.compile_cpu_seconds) + 1 if self.compile_cpu_seconds else 0,
        }


def policy() -> dict[str, float | str]:
    """The limits policy, for reliability reports."""
    return {
        "factor": DEFAULT_FACTOR,
        "floor_seconds": DEFAULT_FLOOR,
        "wall_multiplier": WALL_MULTIPLIER,
        "wall_floor_seconds": WALL_FLOOR,
        "stdout_cap": f"max(output_kb, {STDOUT_MULTIPLE} x the expected output) per stdio case",
    }
