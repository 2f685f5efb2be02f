"""Line-tracking readers for JSONL and JSON-array task files.

Every record comes back with the 1-based line it starts on, so loaders can name the file, the
line and the field of a bad record.
"""

from __future__ import annotations

import codecs
import gzip
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from execir.errors import InputError

Record = tuple[int, dict[str, Any]]
"""A record and the 1-based line it starts on."""


def read_text(path: Path) -> str:
    """Read a (possibly gzip-compressed) UTF-8 text file; an error names the file and, for bytes that
    are not UTF-8, the line and column where they are."""
    try:
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    except FileNotFoundError:
        raise InputError(str(path), 0, None, "file not found") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(str(path), 0, None, f"cannot read file: {exc}") from None
    body = data[3:] if data.startswith(codecs.BOM_UTF8) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body.count(b"\n", 0, exc.start) + 1
        column = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(str(path), line, None, f"not valid UTF-8: byte 0x{body[exc.start]:02x} at column {column} ({exc.reason})") from None


def iter_jsonl(path: Path) -> Iterator[Record]:
    """Yield (line, object) for every non-blank line of a JSONL file."""
    return _jsonl_records(read_text(path), path)


def _jsonl_records(text: str, path: Path) -> Iterator[Record]:
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(str(path), number, None, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(value, dict):
            raise InputError(str(path), number, None, "expected a JSON object per line")
        yield number, value


def split_lines(text: str) -> list[str]:
    """Lines split on ``\n`` only (``str.splitlines`` also splits inside JSON strings holding
    U+2028, U+0085 or form feeds); a trailing ``\r`` is dropped."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def iter_json_array(path: Path) -> Iterator[Record]:
    """Yield (line, object) for every element of a file holding one JSON array of objects."""
    return _array_records(read_text(path), path)


def _array_records(text: str, path: Path) -> Iterator[Record]:
    decoder = json.JSONDecoder()
    index = _skip_space(text, 0)
    if index >= len(text) or text[index] != "[":
        raise InputError(str(path), _line_of(text, index), None, "expected a JSON array of task objects")
    index = _skip_space(text, index + 1)
    while index < len(text) and text[index] != "]":
        line = _line_of(text, index)
        try:
            value, index = decoder.raw_decode(text, index)
        except json.JSONDecodeError as exc:
            raise InputError(str(path), exc.lineno, None, f"invalid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise InputError(str(path), line, None, "expected a JSON object")
        yield line, value
        index = _skip_space(text, index)
        if index < len(text) and text[index] == ",":
            index = _skip_space(text, index + 1)
            if index < len(text) and text[index] == "]":
                raise InputError(str(path), _line_of(text, index), None, "trailing comma in JSON array")
        elif index < len(text) and text[index] != "]":
            raise InputError(str(path), _line_of(text, index), None, "expected ',' or ']' after an element")
    if index >= len(text):
        raise InputError(str(path), _line_of(text, index), None, "unterminated JSON array")
    if text[_skip_space(text, index + 1) :].strip():
        raise InputError(str(path), _line_of(text, index + 1), None, "unexpected content after the JSON array")


def iter_records(path: Path) -> Iterator[Record]:
    """Dispatch on content: a file whose first non-blank character is ``[`` is a JSON array."""
    text = read_text(path)
    start = _skip_space(text, 0)
    if start < len(text) and text[start] == "[":
        return _array_records(text, path)
    return _jsonl_records(text, path)


def require(record: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path, line: int) -> Any:
    """Return ``record[key]`` checked against ``kind``, or raise an error naming file, line and field."""
    if key not in record:
        raise InputError(str(path), line, key, "missing required field")
    value = record[key]
    if not isinstance(value, kind) or isinstance(value, bool) and bool not in _as_tuple(kind):
        expected = " or ".join(t.__name__ for t in _as_tuple(kind))
        raise InputError(str(path), line, key, f"expected {expected}, got {type(value).__name__}")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1
