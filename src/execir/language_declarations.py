"""One declaration per language: what ExecIR can do in it and where each part lives.

Every table keyed by a language name (the parsers and operators, the oracle's runtimes, the rewrite
rules, the selftest cases, the public task sets, the execution reranker's example syntax, call forms,
probes and stdio runs, the build's undefined-behaviour probe) is derived from :data:`DECLARATIONS`,
so adding a language is its own files plus one :class:`LanguageDeclaration` here; a capability that
is declared but not implemented, or implemented but not declared, fails
``tests/test_language_declarations.py``.

Parts are named as ``"module:attribute"`` (or a module) and imported only when used: this module
imports nothing of ExecIR's, so the oracle side reads it without tree-sitter.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import Enum
from typing import Any


class CallForm(Enum):
    """How the execution reranker writes a call of a candidate's entry point from a query's examples."""

    PYTHON = "python"
    """Python calls over the judge's channel."""
    NATIVE = "native"
    """The examples' own literals in the language's syntax (``native_calls``)."""
    TYPED = "typed"
    """Literals typed by the candidate's declared signature (``typed_calls``)."""


@dataclass(frozen=True)
class LanguageDeclaration:
    """What one language can do, and where each part lives (None: not available)."""

    name: str
    extensions: tuple[str, ...]
    """Source files of the language (commands infer ``--language`` from them)."""
    language: str
    """``module:attribute`` of its :class:`~execir.languages.base.Language` (parse, strip comments,
    describe, tokens, mutation operators)."""
    runtime: str | None = None
    """``module:attribute`` of its oracle :class:`~execir.execute.runtimes.base.Runtime` (None:
    Python, which the oracle runs with its own protocol)."""
    rewrites: str | None = None
    """Module whose ``rules_for(name)`` gives its semantics-preserving rewrite rules."""
    selftest: str | None = None
    """``module:attribute`` of its ``execir selftest`` cases (Python's are the oracle's own)."""
    tasks: str | None = None
    """Module whose ``load(data)`` reads its public task set from ``../shared/data``."""
    examples: str | None = None
    """``module:attribute`` of the syntax its prompts write example values in (None: read as Python)."""
    calls: CallForm | None = None
    """How the execution reranker calls a candidate from a query's examples (None: it does not)."""
    probes: bool = False
    """The execution reranker probes candidates with values beside the examples (native languages)."""
    stdio: bool = False
    """The execution reranker runs candidates on stdin/stdout examples."""
    undefined_behaviour: bool = False
    """A build re-runs failing candidates instrumented, rejecting failures that reach undefined behaviour."""
    rewrite_syntax: str | None = None
    """``module:attribute`` of the :class:`~execir.rewrite.treesitter.syntax.Syntax` the tree-sitter
    rewrite rules read its node types from (languages whose ``rewrites`` is ``execir.rewrite.treesitter``)."""
    writer: str | None = None
    mteb_code: str = ""
    """MTEB's programming-language code for it (``<code>-Code``; empty: the name itself)."""

    def __post_init__(self) -> None:
        if not self.mteb_code:
            object.__setattr__(self, "mteb_code", self.name)

    """``module:attribute`` of the execution reranker's :class:`~execir.rerank.execution.writers.CallWriter`
    (native and typed call forms: its checks, tests, probe calls and probe programs)."""


_LANG = "execir.languages"
_RT = "execir.execute.runtimes"
_ADV = "execir.execute.attacks.adversarial"
_TASKS = "execir.tasks.multilingual"
_EXAMPLES = "execir.rerank.execution.examples"
_TREE_REWRITES = "execir.rewrite.treesitter"
_WRITERS = "execir.rerank.execution.writers"
_SYNTAXES = "execir.rewrite.treesitter.syntaxes"

