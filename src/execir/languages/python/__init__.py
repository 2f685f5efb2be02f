"""Python: parsed with ``ast``; operators in :mod:`execir.languages.python.operators`."""

from __future__ import annotations

from execir.languages.base import Language
from execir.languages.python.operators import OPERATORS
from execir.languages.python.program import PythonProgram, compiles, parse
from execir.languages.python.text import describe_prompt, strip_comments
from execir.languages.python.tokens import python_tokens

PYTHON: Language[PythonProgram] = Language(
    name="python",
    parse=parse,
    is_valid=compiles,
    tokens=python_tokens,
    strip_comments=strip_comments,
    describe=describe_prompt,
    operators=OPERATORS,
)

__all__ = ["PYTHON", "PythonProgram"]
