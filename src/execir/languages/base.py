"""The language protocol of the mutate/dataset side: what ExecIR needs to know about a language to
turn a task's program into documents, queries and mutants.

Execution lives elsewhere (:mod:`execir.execute.runtimes`); this protocol is about source text:
parsing, operators, tokens, comments and descriptions. Every language is one folder under
:mod:`execir.languages` that builds a :class:`Language`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from execir.edits import SpanEdit
from execir.errors import ExecIRError

STATEMENT_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "synchronized", "try", "do", "return", "new", "throw", "else"})
"""C-family keywords whose lines look like a function's opening (``if (t > 3) {``) but open a
statement: the Java and C++ signature readers skip them."""

ProgramT = TypeVar("ProgramT")

FAMILIES: dict[str, str] = {
    "operator": "an operator replaced by a plausible other (arithmetic, comparison, boolean, bitwise, assignment)",
    "value": "a literal or constant changed (numbers +-1, 0<->1, true<->false, a condition or return replaced by a constant)",
    "missing": "something deleted (a statement, a guard, an operand, a call wrapper, an argument, a slice, an element)",
    "excess": "something added (a negation, a term, a call wrapper, an argument)",
    "variable": "one use of a name or an operand order changed (variable misuse, operand/argument swap)",
    "function": "a called function or method replaced by a related one (min<->max, lower<->upper, any<->all)",
}
"""Operator families, shared by every language: the bug classes real-bug studies report
(HumanEvalFix's bug types, the ManySStuBs4J / PySStuBs patterns)."""

FAMILY_WEIGHTS: dict[str, float] = {
    "value": 3.0,
    "missing": 3.0,
    "operator": 2.5,
    "variable": 2.0,
    "excess": 2.0,
    "function": 1.0,
}
"""Selection weight of each family: roughly how often each class occurs among HumanEvalFix's 164
human-written bugs per language (value misuse 44, missing logic 33, excess logic 31, operator misuse
25, variable misuse 23, function misuse 8), flattened so that no family starves. Recorded in every
dataset manifest."""


class ParseError(ExecIRError):
    """A program that the language's parser rejects."""


@dataclass(frozen=True)
class OperatorSpec(Generic[ProgramT]):
    """One mutation operator: a stable name (written into datasets; never renamed), its family
    and a pure function from a parsed program to candidate edits (each edit is one mutant)."""

    name: str
    family: str
    apply: Callable[[ProgramT], Iterable[SpanEdit]]

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"operator {self.name}: unknown family {self.family!r}")


@dataclass(frozen=True)
class Language(Generic[ProgramT]):
    """Everything the mutate and dataset stages need from one language.

    ``parse`` raises :class:`ParseError` on text it cannot parse; ``is_valid`` says whether a
    mutated text still parses (and, for Python, compiles); ``tokens`` gives the significant token
    strings (no layout, no comments) used for edit distance and for comparing programs;
    ``strip_comments`` removes comments (and docstrings) so a document does not contain its query;
    ``describe`` turns a task's prompt text into the prose description used as a query;
    ``doc_comment`` gives a prompt's documentation with its examples (``(prompt, entry point)`` ->
    the entry point's docstring, or the prompt's last doc comment, markers removed and lines
    stripped; "" when there is none), the full problem text of ``t2c-full``.
    """

    name: str
    parse: Callable[[str], ProgramT]
    is_valid: Callable[[str], bool]
    tokens: Callable[[str], tuple[str, ...]]
    strip_comments: Callable[[str], str]
    describe: Callable[[str], str]
    operators: tuple[OperatorSpec[ProgramT], ...] = field(default=())
    doc_comment: Callable[[str, str], str] = field(default=lambda prompt, entry_point: "")

    def __post_init__(self) -> None:
        names = [op.name for op in self.operators]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: duplicate operator names")

    @property
    def operator_names(self) -> tuple[str, ...]:
        """Operator names in name order."""
        return tuple(sorted(op.name for op in self.operators))

    def family_of(self, operator: str) -> str:
        """The family of one of this language's operators."""
        for op in self.operators:
            if op.name == operator:
                return op.family
        raise KeyError(operator)

    def candidates(self, text: str, operators: Iterable[str] | None = None) -> Iterator[tuple[str, SpanEdit]]:
        """(operator name, edit) for every edit the chosen operators (default: all) propose, in
        operator-name order and, within an operator, in sorted edit order without repeats."""
        program = self.parse(text)
        chosen = None if operators is None else frozenset(operators)
        for op in sorted(self.operators, key=lambda o: o.name):
            if chosen is not None and op.name not in chosen:
                continue
            for edit in sorted(set(op.apply(program))):
                yield op.name, edit


def select_operators(language: Language[ProgramT], spec: str | None) -> tuple[str, ...]:
    """The operator names chosen by an ``--operators`` spec.

    The spec is a comma-separated list of operator or family names; a leading ``-`` excludes.
    Only exclusions means "everything except"; ``None`` or empty means every operator.
    Unknown names are an error naming the valid ones.
    """
    names = language.operator_names
    if not spec:
        return names
    include: set[str] = set()
    exclude: set[str] = set()
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            continue
        target = exclude if item.startswith("-") else include
        key = item.lstrip("-+")
        if key in FAMILIES:
            target.update(op.name for op in language.operators if op.family == key)
        elif key in names:
            target.add(key)
        else:
            raise ExecIRError(
                f"--operators: unknown operator or family {key!r} for {language.name}; families: {', '.join(FAMILIES)}; operators: {', '.join(names)}"
            )
    chosen = include if include else set(names)
    return tuple(name for name in names if name in chosen and name not in exclude)


def family_table(language: Language[ProgramT]) -> Mapping[str, str]:
    """Operator name -> family, in name order."""
    return {op.name: op.family for op in sorted(language.operators, key=lambda o: o.name)}
