"""Exact-type serialisation of call arguments and results (stdlib only).

Only these types cross the judge/candidate boundary, matched by *exact* type (no subclasses):
``None, bool, int, float (incl. nan/inf), str, bytes, list, tuple, dict, set, frozenset``.
Anything else raises :class:`CodecError`. Decoding yields plain builtins only, so no candidate
``__eq__``/``__hash__`` can reach the judge.

JSON form: None/bool/str/list/float and ints below 2**63 are native JSON; big ints, tuples, dicts,
sets, frozensets and bytes are one-key objects ``{"I"|"t"|"d"|"s"|"z"|"b": ...}``.
"""

from __future__ import annotations

MAX_DEPTH = 200
_BIG = 1 << 63


class CodecError(ValueError):
    """A value that cannot cross the boundary (unsupported type, too deep, malformed)."""


def encode(value: object, depth: int = 0) -> object:
    """Turn ``value`` into a JSON-able tagged structure, refusing every non-builtin type."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(value)
    if value is None or kind is bool or kind is str or kind is float:
        return value
    if kind is int:
        return value if -_BIG < value < _BIG else {"I": hex(value)}
    if kind is list:
        return [encode(item, depth + 1) for item in value]
    if kind is tuple:
        return {"t": [encode(item, depth + 1) for item in value]}
    if kind is dict:
        return {"d": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if kind is set:
        return {"s": [encode(item, depth + 1) for item in value]}
    if kind is frozenset:
        return {"z": [encode(item, depth + 1) for item in value]}
    if kind is bytes:
        return {"b": value.hex()}
    raise CodecError(f"unsupported type {kind.__module__}.{kind.__qualname__}")


def decode(data: object, depth: int = 0) -> object:
    """Inverse of :func:`encode`; accepts only the structures :func:`encode` produces."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, str, float, int):
        return data
    if kind is list:
        return [decode(item, depth + 1) for item in data]
    if kind is not dict or len(data) != 1:
        raise CodecError("malformed value")
    ((tag, body),) = data.items()
    if tag == "I" and type(body) is str:
        return int(body, 16)
    if tag == "b" and type(body) is str:
        return bytes.fromhex(body)
    if type(body) is not list:
        raise CodecError("malformed value")
    items = [decode(item, depth + 1) for item in body] if tag != "d" else None
    try:
        if tag == "t":
            return tuple(items)
        if tag == "s":
            return set(items)
        if tag == "z":
            return frozenset(items)
        if tag == "d":
            pairs = [_pair(item, depth) for item in body]
            return dict(pairs)
    except TypeError as exc:  # unhashable key or member
        raise CodecError(f"malformed value: {exc}") from None
    raise CodecError(f"unknown tag {tag!r}")


def _pair(item: object, depth: int) -> tuple[object, object]:
    if type(item) is not list or len(item) != 2:
        raise CodecError("malformed dict item")
    return decode(item[0], depth + 1), decode(item[1], depth + 1)
