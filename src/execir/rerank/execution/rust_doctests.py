"""Rust documentation as the example reader reads it (pure: text in, text out).

Rust writes its examples as doctests: assertion statements in ``///``, ``//!`` or ``/** */``
comments, inside or outside ```` ``` ```` fences (``assert_eq!(add(1, 2), 3);``,
``assert!(is_even(4));``, ``assert!(!is_even(3));``), sometimes after a ``let`` that names a value.
:func:`rust_lines` turns a query's lines into the shapes :mod:`execir.rerank.execution.examples`
reads for every language:

* comment markers removed (``///``, ``//!``, ``//``, ``/*``, ``/**``, ``/*!``, ``*/`` and a block
  comment's leading ``*``); where the comments hold an example, the code outside them is blank (a
  whole prompt: its code is no example), else every line is read as it is (a dataset's query: the
  prompt's comment text without markers);
* fence lines (```` ``` ````, ```` ```rust ````) and rustdoc's hidden lines (``# use ...;``) blank,
  so they end the doctest before them;
* an assertion statement (perhaps spanning lines while its parentheses are open) as one inline
  example: ``assert_eq!(a, b)`` as ``a == b`` (the side that calls a function first), ``assert!(c)``
  as ``c == true``, ``assert!(!c)`` as ``c == false``, ``assert!(a == b)`` as ``a == b``; a
  message after the compared values is dropped; ``assert_ne!`` and anything else stays as it is
  (no example: never guessed);
* a ``let name = value;`` of one line is substituted (parenthesised) where a later assertion names
  it.

:func:`rust_values` then rewrites Rust value syntax as Python's, dropping the types (the writer of
:mod:`execir.rerank.execution.rust_calls` types each value by the candidate's own signature):
``vec![...]`` and ``&[...]`` as lists, ``Some(x)`` as ``x`` (an ``Option`` compares as its
content, ``None`` as None), ``"a".to_string()`` / ``String::from("a")`` / ``.to_owned()`` /
``.into()`` as the string, ``String::new()`` and ``Vec::new()`` as empty ones, references (``&``,
``&mut``) dropped, numeric suffixes (``1i32``, ``2.5f64``, ``3_usize``) dropped, ``\\u{...}``
escapes as Python's; a char ``'a'`` reads as a one-letter string. Text in literals is copied
otherwise unchanged; what is not recognised stays and then fails to read as a literal (the example
is skipped and counted).
"""

from __future__ import annotations

import re

MAX_STATEMENT_LINES = 12
"""Lines an assertion statement may span while its parentheses are open."""

_ASSERT = re.compile(r"^(assert_eq|assert)\s*!\s*\(")
_LET = re.compile(r"^let\s+(?:mut\s+)?([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(.+?);\s*$")
_FENCE = re.compile(r"^(```|~~~)")
_CALL = re.compile(r"[A-Za-z_]\w*\s*\(")
_DIGITS = r"\d(?:_?\d)*"
_SUFFIX = re.compile(rf"(?<![\w.])({_DIGITS}(?:\.{_DIGITS})?(?:[eE][+-]?{_DIGITS})?)_*(?:i8|i16|i32|i64|i128|isize|u8|u16|u32|u64|u128|usize|f32|f64)(?!\w)")
_STRING_OF = re.compile(r"(?:std::string::)?String::from\s*\(|(?:std::borrow::)?ToOwned::to_owned\s*\(")
_EMPTY = re.compile(r"(?:(?:std::string::)?String|(?:std::vec::)?Vec(?:::<[^()]*?>)?)::new\s*\(\s*\)")
_METHOD = re.compile(r"\.\s*(?:to_string|to_owned|into|to_vec|clone)\s*\(\s*\)")
_REFERENCE = re.compile(r"&\s*(?:mut\s+)?")
_UNICODE = re.compile(r"\\u\{([0-9a-fA-F][0-9a-fA-F_]{0,7})\}")


