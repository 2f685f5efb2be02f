"""The whole problem text with its examples, as a user would paste it into a search box.

:func:`full_query` picks, by the shape of the task:

* **stdio tasks** (``tests.kind == "stdio"``, LiveCodeBench): the description as it is (it already
  holds the sample input and output);
* **assert tasks** (``tests.kind == "asserts"``, MBPP): the description, a blank line, then
  ``Examples:`` and the first :data:`MAX_ASSERTS` assert lines of the tests;
* **Python prompts** (HumanEval): the entry point's docstring, examples included, dedented
  (``inspect.cleandoc``), without the signature;
* **prompts in other languages** (HumanEval-X, HumanEvalPack, MBXP): the prompt's last doc comment
  (:func:`execir.languages.treesitter.language.doc_comment`: the last block comment or the last run
  of line comments), comment markers removed, each line stripped, examples included; for Ruby,
  MBXP's boilerplate first line is dropped too.

Whenever the prompt has no docstring or doc comment, the description is the fallback. The text
never holds the solution body: it comes from the prompt's docstring or comments, or the tests.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from typing import TYPE_CHECKING

from execir.tasks.source_text import function_docstring
from execir.types import Task

if TYPE_CHECKING:
    import tree_sitter

MAX_ASSERTS = 3
"""Assert lines shown as examples for assert-tested tasks."""

GRAMMARS: dict[str, str] = {
    "cpp": "tree_sitter_cpp",
    "java": "tree_sitter_java",
    "go": "tree_sitter_go",
    "js": "tree_sitter_javascript",
    "ruby": "tree_sitter_ruby",
}
"""Language -> the grammar wheel that parses its prompts."""

_COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})
"""Comment node types of every grammar in :data:`GRAMMARS`."""

_RUBY_MARKERS = re.compile(r"^(?:#+\s*)+")


def full_query(task: Task) -> str:
    """The task's full problem text with its examples (see the module docstring)."""
    if task.tests.kind == "stdio":
        return task.description
    if task.tests.kind == "asserts":
        return with_asserts(task.description, task.tests.asserts)
    if task.language == "python":
        text = python_docstring(task.prompt, task.entry_point)
    else:
        text = native_doc_comment(task.prompt, task.language)
    return text or task.description


def with_asserts(description: str, asserts: tuple[str, ...]) -> str:
    """The description followed by up to :data:`MAX_ASSERTS` assert lines as examples."""
    shown = [line.strip() for line in asserts[:MAX_ASSERTS] if line.strip()]
    if not shown:
        return description
    return description.rstrip() + "\n\nExamples:\n" + "\n".join(shown)


def python_docstring(prompt: str, entry_point: str) -> str:
    """The entry point's docstring in a Python prompt, dedented, examples kept; empty when the
    prompt does not parse or the function has no docstring."""
    try:
        docstring = function_docstring(prompt, entry_point)
    except SyntaxError:
        return ""
    return (docstring or "").strip()


def native_doc_comment(prompt: str, language: str) -> str:
    """The prompt's last doc comment with markers removed and lines stripped (examples kept);
    empty for a language without a grammar here or a prompt without comments."""
    module = GRAMMARS.get(language)
    if module is None or not prompt:
        return ""
    from execir.languages.ruby.text import BOILERPLATE  # tree-sitter loads only for these languages
    from execir.languages.treesitter import Program
    from execir.languages.treesitter.language import doc_comment

    program = Program(prompt, _parser(module).parse(prompt.encode("utf-8")), _COMMENT_TYPES)
    lines = [line.strip() for line in doc_comment(program).split("\n")]
    if language == "ruby":
        lines = [_RUBY_MARKERS.sub("", line) for line in lines]
        lines = [line for line in lines if not BOILERPLATE.match(line)]
    return _trim_blank(lines)


@cache
def _parser(module: str) -> tree_sitter.Parser:
    import tree_sitter

    return tree_sitter.Parser(tree_sitter.Language(importlib.import_module(module).language()))


def _trim_blank(lines: list[str]) -> str:
    """Lines joined, blank runs collapsed to one blank line, no blank lines at either end."""
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()
