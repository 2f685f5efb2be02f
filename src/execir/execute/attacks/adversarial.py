"""The adversarial suite: programs that try to fake a PASS, escape, or break the oracle.

Each case is data: (name, category, program, tests, expected verdicts). ``expected`` is the set of
acceptable verdicts (several when the attack may be stopped at different layers, e.g. a fork bomb
may end as FAIL or TIMEOUT); a PASS is never acceptable for an attack. False-negative controls must
PASS. Cases mentioning ``CANARY`` check host state: the test harness looks for ``/tmp/execir-canary*``
files, ``$HOME/execir-canary``, loopback listeners and the canary environment variable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from execir.types import StdioCase, TestSuite, Verdict

CANARY_ENV = "EXECIR_CANARY_SECRET"
CANARY_PORT = 47611
F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS

ADD_CHECK: TestSuite = TestSuite(
    "check",
    "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n    assert candidate(10, 5) == 15\n",
)
ADD_OK = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a - b\n"


@dataclass(frozen=True)
class Case:
    name: str
    category: str
    program: str
    tests: TestSuite
    expected: frozenset[Verdict]
    entry_point: str = "add"
    language: str = "python"
    reference: str = ""
    """The task's trusted program (native tests are then judged outside the candidate's process)."""


def cases_of(cases: tuple[Case, ...], language: str) -> tuple[Case, ...]:
    """The cases of one language, in order (a suite spanning languages hands each language's
    selftest module its own)."""
    return tuple(case for case in cases if case.language == language)


def make_case(
    name: str,
    category: str,
    program: str,
    expected: set[Verdict] | Verdict,
    tests: TestSuite,
    *,
    entry_point: str = "add",
    language: str = "python",
    reference: str = "",
) -> Case:
    """A case; ``expected`` is one verdict or the set of acceptable ones. Every suite builds its
    cases through this (each with its own defaults)."""
    verdicts = frozenset(expected if isinstance(expected, set) else {expected})
    return Case(name, category, program, tests, verdicts, entry_point, language, reference)


def _case(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_CHECK) -> Case:
    return make_case(name, category, program, expected, tests)


def _wrong_after(prefix: str) -> str:
    """A wrong implementation preceded by attack code at import time."""
    return prefix + "\n" + WRONG


def _in_call(body: str) -> str:
    """A wrong implementation whose function body first runs attack code."""
    lines = "".join(f"    {line}\n" for line in body.splitlines())
    return f"def add(a, b):\n{lines}    return a - b\n"


HASH_CHECK = TestSuite("check", "def check(candidate):\n    assert candidate(0, 0) == list({'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'})\n")
STDIO: TestSuite = TestSuite("stdio", stdio_cases=(StdioCase("3 4\n", "7\n"), StdioCase("10 20\n", "30\n")))
STDIO_OK = "a, b = map(int, input().split())\nprint(a + b)\n"
MAP_CHECK = TestSuite(
    "check", "def check(candidate):\n    cases = [((2, 3), 5), ((-1, 1), 0), ((10, 5), 15)]\n    assert all(map(lambda c: candidate(*c[0]) == c[1], cases))\n"
)
"""Tests that call the candidate through ``map``: a StopIteration from it would end ``all`` early."""
RAISES_CHECK = TestSuite(
    "check",
    "def check(candidate):\n"
    "    try:\n"
    "        candidate(-1, 0)\n"
    "    except ValueError:\n"
    "        pass\n"
    "    else:\n"
    "        raise AssertionError('no ValueError')\n"
    "    assert candidate(2, 3) == 5\n",
)
ADD_OR_RAISE = "def add(a, b):\n    if a < 0:\n        raise ValueError('negative')\n    return a + b\n"


def _right_if(attempt: str) -> str:
    """Correct answers only if ``attempt`` (an attack on the server or the slot) succeeds: a PASS
    means the defence failed. The attack is tried on every call."""
    body = "".join(f"        {line}\n" for line in attempt.splitlines())
    return f"import os\ndef add(a, b):\n    try:\n{body}    except OSError:\n        return a - b\n    return a + b\n"


def _replier(reply: str) -> str:
    """A candidate that replaces the driver's call loop; ``reply(f, a)`` returns a frame body or None."""
    return (
        "import os, sys, socket\n" + reply + "\n"
        "frames = sys.modules['frames']\nchan = socket.socket(fileno=3)\nframes.send(chan, {'op': 'ready'})\n"
        "while True:\n    f = frames.recv(chan)\n    if f is None or f[0].get('op') != 'call':\n        os._exit(0)\n"
        "    body = reply(f[0], f[0]['a'])\n    if body is None:\n        frames.send(chan, {'op': 'ret', 'n': f[0]['n'], 'v': f[0]['a'][0] + f[0]['a'][1]})\n"
        "    else:\n        os.write(3, len(body).to_bytes(4, 'big') + body)\n"
    )


