"""Semantics-preserving rewrites of a program: extra correct documents for a retrieval benchmark.

A rewrite applies one rule at one site of a canonical solution (rename one local everywhere in its
function, turn one ``for`` loop into a ``while`` loop, swap the operands of one ``==``, ...) as a
single span edit, so the rest of the text keeps its formatting. Rules aim at true equivalence; the
construct stage still executes every rewrite against the task's tests and keeps only passing ones.

Public API: :class:`Rewrite`, :func:`rewrites`, :func:`select_rewrites`, :func:`rule_names`.
Rule names are stable identifiers written into datasets: never rename one, only add.
"""

from __future__ import annotations

from execir.rewrite.engine import rewrites, rule_names
from execir.rewrite.select import select_rewrites
from execir.rewrite.types import Rewrite

__all__ = ["Rewrite", "rewrites", "rule_names", "select_rewrites"]
