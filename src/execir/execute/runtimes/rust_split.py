"""Rust judged outside the candidate's process (the plans of :class:`~execir.execute.runtimes.rust.RustRuntime`).

**The wire** (harness ``rust_wire.rs``) is a trait-based codec (``Enc``/``Dec``, exact: integers in
decimal with their type's range checked, floats in Rust's shortest round-trip text, strings as
UTF-8 JSON strings, maps and sets sorted by their wire text) built once per toolchain, as root,
into an rlib in the trusted crate cache; ``Held`` says where a decoded argument lives while a call
borrows it (``&str`` from a ``String``, ``Vec<&str>`` from a ``Vec<String>``, ``&Vec<f64>``).

**Record and judge** are one trusted executable per task, built on the host (one ``rustc``, std
shared) from the reference and the tests only, and cached: the reference with every use of the entry point's name renamed
``execir_reference_<name>`` (its own recursion and helpers stay the reference's), then a function
of the entry point's name and the reference's exact signature that hands each call's argument line
to ``execir_wire::replay`` (record: write it and call the reference; judge: decode the candidate's
result into the reference's return type), then the tests as a module (see
:mod:`execir.execute.runtimes.rust`), run by a main that writes the nonce only once every test
returned.

**The candidate's run** is one binary crate built by one ``rustc`` with ``-F unsafe_code`` (as
in the in-process protocol; its root has no ``unsafe``): the program is its module with a random
name, a caller module appended to it that decodes each recorded line into the candidate's own
declared parameter types and encodes whatever it returns (a type without ``Enc``, such as a type of
its own with a lying ``PartialEq``, does not compile: ERROR); where its own types cannot be read or
do not compile, the reference's. The root's ``main`` hands the caller to the wire's ``serve``, which
reads the calls from fd 3, one at a time, and writes ``{"ok": V}`` or ``{"raised": "panic"}`` (caught with
``catch_unwind``) per call. That loop, and the codec's monomorphizations for the common parameter
and return types, are compiled once in the wire rlib, and std is the toolchain's shared object
(:func:`~execir.execute.runtimes.rust.dynamic_std`): 60-75 ms CPU a candidate, where the former
program library plus caller binary (two ``rustc``, static std) took 175 ms. Entry points with generics or
types the wire cannot carry (``dyn Any``, a type of the task's own), and tests that draw random
arguments (``rand``: recorded calls would not be the judge's), stay in-process.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from execir.execute.runtimes import rust_source
from execir.execute.runtimes.base import (
    CALLS_FILE,
    JUDGE_EXECUTABLE,
    NEED_STATUS,
    RESULTS_FILE,
    BuiltOnce,
    Plan,
    Toolchain,
    harness_source,
    judge_executable_plan,
    not_ready,
    output_of,
    root_owned,
)

WIRE = harness_source("rust_wire.rs").replace("@CALLS_FILE@", CALLS_FILE).replace("@RESULTS_FILE@", RESULTS_FILE).replace("@NEED_STATUS@", str(NEED_STATUS))
REFERENCE_PREFIX = "execir_reference_"
TESTS_MODULE = "execir_tests_module"
PROGRAM_MODULE = "execir_program"
_WORDS = frozenset(
    "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char String str Vec Option HashMap HashSet BTreeMap BTreeSet Box mut".split()
)
"""The names a replayable type may use (with ``&``, lifetimes, tuples and slices)."""
_TOKEN = re.compile(r"'\w+|\w+|::|[&<>(),\[\];]|\S")
_LIFETIME = re.compile(r"'[A-Za-z_]\w*\s*")
_CACHE_LIMIT = 512
PROGRAM_FLAGS = ("--crate-type", "bin", "--crate-name", "execir_program", "--cfg", "test", "-F", "unsafe_code")
"""The candidate's crate: its program (a module, see :data:`CALLER_MAIN`) with the caller module,
``unsafe_code`` forbidden in the whole crate (its root has no ``unsafe``: the calls loop is the
wire's, :func:`call_plan`), linked into the executable in one ``rustc``."""
CALLER_MAIN = """\
fn main() {
    ::execir_wire::serve(@MODULE@::execir_caller::execir_call);
}
#[path = "main.rs"]
mod @MODULE@;
"""
"""The root of the candidate's crate: the program is its module ``@MODULE@`` (a random name), the
calls loop is the wire's (see :func:`call_plan`)."""
JUDGE_MAIN = f"""\
fn main() {{
    for test in {PROGRAM_MODULE}::{TESTS_MODULE}::execir_tests() {{
        test();
    }}
    execir_wire::replay::complete();
}}
#[path = "main.rs"]
mod {PROGRAM_MODULE};
"""


def tokens(kind: str) -> list[str]:
    return _TOKEN.findall(kind)


def replayable(kind: str, *, argument: bool) -> bool:
    """Whether the wire carries ``kind``: standard containers of built-in types (an argument: no
    ``&mut``, no ``Box``, since the caller keeps what it lends)."""
    words = tokens(kind)
    if not words:
        return False
    for index, word in enumerate(words):
        if word.startswith("'") or word in "&<>(),[];":
            continue
        if word not in _WORDS:
            return False
        if argument and (word == "Box" or (word == "mut" and index > 0 and words[index - 1] == "&")):
            return False
    return True


def elided(kind: str) -> str:
    """``kind`` with named lifetimes left to inference (a turbofish or ``let`` type)."""
    return _LIFETIME.sub("", kind)


def static(kind: str) -> str:
    """``kind`` with every reference ``'static`` (what a decoded result is: leaked strings)."""
    return re.sub(r"&\s*", "&'static ", elided(kind))


def supported(found: rust_source.Signature | None) -> bool:
    if found is None or found.generics or not found.returns:
        return False
    return all(replayable(kind, argument=True) for _, kind in found.params) and replayable(found.returns, argument=False)


def rename(code: str, name: str, new: str) -> str:
    """``code`` with every use of the name ``name`` (outside comments and literals) renamed."""
    masked = rust_source.mask(code)
    out = code
    for found in reversed(list(re.finditer(r"(?<![\w'])" + re.escape(name) + r"\b", masked))):
        out = out[: found.start()] + new + out[found.end() :]
    return out


def random_tests(tests: str) -> bool:
    """Whether the tests draw random arguments (``rand``): the record's calls would not be the
    judge's, so such tests stay in-process."""
    return bool(re.search(r"\b(rand|thread_rng|Rng)\b", rust_source.mask(tests)))


def replacement(found: rust_source.Signature) -> str:
    """The entry point as the judge defines it: the reference's signature, its arguments' line
    handed to the replayer, the reference called (record) or the candidate's value returned (judge)."""
    names = [f"execir_p{i}" for i in range(len(found.params))]
    params = ", ".join(f"{n}: {kind}" for n, (_, kind) in zip(names, found.params))
    encoded = ", ".join(f"execir_wire::encode(&{n})" for n in names)
    call = f"{REFERENCE_PREFIX}{found.name}({', '.join(names)})"
    return (
        f"\n#[allow(unused_mut, non_snake_case)]\nfn {found.name}({params}) -> {found.returns} {{\n"
        f'    let execir_line = format!("[{{}}]", [{encoded}].join(","));\n'
        f"    match execir_wire::replay::step(&execir_line) {{\n"
        f"        None => {call},\n"
        f"        Some(execir_value) => match <{static(found.returns)} as execir_wire::Dec>::dec(&execir_value) {{\n"
        f"            Some(execir_result) => execir_result,\n"
        f"            None => execir_wire::replay::malformed(),\n"
        f"        }},\n    }}\n}}\n"
    )


def caller(found: rust_source.Signature) -> str:
    """The candidate's caller module: each argument decoded into ``found``'s parameter types,
    lent to the entry point, its result encoded."""
    lines = ["#![allow(unused_imports, unused_mut, non_snake_case)]", "use super::*;", "pub fn execir_call(args: &[execir_wire::Json]) -> Option<String> {"]
    views = []
    for i, (_, kind) in enumerate(found.params):
        lines.append(f"    let a{i} = execir_wire::arg::<{elided(kind)}>(args, {i})?;")
        views.append(f"<{elided(kind)} as execir_wire::Held>::view(&a{i})")
    lines.append(f"    if args.len() != {len(found.params)} {{ return None; }}")
    lines.append(f"    let result = super::{found.name}({', '.join(views)});")
    lines.append("    Some(execir_wire::encode(&result))\n}\n")
    return "\n".join(lines)


def wire_library(rustc: str, version: str) -> str:
    """The codec's rlib, built once per toolchain as root into the crate cache;
    :class:`ToolchainNotReady` when it is not built and cannot be (not root, a failed build)."""
    from execir.execute.runtimes.rust import CACHE_ROOT, FLAGS

    key = hashlib.sha256(repr((version, rustc, WIRE)).encode()).hexdigest()[:16]
    final = os.path.join(CACHE_ROOT, "wire-" + key)
    target = os.path.join(final, "libexecir_wire.rlib")
    if os.path.isfile(target) and root_owned(final, resolve=True):
        return target
    if os.geteuid() != 0:
        raise not_ready(
            "rust", f"the judged-outside codec library is not prebuilt yet (a root oracle builds it into {CACHE_ROOT}: run `execir doctor` once as root)", ()
        )
    argv = [rustc, *FLAGS, "-C", "opt-level=1", "--crate-type", "rlib", "--crate-name", "execir_wire", "wire.rs", "-o", "libexecir_wire.rlib"]
    os.makedirs(CACHE_ROOT, mode=0o755, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".build-", dir=CACHE_ROOT)
    try:
        with open(os.path.join(work, "wire.rs"), "w", encoding="utf-8") as handle:
            handle.write(WIRE)
        done = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise not_ready("rust", "the judged-outside codec library does not compile", ("rustc",), argv, output_of(done))
        os.remove(os.path.join(work, "wire.rs"))
        os.chmod(work, 0o755)
        os.chmod(os.path.join(work, "libexecir_wire.rlib"), 0o644)
        try:
            os.rename(work, final)
        except OSError:  # another oracle built it first
            pass
    except (OSError, subprocess.SubprocessError) as exc:
        raise not_ready("rust", f"the judged-outside codec library could not be built ({exc})", (), argv) from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not (os.path.isfile(target) and root_owned(final, resolve=True)):
        raise not_ready("rust", f"the judged-outside codec library in {final} is not root's", (), argv)
    return target


def _wire_args(toolchain: Toolchain) -> list[str] | None:
    wire = toolchain.paths.get("wire")
    if not wire or not root_owned(os.path.dirname(wire), resolve=True):
        return None
    return ["--extern", f"execir_wire={wire}", "-L", f"dependency={os.path.dirname(wire)}"]


@dataclass(frozen=True)
class Judge:
    """One task's trusted record/judge executable (as text the sandbox driver writes back as the
    same bytes) and the reference's entry-point signature."""

    binary: str
    signature: rust_source.Signature


_judges: BuiltOnce[Judge | None] = BuiltOnce(_CACHE_LIMIT)


def judge(toolchain: Toolchain, reference: str, tests: str, entry: str) -> Judge | None:
    """The task's trusted executable, built once per process (None: these tests stay in-process)."""
    key = hashlib.sha256("\x00".join((toolchain.version, toolchain.paths["rustc"], reference, tests, entry)).encode("utf-8", "surrogatepass")).hexdigest()
    return _judges.get(key, lambda: _build(toolchain, reference, tests, entry))


def _build(toolchain: Toolchain, reference: str, tests: str, entry: str) -> Judge | None:
    from execir.execute.runtimes.rust import FLAGS, dynamic_std, extern_args

    found = rust_source.signature(reference, entry)
    wire = _wire_args(toolchain)
    if not entry or wire is None or not supported(found) or found is None or random_tests(tests):
        return None
    module = rust_source.test_functions(tests)
    if not module.paths:
        return None
    program = rename(reference, entry, REFERENCE_PREFIX + entry) + replacement(found)
    program += f'\n#[path = "{TESTS_MODULE}.rs"]\npub mod {TESTS_MODULE};\n'
    listing = ", ".join(module.paths)
    tests_file = f"#![allow(unused_imports)]\nuse super::*;\n{module.code}\npub fn execir_tests() -> &'static [fn()] {{\n    &[{listing}]\n}}\n"
    rustc = [toolchain.paths["rustc"], *FLAGS, *dynamic_std(toolchain), *extern_args(toolchain), *wire]
    with tempfile.TemporaryDirectory(prefix="execir-rustjudge-") as work:
        files = {"main.rs": program, f"{TESTS_MODULE}.rs": tests_file, "judge.rs": JUDGE_MAIN}
        for name, text in files.items():
            with open(os.path.join(work, name), "w", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(text)
        argv = [*rustc, "--crate-type", "bin", "--cfg", "test", "-C", "strip=symbols", "judge.rs", "-o", JUDGE_EXECUTABLE]
        try:
            if subprocess.run(argv, cwd=work, capture_output=True, timeout=300).returncode != 0:
                return None
            with open(os.path.join(work, JUDGE_EXECUTABLE), "rb") as handle:
                binary = handle.read().decode("utf-8", "surrogateescape")
        except (OSError, subprocess.SubprocessError):
            return None
    return Judge(binary, found)


def record_plan(toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
    built = judge(toolchain, reference, tests, entry_point)
    return None if built is None else judge_executable_plan(toolchain, built.binary, "record")


def judge_plan(toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
    built = judge(toolchain, reference, tests, entry_point)
    if built is None:  # recorded earlier in this process, so only a failed rebuild gets here
        raise RuntimeError("execir: the Rust judge could not be rebuilt")
    return judge_executable_plan(toolchain, built.binary, "judge", {CALLS_FILE: calls, RESULTS_FILE: results})


def call_plan(toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
    from execir.execute.runtimes.rust import FLAGS, dynamic_std, extern_args

    wire = _wire_args(toolchain)
    theirs = rust_source.signature(reference, entry_point)
    if wire is None or theirs is None:
        raise RuntimeError("execir: the Rust reference's entry point cannot be replayed")
    own = rust_source.signature(program, entry_point)
    forms = [own] if own is not None and supported(own) else []
    if not forms or caller(forms[0]) != caller(theirs):
        forms.append(theirs)
    module = "execir_" + secrets.token_hex(8)
    files = {"caller.rs": CALLER_MAIN.replace("@MODULE@", module)}
    files["main.rs"] = program + '\n#[path = "execir_caller.rs"]\npub mod execir_caller;\n'
    files["execir_caller.rs"] = caller(forms[0])
    build = [toolchain.paths["rustc"], *FLAGS, *PROGRAM_FLAGS, *dynamic_std(toolchain), *extern_args(toolchain), *wire, "caller.rs", "-o", "prog"]
    if len(forms) == 1:
        return Plan(files, ("./prog",), tuple(build))
    files["execir_caller1.rs"] = caller(forms[1])
    line = " ".join(shlex.quote(a) for a in build)
    script = f"({line} >/dev/null 2>&1) || (cp execir_caller1.rs execir_caller.rs && {line})\n"
    return Plan(files, ("./prog",), (toolchain.paths["sh"], "-c", script))
