"""Rewrites of the public PHP and Rust sets checked by the real toolchains: rewrites per task, per
rule, and the share the language's own front end accepts (``php -l``; ``rustc --edition 2021
--emit=metadata`` with the prebuilt crates the Rust runtime links).

Run as a script::

    .venv/bin/python tests/rewrite/php_rust_measure.py php            # MBXP PHP (950 tasks)
    .venv/bin/python tests/rewrite/php_rust_measure.py rust --limit 40  # HumanEvalPack Rust (164 tasks)

``test_rewrite_php_rust.py`` runs :func:`front_end_accepts` on a few rewrites.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from execir.languages import ParseError
from execir.rewrite import rewrites


@cache
def _rust_externs() -> tuple[str, ...]:
    """``--extern``/``-L`` of the crates the Rust runtime builds (empty where it cannot)."""
    from execir.execute.runtimes.rust import crates, find_rustc

    rustc, _ = find_rustc()
    version = subprocess.run([rustc, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    found = crates(rustc, version)
    args: list[str] = []
    for name, path in sorted(found.items()):
        if name != "-L":
            args += ["--extern", f"{name}={path}"]
    return (*args, "-L", f"dependency={found['-L']}") if found else ()


def front_end_accepts(text: str, language: str) -> tuple[bool, str]:
    """Whether ``php -l`` / ``rustc --emit=metadata`` accepts a program (Rust: with ``fn main(){}``
    appended where the program has none), and the tool's message."""
    with tempfile.TemporaryDirectory() as folder:
        if language == "php":
            path = os.path.join(folder, "program.php")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            done = subprocess.run(["php", "-l", path], capture_output=True, text=True, timeout=60, check=False)
        elif language == "rust":
            path = os.path.join(folder, "program.rs")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text if "fn main(" in text else text + "\nfn main(){}\n")
            command = ["rustc", "--edition", "2021", "--emit=metadata", "-A", "warnings", "--crate-type", "bin", "-o", os.path.join(folder, "out.rmeta")]
            done = subprocess.run([*command, *_rust_externs(), path], capture_output=True, text=True, timeout=120, check=False)
        else:
            raise ValueError(f"no front end for {language!r}")
    return done.returncode == 0, (done.stdout + done.stderr)[-600:]


def available(language: str) -> bool:
    """Whether the language's front end is installed."""
    return shutil.which("php" if language == "php" else "rustc") is not None


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=("php", "rust"))
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", type=int, default=3, help="rejected rewrites to print")
    args = parser.parse_args(argv)
    from execir.tasks.multilingual import humanevalx_rust, mbxp_php

    tasks = (mbxp_php if args.language == "php" else humanevalx_rust).load()
    if args.limit:
        tasks = tasks[: args.limit]
    with ThreadPoolExecutor(args.workers) as pool:
        canonical_ok = list(pool.map(lambda task: front_end_accepts(task.program, args.language)[0], tasks))
    per_task: list[int] = []
    jobs: list[tuple[str, str, str]] = []
    unparsed = 0
    for task, ok in zip(tasks, canonical_ok):
        if not ok:
            continue
        try:
            found = rewrites(task.program, args.language, entry_point=task.entry_point)
        except ParseError:
            unparsed += 1
            continue
        per_task.append(len(found))
        jobs.extend((task.task_id, rewrite.rule, rewrite.text) for rewrite in found)
    with ThreadPoolExecutor(args.workers) as pool:
        verdicts = list(pool.map(lambda job: front_end_accepts(job[2], args.language), jobs))
    generated: Counter[str] = Counter()
    accepted: Counter[str] = Counter()
    rejected: list[tuple[str, str, str, str]] = []
    for (task_id, rule, text), (ok, message) in zip(jobs, verdicts):
        generated[rule] += 1
        accepted[rule] += ok
        if not ok:
            rejected.append((task_id, rule, message, text))
    total, passed = sum(generated.values()), sum(accepted.values())
    print(
        f"{args.language}: tasks {len(tasks)} (front end accepts {sum(canonical_ok)} canonicals; tree-sitter rejects {unparsed})  "
        f"rewrites {total}  per task {total / max(len(per_task), 1):.2f} (tasks with none {per_task.count(0)}, max {max(per_task, default=0)})  "
        f"accepted {passed}/{total} ({100 * passed / max(total, 1):.1f}%)"
    )
    for rule in sorted(generated):
        print(f"  {rule:18} {accepted[rule]:5}/{generated[rule]:<5}")
    for task_id, rule, message, text in rejected[: args.show]:
        print(f"--- {task_id} {rule}\n{message}\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
