"""C++ judged outside the candidate's process (the plans of :class:`~execir.execute.runtimes.cpp.CppRuntime`).

**Record and judge** are one trusted executable per task, built on the host (no candidate code in
it) and cached: the reference program with its entry point renamed ``execir_reference_<name>`` (so
its helpers, ``poly`` or ``encode_cyclic``, are the ones the tests call), then the name bound to an
``Entry`` object (harness ``cpp_replay.h``) whose call operator has exactly the reference's
parameter types, generated from ``decltype`` of the renamed definition, then the task's tests (their
file-scope prototypes of the entry point renamed with the definition). ``NDEBUG`` is renamed away in
both, and ``-UNDEBUG`` is on the command line, so the tests' asserts are always on. The tests' ``main``
becomes ``execir_tests_main`` in the object; the harness ``main`` writes the nonce only after it
returned 0. ``EXECIR_REPLAY=record`` writes each call's arguments (harness ``cpp_wire.h``: exact
floats, exact bytes) and calls the reference; ``EXECIR_REPLAY=judge`` replays the candidate's values.
The reference's function type, as ``nm -C`` demangles a symbol instantiated with it, is kept for
the candidate's caller.

**The candidate's run** compiles the program with the caller (harness ``cpp_caller.h``) appended,
once with the arguments decoded into the candidate's own parameter types and, only if that does not
compile (overloads, templates, a return type the wire cannot carry), with the reference's. Tests
whose reference or tests this cannot build (an entry point the wire cannot carry, ``boost::any``,
default arguments, the entry's address taken) stay in-process (``record_plan`` returns None).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import subprocess
import tempfile
import threading
from dataclasses import dataclass

from execir.execute.runtimes import cpp_source
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
    root_owned,
)

WIRE = harness_source("cpp_wire.h")
REPLAY = harness_source("cpp_replay.h").replace("@CALLS_FILE@", CALLS_FILE).replace("@RESULTS_FILE@", RESULTS_FILE).replace("@NEED_STATUS@", str(NEED_STATUS))
CALLER = harness_source("cpp_caller.h")
JUDGE_MAIN = harness_source("cpp_judge_main.cpp")
REFERENCE_PREFIX = "execir_reference_"
_SIGNATURE = re.compile(r"execir_replay::signature<(.+)>\(\)\s*$", re.MULTILINE)
_SIGNATURE_WORDS = frozenset(
    "std __cxx11 basic_string char_traits allocator vector list deque map multimap set multiset unordered_map "
    "unordered_multimap unordered_set unordered_multiset hash equal_to less greater pair tuple array void bool char "
    "signed unsigned short int long float double wchar_t char16_t char32_t const".split()
)
"""The names a replayable signature may use (standard containers of built-in types)."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
CONTAINER_HEADERS = {
    "map": "map",
    "multimap": "map",
    "set": "set",
    "multiset": "set",
    "unordered_map": "unordered_map",
    "unordered_multimap": "unordered_map",
    "unordered_set": "unordered_set",
    "unordered_multiset": "unordered_set",
    "deque": "deque",
    "list": "list",
    "array": "array",
    "tuple": "tuple",
}
"""The header of each container the wire carries only where its header was included first."""
JUDGE_PRELUDE_NAME = "execir_judge_prelude.h"
_CACHE_LIMIT = 512


@dataclass(frozen=True)
class Judge:
    """The trusted record/judge executable of one task (as text the sandbox driver writes back as
    the same bytes), the entry point it replays and the reference's function type."""

    binary: str
    entry: str
    signature: str


_lock = threading.Lock()
_judges: BuiltOnce[Judge | None] = BuiltOnce(_CACHE_LIMIT)
_signatures: dict[str, tuple[str, str]] = {}
"""(reference, hint) -> (entry, signature), for the candidate's caller."""
_main_object: list[bytes] = []


