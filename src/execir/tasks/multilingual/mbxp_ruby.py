"""MBXP Ruby (amazon-science/mxeval ``mbrbp_release_v1.2.jsonl``): the 784 tasks with a canonical solution.

Program = ``prompt + canonical_solution``; tests = ``test`` (top-level code that raises
``StandardError`` on a mismatch), run after the program as mxeval does (``prompt + solution + "\\n" +
test`` in one file, ``ruby file.rb``, exit status 0 = pass; here the trusted runner of
:mod:`execir.execute.runtimes.ruby` loads the two and proves completion with the nonce).

Four canonicals (MBRBP/...) use ``Set`` without ``require 'set'``: they pass on Ruby >= 3.2, where
``Set`` is available without a ``require``, and fail on 3.1 (the ruby here). The runner requires
``set`` before the program (what Ruby 3.2+ provides), so they pass; the tests never depended on it.
MBXP has no buggy solutions.
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, load_mbxp

SOURCE = "mbxp"


def load(root: Path | None = None) -> list[NativeTask]:
    """The MBXP Ruby tasks that have a canonical solution, in file order."""
    return load_mbxp("mbrbp_release_v1.2.jsonl", "ruby", root)
