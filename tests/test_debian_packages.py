"""Every file the oracle's runtimes read from the system's packages belongs to a Debian package the
Makefile installs, or to the ``Depends`` closure of that list (never ``Recommends``: make installs
with ``--no-install-recommends``), or to the base system (Essential or Priority required). A machine
that got a package some other way (earlier work, a recommends) then cannot hide a missing install
step: with ``librust-regex+default-dev`` left out of the list, the ``aho-corasick`` and ``memchr``
crate sources the regex build reads belong to no listed package and this test fails.

Skipped where dpkg or apt-cache is absent (not a Debian system)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from execir.execute.runtimes import LANGUAGES, runtime
from execir.language_declarations import is_host_language

REPO = Path(__file__).resolve().parent.parent
NOT_FROM_PACKAGES = ("/usr/local/", "/usr/lib/node_modules/", "/var/cache/", "/root/", "/home/", "/opt/", "/tmp/")
"""Where files come from elsewhere (rustup, npm, the oracle's own root-owned caches)."""
ALIASES = (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/"), ("/usr/lib64/", "/lib64/"))
"""Merged-/usr spellings dpkg may have recorded a file under."""
SANDBOX_PROGRAMS = ("bwrap", "chromium", "chromedriver")

pytestmark = pytest.mark.skipif(shutil.which("dpkg") is None or shutil.which("apt-cache") is None, reason="not a Debian system (no dpkg/apt-cache)")


def makefile_packages() -> list[str]:
    """The list ``make system-deps`` installs, as the Makefile reads it."""
    if shutil.which("make") is None:  # pragma: no cover - CI installs make first
        text = (REPO / "requirements" / "debian.txt").read_text(encoding="utf-8")
        return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    done = subprocess.run(["make", "-s", "-C", str(REPO), "debian-packages"], capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.split()


@functools.cache
def closure() -> frozenset[str]:
    """The packages of the Makefile's list and everything they depend on (pre-depends included,
    recommends and suggests not), virtual names and their providers alike."""
    flags = ("--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances")
    done = subprocess.run(["apt-cache", "depends", *flags, *makefile_packages()], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return frozenset(line.strip().strip("<>").split(":")[0] for line in done.stdout.splitlines() if line and not line[0].isspace())


@functools.cache
def base_system() -> frozenset[str]:
    """Installed packages every Debian system has (Essential, or Priority required)."""
    done = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Essential} ${Priority}\n"], capture_output=True, text=True, check=True, timeout=60)
    return frozenset(
        name for name, essential, priority in (line.split(" ") for line in done.stdout.splitlines()) if essential == "yes" or priority == "required"
    )


def owners(path: str) -> set[str]:
    """The packages dpkg says own ``path`` (under any of its merged-/usr or resolved spellings)."""
    spellings = {path, os.path.realpath(path)}
    for spelling in list(spellings):
        for usr, root in ALIASES:
            if spelling.startswith(usr):
                spellings.add(root + spelling[len(usr) :])
    found: set[str] = set()
    for spelling in sorted(spellings):
        done = subprocess.run(["dpkg", "-S", spelling], capture_output=True, text=True, timeout=60)
        for line in done.stdout.splitlines():
            if line.startswith("diversion ") or ": " not in line:
                continue
            names, _, owned = line.partition(": ")
            if owned == spelling:
                found |= {name.strip().split(":")[0] for name in names.split(",")}
    return found


def from_packages(path: str) -> bool:
    return not any(os.path.realpath(path).startswith(prefix) or path.startswith(prefix) for prefix in NOT_FROM_PACKAGES)


def unlisted(paths: list[str]) -> list[str]:
    """Each system file that no listed, depended-on or base package owns, with its owners."""
    allowed = closure() | base_system()
    problems = []
    for path in paths:
        if not from_packages(path):
            continue
        found = owners(path)
        if not found:
            problems.append(f"{path}: in no Debian package (a fresh machine lacks it)")
        elif not found & allowed:
            problems.append(f"{path}: from {', '.join(sorted(found))}, which the Makefile's list neither names nor depends on")
    return problems


def test_the_makefile_reads_the_list() -> None:
    assert "librust-regex+default-dev" in makefile_packages() and "bubblewrap" in makefile_packages()


@pytest.mark.parametrize("language", [name for name in LANGUAGES if not is_host_language(name)])
def test_runtime_files_come_from_listed_packages(language: str) -> None:
    chosen = runtime(language)
    files = list(chosen.system_files(chosen.discover()))  # a toolchain that is missing or not ready fails here, naming the package
    assert files, f"{language}: the runtime names no file it reads"
    assert unlisted(files) == []


def test_sandbox_and_browser_come_from_listed_packages() -> None:
    found = {name: shutil.which(name, path="/usr/bin:/bin") for name in SANDBOX_PROGRAMS}
    assert all(found.values()), f"not installed: {[name for name, path in found.items() if not path]}"
    assert unlisted([str(path) for path in found.values()]) == []


def test_a_recommended_package_is_not_in_the_closure() -> None:
    """The closure leaves recommends out: regex's optional crates are reached only through
    ``librust-regex+default-dev`` (librust-regex-dev merely suggests them)."""
    assert "librust-regex-dev" in closure() and "librust-aho-corasick-dev" in closure()
    done = subprocess.run(["apt-cache", "depends", "--no-recommends", "librust-regex-dev"], capture_output=True, text=True, check=True, timeout=60)
    assert "Depends: librust-aho-corasick" not in done.stdout
