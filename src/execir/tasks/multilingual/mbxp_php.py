"""MBXP PHP (amazon-science/mxeval ``mbphp_release_v1.2.jsonl``): the 950 of its 966 tasks with a
canonical solution.

Program = ``prompt + canonical_solution`` (the prompt opens with ``<?php``); tests = ``test``
(top-level code that defines a ``compare`` helper, loose ``==``, and throws an ``Exception`` on a
mismatch), run after the program as mxeval does (``prompt + solution + "\\n" + test`` in one file,
``php file.php``, exit status 0 = pass; here they are judged outside the candidate's process by
:mod:`execir.execute.runtimes.php_split`, or run in-process by the trusted runner of
:mod:`execir.execute.runtimes.php`).

786 canonicals pass (all judged outside). 118 fail their own tests with plain ``php`` 8.2 as well
(mostly a body that reads variables the signature never declares: ``$testList`` for a parameter
named ``$list``). 46 more pass ``php f.php`` without their tests checking anything: 20 call
``exit`` in the function, 25 end in ``?>`` (or text after it) that turns the tests into output,
and MBPHP/534 calls the shell through ``exec`` (disabled here) and passes by loose ``==``. A build
excludes all of them like any canonical that does not pass. MBXP has no buggy solutions.
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, load_mbxp

SOURCE = "mbxp"


def load(root: Path | None = None) -> list[NativeTask]:
    """The MBXP PHP tasks that have a canonical solution, in file order."""
    return load_mbxp("mbphp_release_v1.2.jsonl", "php", root)
