"""The runtime registry: languages by name and extension, and a missing toolchain is one clear
error naming its Debian package while the other languages keep working."""

from __future__ import annotations

from pathlib import Path

import pytest

from execir.errors import ExecIRError
from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.runtimes import LANGUAGES, ToolchainMissing, infer_language, runtime
from execir.execute.runtimes.base import Runtime
from execir.types import TestSuite, Verdict


def test_languages_by_extension() -> None:
    assert infer_language(Path("x.py")) == "python"
    for language in LANGUAGES[1:]:
        assert runtime(language).extensions and all(infer_language(Path(f"x{ext}")) == language for ext in runtime(language).extensions), language
    with pytest.raises(ExecIRError, match="--language"):
        infer_language(Path("x.kt"))
    with pytest.raises(ExecIRError, match="unknown language"):
        runtime("kotlin")


def test_every_runtime_names_its_packages() -> None:
    for language in LANGUAGES[1:]:
        assert runtime(language).packages, language


def test_missing_toolchain_names_the_package_and_other_languages_keep_working(monkeypatch: pytest.MonkeyPatch) -> None:
    absent = Runtime("cpp", (".cpp",), ("g++-99",))
    with pytest.raises(ToolchainMissing, match="install the Debian package"):
        absent.require("no-such-compiler-execir")
    monkeypatch.setattr(type(runtime("ruby")), "discover", lambda self: absent.require("no-such-compiler-execir"))
    add = "def add(a, b):\n    return a + b\n"
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        with pytest.raises(ToolchainMissing, match="g\\+\\+-99"):
            oracle.run([Job("puts 1", TestSuite("native", ""), "", Limits(1.0, 4.0), language="ruby")])
        python = oracle.run([Job(add, TestSuite("check", "def check(c):\n    assert c(1, 2) == 3\n"), "add", Limits(1.0, 4.0))])
        cpp = oracle.run(
            [
                Job(
                    "int add(int a, int b) { return a + b; }\n",
                    TestSuite("native", "#include <cassert>\nint main() { assert(add(1, 2) == 3); }\n"),
                    "",
                    Limits(2.0, 8.0),
                    language="cpp",
                )
            ]
        )
    assert [python[0].verdict, cpp[0].verdict] == [Verdict.PASS, Verdict.PASS], cpp[0].detail


APPENDED_TESTS = "#include <cassert>\nint main() { assert(add(2, 3) == 5); assert(add(-1, 1) == 0); }\n"


@pytest.mark.parametrize(
    ("program", "verdict"),
    [
        ("int add(int a, int b) { return a + b; }\n", Verdict.PASS),
        ("int add(int a, int b) { return a - b; }\n", Verdict.FAIL),
        ("#define NDEBUG\n#include <cassert>\n#define assert(x) (void)0\nint add(int a, int b) { return a - b; }\n", Verdict.FAIL),
        ("#define __assert_fail(...) (void)0\nint add(int a, int b) { return a - b; }\n", Verdict.FAIL),
        ("#include <cstdlib>\nstruct E { E() { std::exit(0); } } e;\nint add(int a, int b) { return a - b; }\n", Verdict.FAIL),
    ],
)
def test_cpp_tests_in_appended_form_without_prototypes(program: str, verdict: Verdict) -> None:
    """HumanEval-X's "appended after the program" test form (no prototypes): one translation unit."""
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        (result,) = oracle.run([Job(program, TestSuite("native", APPENDED_TESTS), "", Limits(2.0, 8.0), language="cpp")])
    assert result.verdict is verdict, result.detail


def test_built_once_builds_each_key_once_and_keeps_at_most_its_limit() -> None:
    import threading
    import time

    from execir.execute.runtimes.base import BuiltOnce

    built: list[str] = []

    def build(key: str) -> str:
        time.sleep(0.05)
        built.append(key)
        return key.upper()

    cache: BuiltOnce[str] = BuiltOnce(2)
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("a", lambda: build("a")))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["A"] * 4 and built == ["a"]
    cache.get("b", lambda: build("b"))
    cache.get("c", lambda: build("c"))  # drops "a", the oldest
    assert cache.get("a", lambda: build("a")) == "A" and built == ["a", "b", "c", "a"]
