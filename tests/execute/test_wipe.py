"""The wipe between runs: fd-based, every depth, verified; a slot not proven clean is restarted."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from execir.execute import Oracle, OracleConfig
from execir.execute.attacks.adversarial_wipe import WIPE_POISONERS, run_replays
from execir.execute.sandbox.isolation import HARNESS, find_interpreter, host_base, stage_harness
from execir.execute.selftest import ALL_POISONERS, LIMITS, run_poisoners

UNPRIVILEGED = 64123

_MAKE_TREE = r"""
import os, socket, sys
sys.path.insert(0, sys.argv[2])
root = sys.argv[1]
os.makedirs(root + '/a/b/c')
open(root + '/a/b/c/f', 'w').write('x')
os.mkfifo(root + '/a/fifo')
s = socket.socket(socket.AF_UNIX); s.bind(root + '/a/sock'); s.close()
os.link(root + '/a/b/c/f', root + '/a/hard')
os.symlink('/etc', root + '/a/etc')
os.mkdir(root + '/sticky'); open(root + '/sticky/x', 'w').close(); os.chmod(root + '/sticky', 0o1000)
fd = os.open(root, os.O_RDONLY)
for _ in range(1500):
    os.mkdir('d' * 60, dir_fd=fd)
    nxt = os.open('d' * 60, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nxt
os.fchmod(fd, 0)
os.close(fd)
for _ in range(3000):
    os.close(os.open(root + '/a/m' + str(_), os.O_CREAT | os.O_WRONLY, 0))
for p in (root + '/a/b/c', root + '/a/b', root + '/a'):
    os.chmod(p, 0)
import wipe
left = wipe.wipe([root])
print(left, os.listdir(root))
"""


def _wipe():  # type: ignore[no-untyped-def]
    """The harness's wipe module, imported here (as root)."""
    sys.path.insert(0, str(HARNESS))
    try:
        import wipe
    finally:
        sys.path.remove(str(HARNESS))
    return wipe


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run the wipe as an unprivileged uid")
def test_fd_wipe_removes_everything_as_the_owner():
    top = tempfile.mkdtemp(prefix="execir-wipe-test-", dir=host_base())
    try:
        os.chmod(top, 0o755)
        root = os.path.join(top, "root")
        os.mkdir(root)
        os.chown(root, UNPRIVILEGED, UNPRIVILEGED)
        # the unprivileged uid cannot read the checkout (it may sit in a 0700 home): stage the harness
        harness = stage_harness(Path(top) / "harness")
        python = find_interpreter(need_world_access=True).path
        done = subprocess.run(
            [python, "-S", "-c", _MAKE_TREE, root, str(harness)], capture_output=True, text=True, user=UNPRIVILEGED, group=UNPRIVILEGED, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["0", "[]"]
    finally:
        _wipe().wipe([top])  # iterative: a failed run leaves a tree deeper than rmtree's recursion
        os.rmdir(top)


def test_clean_up_reports_usage_above_baseline(tmp_path: Path):
    wipe = _wipe()
    config = {"work_root": str(tmp_path), "wipe": [], "modes": {str(tmp_path): stat.S_IMODE(tmp_path.stat().st_mode)}, "usage": {}, "owned": []}
    (tmp_path / "x").write_text("x")
    assert wipe.clean_up(config) == [] and not list(tmp_path.iterdir())
    config["usage"] = {str(tmp_path): (-5, -5)}
    assert any("baseline" in p for p in wipe.clean_up(config))


def test_poisoners_registered():
    assert {c.name for c in WIPE_POISONERS} <= {c.name for c in ALL_POISONERS}


@pytest.fixture(scope="module")
def single():
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        yield oracle


@pytest.mark.parametrize("case", WIPE_POISONERS, ids=lambda c: c.name)
def test_wipe_poisoner_then_probe(single, case):
    outcomes = run_poisoners(single, (case,))
    assert all(o.ok for o in outcomes), [(o.case.name, o.result.verdict, o.result.detail) for o in outcomes]


def test_stored_answers_are_not_replayed(single):
    bad = [(c.name, r.verdict, r.detail) for c, r in run_replays(single, LIMITS) if r.verdict not in c.expected]
    assert not bad
    assert single.slots[0].unclean_restarts == 0  # every wipe above was verified clean


@pytest.mark.parametrize("level", ["unshare", "uid"])
def test_replays_at_other_levels(level):
    with Oracle(OracleConfig(workers=1, progress=False, isolation=level)) as oracle:
        results = run_replays(oracle, LIMITS)
        for case in WIPE_POISONERS[:2]:
            results += [(o.case, o.result) for o in run_poisoners(oracle, (case,))]
    bad = [(c.name, r.verdict, r.detail) for c, r in results if r.verdict not in c.expected]
    assert not bad
