"""The examples a query's text carries, read from the text alone (nothing is run here).

Three shapes are recognised:

* **Doctests** (HumanEval): ``>>> call`` (``...`` continuation lines allowed) followed by the
  expected value on the next line(s), up to a blank line or the next ``>>>``. An empty expected
  output (doctest's "returns None") is skipped rather than read as ``None``: prompts also leave the
  output off by mistake.
* **Inline examples** (HumanEval prose, MBPP asserts): a line (bullets ``*``/``-``, a leading
  ``for``, ``assert`` or ``>>>`` removed) ``call SEP expected`` where SEP is one of ``==>``, ``=>``,
  ``->``, ``➞``, ``==``, ``=``, ``should return``, ``returns``; a call may span a few lines while its
  brackets are open. A trailing ``# comment`` and trailing ``.``/``,``/``;`` after the expected value
  are dropped.
* **Sample input/output** of competitive-programming statements (LiveCodeBench's AtCoder and
  Codeforces texts): ``Sample Input k`` / ``Sample Output k`` blocks, or ``Input``/``Output`` blocks
  after an ``Example``/``Examples`` heading, read by :mod:`execir.rerank.execution.samples`.

A call example is kept only when it is safe and unambiguous to run in the trusted judge: the call
expression holds exactly one call of a function that is not a builtin (the *entry point*), every
other part is a literal or a call of a few value builtins (``round``, ``sorted``, ``len``, ...), and
the expected side is a literal (``ast.literal_eval``) or such a builtin over literals (``set([1,
2])``), evaluated here to a value and written back as its ``repr``. Anything else (names, arithmetic,
printed text, tracebacks, JavaScript's ``true``) is skipped and counted, never guessed. When the
examples call more than one function, the most frequent one (the first on a tie) is the entry point
and the others are skipped.

The query's language sets how example text reads (:func:`extract_examples`'s ``language``): Python
(the default) as above. In JavaScript and C++ prompts (HumanEval-X) the values are written in the
language's own syntax, which parses as a Python expression once its constants are named
(``true``/``false``, and JavaScript's ``null``); there the call and the expected value are kept as
*source* (:func:`ast.unparse` of the checked tree, element order and duplicates preserved: C++'s
``{1, 1, 2}`` is a vector, not a set) for :mod:`execir.rerank.execution.native_calls` to write in the
language, rather than evaluated to Python values. Go and Java prompts mix their own value syntax
with Python's; :mod:`execir.rerank.execution.source_values` first rewrites theirs as Python's (dropping the
types, which :mod:`execir.rerank.execution.typed_calls` takes from each candidate's signature), then they read
like JavaScript's (with ``nil``/``null`` as constants). Ruby's (MBXP's ``irb>`` sessions, hashes
with ``=>``) are rewritten the same way and written by :mod:`execir.rerank.execution.native_calls`.
Rust's doctests (``/// assert_eq!(add(1, 2), 3);`` in doc comments, fenced or not) are first
rewritten as inline examples and its values as Python's (:mod:`execir.rerank.execution.rust_doctests`),
then typed by each candidate's signature like Go's and Java's (:mod:`execir.rerank.execution.rust_calls`).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from execir.language_declarations import DECLARATIONS, load
from execir.rerank.execution.rust_doctests import rust_lines, rust_values
from execir.rerank.execution.samples import stdio_examples
from execir.rerank.execution.source_values import go_values, java_values, ruby_values
from execir.types import StdioCase

VALUE_BUILTINS = frozenset({"abs", "round", "len", "sorted", "list", "tuple", "set", "frozenset", "sum", "min", "max", "str", "int", "float", "bool"})
"""Builtins an example may wrap around the call or use to build a value (``round(f(x), 2)``)."""
SEPARATORS = ("should return", "returns", "==>", "=>", "->", "\u279e", "==", "=")
"""Between a call and its expected value; at one position the first that matches wins."""
MAX_CALL_LINES = 12
"""Lines an inline call may span while its brackets are open (``get_row([\\n [1, 2],\\n], 1) == ...``)."""
MAX_EXAMPLE_CHARS = 20_000

_PREFIX = re.compile(r"^(?:[*\-\u2022]\s*|(?:for|assert)\s+|>>>\s*)+", re.IGNORECASE)
_CALL_START = re.compile(r"^\(?\s*[A-Za-z_]\w*\s*\(")


@dataclass(frozen=True)
class Syntax:
    """How one language writes example values: the bare names that are constants, and whether the
    expected value is evaluated to a Python value (Python) or kept as checked source (native)."""

    constants: tuple[tuple[str, bool | None], ...] = ()
    values: bool = True
    translate: Callable[[str], str] | None = None
    """Rewrites the language's value syntax as Python's before reading (:mod:`execir.rerank.execution.source_values`)."""
    line_comment: str = ""
    """Documentation written as line comments (Go's ``//``, Ruby's ``#``): where they hold examples, only they are read, unwrapped."""
    comment_end: str = ""
    """Ends a documentation block (``*/``): an example's expected value never runs past it."""
    session: tuple[str, str] = ("", "")
    """The language's interactive prompt and result marker (Ruby's ``irb>`` / ``=>``), read as a doctest."""
    lines: Callable[[list[str]], list[str]] | None = None
    """Rewrites the text's lines before anything else is read (Rust's comments and assertion
    statements, :mod:`execir.rerank.execution.rust_doctests`); as many lines out as in."""


PYTHON_SYNTAX = Syntax()
JS_EXAMPLES = Syntax(constants=(("true", True), ("false", False), ("null", None)), values=False, comment_end="*/")
CPP_EXAMPLES = Syntax(constants=(("true", True), ("false", False)), values=False, comment_end="*/")
GO_EXAMPLES = Syntax(constants=(("true", True), ("false", False), ("nil", None)), values=False, translate=go_values, line_comment="//")
JAVA_EXAMPLES = Syntax(constants=(("true", True), ("false", False), ("null", None)), values=False, translate=java_values, comment_end="*/")
RUBY_EXAMPLES = Syntax(
    constants=(("true", True), ("false", False), ("nil", None)), values=False, translate=ruby_values, line_comment="#", session=("irb>", "=>")
)
RUST_EXAMPLES = Syntax(constants=(("true", True), ("false", False)), values=False, translate=rust_values, lines=rust_lines)
SYNTAXES: dict[str, Syntax] = {name: load(d.examples) for name, d in DECLARATIONS.items() if d.examples}
"""Languages whose prompts write example values in their own syntax (others read as Python), as
:mod:`execir.language_declarations` names them."""


@dataclass(frozen=True)
class CallExample:
    """One function-call example: ``call`` is Python source of an expression calling
    ``entry_point`` once (literal arguments, perhaps inside value builtins); ``expected`` is the
    Python literal it must equal (see :func:`execir.rerank.execution.exec_plan.call_suite` for how), or for a
    native syntax the checked source of the expected value (see :class:`Syntax`)."""

    entry_point: str
    call: str
    expected: str


@dataclass(frozen=True)
class Examples:
    """The usable examples of one query text, and how many example-shaped passages were skipped."""

    calls: tuple[CallExample, ...] = ()
    stdio: tuple[StdioCase, ...] = ()
    skipped: int = 0
    language: str = "python"
    """The language whose syntax the call examples were read in (see :class:`Syntax`)."""

    @property
    def entry_point(self) -> str:
        """The function the call examples call (empty without call examples)."""
        return self.calls[0].entry_point if self.calls else ""

    @property
    def count(self) -> int:
        """Usable examples of both shapes."""
        return len(self.calls) + len(self.stdio)

    def renamed(self, entry_point: str) -> Examples:
        """The same examples calling ``entry_point`` instead (for a candidate whose function has
        another name: prompts sometimes name the function wrongly in their examples)."""
        if not self.calls or entry_point == self.entry_point:
            return self
        calls = tuple(CallExample(entry_point, _rename_call(example.call, example.entry_point, entry_point), example.expected) for example in self.calls)
        return Examples(calls, self.stdio, self.skipped, self.language)


class _Unusable(Exception):
    """An expression that is not a safe example."""


def extract_examples(text: str, language: str = "python") -> Examples:
    """Every usable example of ``text``, a query in ``language`` (see the module docstring)."""
    syntax = SYNTAXES.get(language, PYTHON_SYNTAX)
    lines = _documentation(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), syntax)
    found, skipped = _call_examples(lines, syntax)
    calls, off_entry = _one_entry_point(found)
    stdio = tuple(dict.fromkeys(stdio_examples(text)))
    return Examples(calls, stdio, skipped + off_entry, language)


