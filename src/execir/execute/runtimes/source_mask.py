"""Which characters of C-family source text are code: outside ``//`` and ``/* */`` comments,
quoted strings and character literals, and the language's raw or multi-line literals. The Go and
Java runtimes read source text through it (:mod:`execir.execute.runtimes.go_source`,
:mod:`execir.execute.runtimes.java_source`)."""

from __future__ import annotations


def code_mask(source: str, raw: tuple[str, ...] = ()) -> list[bool]:
    """For each character of ``source``: is it code? ``raw``: delimiters of literals that open and
    close with the same text and span lines without escapes (Go's ```` ` ````, Java's ``\"\"\"``)."""
    mask = [True] * len(source)
    i, n = 0, len(source)
    while i < n:
        two = source[i : i + 2]
        fence = next((d for d in raw if source.startswith(d, i)), None)
        if two == "//":
            end = source.find("\n", i)
            end = n if end < 0 else end
        elif two == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif fence is not None:
            end = source.find(fence, i + len(fence))
            end = n if end < 0 else end + len(fence)
        elif source[i] in "\"'":
            quote, end = source[i], i + 1
            while end < n and source[end] != quote and source[end] != "\n":
                end += 2 if source[end] == "\\" else 1
            end = min(n, end + 1)
        else:
            i += 1
            continue
        for k in range(i, end):
            mask[k] = False
        i = end
    return mask
