"""Each native language's writers for the execution reranker, one :class:`CallWriter` per language
(:mod:`execir.language_declarations` names them): how a query's example becomes a check in the
language's tests, the program those checks run in, a probe call and the program that prints probe
results, and for languages typed by the candidate's signature, the reader of that signature.

The reranker's modules (:mod:`~execir.rerank.execution.native_calls`, :mod:`~execir.rerank.execution.typed_calls`,
:mod:`~execir.rerank.execution.native_probes`, :mod:`~execir.rerank.execution.exec_plan`) ask :func:`writer_of` and never
branch on a language's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from execir.language_declarations import declared, load
from execir.rerank.execution import go_calls, java_calls, native_calls, native_probes, rust_calls
from execir.rerank.execution.examples import CallExample, Examples
from execir.rerank.execution.native_calls import Unwritable
from execir.rerank.execution.typed_values import Signature


@dataclass(frozen=True)
class CallWriter:
    """One language's writers (``Signature`` arguments are None for untyped languages)."""

    check: Callable[[CallExample, Signature | None], str]
    """An example as a check of the language's tests (raises :class:`Unwritable`)."""
    tests: Callable[[list[str], Signature | None], str]
    """The native test program of the checks."""
    call: Callable[[CallExample, Signature | None], str]
    """A probe call (raises :class:`Unwritable`)."""
    probes: Callable[[list[str], Signature | None], str]
    """The program printing each probe call's canonical result."""
    signature: Callable[[str, str], Signature | None] | None = None
    """Typed languages: the candidate's declared signature of a function (None: untyped)."""
    probe_arguments: Callable[[Examples], tuple[str, ...]] | None = None
    """The language's own choice of probe arguments (None: the shared one)."""
    methods_indented: bool = False
    """Functions are methods indented inside a class (Java): the entry point is read from every line."""


def writer_of(language: str) -> CallWriter | None:
    """The writer its declaration names for ``language`` (None: the reranker writes no native calls)."""
    found = declared(language)
    if found is None or found.writer is None:
        return None
    writer: CallWriter = load(found.writer)
    return writer


def _untyped(write: Callable[[CallExample], str]) -> Callable[[CallExample, Signature | None], str]:
    return lambda example, _: write(example)


def _program(write: Callable[[list[str]], str]) -> Callable[[list[str], Signature | None], str]:
    return lambda checks, _: write(checks)


def _typed(write: Callable[[CallExample, Signature], str], *, probe: bool = False) -> Callable[[CallExample, Signature | None], str]:
    def written(example: CallExample, signature: Signature | None) -> str:
        if signature is None:
            raise Unwritable("no signature")
        if probe and (not signature.results or signature.results == ("void",)):
            raise Unwritable("no result")
        return write(example, signature)

    return written


def _go_tests(checks: list[str], signature: Signature | None) -> str:
    if signature is None:
        raise Unwritable("no signature")
    return go_calls.go_program(checks, signature.package)


JS = CallWriter(_untyped(native_calls.js_check), _program(native_calls.js_program), _untyped(native_calls.js_call), native_probes.js_probe_program)
CPP = CallWriter(
    _untyped(native_calls.cpp_check),
    _program(native_calls.cpp_program),
    _untyped(native_calls.cpp_call),
    native_probes.cpp_probe_program,
    probe_arguments=native_probes.cpp_probe_arguments,
)
RUBY = CallWriter(_untyped(native_calls.ruby_check), _program(native_calls.ruby_program), _untyped(native_calls.ruby_call), native_probes.ruby_probe_program)
GO = CallWriter(_typed(go_calls.go_check), _go_tests, _typed(go_calls.go_call, probe=True), native_probes.go_probe_program, signature=go_calls.go_signature)
JAVA = CallWriter(
    _typed(java_calls.java_check),
    _program(java_calls.java_program),
    _typed(java_calls.java_call, probe=True),
    native_probes.java_probe_program,
    signature=java_calls.java_signature,
    methods_indented=True,
)
RUST = CallWriter(
    _typed(rust_calls.rust_check),
    _program(rust_calls.rust_program),
    _typed(rust_calls.rust_probe_call, probe=True),
    rust_calls.rust_probe_program,
    signature=rust_calls.rust_signature,
)
