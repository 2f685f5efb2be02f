"""Code a mutant must not touch for its label to mean the same under every harness.

HumanEval's tests call helpers the prompt defines (``poly`` for ``find_zero``, ``encode_cyclic`` for
``decode_cyclic``). ExecIR's judge runs the tests with the *reference* helpers, so a candidate cannot
weaken them; the official harness runs them with the candidate's own. A mutant that edits such a
helper is then FAIL for one and may PASS for the other (a broken ``poly`` that returns 0 makes any
root look right). Such mutants are not generated: the label of every kept mutant is decided by a
bug in code the tests only reach through the entry point.
"""

from __future__ import annotations

import ast
import re

from execir.language_declarations import is_host_language
from execir.types import Task


def protected_lines(task: Task) -> frozenset[int]:
    """Lines (1-based) of the top-level functions and classes of a Python solution, other than the
    entry point, whose names the tests mention; empty for other languages and unparsable text."""
    if not is_host_language(task.language):
        return frozenset()
    test_text = task.tests.code + "\n" + "\n".join(task.tests.asserts)
    named = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", test_text))
    try:
        tree = ast.parse(task.solution)
    except SyntaxError:
        return frozenset()
    lines: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name != task.entry_point and node.name in named:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines.update(range(start, (node.end_lineno or node.lineno) + 1))
    return frozenset(lines)
