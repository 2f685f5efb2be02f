"""uid blocks sized from the slot count, and host-wide CPU claims (two oracles never share a pin)."""

from __future__ import annotations

import os

import pytest

from execir.errors import ExecIRError
from execir.execute.oracle import Oracle, OracleConfig, max_workers
from execir.execute.sandbox import cpus, uids


@pytest.fixture
def lock_dirs(tmp_path, monkeypatch):
    monkeypatch.setattr(uids, "LOCK_DIR", tmp_path / "uids")
    monkeypatch.setattr(cpus, "LOCK_DIR", tmp_path / "cpus")
    return tmp_path


def test_block_size_follows_the_slots():
    assert uids.block_size(1) == 16 and uids.block_size(8) == 16
    assert uids.block_size(9) == 32 and uids.block_size(64) == 128


def test_blocks_never_overlap(lock_dirs):
    big = uids.allocate(uids.block_size(40))
    small = uids.allocate(uids.block_size(2))
    other = uids.allocate(uids.block_size(40))
    spans = sorted([(big, big + 80), (small, small + 16), (other, other + 80)])
    assert all(spans[i][1] <= spans[i + 1][0] for i in range(2))
    uids.release(big, uids.block_size(40))
    assert not any((lock_dirs / "uids" / str(big + k * uids.UNIT)).exists() for k in range(5))


def test_a_dead_owners_block_is_reclaimed(lock_dirs):
    base = uids.allocate()
    (lock_dirs / "uids" / str(base)).write_text("999999999")
    (lock_dirs / "uids").joinpath("ignored").write_text("")
    assert uids.claim_lock(lock_dirs / "uids" / str(base))


def test_cpu_claims_are_disjoint_then_unpinned(lock_dirs, monkeypatch):
    monkeypatch.setattr(cpus, "available", lambda: [0, 1, 2])
    first = cpus.claim(2, root=True)
    second = cpus.claim(2, root=True)
    assert first == [0, 1] and second == [2, None]
    cpus.release(first)
    assert cpus.claim(2, root=True) == [0, 1]


def test_without_root_slots_pin_by_index(monkeypatch):
    monkeypatch.setattr(cpus, "available", lambda: [4, 5])
    assert cpus.claim(3, root=False) == [4, 5, 4]


def test_workers_up_to_the_cpu_count(monkeypatch):
    monkeypatch.setattr(cpus, "available", lambda: list(range(64)))
    assert max_workers() == 64
    Oracle(OracleConfig(workers=64))  # accepted (nothing starts before use)
    with pytest.raises(ExecIRError, match="between 1 and 64"):
        Oracle(OracleConfig(workers=65))
    monkeypatch.setattr(cpus, "available", lambda: [0, 1])
    assert max_workers() == 8


@pytest.mark.skipif(os.geteuid() != 0, reason="uid blocks and CPU claims need root")
def test_two_live_oracles_pin_to_different_cpus(lock_dirs, monkeypatch):
    monkeypatch.setattr(cpus, "available", lambda: [0, 0 + (len(os.sched_getaffinity(0)) > 1)])
    with Oracle(OracleConfig(workers=1, progress=False)) as one, Oracle(OracleConfig(workers=1, progress=False)) as two:
        pins = [slot.cpu for slot in one.slots + two.slots]
        assert pins[0] == 0 and pins[1] in (1, None)
        assert set(one.uids).isdisjoint(two.uids)
