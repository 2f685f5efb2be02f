"""Probe inputs for agreement among candidates that pass a query's examples (pure; nothing runs here).

Several candidates often pass every example a query shows: the correct programs, and near-clones
whose bug the examples do not reach. Correct programs agree with each other on other inputs too;
each bug disagrees in its own way. So the ``exec`` reranker runs the passing candidates on *probe*
inputs and puts the largest group of candidates that behave alike first (execution-based consensus,
as in MBR-exec and CodeT). Probes never use the hidden tests: each one is a query's own example call
with one argument changed by a small, type-preserving edit (an integer +-1 or negated, a string or
list reversed or one element shorter, a flag flipped, ...). Edits that grow values are avoided so a
correct program stays as fast on a probe as on the example.

A probe is run in the trusted judge like the examples: :data:`FINGERPRINT` reduces each probe's
result (a builtin value, or the exception type raised) to :data:`BITS` bits of a SHA-256 digest of
a canonical encoding (floats to 8 significant digits, sets and dict items sorted), and each bit is
one assert, so the verdict's per-test booleans *are* the candidate's fingerprint. Two candidates
agree when their fingerprints are equal.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from execir.execute.decide import PROBE_BITS
from execir.rerank.execution.examples import CallExample, Examples

PROBES = 8
"""Probes per query (at most)."""
BITS = PROBE_BITS
"""Fingerprint bits per probe (the oracle's, so Python and native probes read alike)."""
MAX_PROBE_CHARS = 2_000
"""A probe whose argument text is longer is left out."""

FINGERPRINT = (
    "import hashlib as _execir_hashlib\n"
    "\n"
    "_execir_seen = {}\n"
    "\n"
    "\n"
    "def _execir_key(value):\n"
    '    """A canonical text of a builtin value: floats to 8 significant digits, sets and dicts sorted."""\n'
    "    kind = type(value)\n"
    "    if kind is float:\n"
    "        return 'f:nan' if value != value else 'f:' + format(value, '.8g')\n"
    "    if kind is list or kind is tuple:\n"
    "        return kind.__name__ + '[' + ','.join(_execir_key(v) for v in value) + ']'\n"
    "    if kind is set or kind is frozenset:\n"
    "        return kind.__name__ + '{' + ','.join(sorted(_execir_key(v) for v in value)) + '}'\n"
    "    if kind is dict:\n"
    "        return 'dict{' + ','.join(sorted(_execir_key(k) + ':' + _execir_key(v) for k, v in value.items())) + '}'\n"
    "    if hasattr(value, '__next__'):\n"
    "        items = []\n"
    "        for item in value:\n"
    "            items.append(item)\n"
    "            if len(items) >= 1000:\n"
    "                break\n"
    "        return 'iter[' + ','.join(_execir_key(v) for v in items) + ']'\n"
    "    return kind.__name__ + ':' + repr(value)\n"
    "\n"
    "\n"
    "def _execir_bit(probe, bit, thunk):\n"
    '    """Bit ``bit`` of the digest of probe ``probe``\'s result (the call runs once per probe)."""\n'
    "    if probe not in _execir_seen:\n"
    "        try:\n"
    "            key = _execir_key(thunk())\n"
    "        except Exception as exc:\n"
    "            key = 'raised:' + type(exc).__name__\n"
    "        _execir_seen[probe] = _execir_hashlib.sha256(key.encode()).digest()\n"
    "    return (_execir_seen[probe][bit // 8] >> (bit % 8)) & 1 == 1\n"
)
"""Setup code of a probe suite, run in the judge on the values the candidate returns."""


def probe_arguments(examples: Examples, limit: int = PROBES) -> tuple[str, ...]:
    """Up to ``limit`` argument lists (Python source, e.g. ``"[1, 2], 3"``) for probe calls of the
    examples' entry point: each example's call with one argument edited, taken round-robin over the
    examples, arguments and edits so the probes differ in kind; none equals an example's own call."""
    own = {_arguments_of(example) for example in examples.calls}
    streams = [list(_variants(example)) for example in examples.calls]
    found: list[str] = []
    depth = 0
    while len(found) < limit and any(depth < len(stream) for stream in streams):
        for stream in streams:
            if depth < len(stream) and len(found) < limit:
                text = stream[depth]
                if text not in own and text not in found:
                    found.append(text)
        depth += 1
    return tuple(found)


def probe_asserts(entry_point: str, arguments: tuple[str, ...]) -> tuple[str, ...]:
    """The asserts of a probe suite: :data:`BITS` per probe, bit by bit (see the module docstring)."""
    return tuple(f"assert _execir_bit({index}, {bit}, lambda: {entry_point}({args}))" for index, args in enumerate(arguments) for bit in range(BITS))


def _arguments_of(example: CallExample) -> str | None:
    call = _entry_call(example)
    if call is None:
        return None
    values = _literal_arguments(call)
    return None if values is None else _source(values[0], values[1])


def _entry_call(example: CallExample) -> ast.Call | None:
    """The call of the entry point inside the example's expression (it may sit inside ``round(...)``)."""
    try:
        tree = ast.parse(example.call, mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == example.entry_point:
            return node
    return None


def _literal_arguments(call: ast.Call) -> tuple[list[object], dict[str, object]] | None:
    """The call's positional and keyword argument values, or None when one is not a literal."""
    try:
        args = [ast.literal_eval(arg) for arg in call.args]
        kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords if keyword.arg is not None}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if len(kwargs) != len(call.keywords):
        return None
    return args, kwargs


def _source(args: list[object], kwargs: dict[str, object]) -> str:
    return ", ".join([repr(value) for value in args] + [f"{name}={value!r}" for name, value in kwargs.items()])


def _variants(example: CallExample) -> Iterator[str]:
    """Argument sources of the example's call with one argument edited (edits interleaved over the
    arguments: first edit of each argument, then the second, ...)."""
    call = _entry_call(example)
    parsed = _literal_arguments(call) if call is not None else None
    if parsed is None:
        return
    args, kwargs = parsed
    slots: list[tuple[int | str, object]] = [*enumerate(args), *kwargs.items()]
    edits = [list(_edits(value)) for _, value in slots]
    for depth in range(max((len(e) for e in edits), default=0)):
        for (slot, _), options in zip(slots, edits):
            if depth >= len(options):
                continue
            new_args, new_kwargs = list(args), dict(kwargs)
            if isinstance(slot, int):
                new_args[slot] = options[depth]
            else:
                new_kwargs[slot] = options[depth]
            text = _source(new_args, new_kwargs)
            if len(text) <= MAX_PROBE_CHARS and _reads_back(new_args, new_kwargs, text):
                yield text


def _reads_back(args: list[object], kwargs: dict[str, object], text: str) -> bool:
    """True when the argument source parses back to the same values (so the judge sees them)."""
    try:
        tree = ast.parse(f"f({text})", mode="eval").body
    except (SyntaxError, MemoryError, RecursionError):
        return False
    parsed = _literal_arguments(tree) if isinstance(tree, ast.Call) else None
    return parsed is not None and parsed == (args, kwargs)


def _edits(value: object) -> Iterator[object]:
    """Small edits of one argument that keep its type, most telling first; never the value itself."""
    edit = _EDITS.get(type(value))
    if edit is None:
        return
    seen = [value]
    for new in edit(value):
        if type(new) is type(value) and all(new != old or type(new) is not type(old) for old in seen):
            seen.append(new)
            yield new


def _int_edits(value: object) -> list[object]:
    assert isinstance(value, int)
    return [value + 1, value - 1, -value, 0, 1]


def _float_edits(value: object) -> list[object]:
    assert isinstance(value, float)
    return [value + 0.5, -value, value - 1.0, 0.0]


def _bool_edits(value: object) -> list[object]:
    return [not value]


def _str_edits(value: object) -> list[object]:
    assert isinstance(value, str)
    return [value[::-1], value[1:], value[:-1], value.swapcase(), value + value[:1], ""]


def _sequence_edits(value: object) -> list[object]:
    assert isinstance(value, (list, tuple))
    kind = type(value)
    items = list(value)
    edits: list[list[object]] = [items[::-1], items[1:], items[:-1], items + items[:1]]
    try:
        edits.append(sorted(items))  # type: ignore[type-var,unused-ignore]
    except TypeError:
        pass
    edits.append([])
    return [kind(edit) for edit in edits]


_EDITS: dict[type, Callable[[object], list[object]]] = {
    int: _int_edits,
    float: _float_edits,
    bool: _bool_edits,
    str: _str_edits,
    list: _sequence_edits,
    tuple: _sequence_edits,
}
