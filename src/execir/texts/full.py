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

Each language reads its own documentation (:attr:`execir.languages.base.Language.doc_comment`).

Whenever the prompt has no docstring or doc comment, the description is the fallback. The text
never holds the solution body: it comes from the prompt's docstring or comments, or the tests.
"""

from __future__ import annotations

from execir.types import Task

MAX_ASSERTS = 3
"""Assert lines shown as examples for assert-tested tasks."""


def full_query(task: Task) -> str:
    """The task's full problem text with its examples (see the module docstring)."""
    if task.tests.kind == "stdio":
        return task.description
    if task.tests.kind == "asserts":
        return with_asserts(task.description, task.tests.asserts)
    text = documentation(task.prompt, task.language, task.entry_point)
    return text or task.description


def with_asserts(description: str, asserts: tuple[str, ...]) -> str:
    """The description followed by up to :data:`MAX_ASSERTS` assert lines as examples."""
    shown = [line.strip() for line in asserts[:MAX_ASSERTS] if line.strip()]
    if not shown:
        return description
    return description.rstrip() + "\n\nExamples:\n" + "\n".join(shown)


def documentation(prompt: str, language: str, entry_point: str) -> str:
    """The prompt's documentation with its examples, as its language reads it
    (:attr:`execir.languages.base.Language.doc_comment`); empty for a
    language ExecIR does not know or a prompt without documentation."""
    from execir.languages import LANGUAGE_MODULES, get_language  # tree-sitter loads only for these languages

    if language not in LANGUAGE_MODULES or not prompt:
        return ""
    return get_language(language).doc_comment(prompt, entry_point)
