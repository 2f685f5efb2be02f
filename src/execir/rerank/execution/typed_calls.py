"""Call examples of Go and Java queries as native test programs, typed by each candidate's own
signature (pure: text in, text out).

Go and Java values carry their type in their source (``[]int{1, 2}``, ``new ArrayList<Integer>``),
which the examples read as Python literals do not (:mod:`execir.rerank.execution.source_values` drops it). So
the arguments are written with the types the candidate declares (:func:`signature`, read from the
candidate's own text): a list argument of a ``[]float64`` parameter is ``[]float64{1.0, 2.0}``, of
a ``List<Double>`` parameter ``new java.util.ArrayList<Double>(java.util.Arrays.<Double>asList(1.0,
2.0))``, a dict of a ``Map<String, Integer>`` parameter a ``LinkedHashMap`` filled in order; a
value the type cannot hold (``2.5`` for an ``int``, a string for a ``[]int``), a type with no
literal here (structs, functions, channels, Java wildcards) makes the example unwritable (dropped
and counted, as in :mod:`execir.rerank.execution.native_calls`).

The expected value is written as a generic value (Go: ``int64``, ``float64``, ``string``, ``bool``,
``nil``, ``[]interface{}``, ``map[interface{}]interface{}``; Java: ``Long``, ``Double``, ``String``,
``Boolean``, ``null``, lists and maps of them) and compared by a helper that looks at the returned
value's runtime type, the way the Python reranker's judge compares: numbers by value (an integer
result must equal an integer expectation exactly; a float result within relative 1e-6 or absolute
1e-9, ``float32``/``float`` within 1e-5 or 1e-6; an integer result is not 2.33), strings and
booleans exactly (a Go ``rune`` or Java ``char`` result equals a one-character string), sequences
(slices, arrays, lists) element by element, maps key by key. Java's ``Optional`` results compare as
their content (``Optional.empty`` as null), as HumanEval-X's Java prompts print them. A function
with several results (Go) is compared as the list of them, as Python compares a returned tuple.

* **Go**: one ``func TestExecirExamples(t *testing.T)`` in the candidate's package (the oracle's
  Go runtime compiles it with the candidate and runs it under its trusted test main); each failed
  example is a ``t.Error``.
* **Java**: a ``public class Main`` whose ``main`` calls a ``Solution`` instance (the oracle's Java
  runtime copies every value a ``Solution`` call returns into JDK classes before the helper sees
  it) and throws an ``AssertionError`` at the first failed example.

Rust is typed the same way (:mod:`execir.rerank.execution.rust_calls`: a ``#[cfg(test)] mod tests``
comparing a generic value of the result).

This module dispatches through each language's declared writer (:mod:`execir.rerank.execution.writers`);
:mod:`execir.rerank.execution.go_calls` and :mod:`execir.rerank.execution.java_calls` write each language,
:mod:`execir.rerank.execution.typed_values` holds what they share.
"""

from __future__ import annotations

from functools import lru_cache

from execir.language_declarations import CallForm, calling
from execir.rerank.execution.examples import CallExample
from execir.rerank.execution.native_calls import NativeSuite, Unwritable, written_suite
from execir.rerank.execution.typed_values import Signature

TYPED_CALL_LANGUAGES = calling(CallForm.TYPED)

__all__ = ["TYPED_CALL_LANGUAGES", "Signature", "signature", "typed_suite"]


@lru_cache(maxsize=4096)
def signature(program: str, language: str, name: str) -> Signature | None:
    """The signature of the last declaration of function ``name`` in ``program`` (a Go top-level
    ``func``, a Java method), or None when there is none or it has a form read here does not cover.
    Cached: planning asks for each candidate whether it declares the function, what its query's
    examples drop, and its suite."""
    from execir.rerank.execution.writers import writer_of

    writer = writer_of(language)
    if writer is None or writer.signature is None:
        return None
    try:
        return writer.signature(program, name)
    except Unwritable:
        return None


@lru_cache(maxsize=1024)
def typed_suite(examples: tuple[CallExample, ...], language: str, declared: Signature) -> NativeSuite | None:
    """The ``native`` suite of ``examples`` for a candidate declaring ``declared``; None when none of
    the examples can be written with its types."""
    from execir.rerank.execution.writers import writer_of

    writer = writer_of(language)
    return None if writer is None else written_suite(examples, writer.check, writer.tests, declared)
