"""Where the wall time of the main job (``execir run``) goes, cold and warm.

Runs ``execir run`` twice against a fresh cache directory: first cold (every verdict executed,
every text encoded), then warm (everything from the caches). Prints total wall time and the
per-stage split the evaluation records (load dataset, load models, first stage,
score, analyse, compare, report), summed over the task folders, plus the build's own wall time.

Usage: python benchmarks/bench_run.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(out: Path, env: dict[str, str]) -> tuple[float, dict[str, float], float]:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "execir.cli", "run", "--out", str(out), "--no-progress"], env=env, check=True, capture_output=True)
    total = time.perf_counter() - started
    collection = json.loads((out / "humaneval-eval" / "results.json").read_text())
    stages: dict[str, float] = {}
    for folder in collection["folders"]:
        timing = json.loads((out / "humaneval-eval" / folder["name"] / "results.json").read_text())["timing_seconds"]
        for stage, seconds in timing.items():
            stages[stage] = stages.get(stage, 0.0) + seconds
    build = json.loads((out / "humaneval" / "build_report.json").read_text())["wall_seconds"]
    return total, stages, build


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "EXECIR_CACHE_DIR": str(Path(tmp) / "cache")}
        for label in ("cold", "warm"):
            total, stages, build = run_once(Path(tmp) / "out", env)
            split = ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
            print(f"{label}: total {total:.1f} s = process start + build {build:.1f} s + evaluation ({split})")


if __name__ == "__main__":
    main()
