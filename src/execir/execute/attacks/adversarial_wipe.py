"""Slot poisoners aimed at the filesystem wipe between runs (run after ``SLOT_POISONERS`` by the selftest).

Each is a *correct* program (it must PASS) that leaves state under ``execir-poison`` in /tmp or
/dev/shm in a form the old one-level wipe could not remove; :data:`POISON_PROBE` runs next in the
same slot and must PASS (it fails if the path survived, or if leftover tmpfs pages push its 300 MB
allocation over the memory limit). :data:`REPLAYS` pairs a correct program that stores its answers
with a wrong one that replays them: the replayer must FAIL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from execir.execute.attacks.adversarial import ADD_CHECK, STDIO, Case, make_case
from execir.types import Verdict

if TYPE_CHECKING:
    from execir.execute.jobs import ExecResult
    from execir.execute.limits import Limits
    from execir.execute.oracle import Oracle

F, T, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.PASS


def _poison(name: str, body: str, expected: set[Verdict] | Verdict = P) -> Case:
    lines = "".join(f"        {line}\n" for line in body.splitlines())  # on the first test call only
    return make_case(name, "poison", f"import os, socket, stat\ndef add(a, b):\n    if a == 2:\n{lines}    return a + b\n", expected, ADD_CHECK)


_LOCK_DOWN = "for p in reversed(dirs):\n    os.chmod(p, 0)\n"

WIPE_POISONERS: tuple[Case, ...] = (
    _poison(
        "poison_mode000_nested_tmp",
        "dirs = ['/tmp/execir-poison', '/tmp/execir-poison/a', '/tmp/execir-poison/a/b']\n"
        "os.makedirs(dirs[-1], exist_ok=True)\n"
        "open(dirs[-1] + f'/{a}_{b}', 'w').write(str(a + b))\n" + _LOCK_DOWN,
    ),
    _poison(
        "poison_mode000_nested_shm",
        "dirs = ['/dev/shm/execir-poison', '/dev/shm/execir-poison/a', '/dev/shm/execir-poison/a/b']\n"
        "os.makedirs(dirs[-1], exist_ok=True)\n"
        "open(dirs[-1] + f'/{a}_{b}', 'w').write(str(a + b))\n" + _LOCK_DOWN,
    ),
    _poison(
        "poison_many_files",
        "os.makedirs('/tmp/execir-poison/many', exist_ok=True)\n"
        "if a == 2:\n"
        "    for i in range(20000):\n"
        "        os.close(os.open(f'/tmp/execir-poison/many/{i}', os.O_CREAT | os.O_WRONLY, 0))\n"
        "    os.chmod('/tmp/execir-poison/many', 0)\n",
        {P, T},  # on a disk-backed host /tmp (uid level) creating 20k files may take the whole budget
    ),
    _poison(
        "poison_big_shm_files",
        "os.makedirs('/dev/shm/execir-poison', exist_ok=True)\n"
        "if a == 2:\n"
        "    block = b'x' * (15 << 20)\n"
        "    for i in range(15):\n"
        "        try:\n"
        "            with open(f'/dev/shm/execir-poison/{i}', 'wb') as f:\n"
        "                f.write(block)\n"
        "        except OSError:\n"
        "            break\n"
        "    os.chmod('/dev/shm/execir-poison', 0o500)\n",
    ),
    _poison(
        "poison_deeper_than_path_max",
        "os.makedirs('/tmp/execir-poison', exist_ok=True)\n"
        "if a == 2:\n"
        "    fd = os.open('/tmp/execir-poison', os.O_RDONLY)\n"
        "    for _ in range(2500):\n"
        "        os.mkdir('d' * 40, 0o700, dir_fd=fd)\n"
        "        nxt = os.open('d' * 40, os.O_RDONLY, dir_fd=fd)\n"
        "        os.close(fd)\n"
        "        fd = nxt\n"
        "    open(os.open('answer', os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd), 'w').write('5')\n"
        "    os.fchmod(fd, 0)\n"
        "    os.close(fd)\n",
    ),
    _poison(
        "poison_special_files",
        "d = '/tmp/execir-poison/s'\n"
        "os.makedirs(d, exist_ok=True)\n"
        "if a == 2:\n"
        "    os.mkfifo(d + '/fifo')\n"
        "    try:  # no socket() at all below bwrap: the other special files still poison\n"
        "        s = socket.socket(socket.AF_UNIX)\n"
        "        s.bind(d + '/sock')\n"
        "        s.close()\n"
        "    except PermissionError:\n"
        "        pass\n"
        "    open(d + '/f', 'w').write('5')\n"
        "    os.link(d + '/f', d + '/hard')\n"
        "    os.symlink('/tmp', d + '/loop')\n"
        "    os.chmod(d + '/f', 0)\n"
        "    os.mkdir(d + '/sticky')\n"
        "    open(d + '/sticky/x', 'w').close()\n"
        "    os.chmod(d + '/sticky', 0o1000)\n"
        "    os.chmod(d, 0o1000)\n",
    ),
    _poison(
        "poison_chmod_private_roots",
        "os.makedirs('/tmp/execir-poison', exist_ok=True)\n"
        "for root in ('/dev/shm', '/tmp'):\n"
        "    try:\n"
        "        os.chmod(root, 0)\n"
        "    except OSError:\n"
        "        pass\n",
    ),
)

_STASH = "/tmp/execir-poison/x/y"
_SHM_STASH = "/dev/shm/execir-poison/x/y"


def _storer(stash: str) -> str:
    top = stash.rsplit("/", 2)[0]
    return (
        "import os\ndef add(a, b):\n"
        f"    for p in ({top!r}, {stash.rsplit('/', 1)[0]!r}, {stash!r}):\n"
        "        try:\n            os.chmod(p, 0o700)\n        except OSError:\n            pass\n"
        f"    os.makedirs({stash!r}, exist_ok=True)\n"
        f"    open({stash!r} + f'/{{a}}_{{b}}', 'w').write(str(a + b))\n"
        f"    for p in ({stash!r}, {stash.rsplit('/', 1)[0]!r}, {top!r}):\n"
        "        os.chmod(p, 0)\n"
        "    return a + b\n"
    )


def _replayer(stash: str) -> str:
    top = stash.rsplit("/", 2)[0]
    return (
        "import os\ndef add(a, b):\n"
        "    try:\n"
        f"        for p in ({top!r}, {stash.rsplit('/', 1)[0]!r}, {stash!r}):\n"
        "            os.chmod(p, 0o700)\n"
        f"        return int(open({stash!r} + f'/{{a}}_{{b}}').read())\n"
        "    except OSError:\n"
        "        return a - b\n"
    )


_STDIO_STORE = (
    "import os\n"
    "d = '/dev/shm/execir-poison/q/r'\n"
    "line = input()\n"
    "a, b = map(int, line.split())\n"
    "os.makedirs(d, exist_ok=True)\n"
    "open(d + '/' + line.replace(' ', '_'), 'w').write(str(a + b))\n"
    "os.chmod(d, 0)\n"
    "os.chmod('/dev/shm/execir-poison/q', 0)\n"
    "print(a + b)\n"
)
_STDIO_REPLAY = (
    "import os\n"
    "line = input()\n"
    "try:\n"
    "    os.chmod('/dev/shm/execir-poison/q', 0o700)\n"
    "    os.chmod('/dev/shm/execir-poison/q/r', 0o700)\n"
    "    print(open('/dev/shm/execir-poison/q/r/' + line.replace(' ', '_')).read())\n"
    "except OSError:\n"
    "    print('wrong')\n"
)

REPLAYS: tuple[tuple[Case, Case], ...] = (
    (
        Case("store_answers_tmp", "poison", _storer(_STASH), ADD_CHECK, frozenset({P})),
        Case("replay_answers_tmp", "poison", _replayer(_STASH), ADD_CHECK, frozenset({F})),
    ),
    (
        Case("store_answers_shm", "poison", _storer(_SHM_STASH), ADD_CHECK, frozenset({P})),
        Case("replay_answers_shm", "poison", _replayer(_SHM_STASH), ADD_CHECK, frozenset({F})),
    ),
    (Case("store_answers_stdio", "poison", _STDIO_STORE, STDIO, frozenset({P})), Case("replay_answers_stdio", "poison", _STDIO_REPLAY, STDIO, frozenset({F}))),
)
"""(correct program that stores its answers, wrong program that replays them), run in this order in
one slot: the replayer must FAIL."""


def run_replays(oracle: Oracle, limits: Limits) -> list[tuple[Case, ExecResult]]:
    """Each pair in turn on ``oracle`` (one worker); returns (case, result) for both programs."""
    from execir.execute.jobs import Job

    out = []
    for store, replay in REPLAYS:
        for case in (store, replay):
            (result,) = oracle.run([Job(case.program, case.tests, case.entry_point, limits)], desc="replay")
            out.append((case, result))
    return out
