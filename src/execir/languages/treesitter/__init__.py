"""Shared tree-sitter machinery for the languages parsed with per-language grammar wheels
(``tree-sitter-cpp``, ``-java``, ``-go``, ``-javascript``, ``-ruby``; all load offline).

:class:`Program` wraps one parsed text with character-offset spans, node walks and edit helpers;
:func:`make_language` builds a :class:`~execir.languages.base.Language` from a grammar, its comment
node types and an operator table.
"""

from execir.languages.treesitter.language import make_language
from execir.languages.treesitter.program import Program

__all__ = ["Program", "make_language"]
