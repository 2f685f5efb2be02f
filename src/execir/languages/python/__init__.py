"""Python: parsed with ``ast``; operators in :mod:`execir.languages.python.operators`."""

from __future__ import annotations

from execir.languages.base import Language
from execir.languages.python.operators import OPERATORS
from execir.languages.python.program import PythonProgram, compiles, parse
from execir.languages.python.text import describe_prompt, strip_comments
from execir.languages.python.tokens import python_tokens
from execir.source_text import function_docstring


def doc_comment(prompt: str, entry_point: str) -> str:
    """The entry point's docstring in a prompt, stripped, examples kept ("" when the prompt does
    not parse or the function has none)."""
    try:
        docstring = function_docstring(prompt, entry_point)
    except SyntaxError:
        return ""
    return (docstring or "").strip()


PYTHON: Language[PythonProgram] = Language(
    name="python",
    parse=parse,
    is_valid=compiles,
    tokens=python_tokens,
    strip_comments=strip_comments,
    describe=describe_prompt,
    operators=OPERATORS,
    doc_comment=doc_comment,
)

__all__ = ["PYTHON", "PythonProgram"]