def _documentation(lines: list[str], syntax: Syntax) -> list[str]:
    """The lines examples are read from: in a text whose line comments hold examples (a whole prompt),
    those comments unwrapped and every other line blank; and a blank line where a ``/* */`` block
    ends (the code after it is no expected value)."""
    if syntax.lines is not None:
        lines = syntax.lines(lines)
    marker = syntax.line_comment
    comments = [line.strip()[len(marker) :] for line in lines if line.strip().startswith(marker)] if marker else []
    if any(_opens_example(comment, syntax) for comment in comments):  # a whole prompt: its code is no example
        lines = [line.strip()[len(marker) :] if line.strip().startswith(marker) else "" for line in lines]
    elif comments:  # a text with a stray comment-like line (a heading): read every line as it is
        lines = [line.strip()[len(marker) :] if line.strip().startswith(marker) else line for line in lines]
    prompt, result = syntax.session
    if prompt:
        lines = [_session_line(line, prompt, result) for line in lines]
    if not syntax.comment_end:
        return lines
    out: list[str] = []
    for line in lines:
        if syntax.comment_end in line:
            out += [line[: line.index(syntax.comment_end)], ""]
        else:
            out.append(line)
    return out


def _opens_example(line: str, syntax: Syntax) -> bool:
    """Whether ``line`` starts a doctest, a session example or an inline example."""
    stripped = line.strip()
    if stripped.startswith(">>>") or (syntax.session[0] and stripped.startswith(syntax.session[0])):
        return True
    return _opens_inline(stripped)