def _key(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def judge(toolchain: Toolchain, reference: str, tests: str, hint: str) -> Judge | None:
    """The task's trusted executable, built once per process (None: these tests stay in-process)."""
    key = _key(toolchain.version, toolchain.paths.get("g++", ""), reference, tests, hint)
    built = _judges.get(key, lambda: _build(toolchain, reference, tests, hint))
    if built is not None:
        with _lock:
            _signatures[_key(reference, hint)] = (built.entry, built.signature)
    return built


def judge_source(reference: str, tests: str, entry: str) -> str | None:
    """The trusted translation unit (see the module docstring), or None when the reference's
    definition of ``entry`` cannot be copied (a parameter without a name)."""
    found = cpp_source.definition(reference, entry)
    if found is None:
        return None
    renamed = REFERENCE_PREFIX + entry
    replayer = f"execir_entry_{entry}"
    return (
        '#line 1 "reference.cpp"\n'
        + cpp_source.trusted(reference, {entry: renamed})
        + f'\n#line 1 "execir_entry"\nstatic const execir_replay::Entry<decltype({renamed})> {replayer}(&{renamed});\n'
        + f"template void execir_replay::signature<decltype({renamed})>();\n"
        + f"{found.header} {{ return {replayer}({', '.join(found.params)}); }}\n"
        + '#undef NDEBUG\n#include <assert.h>\n#line 1 "tests.cpp"\n'
        + cpp_source.trusted(tests)
        + "\n"
    )


def judge_prelude() -> str:
    """What the trusted translation unit starts with (precompiled once): HumanEval-X's headers,
    every container the wire carries, the codec and the replayer."""
    from execir.execute.runtimes.cpp import PRELUDE

    containers = "".join(f"#include <{name}>\n" for name in sorted(set(CONTAINER_HEADERS.values())))
    return PRELUDE + containers + WIRE + REPLAY.replace('#include "execir_wire.h"\n', "")


_judge_pch: dict[str, str | None] = {}


def _judge_pch_dir(toolchain: Toolchain) -> str | None:
    from execir.execute.runtimes.cpp import NATIVE_FLAGS, _build_pch

    key = toolchain.version + toolchain.paths["g++"]
    with _lock:
        if key not in _judge_pch:
            _judge_pch[key] = _build_pch(toolchain.paths["g++"], toolchain.version, JUDGE_PRELUDE_NAME, judge_prelude(), None, (*NATIVE_FLAGS, "-UNDEBUG"))
        return _judge_pch[key]


def _flags(toolchain: Toolchain, flags: tuple[str, ...], prelude_dir: str, prelude: str, pch: str | None = None) -> list[str]:
    pch = pch or toolchain.paths.get("pch-native")
    include = ["-I", pch] if pch and root_owned(pch, resolve=True) else []
    return [toolchain.paths["g++"], *flags, "-UNDEBUG", *include, "-I", prelude_dir, "-include", prelude, "-I", "."]


def _build(toolchain: Toolchain, reference: str, tests: str, hint: str) -> Judge | None:
    from execir.execute.runtimes.cpp import LINK_LIBS, NATIVE_FLAGS

    entry = cpp_source.entry_name(reference, tests, hint)
    if entry is None or entry == "main":
        return None
    paths = toolchain.paths
    with tempfile.TemporaryDirectory(prefix="execir-cppjudge-") as work:
        os.mkdir(os.path.join(work, "inc"))
        source = judge_source(reference, tests, entry)
        if source is None:
            return None
        files = {f"inc/{JUDGE_PRELUDE_NAME}": judge_prelude(), "judge.cpp": source, "judge_main.cpp": JUDGE_MAIN}
        for name, text in files.items():
            with open(os.path.join(work, name), "w", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(text)
        gxx = _flags(toolchain, NATIVE_FLAGS, "inc", JUDGE_PRELUDE_NAME, _judge_pch_dir(toolchain))
        try:
            if not _run([*gxx, "-c", "judge.cpp", "-o", "j.o"], work):
                return None
            listed = subprocess.run([paths["nm"], "-C", "--defined-only", "j.o"], cwd=work, capture_output=True, text=True, timeout=60)
            found = _SIGNATURE.search(listed.stdout)
            if found is None or not replayable(found.group(1)):
                return None
            if not _run([paths["objcopy"], "--redefine-sym", "main=execir_tests_main", "j.o"], work):
                return None
            if _main_object:
                with open(os.path.join(work, "m.o"), "wb") as handle:
                    handle.write(_main_object[0])
            elif _run([paths["g++"], *NATIVE_FLAGS, "-c", "judge_main.cpp", "-o", "m.o"], work):
                with open(os.path.join(work, "m.o"), "rb") as handle:
                    _main_object.append(handle.read())
            else:
                return None
            fuse = [paths["fuse-ld"]] if paths.get("fuse-ld") else []
            if not _run([paths["g++"], *fuse, "-s", "j.o", "m.o", "-o", JUDGE_EXECUTABLE, *LINK_LIBS], work):
                return None
            with open(os.path.join(work, JUDGE_EXECUTABLE), "rb") as handle:
                binary = handle.read().decode("utf-8", "surrogateescape")
        except (OSError, subprocess.SubprocessError):
            return None
    return Judge(binary, entry, found.group(1))


def _run(argv: list[str], cwd: str) -> bool:
    return subprocess.run(argv, cwd=cwd, capture_output=True, timeout=120).returncode == 0


def replayable(signature: str) -> bool:
    """Whether the caller can name the reference's function type: standard containers of built-in
    types only (a type of the reference's own would not exist in the candidate's program)."""
    return all(word in _SIGNATURE_WORDS for word in _NAME.findall(signature))


def record_plan(toolchain: Toolchain, reference: str, tests: str, entry_point: str) -> Plan | None:
    built = judge(toolchain, reference, tests, entry_point)
    return None if built is None else judge_executable_plan(toolchain, built.binary, "record")


def judge_plan(toolchain: Toolchain, reference: str, tests: str, entry_point: str, calls: str, results: str) -> Plan:
    built = judge(toolchain, reference, tests, entry_point)
    if built is None:  # recorded earlier in this process, so only a failed rebuild gets here
        raise RuntimeError("execir: the C++ judge could not be rebuilt")
    return judge_executable_plan(toolchain, built.binary, "judge", {CALLS_FILE: calls, RESULTS_FILE: results})


def signature_header(signature: str) -> str:
    """The reference's function type for the caller, after the headers of the containers it names."""
    headers = sorted({CONTAINER_HEADERS[name] for name in _NAME.findall(signature) if name in CONTAINER_HEADERS})
    includes = "".join(f"#include <{name}>\n" for name in ("string", "utility", "vector", *headers))
    return f"{includes}template <class T> struct execir_sig_id {{ typedef T type; }};\ntypedef execir_sig_id<{signature}>::type execir_ref_sig;\n"


_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([^>]+)>", re.MULTILINE)
_TAIL_WORDS = "struct template class auto operator const decltype return int main typedef void execir_caller serve".split()


def call_source(program: str, entry: str) -> str:
    """The candidate's translation unit: the trusted caller first (no macro of the program reaches
    it), after the container headers the program includes (so the wire carries the program's own
    parameter types), then the program, then :func:`call_tail`."""
    named = set(_INCLUDE.findall(program))
    every = "bits/stdc++.h" in named
    headers = sorted({h for h in CONTAINER_HEADERS.values() if every or h in named})
    includes = "".join(f"#include <{h}>\n" for h in headers)
    return f'{includes}#include "execir_caller.h"\n#line 1 "main.cpp"\n{program}\n{call_tail(program, entry)}'


def call_tail(program: str, entry: str) -> str:
    """After the program: binds the entry point by name and runs the caller. It #undefs every
    keyword it uses (a program may ``#define int long long``) and its own names carry a digest of
    the program, which the program cannot name in a macro of its own."""
    tag = hashlib.sha256(program.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    undefs = "".join(f"#undef {word}\n" for word in _TAIL_WORDS)
    return (
        f'{undefs}#line 1 "execir_tail.cpp"\n'
        f"struct execir_invoke_{tag} {{\n"
        f"    template <class... execir_t_{tag}>\n"
        f"    auto operator()(execir_t_{tag} &...execir_a_{tag}) const -> decltype({entry}(execir_a_{tag}...)) {{\n"
        f"        return {entry}(execir_a_{tag}...);\n    }}\n}};\n"
        f"#ifdef EXECIR_OWN_TYPES\ntypedef decltype(&{entry}) execir_own_{tag};\n#else\ntypedef void execir_own_{tag};\n#endif\n"
        f"int main() {{ return execir_caller::serve<execir_invoke_{tag}, execir_own_{tag}>(); }}\n"
    )


def call_plan(toolchain: Toolchain, program: str, entry_point: str, reference: str) -> Plan:
    from execir.execute.runtimes.cpp import LINK_LIBS, NATIVE_FLAGS, PRELUDE, PRELUDE_NAME

    found = _signatures.get(_key(reference, entry_point))
    if found is None:  # recorded in another process: the reference alone names the type
        built = judge(toolchain, reference, "int main() { return 0; }\n", entry_point)
        if built is None:
            raise RuntimeError("execir: the C++ reference's entry point cannot be replayed")
        found = (built.entry, built.signature)
    entry, signature = found
    files = {
        "main.cpp": call_source(program, entry),
        "execir_wire.h": WIRE,
        "execir_caller.h": CALLER,
        "execir_sig.h": signature_header(signature),
        f"inc/{PRELUDE_NAME}": PRELUDE,
    }
    gxx = [*_flags(toolchain, (*NATIVE_FLAGS, "-pipe"), "inc", PRELUDE_NAME)]
    if toolchain.paths.get("fuse-ld"):
        gxx.append(toolchain.paths["fuse-ld"])
    tail = ["main.cpp", "-o", "prog", *LINK_LIBS]
    own = " ".join(shlex.quote(a) for a in [*gxx, "-DEXECIR_OWN_TYPES", *tail])
    ref = " ".join(shlex.quote(a) for a in [*gxx, *tail])
    # the candidate's own parameter types first; the reference's where those cannot be named
    script = f"{own} >/dev/null 2>&1 || {ref}\n"
    return Plan(files, ("./prog",), (toolchain.paths["sh"], "-c", script))
