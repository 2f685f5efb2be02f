"""Exact-type serialisation of call arguments and results (stdlib only).

Only these types cross the judge/candidate boundary, matched by *exact* type (no subclasses):
``None, bool, int, float (incl. nan/inf), complex, str, bytes, list, tuple, dict, set, frozenset``,
the standard containers ``collections.Counter, OrderedDict, defaultdict (without its factory),
deque``, and the builtin type objects themselves (``int``, ``str``, ... passed as arguments).
Anything else raises :class:`CodecError`. Decoding yields only these standard types, whose
``__eq__``/``__hash__`` are the interpreter's own, so no candidate code can reach the judge.

JSON form: None/bool/str/list/float and ints below 2**63 are native JSON; everything else is a
one-key object ``{"I"|"t"|"d"|"s"|"z"|"b"|"c"|"C"|"O"|"D"|"Q"|"T": ...}``.
"""

from __future__ import annotations

import builtins
import collections

MAX_DEPTH = 200
_BIG = 1 << 63
_MAPPINGS: dict[type, str] = {collections.Counter: "C", collections.OrderedDict: "O", collections.defaultdict: "D"}
_MAPPING_TYPES = {tag: kind for kind, tag in _MAPPINGS.items()}
_TYPE_NAMES = ("int", "float", "complex", "str", "bytes", "bool", "list", "tuple", "dict", "set", "frozenset", "object")
_TYPES: dict[type, str] = {getattr(builtins, name): name for name in _TYPE_NAMES} | {type(None): "NoneType"}
_TYPES_BY_NAME = {name: kind for kind, name in _TYPES.items()}


class CodecError(ValueError):
    """A value that cannot cross the boundary (unsupported type, too deep, malformed)."""


def encode(value: object, depth: int = 0) -> object:
    """Turn ``value`` into a JSON-able tagged structure, refusing every non-builtin type."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(value)
    if value is None or kind is bool or kind is str or kind is float:
        return value
    # below, ``type(value) is X`` rather than ``kind is X`` so that type checkers narrow ``value``
    if type(value) is int:
        return value if -_BIG < value < _BIG else {"I": hex(value)}
    if type(value) is list:
        return [encode(item, depth + 1) for item in value]
    if type(value) is tuple:
        return {"t": [encode(item, depth + 1) for item in value]}
    if type(value) is dict:
        return {"d": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if type(value) is set:
        return {"s": [encode(item, depth + 1) for item in value]}
    if type(value) is frozenset:
        return {"z": [encode(item, depth + 1) for item in value]}
    if type(value) is bytes:
        return {"b": value.hex()}
    if type(value) is complex:
        return {"c": [value.real, value.imag]}
    if kind in _MAPPINGS and isinstance(value, dict):  # exact Counter/OrderedDict/defaultdict, all dicts
        return {_MAPPINGS[kind]: [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if type(value) is collections.deque:
        return {"Q": [encode(item, depth + 1) for item in value]}
    if type(value) is type and value in _TYPES:
        return {"T": _TYPES[value]}
    raise CodecError(f"unsupported type {kind.__module__}.{kind.__qualname__}")


def decode(data: object, depth: int = 0) -> object:
    """Inverse of :func:`encode`; accepts only the structures :func:`encode` produces."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, str, float, int):
        return data
    # ``type(data) is X`` rather than ``kind is X`` so that type checkers narrow ``data``
    if type(data) is list:
        return [decode(item, depth + 1) for item in data]
    if type(data) is not dict or len(data) != 1:
        raise CodecError("malformed value")
    ((tag, body),) = data.items()
    if tag == "I" and type(body) is str:
        return int(body, 16)
    if tag == "b" and type(body) is str:
        return bytes.fromhex(body)
    if tag == "T" and type(body) is str and body in _TYPES_BY_NAME:
        return _TYPES_BY_NAME[body]
    if tag == "c" and type(body) is list and len(body) == 2 and all(type(x) in (int, float) for x in body):
        return complex(body[0], body[1])
    if type(body) is not list:
        raise CodecError("malformed value")
    # the members of a sequence or set tag; pairs are decoded below for "d" and the mapping tags
    items = [decode(item, depth + 1) for item in body] if tag not in ("d", *_MAPPING_TYPES) else []
    try:
        if tag == "t":
            return tuple(items)
        if tag == "s":
            return set(items)
        if tag == "z":
            return frozenset(items)
        if tag == "Q":
            return collections.deque(items)
        if tag == "d" or tag in _MAPPING_TYPES:
            pairs = [_pair(item, depth) for item in body]
            return dict(pairs) if tag == "d" else _mapping(tag, pairs)
    except TypeError as exc:  # unhashable key or member
        raise CodecError(f"malformed value: {exc}") from None
    raise CodecError(f"unknown tag {tag!r}")


def _pair(item: object, depth: int) -> tuple[object, object]:
    if type(item) is not list or len(item) != 2:
        raise CodecError("malformed dict item")
    return decode(item[0], depth + 1), decode(item[1], depth + 1)


def _mapping(tag: str, pairs: list[tuple[object, object]]) -> object:
    if tag == "D":
        return collections.defaultdict(None, pairs)
    return _MAPPING_TYPES[tag](dict(pairs))  # Counter(list) would count the pairs themselves