def _opens_inline(stripped: str) -> bool:
    """Whether a stripped line starts an inline example: a call with a separator, or one left open."""
    return bool(_CALL_START.match(_PREFIX.sub("", stripped))) and (any(sep in stripped for sep in SEPARATORS) or not _brackets_closed(stripped))


def _session_line(line: str, prompt: str, result: str) -> str:
    """An interactive session's line in doctest shape: ``irb> f(1)`` -> ``>>> f(1)``, ``=> 2`` -> ``2``."""
    stripped = line.strip()
    if stripped.startswith(prompt):
        return ">>> " + stripped[len(prompt) :].strip()
    if stripped.startswith(result):
        return stripped[len(result) :].strip()
    return line


def _one_entry_point(found: list[CallExample]) -> tuple[tuple[CallExample, ...], int]:
    """Examples of the most frequent entry point (first on a tie), deduplicated; and how many others."""
    if not found:
        return (), 0
    counts = Counter(example.entry_point for example in found)
    top = max(counts.values())
    entry = next(example.entry_point for example in found if counts[example.entry_point] == top)
    kept = tuple(dict.fromkeys(example for example in found if example.entry_point == entry))
    return kept, sum(1 for example in found if example.entry_point != entry)


# ---- call examples -------------------------------------------------------------------------------


def _call_examples(lines: list[str], syntax: Syntax) -> tuple[list[CallExample], int]:
    found: list[CallExample] = []
    skipped = 0
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith(">>>"):
            example, i = _doctest(lines, i, syntax)
        elif _opens_inline(stripped):
            example, i = _inline(lines, i, syntax)
        else:
            i += 1
            continue
        if example is None:
            skipped += 1
        else:
            found.append(example)
    return found, skipped


def _doctest(lines: list[str], start: int, syntax: Syntax) -> tuple[CallExample | None, int]:
    """The doctest at ``lines[start]`` and the index after it."""
    source = [lines[start].strip()[3:].strip()]
    i = start + 1
    while i < len(lines) and lines[i].strip().startswith("..."):
        source.append(lines[i].strip()[3:].strip())
        i += 1
    expected: list[str] = []
    while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(">>>"):
        expected.append(lines[i].strip())
        i += 1
    code = "\n".join(source)
    if not expected:  # `>>> f(x) == 3` as a claim, or doctest's "returns None" (skipped: see module docstring)
        return _split(code, syntax), i
    try:
        return _example(code, "\n".join(expected), syntax), i
    except _Unusable:
        return None, i


def _inline(lines: list[str], start: int, syntax: Syntax) -> tuple[CallExample | None, int]:
    """The inline example starting at ``lines[start]`` (perhaps spanning lines) and the index after it."""
    first = _PREFIX.sub("", lines[start].strip())
    text = first
    for end in range(start, min(len(lines), start + MAX_CALL_LINES)):
        if end > start:
            text += "\n" + lines[end].strip()
        example = _split(text, syntax)
        if example is not None:
            return example, end + 1
        if _brackets_closed(first if end == start else text):
            break
    return None, start + 1


def _brackets_closed(text: str) -> bool:
    """True when the first bracket of ``text`` is closed again within it (or it has none)."""
    depth = 0
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth <= 0:
                return True
    return depth <= 0


def _split(text: str, syntax: Syntax) -> CallExample | None:
    """``call SEP expected`` at the first position and separator where both sides are usable."""
    if len(text) > MAX_EXAMPLE_CHARS:
        return None
    for position in range(len(text)):
        for separator in SEPARATORS:
            if not text.startswith(separator, position):
                continue
            try:
                return _example(text[:position], text[position + len(separator) :], syntax)
            except _Unusable:
                pass
    return None


def _example(call_text: str, expected_text: str, syntax: Syntax) -> CallExample:
    call = _parse(call_text.strip(), syntax)
    entry = _entry_point(call)
    return CallExample(entry, ast.unparse(call), _expected(expected_text, syntax))


