"""Reading C++ source at the token level for the judged-outside runs (see :mod:`cpp_split`):
identifiers outside comments, string and character literals, with the brace depth they sit at,
renamed one by one. No parsing: the compiler checks what these edits produce."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

NDEBUG_OFF = "EXECIR_NDEBUG_IGNORED"
"""What ``NDEBUG`` becomes in trusted code: the tests' asserts can never be switched off."""
_IDENT_START = re.compile(r"[A-Za-z_]")
_IDENT = re.compile(r"[A-Za-z_0-9]*")
_PP_NUMBER = re.compile(r"[0-9]([0-9A-Za-z_.']|[eEpP][+-])*")
_RAW = re.compile(r'R"([^()\\ ]{0,16})\(')


@dataclass(frozen=True)
class Token:
    """One identifier: where it is, its brace depth, and the code token just before it."""

    start: int
    end: int
    name: str
    depth: int
    before: str
    after: str


def _literal_end(code: str, i: int) -> int:
    """End of the string or character literal starting at ``code[i]``."""
    quote, j, n = code[i], i + 1, len(code)
    while j < n and code[j] != quote and code[j] != "\n":
        j += 2 if code[j] == "\\" else 1
    return min(j + 1, n)


def tokens(code: str) -> Iterator[Token]:
    """The identifiers of ``code`` outside comments and literals, in order."""
    i, n, depth = 0, len(code), 0
    last = ""
    while i < n:
        ch = code[i]
        if code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
        elif code.startswith("/*", i):
            j = code.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif ch == "R" and (raw := _RAW.match(code, i)):
            j = code.find(f'){raw.group(1)}"', raw.end())
            i, last = (n if j < 0 else j + len(raw.group(1)) + 2), '"'
        elif ch in "\"'":
            i, last = _literal_end(code, i), ch
        elif ch.isdigit():
            match = _PP_NUMBER.match(code, i)
            i, last = (match.end() if match else i + 1), "0"
        elif _IDENT_START.match(ch):
            end = _IDENT.match(code, i + 1)
            stop = end.end() if end else i + 1
            k = stop
            while k < n and code[k] in " \t\r\n":
                k += 1
            yield Token(i, stop, code[i:stop], depth, last, code[k] if k < n else "")
            i, last = stop, "a"
        else:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth = max(0, depth - 1)
            if not ch.isspace():
                last = ch
            i += 1


def rename(code: str, renames: dict[str, str], *, only: Callable[[Token], bool] | None = None) -> str:
    """``code`` with each identifier named in ``renames`` replaced (``only``: a predicate on the
    :class:`Token` that must hold too)."""
    out: list[str] = []
    at = 0
    for token in tokens(code):
        new = renames.get(token.name)
        if new is None or (only is not None and not only(token)):
            continue
        out += [code[at : token.start], new]
        at = token.end
    out.append(code[at:])
    return "".join(out)


def trusted(code: str, renames: dict[str, str] | None = None) -> str:
    """Trusted code (the reference, the tests) as the trusted runs compile it: ``NDEBUG`` can never
    switch the asserts off, and ``renames`` applied."""
    return rename(code, {"NDEBUG": NDEBUG_OFF, **(renames or {})})


def is_declaration(token: Token) -> bool:
    """A function declarator at file scope (``bool f(...)``, ``vector<int> f(...)``): not a call."""
    return token.depth == 0 and token.after == "(" and token.before in ("a", ">", "*", "&")


def defined_functions(code: str) -> list[str]:
    """Names of the functions ``code`` defines at file scope, in order (a declarator followed,
    after its parameter list, by a body)."""
    names: list[str] = []
    for token in tokens(code):
        if not is_declaration(token):
            continue
        close = _matching_paren(code, code.index("(", token.end))
        rest = code[close + 1 :].lstrip()
        if rest.startswith("{") or re.match(r"(const|noexcept|->)\b", rest):
            names.append(token.name)
    return names


def blank_comments(code: str) -> str:
    """``code`` with every comment's characters but newlines made spaces (indexes kept)."""
    out = list(code)
    i, n = 0, len(code)
    while i < n:
        if code.startswith("//", i) or code.startswith("/*", i):
            j = code.find("\n", i) if code[i + 1] == "/" else code.find("*/", i + 2) + 2
            j = n if j < (2 if code[i + 1] == "*" else 0) else j
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif code[i] in "\"'":
            i = _literal_end(code, i)
        else:
            i += 1
    return "".join(out)


_UNNAMED = frozenset("int float double char bool long short unsigned signed string auto void const".split())


@dataclass(frozen=True)
class Definition:
    """A function definition's header (everything before its body) and its parameters' names."""

    header: str
    params: tuple[str, ...]


def definition(code: str, name: str) -> Definition | None:
    """The last file-scope definition of ``name`` in ``code``, or None (no definition, or a
    parameter without a name)."""
    plain = blank_comments(code)
    found: Definition | None = None
    for token in tokens(code):
        if token.name != name or not is_declaration(token):
            continue
        open_at = code.index("(", token.end)
        close = _matching_paren(code, open_at)
        body = _body_start(plain, close + 1)
        if body < 0:
            continue
        start = _statement_start(plain, token.start)
        params = _param_names(plain[open_at + 1 : close])
        found = None if params is None else Definition(plain[start:body].strip(), params)
    return found


def _body_start(plain: str, i: int) -> int:
    """Where the body's ``{`` is after a parameter list ending before ``i`` (-1: a declaration)."""
    for j in range(i, len(plain)):
        if plain[j] == "{":
            return j
        if plain[j] in ";=":
            return -1
    return -1


def _statement_start(plain: str, i: int) -> int:
    """Start of the file-scope statement holding position ``i``."""
    j = i
    while j > 0:
        ch = plain[j - 1]
        if ch in ";}{":
            return j
        if ch == "\n":
            line_end = j - 1
            line_start = plain.rfind("\n", 0, line_end) + 1
            if plain[line_start:line_end].lstrip().startswith("#"):
                return j
        j -= 1
    return 0


def _param_names(params: str) -> tuple[str, ...] | None:
    parts: list[str] = []
    depth, current = 0, ""
    for ch in params:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    if len(parts) == 1 and parts[0].strip() in ("", "void"):
        return ()
    names: list[str] = []
    for part in parts:
        declarator = part.split("=", 1)[0].split("[", 1)[0].strip()
        found = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\s*$", declarator)
        if found is None or found.group(1) in _UNNAMED or declarator.endswith((">", "*", "&")):
            return None
        names.append(found.group(1))
    return tuple(names)


def _matching_paren(code: str, i: int) -> int:
    depth = 0
    for j in range(i, len(code)):
        depth += (code[j] == "(") - (code[j] == ")")
        if depth == 0:
            return j
    return len(code) - 1


def called_names(code: str) -> set[str]:
    """Identifiers used as a call inside a body (brace depth > 0)."""
    return {token.name for token in tokens(code) if token.depth > 0 and token.after == "("}


def entry_name(reference: str, tests: str | None, hint: str) -> str | None:
    """The entry point to replay: ``hint`` when the reference defines it, else the last function
    the reference defines that the tests call (HumanEval-X puts the entry point last; HumanEvalPack
    renamed two misspelled ones), else None."""
    defined = defined_functions(reference)
    if hint and hint in defined:
        return hint
    if tests is None:
        return defined[-1] if defined else None
    used = called_names(tests)
    picked = [name for name in defined if name in used and name != "main"]
    return picked[-1] if picked else None
