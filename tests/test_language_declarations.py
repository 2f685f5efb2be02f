"""One declaration per language: every declared part exists and is that language's, every
implementation in the tree is declared, and the oracle side reads the declarations without
tree-sitter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from execir.language_declarations import DECLARATIONS, LANGUAGES, CallForm, calling, extension_language, having, is_host_language, load

SRC = Path(__file__).resolve().parent.parent / "src" / "execir"
NAMES = sorted(DECLARATIONS)


@pytest.mark.parametrize("name", NAMES)
def test_every_declared_part_is_implemented_and_is_that_languages(name):
    d = DECLARATIONS[name]
    language = load(d.language)
    assert language.name == name
    if d.runtime:
        runtime = load(d.runtime)
        assert runtime.name == name and set(runtime.extensions) <= set(d.extensions)
    if d.rewrites:
        assert load(d.rewrites).rules_for(name)
    if d.selftest:
        cases = load(d.selftest)
        assert cases and {case.language for case in cases} == {name}
    if d.tasks:
        assert callable(load(d.tasks).load)
    if d.examples:
        from execir.rerank.execution.examples import Syntax

        assert isinstance(load(d.examples), Syntax)
    for extension in d.extensions:
        assert extension_language(extension) == name


def _defines(path: Path, names: set[str]) -> bool:
    """``path`` assigns one of ``names`` (or defines a function of that name) at the top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id in names for t in targets):
            return True
        if isinstance(node, ast.FunctionDef) and node.name in names:
            return True
    return False


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")


def test_every_implementation_in_the_tree_is_declared():
    declared_parts = {part.partition(":")[0] for d in DECLARATIONS.values() for part in (d.language, d.runtime, d.selftest, d.tasks) if part}
    languages = {_module(p / "__init__.py") for p in (SRC / "languages").iterdir() if (p / "__init__.py").exists() and p.name != "treesitter"}
    runtimes = {_module(p) for p in (SRC / "execute" / "runtimes").glob("*.py") if _defines(p, {"RUNTIME"})}
    selftest = {case.name for d in DECLARATIONS.values() if d.selftest for case in load(d.selftest)}
    cases = {  # modules of another language's cases, none of them among a declared module's
        _module(p)
        for p in (SRC / "execute" / "attacks").glob("adversarial_*.py")
        if _defines(p, {"CASES"}) and any(case.language != "python" and case.name not in selftest for case in load(f"{_module(p)}:CASES"))
    }
    loaders = {_module(p) for p in (SRC / "tasks" / "multilingual").glob("*.py") if p.stem != "sources" and _defines(p, {"load"})}
    assert languages - declared_parts == set()
    assert runtimes - declared_parts == set()
    assert cases - declared_parts == set()
    assert loaders - declared_parts == set()


def test_call_forms_and_writers_agree():
    from execir.rerank.execution import writers

    constants = {name for name, value in vars(writers).items() if isinstance(value, writers.CallWriter)}
    assert constants == {d.writer.partition(":")[2] for d in DECLARATIONS.values() if d.writer}
    for name, d in DECLARATIONS.items():
        writer = writers.writer_of(name)
        assert (writer is not None) == (d.calls in (CallForm.NATIVE, CallForm.TYPED)), name
        assert writer is None or (writer.signature is not None) == (d.calls is CallForm.TYPED), name
        assert not d.probes or writer is not None, name


def test_the_rewrite_syntaxes_are_declared_languages():
    import pkgutil

    from execir.rewrite.treesitter import syntaxes
    from execir.rewrite.treesitter.syntax import Syntax, syntax_of

    tree_rewritten = {name for name, d in DECLARATIONS.items() if d.rewrites == "execir.rewrite.treesitter"}
    assert tree_rewritten == {name for name, d in DECLARATIONS.items() if d.rewrite_syntax}
    modules = {m.name for m in pkgutil.iter_modules(syntaxes.__path__)}
    assert modules == {d.rewrite_syntax.partition(":")[0].rsplit(".", 1)[1] for d in DECLARATIONS.values() if d.rewrite_syntax}
    for name in tree_rewritten:
        found = syntax_of(name)
        assert isinstance(found, Syntax) and found.name == name, name


def test_no_language_is_named_outside_its_files_and_the_declarations():
    """No ``language == "<name>"`` branch and no table keyed by a language's name outside the
    language's own files (its folders and per-language modules) and the declarations."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "src" / "execir"
    names = "|".join(DECLARATIONS)
    branch = re.compile(rf'(==|!=)\s*"({names})"|"({names})"\s*(==|!=)')
    natives = "|".join(n for n in DECLARATIONS if not is_host_language(n))  # "python" keys also name the interpreter's version
    keyed = re.compile(rf'(^|[{{,(])\s*"({natives})"\s*:')
    own = {"language_declarations.py"}
    offending = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if path.name in own or relative.parts[0] == "languages" or any(n in path.stem.split("_") or path.stem == n for n in DECLARATIONS):
            continue
        if any(part in DECLARATIONS for part in relative.parts[:-1]):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if branch.search(line) or keyed.search(line):
                offending.append(f"{relative}:{number}: {line.strip()}")
    assert not offending, "\n".join(offending)


def test_capability_sets_are_derived_from_the_declarations():
    from execir.construct.undefined_behaviour import PROBED_LANGUAGES
    from execir.execute.runtimes import LANGUAGES as RUNNABLE
    from execir.rerank.execution.exec_plan import CALL_LANGUAGES, STDIO_LANGUAGES
    from execir.rerank.execution.native_calls import NATIVE_CALL_LANGUAGES
    from execir.rerank.execution.native_probes import PROBE_LANGUAGES
    from execir.rerank.execution.typed_calls import TYPED_CALL_LANGUAGES

    assert RUNNABLE == LANGUAGES and LANGUAGES[0] == "python"
    assert NATIVE_CALL_LANGUAGES == calling(CallForm.NATIVE) and TYPED_CALL_LANGUAGES == calling(CallForm.TYPED)
    assert CALL_LANGUAGES == calling(CallForm.PYTHON) | calling(CallForm.NATIVE) | calling(CallForm.TYPED)
    assert PROBE_LANGUAGES == having("probes") and STDIO_LANGUAGES == having("stdio") and PROBED_LANGUAGES == having("undefined_behaviour")


def test_the_oracle_side_reads_the_declarations_without_tree_sitter():
    code = (
        "import sys\n"
        "import execir.language_declarations, execir.execute.oracle, execir.execute.runtimes\n"
        "from execir.execute.runtimes import runtime\n"
        "[runtime(n) for n in execir.execute.runtimes.LANGUAGES[1:]]\n"
        "bad = [m for m in sys.modules if m.startswith('tree_sitter') or m.startswith('execir.languages')]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