def _parse(text: str, syntax: Syntax = PYTHON_SYNTAX) -> ast.expr:
    if syntax.translate is not None:
        text = syntax.translate(text).strip()
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise _Unusable(text) from None
    return _ConstantNames(dict(syntax.constants)).visit(tree.body) if syntax.constants else tree.body


class _ConstantNames(ast.NodeTransformer):
    """Replaces the bare names a syntax reads as constants (``true``) by those constants."""

    def __init__(self, constants: dict[str, bool | None]) -> None:
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        return node


def _expected(text: str, syntax: Syntax = PYTHON_SYNTAX) -> str:
    """The canonical literal of an expected value, trying the text without trailing punctuation
    first, then as it is, then cut before each ``#`` (a trailing comment)."""
    text = text.strip()
    attempts = [text.rstrip(" .,;"), text]
    attempts += [text[:i].strip() for i, char in enumerate(text) if char == "#"]
    for attempt in attempts:
        if not attempt:
            continue
        try:
            node = _parse(attempt, syntax)
            return _value_literal(node) if syntax.values else _source_literal(node)
        except _Unusable:
            continue
    raise _Unusable(text)


def _source_literal(node: ast.expr) -> str:
    """The checked source of a native expected value: literals and containers of them only (no
    calls, not even value builtins; a native language has no ``set(...)``)."""
    _calls(node, allow_entry=False)  # raises on names, operators and calls of non-builtin functions
    if any(isinstance(child, ast.Call) for child in ast.walk(node)):
        raise _Unusable("calls a function")
    return ast.unparse(node)


def _value_literal(node: ast.expr) -> str:
    """``repr`` of a literal (or a value builtin over literals), checked to read back equal."""
    if _calls(node, allow_entry=False):
        raise _Unusable("calls a function")
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = _evaluate(node)
    literal = repr(value)
    try:
        same = ast.literal_eval(literal) == value
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        same = False
    if not same:
        raise _Unusable(literal[:60])
    return literal


def _evaluate(node: ast.expr) -> object:
    """A value builtin over literals (``set([1, 2])``), evaluated with only those builtins in scope
    (the tree was checked by :func:`_calls`: no names, attributes or operators besides them)."""
    scope = {name: getattr(builtins, name) for name in VALUE_BUILTINS}
    try:
        return eval(compile(ast.Expression(node), "<example>", "eval"), {"__builtins__": scope})  # a checked tree: literals and VALUE_BUILTINS only
    except (ValueError, TypeError, OverflowError, MemoryError, RecursionError, ZeroDivisionError) as exc:
        raise _Unusable(str(exc)) from None


def _entry_point(node: ast.expr) -> str:
    names = _calls(node, allow_entry=True)
    if len(names) != 1:
        raise _Unusable("not exactly one call of a non-builtin function")
    return names[0]


def _calls(node: ast.expr, *, allow_entry: bool) -> list[str]:
    """Names of the non-builtin functions ``node`` calls; raises when ``node`` holds anything but
    literals, signed numbers and calls by plain name (value builtins anywhere, others only when
    ``allow_entry``, with keyword arguments but no ``*``/``**`` unpacking)."""
    found: list[str] = []
    for child in _walk(node):
        if isinstance(child, ast.Call):
            if not isinstance(child.func, ast.Name) or any(k.arg is None for k in child.keywords):
                raise _Unusable("call form")
            if child.func.id not in VALUE_BUILTINS:
                if not allow_entry:
                    raise _Unusable("call")
                found.append(child.func.id)
        elif isinstance(child, ast.UnaryOp):
            if not (isinstance(child.op, (ast.USub, ast.UAdd)) and isinstance(child.operand, ast.Constant) and _is_number(child.operand.value)):
                raise _Unusable("operator")
        elif isinstance(child, ast.Dict):
            if any(key is None for key in child.keys):
                raise _Unusable("dict unpacking")
        elif not isinstance(child, (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Name, ast.keyword, ast.Load)):
            raise _Unusable(type(child).__name__)
    return found


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node``; a bare name is allowed only as a called function."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Call):
            yield current
            stack.extend([*current.args, *current.keywords])
            continue
        if isinstance(current, ast.Name):
            raise _Unusable(f"name {current.id}")
        if isinstance(current, ast.Starred):
            raise _Unusable("unpacking")
        yield current
        if isinstance(current, ast.UnaryOp):
            continue  # its operand is checked by the caller
        stack.extend(ast.iter_child_nodes(current))


def _rename_call(call: str, old: str, new: str) -> str:
    """``call`` (source of a checked example) with every call of ``old`` calling ``new``."""
    tree = ast.parse(call, mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == old:
            node.func.id = new
    return ast.unparse(tree)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float, complex)) and not isinstance(value, bool)
