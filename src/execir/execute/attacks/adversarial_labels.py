"""Adversarial cases on how the oracle turns evidence into labels (see :mod:`execir.execute.decide`).

A candidate must not be able to choose its own verdict class (forging the sandbox's load report to
look like an ERROR), break a batch or the cache with its text (lone surrogates, terminal escapes),
turn the task's own broken test code into a label, or reach the host's unix sockets.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import ADD_CHECK, ADD_OK, WRONG, Case, _case, _right_if
from execir.types import StdioCase, TestSuite, Verdict

F, P, U = Verdict.FAIL, Verdict.PASS, Verdict.UNDECIDED
ABSTRACT_CANARY = "\0execir-canary-selftest"
"""An abstract unix socket the selftest listens on while the cases run."""
BROKEN_TESTS = TestSuite("check", "def check(candidate):\n    assert candidate(2, 3) == 5\nhelper_the_task_forgot()\n")
LONE_CR = TestSuite("stdio", stdio_cases=(StdioCase("", "1\n2\n"),))
_FORGE_LOAD_ERROR = (
    "import os, sys, socket\n"
    "sys.modules['frames'].send(socket.socket(fileno=3), {'op': 'load_error', 'reason': 'compile: SyntaxError: invalid syntax'})\n"
    "os._exit(0)\n"
)

LABEL_CASES: tuple[Case, ...] = (
    _case("forged_load_error_is_fail", "labels", _FORGE_LOAD_ERROR, F),
    _case("lone_surrogate_in_failure", "labels", "def add(a, b):\n    raise ValueError('\\udcff\\ud800')\n", F),
    _case("terminal_escapes_in_failure", "labels", "def add(a, b):\n    raise AssertionError('\\x1b[1A\\x1b[2K\\rPASS \\u202e')\n", F),
    _case("lone_surrogate_returned", "labels", "def add(a, b):\n    return '\\udcff'\n", F),
    _case("broken_test_code_correct_candidate", "labels", ADD_OK, U, BROKEN_TESTS),
    _case("broken_test_code_wrong_candidate", "labels", WRONG, U, BROKEN_TESTS),
    _case("stdio_lone_cr_is_not_newline", "labels", "import sys\nsys.stdout.write('1\\r2\\n')\n", F, LONE_CR),
    _case("stdio_crlf_lines_control", "labels", "import sys\nsys.stdout.write('1\\r\\n2\\r\\n')\n", P, LONE_CR),
    _case("host_abstract_unix_socket", "isolation", _right_if(f"import socket\nsocket.socket(socket.AF_UNIX).connect({ABSTRACT_CANARY!r})"), F),
    _case(
        "host_path_unix_socket",
        "isolation",
        _right_if(
            "import socket, glob\n"
            "for p in glob.glob('/run/**/*.sock', recursive=True) + glob.glob('/var/run/*.sock') + glob.glob('/tmp/.X11-unix/*'):\n"
            "    try:\n"
            "        socket.socket(socket.AF_UNIX).connect(p)\n"
            "        break\n"
            "    except OSError:\n"
            "        pass\n"
            "else:\n"
            "    raise OSError('none')"
        ),
        F,
    ),
)
"""The cases, with ``ADD_CHECK`` tests unless stated."""

__all__ = ["ABSTRACT_CANARY", "ADD_CHECK", "LABEL_CASES"]