DECLARATIONS: dict[str, LanguageDeclaration] = {
    d.name: d
    for d in (
        LanguageDeclaration("python", (".py",), f"{_LANG}.python:PYTHON", rewrites="execir.rewrite.python", calls=CallForm.PYTHON, stdio=True),
        LanguageDeclaration(
            "cpp",
            (".cpp", ".cc", ".cxx", ".hpp", ".h"),
            f"{_LANG}.cpp:CPP",
            f"{_RT}.cpp:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_cpp:CASES",
            f"{_TASKS}.humanevalx_cpp",
            f"{_EXAMPLES}:CPP_EXAMPLES",
            CallForm.NATIVE,
            probes=True,
            stdio=True,
            writer=f"{_WRITERS}:CPP",
            mteb_code="c++",
            rewrite_syntax=f"{_SYNTAXES}.cpp:SYNTAX",
            undefined_behaviour=True,
        ),
        LanguageDeclaration(
            "java",
            (".java",),
            f"{_LANG}.java:JAVA",
            f"{_RT}.java:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_java:CASES",
            f"{_TASKS}.humanevalx_java",
            f"{_EXAMPLES}:JAVA_EXAMPLES",
            CallForm.TYPED,
            probes=True,
            stdio=True,
            writer=f"{_WRITERS}:JAVA",
            rewrite_syntax=f"{_SYNTAXES}.java:SYNTAX",
        ),
        LanguageDeclaration(
            "go",
            (".go",),
            f"{_LANG}.go:GO",
            f"{_RT}.go:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_go:CASES",
            f"{_TASKS}.humanevalx_go",
            f"{_EXAMPLES}:GO_EXAMPLES",
            CallForm.TYPED,
            probes=True,
            stdio=True,
            writer=f"{_WRITERS}:GO",
            rewrite_syntax=f"{_SYNTAXES}.go:SYNTAX",
        ),
        LanguageDeclaration(
            "js",
            (".js", ".mjs", ".cjs"),
            f"{_LANG}.js:JS",
            f"{_RT}.js:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_js:CASES",
            f"{_TASKS}.humanevalx_js",
            f"{_EXAMPLES}:JS_EXAMPLES",
            CallForm.NATIVE,
            probes=True,
            stdio=True,
            writer=f"{_WRITERS}:JS",
            mteb_code="javascript",
            rewrite_syntax=f"{_SYNTAXES}.js:SYNTAX",
        ),
        LanguageDeclaration(
            "ruby",
            (".rb",),
            f"{_LANG}.ruby:RUBY",
            f"{_RT}.ruby:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_ruby:CASES",
            f"{_TASKS}.mbxp_ruby",
            f"{_EXAMPLES}:RUBY_EXAMPLES",
            CallForm.NATIVE,
            probes=True,
            stdio=True,
            writer=f"{_WRITERS}:RUBY",
            rewrite_syntax=f"{_SYNTAXES}.ruby:SYNTAX",
        ),
        LanguageDeclaration(
            "php",
            (".php",),
            f"{_LANG}.php:PHP",
            f"{_RT}.php:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_php:CASES",
            f"{_TASKS}.mbxp_php",
            rewrite_syntax=f"{_SYNTAXES}.php:SYNTAX",
        ),
        LanguageDeclaration(
            "typescript",
            (".ts", ".mts", ".cts"),
            f"{_LANG}.ts:TS",
            f"{_RT}.ts:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_ts:CASES",
            f"{_TASKS}.mbxp_typescript",
            rewrite_syntax=f"{_SYNTAXES}.typescript:SYNTAX",
        ),
        LanguageDeclaration(
            "rust",
            (".rs",),
            f"{_LANG}.rust:RUST",
            f"{_RT}.rust:RUNTIME",
            _TREE_REWRITES,
            f"{_ADV}_rust:CASES",
            f"{_TASKS}.humanevalx_rust",
            f"{_EXAMPLES}:RUST_EXAMPLES",
            CallForm.TYPED,
            probes=True,
            writer=f"{_WRITERS}:RUST",
            rewrite_syntax=f"{_SYNTAXES}.rust:SYNTAX",
        ),
    )
}
"""Every language ExecIR knows, Python first."""

LANGUAGES: tuple[str, ...] = tuple(DECLARATIONS)


def declared(name: str) -> LanguageDeclaration | None:
    """The declaration of ``name`` (None for a name no language has)."""
    return DECLARATIONS.get(name)


def load(part: str) -> Any:
    """The object a ``module:attribute`` part names (a module when it names no attribute)."""
    module, _, attribute = part.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def is_host_language(name: str) -> bool:
    """True for the language the oracle runs with its own protocol rather than a declared runtime:
    Python, ExecIR's own language (``check``/``asserts`` tests through the judge's proxy, its own
    task loaders, rewrites over ``ast``). Every other language is judged by its :class:`Runtime`."""
    found = DECLARATIONS.get(name)
    return found is not None and found.runtime is None


def having(capability: str) -> frozenset[str]:
    """The languages whose declaration sets ``capability`` (a field; truthy means available)."""
    return frozenset(name for name, d in DECLARATIONS.items() if getattr(d, capability))


def calling(form: CallForm) -> frozenset[str]:
    """The languages whose execution-reranker calls take ``form``."""
    return frozenset(name for name, d in DECLARATIONS.items() if d.calls is form)


def extension_language(suffix: str) -> str | None:
    """The language a file extension belongs to (None: none)."""
    return next((name for name, d in DECLARATIONS.items() if suffix.lower() in d.extensions), None)
