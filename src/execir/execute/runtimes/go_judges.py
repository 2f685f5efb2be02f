"""Go's record-and-judge executables, built once per task by trusted code, and the trusted
libraries of the candidate's calls run, built once per toolchain.

The record run and every judge run of a task execute the same program (the reference, the tests,
the recorder and the replayer; which one runs is told by the results file), and it holds no
candidate code. When the oracle runs as root it builds that executable once, on the host, from
those trusted sources only (``compile`` and ``link`` run no code of theirs), into a root-owned
directory under :data:`JUDGES` that the sandbox sees read-only, and the runs execute it there:
a candidate's check then compiles only its own program. Otherwise (not root, or the build failed)
every run compiles it in its own work dir.

The candidate's calls run links the program with trusted libraries (the wire and the caller, about
three quarters of that run's compile CPU when compiled per run): a root oracle compiles them once
per toolchain and harness text, the same way, into a root-owned directory under :data:`LIBRARIES`,
and the run's ``importcfg`` names those archives (read-only in the sandbox).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from execir.execute.runtimes.base import Plan, root_owned
from execir.execute.runtimes.go import PREPARED_ROOT, GoToolchain, Library, build_libraries

JUDGES = PREPARED_ROOT / "judges"
LIBRARIES = PREPARED_ROOT / "libraries"
KEEP = 1024
"""Executables kept; the least recently built beyond this are removed when a new one is built."""
BUILD_SECONDS = 300

_lock = threading.Lock()
_busy: dict[str, threading.Lock] = {}


def key(*parts: str) -> str:
    return hashlib.sha256(json.dumps(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def prebuilt(name: str, plan: Plan, data: frozenset[str]) -> str | None:
    """The path of ``plan``'s executable built once under ``JUDGES/name`` (``data``: the plan's
    files that are inputs of the run, not of the build), or None when it cannot be built here."""
    if os.geteuid() != 0:
        return None
    target = JUDGES / name / "prog"
    with _lock:
        busy = _busy.setdefault(name, threading.Lock())
    with busy:
        if target.exists():
            return str(target) if root_owned(str(target)) else None
        return _build(target, {k: v for k, v in plan.files.items() if k not in data}, plan.compile)


def _build(target: Path, files: dict[str, str], command: tuple[str, ...]) -> str | None:
    JUDGES.mkdir(parents=True, exist_ok=True)
    os.chmod(JUDGES, 0o755)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=JUDGES))
    try:
        for name, text in files.items():
            path = work / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
        done = subprocess.run(command, cwd=work, env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=BUILD_SECONDS)
        if done.returncode != 0 or not (work / "prog").is_file():
            return None
        final = Path(tempfile.mkdtemp(prefix=".ready-", dir=JUDGES))
        (work / "prog").rename(final / "prog")
        os.chmod(final / "prog", 0o755)
        os.chmod(final, 0o755)
        _prune()
        try:
            final.rename(target.parent)
        except OSError:  # built meanwhile by another oracle
            shutil.rmtree(final, ignore_errors=True)
        return str(target) if root_owned(str(target)) else None
    except (OSError, subprocess.TimeoutExpired):
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _prune() -> None:
    built = sorted((p for p in JUDGES.iterdir() if not p.name.startswith(".")), key=lambda p: p.stat().st_mtime)
    for old in built[: max(0, len(built) - KEEP + 1)]:
        shutil.rmtree(old, ignore_errors=True)


def prebuilt_libraries(toolchain: GoToolchain, libraries: tuple[Library, ...]) -> str | None:
    """``importcfg`` lines naming root-owned archives of the trusted ``libraries`` (in order: each
    may import the ones before), compiled once; None when they cannot be built here."""
    if os.geteuid() != 0:
        return None
    sources = [(library.path, library.archive, library.sources) for library in libraries]
    target = LIBRARIES / key("importcfg.libs", toolchain.version, toolchain.paths["compile"], toolchain.std_cfg, json.dumps(sources))
    with _lock:
        busy = _busy.setdefault(f"libraries/{target.name}", threading.Lock())
    with busy:
        if not (target / "ok").exists():
            with tempfile.TemporaryDirectory() as folder:
                for library in libraries:
                    for path, text in library.sources:
                        Path(folder, path).parent.mkdir(parents=True, exist_ok=True)
                        Path(folder, path).write_text(text, encoding="utf-8")
                packages = tuple((library.path, folder, tuple(path for path, _ in library.sources)) for library in libraries)
                try:
                    build_libraries(target, toolchain.paths, toolchain.std_cfg, packages)
                except (OSError, subprocess.SubprocessError):
                    return None
    if not (target / "ok").exists() or not all(root_owned(str(path)) for path in [target, *target.iterdir()]):
        return None
    return (target / "importcfg.libs").read_text(encoding="utf-8")
