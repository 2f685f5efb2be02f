"""The Rust builds of the judged-outside protocol (runtimes/rust_split.py): the candidate's crate is
one ``rustc`` (program as a random-named module, ``-F unsafe_code`` on the whole crate, the calls
loop and common monomorphizations from the wire rlib), std linked as the toolchain's shared object;
the task's judge is one ``rustc`` too."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

import pytest

from execir.execute.runtimes import ToolchainMissing, rust, rust_source, rust_split
from execir.execute.runtimes.base import CALLS_FILE, Toolchain
from execir.tasks.multilingual import humanevalx_rust

ADD_OK = "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
ADD_TESTS = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n"


@pytest.fixture(scope="module")
def toolchain() -> Toolchain:
    try:
        found = rust.RUNTIME.discover()
    except ToolchainMissing:
        pytest.skip("rustc not installed")
    if "wire" not in found.paths:
        pytest.skip("the wire rlib is built only as root")
    return found


def _build(plan_files: dict[str, str], command: tuple[str, ...], folder: Path) -> subprocess.CompletedProcess[str]:
    for name, text in plan_files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120)


def test_candidate_crate_is_one_rustc_with_unsafe_forbidden(toolchain: Toolchain) -> None:
    plan = rust_split.call_plan(toolchain, ADD_OK, "add", ADD_OK)
    assert plan.compile[0] == toolchain.paths["rustc"]  # no shell: one form, one rustc
    script = " ".join(plan.compile)
    assert "--crate-type bin" in script and "--crate-type rlib" not in script and "-F unsafe_code" in script
    root = plan.files["caller.rs"]
    module = re.search(r"\nmod (execir_[0-9a-f]{16});", root)
    assert module is not None and f"{module.group(1)}::execir_caller::execir_call" in root
    assert "unsafe" not in root
    again = rust_split.call_plan(toolchain, ADD_OK, "add", ADD_OK).files["caller.rs"]
    assert again != root


def test_own_signature_then_the_references_are_two_attempts(toolchain: Toolchain) -> None:
    own = "fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n"
    plan = rust_split.call_plan(toolchain, own, "add", ADD_OK)
    script = plan.compile[-1]
    assert plan.compile[:2] == (toolchain.paths["sh"], "-c") and script.count(toolchain.paths["rustc"]) == 2 and " || " in script
    reference = rust_source.signature(ADD_OK, "add")
    assert reference is not None and plan.files["execir_caller1.rs"] == rust_split.caller(reference)
    assert "cp execir_caller1.rs execir_caller.rs" in script


def _converse(folder: Path, calls: list[str]) -> list[str]:
    """``./prog`` with fd 3 on a socket: each call written only once the previous answer is in,
    the channel shut after the last answer; the answers."""
    host, run = socket.socketpair()
    fd = run.fileno()
    proc = subprocess.Popen(["./prog"], cwd=folder, pass_fds=(3,), preexec_fn=lambda: os.dup2(fd, 3), stdout=subprocess.DEVNULL)  # noqa: PLW1509
    run.close()
    reader = host.makefile("rb")
    answers = []
    for call in calls:
        host.sendall(call.encode() + b"\n")
        answers.append(reader.readline().decode().rstrip("\n"))
    host.shutdown(socket.SHUT_WR)
    assert proc.wait(timeout=60) == 0 and reader.read() == b""
    return answers


def test_candidate_executable_answers_each_call_as_it_comes(toolchain: Toolchain, tmp_path: Path) -> None:
    program = 'fn add(a: i32, b: i32) -> i32 {\n    if a == 7 { panic!("seven") }\n    a + b\n}\n'
    plan = rust_split.call_plan(toolchain, program, "add", ADD_OK)
    assert CALLS_FILE not in plan.files
    done = _build(plan.files, plan.compile, tmp_path)
    assert done.returncode == 0, done.stderr
    assert _converse(tmp_path, ["[2,3]", "[7,1]", '["x",1]', "[-4,4]"]) == ['{"ok": 5}', '{"raised": "panic"}', '{"raised": "arguments"}', '{"ok": 0}']


def test_unsafe_in_the_candidates_module_does_not_compile(toolchain: Toolchain, tmp_path: Path) -> None:
    program = "#![allow(unsafe_code)]\nfn add(a: i32, b: i32) -> i32 {\n    unsafe { std::ptr::read_volatile(&a) + b }\n}\n"
    plan = rust_split.call_plan(toolchain, program, "add", ADD_OK)
    done = _build(plan.files, plan.compile, tmp_path)
    assert done.returncode != 0 and "unsafe_code" in done.stderr
    assert not (tmp_path / "prog").exists()


def test_std_is_linked_as_the_toolchains_shared_object(toolchain: Toolchain, tmp_path: Path) -> None:
    if "libdir" not in toolchain.paths:
        pytest.skip("this toolchain ships no libstd-*.so")
    plan = rust_split.call_plan(toolchain, ADD_OK, "add", ADD_OK)
    assert _build(plan.files, plan.compile, tmp_path).returncode == 0
    executable = (tmp_path / "prog").read_bytes()
    assert len(executable) < 1_000_000 and b"libstd-" in executable and toolchain.paths["libdir"].encode() in executable
    judge = rust_split.judge(toolchain, ADD_OK, ADD_TESTS, "add")
    assert judge is not None and len(judge.binary) < 1_000_000


def test_dynamic_std_needs_a_root_owned_library_folder(tmp_path: Path) -> None:
    assert rust.dynamic_std(Toolchain("rust", "v", {})) == []
    open_folder = tmp_path / "lib"
    open_folder.mkdir(mode=0o777)
    open_folder.chmod(0o777)
    assert rust.dynamic_std(Toolchain("rust", "v", {"libdir": str(open_folder)})) == []
    assert rust.dynamic_std(Toolchain("rust", "v", {"libdir": "/usr/lib"})) == ["-C", "prefer-dynamic", "-C", "link-arg=-Wl,-rpath,/usr/lib"]


def test_target_libdir_finds_the_shared_std() -> None:
    try:
        rustc, _root = rust.find_rustc()
    except ToolchainMissing:
        pytest.skip("rustc not installed")
    folder = rust.target_libdir(rustc)
    if folder is None:
        pytest.skip("this toolchain ships no libstd-*.so")
    assert any(name.startswith("libstd-") and name.endswith(".so") for name in os.listdir(folder))
    assert rust.target_libdir("/nonexistent/rustc") is None


@pytest.mark.skipif(not humanevalx_rust.load(), reason="../shared/data absent")
def test_wire_prebuilds_every_humanevalx_type() -> None:
    listed = rust_split.WIRE[rust_split.WIRE.index("pub fn instances") :]
    listed = re.sub(r"\s+", "", listed[: listed.index("\n}\n")])
    missing = set()
    for task in humanevalx_rust.load():
        found = rust_source.signature(task.program, task.entry_point)
        if found is None or not rust_split.supported(found):
            continue
        for kind in [k for _, k in found.params] + [found.returns]:
            text = re.sub(r"\s+", "", rust_split.elided(kind))
            if not re.search(r"[(,]" + re.escape(text) + r"[,)]", listed):
                missing.add(text)
    assert not missing
