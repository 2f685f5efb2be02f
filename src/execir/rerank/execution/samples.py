"""The sample input/output pairs of a competitive-programming statement, read from its text
(LiveCodeBench's AtCoder and Codeforces texts; nothing is run here).

``Sample Input k`` / ``Sample Output k`` blocks, or ``Input``/``Output`` blocks after an
``Example``/``Examples`` heading. An input whose every other line is blank (Codeforces' statements
double the line breaks of their samples) is undoubled. Used by
:func:`execir.rerank.execution.examples.extract_examples`.
"""

from __future__ import annotations

import re

from execir.types import StdioCase

_SAMPLE = re.compile(r"Sample[ \t]+(Input|Output)[ \t]*(\d*)[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)
_EXAMPLE_HEAD = re.compile(r"^[ \t]*Examples?[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)
_BLOCK_HEAD = re.compile(r"^[ \t]*(Input|Output)[ \t]*:?[ \t]*$", re.IGNORECASE)


def stdio_examples(text: str) -> list[StdioCase]:
    """Sample input/output pairs of a competitive-programming statement, in order."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    cases = _numbered_samples(text)
    return cases if cases else _example_blocks(text)


def _numbered_samples(text: str) -> list[StdioCase]:
    """``Sample Input k`` ... ``Sample Output k`` pairs (the number may be absent on both)."""
    heads = list(_SAMPLE.finditer(text))
    cases: list[StdioCase] = []
    for index, head in enumerate(heads):
        if head.group(1).lower() != "input":
            continue
        output = next((h for h in heads[index + 1 :] if h.group(1).lower() == "output" and h.group(2) == head.group(2)), None)
        nxt = heads[index + 1] if index + 1 < len(heads) else None
        if output is None or nxt is not output:
            continue
        following = next((h.start() for h in heads if h.start() > output.end()), len(text))
        sample_in = _undouble(_trim_blank(text[head.end() : output.start()]))
        sample_out = _first_paragraph(text[output.end() : following])
        if sample_in is not None and sample_out:
            cases.append(StdioCase(sample_in, sample_out))
    return cases


def _example_blocks(text: str) -> list[StdioCase]:
    """``Input`` / ``Output`` blocks after an ``Example(s)`` heading (Codeforces' own layout)."""
    head = _EXAMPLE_HEAD.search(text)
    if head is None:
        return []
    lines = text[head.end() :].split("\n")
    kinds = [match.group(1).lower() if (match := _BLOCK_HEAD.match(line)) else "" for line in lines]
    marks = [i for i, kind in enumerate(kinds) if kind] + [len(lines)]
    cases: list[StdioCase] = []
    for here, there, after in zip(marks, marks[1:], marks[2:]):
        if kinds[here] != "input" or there == len(lines) or kinds[there] != "output":
            continue
        sample_in = _undouble(_trim_blank("\n".join(lines[here + 1 : there])))
        sample_out = _first_paragraph("\n" + "\n".join(lines[there + 1 : after]))
        if sample_in is not None and sample_out:
            cases.append(StdioCase(sample_in, sample_out))
    return cases


def _trim_blank(block: str) -> str | None:
    """The block without blank lines at either end, with a final newline; None when empty."""
    lines = block.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines) + "\n" if lines else None


def _first_paragraph(block: str) -> str:
    """The lines after leading blank ones, up to the next blank line (explanations follow one).
    Two or more blank lines between the heading and the text mean an empty output (AtCoder's
    layout puts one blank line between a heading and its sample), returned as a single newline."""
    lines = block.split("\n")[1:]  # the rest of the heading's line
    blank = 0
    while lines and not lines[0].strip():
        lines.pop(0)
        blank += 1
    if blank >= 2:
        return "\n"
    kept: list[str] = []
    for line in lines:
        if not line.strip():
            break
        kept.append(line.rstrip())
    return "\n".join(kept) + "\n" if kept else ""


def _undouble(block: str | None) -> str | None:
    """Undo doubled line breaks: when every other line is blank, drop the blank ones."""
    if block is None:
        return None
    lines = block.rstrip("\n").split("\n")
    if len(lines) >= 3 and all(not line.strip() for line in lines[1::2]) and all(line.strip() for line in lines[0::2]):
        return "\n".join(lines[0::2]) + "\n"
    return block
