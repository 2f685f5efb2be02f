"""A toolchain piece that cannot be prepared is reported once, loudly (the piece, the failing
command's last lines, the package to install), and its language runs nothing: no ERROR verdict on
a correct program. Real builds where the piece is real (Rust's crates against a Debian registry
that lacks regex's default features, Go's testify, PHP's mbstring)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.runtimes import ToolchainMissing, runtime, rust
from execir.execute.runtimes import go as go_runtime
from execir.execute.runtimes import php as php_runtime
from execir.execute.runtimes.base import TAIL_LINES, ToolchainNotReady, not_ready
from execir.types import TestSuite


def test_not_ready_names_piece_command_tail_and_packages() -> None:
    output = "\n".join(f"line {n}" for n in range(40))
    error = not_ready("rust", "the crates", ["librust-regex+default-dev"], ["cargo", "build", "--offline"], output)
    text = str(error)
    assert isinstance(error, ToolchainMissing) and text.startswith("rust: not ready: the crates")
    assert "command: cargo build --offline" in text and "line 39" in text and f"line {39 - TAIL_LINES}" not in text
    assert "apt-get install --no-install-recommends librust-regex+default-dev" in text


def _rustc() -> tuple[str, str]:
    try:
        host, _root = rust.find_rustc()
    except ToolchainMissing:
        pytest.skip("no rustc")
    if os.geteuid() != 0 or not os.path.isdir(rust.DEBIAN_REGISTRY) or not os.access(rust.cargo_of(host), os.X_OK):
        pytest.skip("the crate build needs root, cargo and Debian's crate registry")
    return host, rust.RUNTIME.version_of([host, "--version"])


def test_a_crate_build_that_fails_is_not_ready_with_its_last_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fresh-machine failure: regex's sources without its default features' crates."""
    host, version = _rustc()
    registry = tmp_path / "registry"
    registry.mkdir()
    for entry in sorted(os.listdir(rust.DEBIAN_REGISTRY)):
        if not entry.startswith(("aho-corasick-", "memchr-")):
            (registry / entry).symlink_to(os.path.join(rust.DEBIAN_REGISTRY, entry))
    monkeypatch.setattr(rust, "DEBIAN_REGISTRY", str(registry))
    with pytest.raises(ToolchainNotReady) as caught:
        rust.crates(host, version)
    text = str(caught.value)
    assert "offline build of the crates" in text and "aho-corasick" in text and "librust-regex+default-dev" in text and "cargo build" in text


def test_missing_crate_sources_are_not_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host, version = _rustc()
    monkeypatch.setattr(rust, "DEBIAN_REGISTRY", str(tmp_path / "absent"))
    with pytest.raises(ToolchainNotReady, match="librust-rand-dev librust-regex"):
        rust.crates(host, version)
    (tmp_path / "some").mkdir()
    (tmp_path / "some" / "rand-0.8.5").mkdir()
    monkeypatch.setattr(rust, "DEBIAN_REGISTRY", str(tmp_path / "some"))
    with pytest.raises(ToolchainNotReady, match=r"(?s)regex, md5 is not in .*librust-regex\+default-dev librust-md5-dev"):
        rust.crates(host, version)


def test_go_without_testify_is_not_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("go", path="/usr/bin:/bin") is None:
        pytest.skip("no go")
    monkeypatch.setattr(go_runtime, "LIBRARIES", ("github.com/execir-absent/nothing/assert",))
    with pytest.raises(ToolchainNotReady, match="golang-github-stretchr-testify-dev") as caught:
        runtime("go").discover()
    assert "go list" in str(caught.value) and "execir-absent" in str(caught.value)


def test_php_without_a_required_extension_is_not_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("php", path="/usr/bin:/bin") is None:
        pytest.skip("no php")
    monkeypatch.setattr(php_runtime, "REQUIRED_EXTENSIONS", ("mbstring", "execirabsent"))
    with pytest.raises(ToolchainNotReady, match="(?s)execirabsent.*php-execirabsent"):
        runtime("php").discover()


def test_the_oracle_reports_a_language_not_ready_once_and_runs_none_of_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    calls = []

    class Broken:
        def discover(self) -> None:  # the ruby runtime's, replaced
            calls.append(1)
            raise not_ready("ruby", "a piece", ["ruby-piece"], ["prepare"], "the failing line")

    monkeypatch.setattr(type(runtime("ruby")), "discover", Broken.discover)
    job = Job("def add(a, b)\n  a + b\nend\n", TestSuite("native", "raise 'x' unless add(1, 2) == 3\n"), "add", Limits(2.0, 10.0), language="ruby")
    with Oracle(OracleConfig(workers=1, progress=False)) as running:
        for _ in range(3):
            with pytest.raises(ToolchainNotReady, match="the failing line"):
                running.run([job])
    assert len(calls) == 1
    assert capsys.readouterr().err.count("ruby: not ready: a piece") == 1
