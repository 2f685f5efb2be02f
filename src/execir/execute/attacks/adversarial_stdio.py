"""stdio process rules as selftest cases: common contest idioms, and wrong or hanging programs.

A stdio program is judged as ``python3 main.py < input > output`` is run by a pipe judge (see the
rules in :mod:`execir.execute.harness.driver`): the verdict comes from everything the *process
tree* wrote to stdout once every process of the run has exited, and the main process's exit
status. Every correct idiom below must PASS; every wrong or hanging program must not.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import STDIO, Case, make_case
from execir.types import StdioCase, TestSuite, Verdict

F, T, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.PASS
_READ = "a, b = map(int, input().split())\n"


def _stdio(name: str, program: str, expected: set[Verdict] | Verdict, category: str = "control") -> Case:
    return make_case(name, category, program, expected, STDIO)


LARGE_COUNT = 200_000
LARGE: TestSuite = TestSuite("stdio", stdio_cases=(StdioCase(f"{LARGE_COUNT}\n", "".join(f"{i}\n" for i in range(1, LARGE_COUNT + 1))),))
"""Print 1..n, one a line: the right output is 1.29 MB, over the default 1 MiB stdout cap (the cap
of a case is a multiple of its expected output's size, see :meth:`Limits.for_expected_output`)."""
_COUNT_PY = "import sys\nn = int(input())\nsys.stdout.write(''.join(f'{i}\\n' for i in range(1, n + 1)))\n"
_COUNT_CPP = '#include <cstdio>\nint main() {\n    int n;\n    if (scanf("%d", &n) != 1) return 1;\n    for (int i = 1; i <= n; ++i) printf("%d\\n", i);\n}\n'


_FASTIO = (
    "import os, sys\nfrom io import BytesIO, IOBase\n"
    "class FastIO(IOBase):\n"
    "    newlines = 0\n"
    "    def __init__(self, file):\n"
    "        self._fd = file.fileno()\n        self.buffer = BytesIO()\n"
    "        self.writable = 'x' in file.mode or 'r' not in file.mode\n"
    "        self.write = self.buffer.write if self.writable else None\n"
    "    def readline(self):\n"
    "        while self.newlines == 0:\n"
    "            b = os.read(self._fd, max(os.fstat(self._fd).st_size, 8192))\n"
    "            self.newlines = b.count(b'\\n') + (not b)\n"
    "            ptr = self.buffer.tell()\n"
    "            self.buffer.seek(0, 2), self.buffer.write(b), self.buffer.seek(ptr)\n"
    "        self.newlines -= 1\n        return self.buffer.readline()\n"
    "    def flush(self):\n"
    "        if self.writable:\n"
    "            os.write(self._fd, self.buffer.getvalue())\n"
    "            self.buffer.truncate(0), self.buffer.seek(0)\n"
    "class IOWrapper(IOBase):\n"
    "    def __init__(self, file):\n"
    "        self.buffer = FastIO(file)\n        self.flush = self.buffer.flush\n        self.writable = self.buffer.writable\n"
    "        self.write = lambda s: self.buffer.write(s.encode('ascii'))\n"
    "        self.read = lambda: self.buffer.read().decode('ascii')\n"
    "        self.readline = lambda: self.buffer.readline().decode('ascii')\n"
    "sys.stdin, sys.stdout = IOWrapper(sys.stdin), IOWrapper(sys.stdout)\n"
    "input = lambda: sys.stdin.readline().rstrip('\\r\\n')\n" + _READ + "print(a + b)\n"
)
"""PyRival's FastIO template (very common on Codeforces): output reaches fd 1 only when Python
flushes ``sys.stdout`` at exit."""

IDIOMS: tuple[Case, ...] = (
    _stdio(
        "idiom_thread_without_join",
        "import sys, threading\n"
        "sys.setrecursionlimit(1 << 20)\n"
        "threading.stack_size(1 << 26)\n"
        "def main():\n"
        "    " + _READ.strip() + "\n"
        "    print(a + b)\n"
        "threading.Thread(target=main).start()\n",
        P,
    ),
    _stdio(
        "idiom_thread_deep_recursion",
        "import sys, threading\n"
        "sys.setrecursionlimit(10 ** 6)\n"
        "threading.stack_size(1 << 27)\n"
        "def f(n):\n"
        "    return 0 if n == 0 else 1 + f(n - 1)\n"
        "def main():\n"
        "    " + _READ.strip() + "\n"
        "    print(a + b + f(100000) - 100000)\n"
        "t = threading.Thread(target=main)\n"
        "t.start()\n",
        P,
    ),
    _stdio(
        "idiom_atexit_flush",
        "import atexit, sys\nout = []\natexit.register(lambda: sys.stdout.write(''.join(out)))\n" + _READ + "out.append(f'{a + b}\\n')\n",
        P,
    ),
    _stdio(
        "idiom_bytesio_os_write_at_exit",
        "import atexit, io, os\nbuf = io.BytesIO()\natexit.register(lambda: os.write(1, buf.getvalue()))\n" + _READ + "buf.write(b'%d\\n' % (a + b))\n",
        P,
    ),
    _stdio(
        "idiom_stringio_swap_printed_at_exit",
        "import atexit, io, sys\nsys.stdout = io.StringIO()\natexit.register(lambda: sys.__stdout__.write(sys.stdout.getvalue()))\n" + _READ + "print(a + b)\n",
        P,
    ),
    _stdio("idiom_pyrival_fastio", _FASTIO, P),
    _stdio("idiom_exit_builtin", _READ + "print(a + b)\nexit()\n", P),
    _stdio("idiom_quit_builtin", _READ + "print(a + b)\nquit()\nprint('unreachable')\n", P),
    _stdio("idiom_sys_exit_0_after_print", "import sys\n" + _READ + "print(a + b)\nsys.exit(0)\n", P),
    _stdio("idiom_raise_systemexit", _READ + "print(a + b)\nraise SystemExit\n", P),
    _stdio("idiom_print_end_empty", _READ + "print(a + b, end='')\n", P),
    _stdio("idiom_stdout_write_no_newline", "import sys\n" + _READ + "sys.stdout.write(str(a + b))\n", P),
    _stdio("idiom_os_write_fd1", "import os\n" + _READ + "os.write(1, f'{a + b}\\n'.encode())\n", P),
    _stdio("idiom_flush_then_os_exit", "import os, sys\n" + _READ + "print(a + b)\nsys.stdout.flush()\nos._exit(0)\n", P),
    _stdio("idiom_unclosed_open_fd1", "out = open(1, 'w')\n" + _READ + "out.write(f'{a + b}\\n')\n", P),
    _stdio(
        "idiom_fork_child_prints",
        "import os, sys\n" + _READ + "sys.stdout.flush()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    print(a + b)\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)\n",
        P,
    ),
    _stdio(
        "idiom_fork_child_prints_after_parent_exits",
        "import os, sys, time\n" + _READ + "if os.fork() == 0:\n    time.sleep(0.05)\n    print(a + b)\n    sys.stdout.flush()\n    os._exit(0)\n",
        P,
    ),
    _stdio(
        "idiom_multiprocessing_child_prints",
        "import multiprocessing as mp\n"
        "def work(a, b):\n"
        "    print(a + b, flush=True)\n"
        "if __name__ == '__main__':\n"
        "    " + _READ.strip() + "\n"
        "    p = mp.Process(target=work, args=(a, b))\n"
        "    p.start()\n"
        "    p.join()\n",
        P,
    ),
    _stdio("idiom_read_all_stdin", "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n", P),
    _stdio("idiom_stdin_buffer_read", "import sys\na, b = map(int, sys.stdin.buffer.read().split())\nprint(a + b)\n", P),
    _stdio("idiom_os_read_fd0", "import os\na, b = map(int, os.read(0, 1 << 16).split())\nprint(a + b)\n", P),
    _stdio("idiom_readline_loop_until_eof", "import sys\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(a + b)\n", P),
    _stdio(
        "idiom_input_until_eoferror",
        "while True:\n    try:\n        line = input()\n    except EOFError:\n        break\n    a, b = map(int, line.split())\n    print(a + b)\n",
        P,
    ),
    _stdio(
        "idiom_main_guard_argv_file",
        "import os, sys\n"
        "def main():\n"
        "    assert sys.argv[0] and os.path.basename(__file__) == os.path.basename(sys.argv[0])\n"
        "    " + _READ.strip() + "\n"
        "    print(a + b)\n"
        "if __name__ == '__main__':\n"
        "    main()\n",
        P,
    ),
    _stdio("idiom_stderr_debug_flood", "import sys\n" + _READ + "for _ in range(3000):\n    sys.stderr.write('debug ' * 300 + '\\n')\nprint(a + b)\n", P),
    _stdio(
        "idiom_daemon_thread_left_running",
        "import threading, time\n"
        "def spin():\n"
        "    while True:\n"
        "        time.sleep(0.01)\n"
        "threading.Thread(target=spin, daemon=True).start()\n" + _READ + "print(a + b)\n",
        P,
    ),
    _stdio("idiom_print_flush_true", _READ + "print(a + b, flush=True)\n", P),
)
"""Correct programs written the way contest solutions are: each must PASS."""

WRONG: tuple[Case, ...] = (
    _stdio("stdio_right_then_sleep_forever", "import sys, time\n" + _READ + "print(a + b)\nsys.stdout.flush()\ntime.sleep(10 ** 6)\n", T, "stdio"),
    _stdio(
        "stdio_right_then_busy_thread",
        "import sys, threading\n" + _READ + "print(a + b)\n"
        "sys.stdout.flush()\n"
        "def spin():\n"
        "    while True:\n"
        "        pass\n"
        "threading.Thread(target=spin).start()\n",
        T,
        "stdio",
    ),
    _stdio(
        "stdio_right_then_child_sleeps",
        "import os, sys, time\n" + _READ + "print(a + b)\nsys.stdout.flush()\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(10 ** 6)\n",
        T,
        "stdio",
    ),
    _stdio("stdio_right_then_exit_3", "import sys\n" + _READ + "print(a + b)\nsys.exit(3)\n", F, "stdio"),
    _stdio("stdio_right_then_exit_message", "import sys\n" + _READ + "print(a + b)\nsys.exit('done')\n", F, "stdio"),
    _stdio("stdio_right_then_exception", _READ + "print(a + b)\nraise ValueError('late')\n", F, "stdio"),
    _stdio(
        "stdio_right_then_thread_exception_exit_1",
        "import os, sys, threading\n" + _READ + "print(a + b)\nsys.stdout.flush()\ndef boom():\n    os._exit(1)\nthreading.Thread(target=boom).start()\n",
        F,
        "stdio",
    ),
    _stdio(
        "stdio_child_adds_wrong_line",
        "import os, sys, time\n" + _READ + "print(a + b)\n"
        "sys.stdout.flush()\n"
        "if os.fork() == 0:\n"
        "    time.sleep(0.05)\n"
        "    print('extra')\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n",
        F,
        "stdio",
    ),
    _stdio("stdio_atexit_adds_wrong_line", "import atexit\natexit.register(print, 'extra')\n" + _READ + "print(a + b)\n", F, "stdio"),
    _stdio(
        "stdio_thread_prints_wrong_late",
        "import threading, time\n" + _READ + "def late():\n    time.sleep(0.05)\n    print(a - b)\nthreading.Thread(target=late).start()\n",
        F,
        "stdio",
    ),
    _stdio("stdio_unflushed_os_exit", _READ + "print(a + b)\nimport os\nos._exit(0)\n", F, "stdio"),
    _stdio("stdio_atexit_os_exit_0_after_error", "import atexit, os\natexit.register(os._exit, 0)\n" + _READ + "print(a - b)\n", F, "stdio"),
    _stdio("stdio_stdout_flood_to_cap", "import sys\n" + _READ + "print(a + b)\nsys.stdout.write('x' * (4 << 20))\n", F, "stdio"),
    make_case("stdio_large_right_then_flood", "stdio", _COUNT_PY + "sys.stdout.write('x' * (16 << 20))\n", F, LARGE),
    make_case(
        "stdio_large_right_then_flood_cpp",
        "stdio",
        _COUNT_CPP.replace("}\n", "    for (long i = 0; i < (16L << 20); ++i) putchar('x');\n}\n"),
        F,
        LARGE,
        language="cpp",
    ),
)
"""Wrong or never-ending programs (some print the right answer first): none may PASS."""

LARGE_OUTPUT: tuple[Case, ...] = (
    make_case("control_large_correct_output", "control", _COUNT_PY, P, LARGE),
    make_case("control_large_correct_output_print_loop", "control", "n = int(input())\nfor i in range(1, n + 1):\n    print(i)\n", P, LARGE),
    make_case("control_large_correct_output_cpp", "control", _COUNT_CPP, P, LARGE, language="cpp"),
)
"""Correct programs whose output is larger than the default stdout cap: each must PASS."""

STDIO_CASES: tuple[Case, ...] = IDIOMS + WRONG + LARGE_OUTPUT
SLOW_STDIO = frozenset({"stdio_right_then_sleep_forever", "stdio_right_then_busy_thread", "stdio_right_then_child_sleeps"})
"""Cases that end only at a budget (seconds each)."""