# ---- documentation lines ---------------------------------------------------------------------


def rust_lines(lines: list[str]) -> list[str]:
    """``lines`` in the shapes the example reader reads (see the module docstring); as many lines."""
    texts, commented = _comment_text(lines)
    if any(commented):
        opens = any(c and _opens(t) for t, c in zip(texts, commented))
        texts = [t if c or not opens else "" for t, c in zip(texts, commented)]
    texts = ["" if _FENCE.match(t.strip()) or t.strip() == "#" or t.strip().startswith("# ") else t for t in texts]
    return _statements(texts)


def _comment_text(lines: list[str]) -> tuple[list[str], list[bool]]:
    """Each line's text without comment markers, and whether it was (inside) a comment. A line
    where a block comment ends gives its text before the end, then a blank for the rest."""
    texts: list[str] = []
    commented: list[bool] = []
    in_block = False
    for line in lines:
        stripped = line.strip()
        if in_block:
            body, ended = _block_body(stripped)
            in_block = not ended
            texts.append(body)
            commented.append(True)
        elif stripped.startswith("//"):
            texts.append(re.sub(r"^//[/!]?", "", stripped))
            commented.append(True)
        elif stripped.startswith("/*"):
            body, ended = _block_body(re.sub(r"^/\*[*!]?", "", stripped))
            in_block = not ended
            texts.append(body)
            commented.append(True)
        else:
            texts.append(line)
            commented.append(False)
    return texts, commented


def _block_body(text: str) -> tuple[str, bool]:
    """A block comment line's text (a leading ``*`` decoration removed) and whether the block ends on it."""
    ended = "*/" in text
    if ended:
        text = text[: text.index("*/")]
    text = text.strip()
    if text.startswith("*") and not text.startswith("*/"):
        text = text[1:]
    return text, ended


def _opens(text: str) -> bool:
    """Whether a comment's text starts an example of any shape (a doctest, an assertion, an inline call)."""
    stripped = text.strip()
    if stripped.startswith(">>>") or _ASSERT.match(stripped):
        return True
    return bool(_CALL.match(stripped)) and any(separator in stripped for separator in ("==", "=>", "->", "\u279e"))


def _statements(texts: list[str]) -> list[str]:
    """Assertion statements as inline examples and ``let`` values substituted (see the module docstring)."""
    out = list(texts)
    names: dict[str, str] = {}
    i = 0
    while i < len(out):
        stripped = out[i].strip()
        let = _LET.match(stripped)
        if let:
            names[let.group(1)] = let.group(2)
            out[i] = ""
            i += 1
            continue
        if not _ASSERT.match(stripped):
            i += 1
            continue
        statement, end = _statement(out, i)
        example = _assertion(_substituted(statement, names)) if statement is not None else None
        for k in range(i, end):
            out[k] = ""
        out[i] = example if example is not None else stripped
        i = max(end, i + 1)
    return out


def _statement(lines: list[str], start: int) -> tuple[str | None, int]:
    """The assertion starting at ``lines[start]`` joined (up to its closing parenthesis) and the
    index after its last line; None when its parentheses do not close within a few lines."""
    text = ""
    for end in range(start, min(len(lines), start + MAX_STATEMENT_LINES)):
        text += (" " if text else "") + lines[end].strip()
        close = _closing(text, text.index("("))
        if close is not None:
            return text[: close + 1], end + 1
    return None, start + 1


def _assertion(statement: str) -> str | None:
    """``assert_eq!(a, b)`` / ``assert!(c)`` as an inline example (None: not a comparison of a call)."""
    match = _ASSERT.match(statement)
    if match is None:
        return None
    inner = statement[match.end() : -1]
    parts = _split_commas(inner)
    if match.group(1) == "assert_eq":
        if len(parts) < 2:
            return None
        left, right = parts[0], parts[1]
        if not _CALL.search(_masked(left)) and _CALL.search(_masked(right)):
            left, right = right, left
        return f"{left} == {right}"
    if not parts:
        return None
    condition = parts[0]
    if "==" in _masked(condition):
        return condition
    if condition.startswith("!"):
        return f"{condition[1:].strip()} == false"
    return f"{condition} == true"