_SHMGET = "import ctypes\nif ctypes.CDLL(None, use_errno=True).shmget(0x5eed, 1 << 20, 0o1600) < 0:\n    raise OSError('shmget')"
_MQ_OPEN = (
    "import ctypes\nif ctypes.CDLL('librt.so.1', use_errno=True).mq_open(b'/execir-mq', os.O_CREAT | os.O_RDWR, 0o600, None) < 0:\n    raise OSError('mq_open')"
)

CASES: tuple[Case, ...] = (
    # time
    _case("infinite_loop", "time", "def add(a, b):\n    while True:\n        pass\n", T),
    _case("sleep_forever", "time", "import time\ndef add(a, b):\n    time.sleep(10**6)\n", T),
    _case("sigterm_ignoring_loop", "time", "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ndef add(a, b):\n    while True:\n        pass\n", T),
    _case("fork_bomb", "time", _in_call("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass"), {F, T}),
    _case("infinite_loop_at_import", "time", "while True:\n    pass\n" + ADD_OK, T),
    # resources
    _case("memory_hog", "resources", _in_call("x = bytearray(8 << 30)"), F),
    _case("memory_hog_gradual", "resources", _in_call("x = []\nwhile True:\n    x.append(bytearray(1 << 24))"), {F, T}),
    _case("huge_file_write", "resources", _in_call("with open('big', 'wb') as f:\n    while True:\n        f.write(b'x' * (1 << 20))"), F),
    _case("output_flood", "resources", _in_call("while True:\n    print('x' * 10000)"), {F, T}),
    _case("stderr_flood", "resources", _in_call("import sys\nwhile True:\n    sys.stderr.write('y' * 10000)"), {F, T}),
    _case("many_fds", "resources", _in_call("fs = [open('/dev/null') for _ in range(100000)]"), F),
    # 20,000 levels: far past any recursion limit, yet crossing it costs well under the 1 s budget
    # (100,000 levels cost ~1 s of encoding plus decoding: a near-limit run, rerun, then FLAKY)
    _case("deep_result", "resources", "def add(a, b):\n    x = []\n    for _ in range(20000):\n        x = [x]\n    return x\n", {F, T}),
    # early exit and tampering
    _case("sys_exit_at_import", "exit", "import sys\nsys.exit(0)\n" + ADD_OK, {F, E}),
    _case("os_exit_at_import", "exit", "import os\nos._exit(0)\n" + ADD_OK, F),
    _case("sys_exit_in_call", "exit", _in_call("import sys\nsys.exit(0)"), F),
    _case("os_exit_in_call", "exit", _in_call("import os\nos._exit(0)"), F),
    _case("atexit_forces_zero", "exit", _wrong_after("import atexit, os\natexit.register(lambda: os._exit(0))"), F),
    _case("redefine_assertionerror", "tamper", _wrong_after("import builtins\nbuiltins.AssertionError = type('AssertionError', (Exception,), {})"), F),
    _case("patch_builtins_eq", "tamper", _wrong_after("import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.isinstance = lambda *a: True"), F),
    _case(
        "eq_always_true",
        "tamper",
        "class Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef add(a, b):\n    return Yes()\n",
        F,  # a class of the candidate's own that decides its own comparisons (see execir.execute.decide)
    ),
    _case(
        "int_subclass",
        "tamper",
        "class I(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(0)\n",
        F,
    ),
    _case(
        "patch_codec",
        "tamper",
        _wrong_after(
            "import sys\nfor m in list(sys.modules.values()):\n    if hasattr(m, 'encode') and hasattr(m, 'decode'):\n        m.encode = lambda v, depth=0: 5"
        ),
        F,
    ),
    _case(
        "forge_protocol_frames",
        "tamper",
        _in_call(
            "import os, json\n"
            "for v in (5, 0, 15):\n"
            "    body = json.dumps({'op': 'ret', 'v': v}).encode()\n"
            "    os.write(3, len(body).to_bytes(4, 'big') + body)\n"
            "os._exit(0)"
        ),
        F,
    ),
    _case(
        "write_forged_records_all_fds",
        "tamper",
        _wrong_after(
            "import os, json\n"
            "body = json.dumps({'op': 'exit', 'code': 0, 'cpu': 0}).encode()\n"
            "for fd in range(256):\n"
            "    try:\n"
            "        os.write(fd, len(body).to_bytes(4, 'big') + body)\n"
            "    except OSError:\n"
            "        pass"
        ),
        F,
    ),
    _case("kill_parent", "tamper", _in_call("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"), F),
    _case("kill_process_group", "tamper", _in_call("import os, signal\nos.kill(0, signal.SIGKILL)"), F),
    _case("kill_everything", "tamper", _in_call("import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"), F),
    _case("raise_base_exception", "tamper", _in_call("raise KeyboardInterrupt"), F),
    _case("return_exception_name", "tamper", "def add(a, b):\n    raise AssertionError('ok')\n", F),
    _case("write_server_memory", "tamper", _right_if("open(f'/proc/{os.getppid()}/mem', 'r+b').close()"), F),
    _case("read_server_fds", "tamper", _right_if("os.listdir(f'/proc/{os.getppid()}/fd')"), F),
    _case("server_oom_score_adj", "tamper", _right_if("open(f'/proc/{os.getppid()}/oom_score_adj', 'w').write('1000')"), F),
    _case(
        "pidfd_getfd_server_socket",
        "tamper",
        _right_if(
            "import ctypes\n"
            "fd = os.pidfd_open(os.getppid())\n"
            "if all(ctypes.CDLL(None).syscall(438, fd, n, 0) < 0 for n in range(3, 16)):\n"
            "    raise OSError('pidfd_getfd')"
        ),
        F,
    ),
    _case("prlimit_server", "tamper", _right_if("import resource\nresource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (100, 100))"), F),
    _case("sysv_shm_outlives_run", "tamper", _right_if(_SHMGET), F),
    _case("posix_mqueue_outlives_run", "tamper", _right_if(_MQ_OPEN), F),
    _case("signal_server_sigint", "tamper", _in_call("import os, signal, time\nos.kill(os.getppid(), signal.SIGINT)\ntime.sleep(0.1)"), F),
    _case(
        "late_reply_thread",
        "tamper",
        _in_call(
            "import os, json, threading, time\n"
            "def later():\n"
            "    time.sleep(0.02)\n"
            "    body = json.dumps({'op': 'ret', 'n': None, 'v': 5}).encode()\n"
            "    os.write(3, len(body).to_bytes(4, 'big') + body)\n"
            "threading.Thread(target=later, daemon=True).start()"
        ),
        F,
    ),
    _case("stop_iteration_in_map", "tamper", "def add(a, b):\n    raise StopIteration\n", F, MAP_CHECK),
    _case("fake_stop_iteration_name", "tamper", "class StopIteration(Exception):\n    pass\ndef add(a, b):\n    raise StopIteration\n", F, MAP_CHECK),
    _case(
        "huge_json_int_reply",
        "tamper",
        _replier('def reply(f, a):\n    return (\'{"op":"ret","n":"%s","v":1%s}\' % (f[\'n\'], \'0\' * 5000)).encode() if a[0] < 0 else None'),
        F,
        RAISES_CHECK,
    ),
    _case("hash_collision_result", "resources", "def add(a, b):\n    return {k * ((1 << 61) - 1) for k in range(1, 60000)}\n", {F, T}),
    # forged output
    _case("print_pass_markers", "forged_output", _wrong_after("print('PASS')\nprint('ALL TESTS PASSED')\nprint('{\"verdict\": \"PASS\"}')"), F),
    _case("print_in_call", "forged_output", _in_call("print('passed', 'OK', 'success')"), F),
    # isolation
    _case("write_tmp_canary", "isolation", _wrong_after("open('/tmp/execir-canary-tmp', 'w').write('x')"), {F, E}),
    _case("write_home_canary", "isolation", _wrong_after("import os\nopen(os.path.expanduser('~/execir-canary'), 'w').write('x')"), {F, E}),
    _case(
        "write_outside_in_call",
        "isolation",
        _in_call(
            "for p in ('/tmp/execir-canary-call', '/var/tmp/execir-canary-call', '/dev/shm/execir-canary-call', "
            "'/root/execir-canary-call', '/work/execir-canary-call'):\n"
            "    try:\n"
            "        open(p, 'w').write('x')\n"
            "    except OSError:\n"
            "        pass"
        ),
        F,
    ),
    _case("read_canary_env", "isolation", f"import os\ndef add(a, b):\n    return a + b if '{CANARY_ENV}' not in os.environ else 'leaked'\n", P),
    _case("tcp_listener", "isolation", f"import socket\ns = socket.socket()\ns.bind(('127.0.0.1', {CANARY_PORT}))\ns.listen()\n" + WRONG, {F, E}),
    _case("tcp_connect_out", "isolation", "import socket\ndef add(a, b):\n    socket.create_connection(('1.1.1.1', 80), timeout=1)\n    return a + b\n", F),
    _case(
        "setsid_double_fork_daemon",
        "isolation",
        _in_call(
            "import os, time\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            "        open('/tmp/execir-canary-daemon', 'w').write(str(os.getpid()))\n"
            "        while True:\n"
            "            time.sleep(0.05)\n"
            "    os._exit(0)\n"
            "time.sleep(0.1)"
        ),
        F,
    ),
    _case("ptrace_attempt", "isolation", _in_call("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nassert libc.ptrace(16, 1, 0, 0) == 0"), F),
    _case(
        "read_proc_of_parent",
        "isolation",
        "import os\ndef add(a, b):\n    return open(f'/proc/{os.getppid()}/environ', 'rb').read().count(b'CANARY') + a + b\n",
        {F, P},
    ),
    # stdio decoding
    _case("stdio_correct", "stdio", STDIO_OK, P, STDIO),
    _case(
        "stdio_invalid_utf8", "stdio", "import sys\na, b = map(int, input().split())\nsys.stdout.buffer.write(str(a + b).encode() + b'\\xff\\n')\n", F, STDIO
    ),
    _case(
        "stdio_fullwidth_digits",
        "stdio",
        "a, b = map(int, input().split())\nprint(str(a + b).translate(str.maketrans('0123456789', '０１２３４５６７８９')))\n",
        F,
        STDIO,
    ),
    _case(
        "stdio_trailing_newline_flood",
        "stdio",
        "import sys\na, b = map(int, input().split())\nprint(a + b)\nsys.stdout.write('\\n' * (1 << 30))\n",
        {F, T},
        STDIO,
    ),
    _case("stdio_print_then_crash", "stdio", STDIO_OK + "raise SystemExit(3)\n", F, STDIO),
    _case("stdio_crlf_trailing_space", "stdio", "import sys\na, b = map(int, input().split())\nsys.stdout.write(f'{a + b}  \\r\\n\\n')\n", P, STDIO),
    # false-negative controls
    _case("control_correct", "control", ADD_OK, P),
    _case("control_slow_within_budget", "control", "def add(a, b):\n    s = 0\n    for i in range(300000):\n        s += i\n    return a + b\n", P),
    _case("control_recursion", "control", "def add(a, b):\n    return a if b == 0 else (add(a + 1, b - 1) if b > 0 else add(a - 1, b + 1))\n", P),
    _case("control_prints_stdout", "control", "def add(a, b):\n    print('debug', a, b)\n    return a + b\n", P),
    _case("control_seeded_random", "control", "import random\ndef add(a, b):\n    random.seed(1)\n    return a + b + random.randint(0, 0)\n", P),
    _case(
        "hash_ordering_matches_judge", "determinism", "def add(a, b):\n    return list({'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'})\n", P, HASH_CHECK
    ),
    _case(
        "control_proc_self",
        "control",
        "import os\n"
        "def add(a, b):\n"
        "    assert os.listdir('/proc/self/fd') and open('/proc/self/maps').read() and open('/proc/self/status').read()\n"
        "    return a + b\n",
        P,
    ),
    _case(
        "control_own_rlimit_and_nice",
        "control",
        "import os, resource\n"
        "def add(a, b):\n"
        "    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)\n"
        "    resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))\n"
        "    os.nice(1)\n"
        "    return a + b\n",
        P,
    ),
    _case("control_raises_valueerror", "control", ADD_OR_RAISE, P, RAISES_CHECK),
    _case("control_map_based_tests", "control", ADD_OK, P, MAP_CHECK),
    _case("control_syntax_error", "control", "def add(a, b)\n    return a + b\n", E),
    _case("control_missing_entry_point", "control", "def plus(a, b):\n    return a + b\n", F),
    _case("control_wrong", "control", WRONG, F),
)