def _substituted(text: str, names: dict[str, str]) -> str:
    """``text`` with each name a ``let`` gave (outside literals) replaced by its value, parenthesised."""
    if not names:
        return text
    masked = _masked(text)
    out = text
    for found in reversed(list(re.finditer(r"(?<![\w.:'])([A-Za-z_]\w*)\b(?!\s*[(!])", masked))):
        value = names.get(found.group(1))
        if value is not None:
            out = out[: found.start()] + f"({value})" + out[found.end() :]
    return out


def _closing(text: str, start: int) -> int | None:
    """The index of the parenthesis closing the one at ``text[start]`` (literals skipped)."""
    depth = 0
    masked = _masked(text)
    for i in range(start, len(masked)):
        if masked[i] in "([{":
            depth += 1
        elif masked[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _split_commas(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and literals."""
    masked = _masked(text)
    parts: list[str] = []
    depth = start = 0
    for i, char in enumerate(masked):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def _masked(text: str) -> str:
    """``text`` with the inside of every string and character literal replaced by spaces."""
    out = list(text)
    i = 0
    while i < len(text):
        end = _literal_at(text, i)
        if end is None:
            i += 1
            continue
        for k in range(i + 1, max(i + 1, end - 1)):
            out[k] = " "
        i = end
    return "".join(out)


def _literal_at(text: str, start: int) -> int | None:
    """The index after the string, raw string or character literal opening at ``text[start]``
    (the text's end when it is unclosed); None when none opens there."""
    if text[start] == "r" and (start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_")):
        raw = re.match(r'r(#*)"', text[start:])
        if raw:
            end = text.find('"' + raw.group(1), start + raw.end())
            return len(text) if end < 0 else end + 1 + len(raw.group(1))
    if text[start] not in "\"'":
        return None
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == text[start]:
            return i + 1
        i += 1
    return len(text)


# ---- values ----------------------------------------------------------------------------------


def rust_values(text: str) -> str:
    """``text`` with Rust's value syntax written as Python's (see the module docstring)."""
    out: list[str] = []
    i = start = 0
    while i < len(text):
        end = _literal_at(text, i)
        if end is None:
            i += 1
            continue
        out += [_code(text[start:i]), _literal(text[i:end])]
        i = start = end
    out.append(_code(text[start:]))
    return "".join(out)


def _code(code: str) -> str:
    """A stretch of code between literals, its Rust value syntax rewritten."""
    code = _EMPTY.sub(lambda m: '""' if "String" in m.group(0) else "[]", code)
    code = re.sub(r"(?<![\w:])(?:std::vec::)?vec\s*!\s*(?=[\[(])", "", code)
    code = re.sub(r"(?<![\w:])(?:std::option::Option::|Option::)?Some\s*(?=\()", "", code)
    code = re.sub(r"(?<![\w:])(?:std::option::Option::|Option::)None\b", "None", code)
    code = _STRING_OF.sub("(", code)
    code = _METHOD.sub("", code)
    code = _SUFFIX.sub(lambda m: m.group(1), code)
    return re.sub(r"(?<![&\w)\]])" + _REFERENCE.pattern, "", code)


def _literal(literal: str) -> str:
    """A literal's Python spelling (a raw string as Python's ``repr``, ``\\u{...}`` escapes as ``\\U...``)."""
    raw = re.match(r'r(#*)"', literal)
    if raw:
        closing = '"' + raw.group(1)
        return repr(literal[raw.end() : -len(closing)]) if literal.endswith(closing) and len(literal) >= raw.end() + len(closing) else literal
    return _UNICODE.sub(lambda m: f"\\U{int(m.group(1).replace('_', ''), 16):08x}", literal)