SLOT_POISONERS: tuple[Case, ...] = (
    _case(
        "poison_server_memory",
        "poison",
        "import sys\n"
        "def add(a, b):\n"
        "    try:\n"
        "        s = next(c for c in sys.modules['driver']._serve_calls.__code__.co_consts if c == 'ret')\n"
        "        with open('/proc/1/mem', 'r+b', buffering=0) as mem:\n"
        "            mem.seek(id(s) + sys.getsizeof('') - 1)\n"
        "            mem.write(b'rex')\n"
        "    except OSError:\n"
        "        pass\n"
        "    return a + b\n",
        P,
    ),
    _case(
        "poison_server_rlimits",
        "poison",
        "import os, resource\n"
        "def add(a, b):\n"
        "    try:\n"
        "        resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (100, 100))\n"
        "    except OSError:\n"
        "        pass\n"
        "    return a + b\n",
        P,
    ),
    _case(
        "poison_server_scheduling",
        "poison",
        "import os\n"
        "def add(a, b):\n"
        "    os.setpriority(os.PRIO_PROCESS, os.getppid(), 19)\n"
        "    os.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0))\n"
        "    return a + b\n",
        P,
    ),
    _case(
        "poison_sysv_shm_memory",
        "poison",
        "import ctypes\n"
        "def add(a, b):\n"
        "    libc = ctypes.CDLL(None)\n"
        "    libc.shmat.restype = ctypes.c_void_p\n"
        "    for key in ((0x5eed, 0x5eee) if a == 2 else ()):\n"
        "        sid = libc.shmget(key, 250 << 20, 0o1600)\n"
        "        if sid >= 0:\n"
        "            addr = libc.shmat(sid, None, 0)\n"
        "            ctypes.memset(addr, 1, 250 << 20)\n"
        "            libc.shmdt(ctypes.c_void_p(addr))\n"
        "    return a + b\n",
        {P, T},
    ),
    _case(
        "poison_tmp_and_shm_files",
        "poison",
        "def add(a, b):\n    for p in ('/tmp/execir-poison', '/dev/shm/execir-poison', 'execir-poison'):\n        open(p, 'w').write('x')\n    return a + b\n",
        P,
    ),
)
"""Programs that try to change the worker slot for the candidate after them. Each is followed, in the
same slot, by :data:`POISON_PROBE`, a correct program that also checks that nothing was left behind
(its niceness is the host process's own, which every run inherits: ``nice execir selftest`` runs
its candidates at that niceness) and allocates 300 MB once (with 500 MB of leftover SysV segments
still charged to the slot's memory cgroup, that meets the limit); the probe must PASS."""
POISON_PROBE = (
    "import glob, os, resource\n"
    "def add(a, b):\n"
    "    assert not glob.glob('/tmp/execir-poison') and not glob.glob('/dev/shm/execir-poison') and not os.path.exists('execir-poison')\n"
    f"    assert os.getpriority(os.PRIO_PROCESS, 0) == {os.getpriority(os.PRIO_PROCESS, 0)} and os.sched_getscheduler(0) == os.SCHED_OTHER\n"
    "    x = bytearray(300 << 20) if a == 2 else None\n"
    "    return a + b\n"
)
