"""The wipe between runs and its verification (stdlib only; run by the sandbox server).

Private roots (the work root, and the sandbox's private tmpfs ``/tmp`` and ``/dev/shm``) are emptied
by an iterative, fd-relative walk that never follows symlinks and fixes permissions at every depth
(mode-000 directories, sticky bits, fifos, sockets, hard links, nesting deeper than ``PATH_MAX``),
then verified: each is empty, has its start-up mode, and (private tmpfs) its used blocks and inodes
are back at the start-up baseline. Entries the slot uid owns in shared world-writable directories
are removed and the removal verified. :func:`clean_up` returns why a slot cannot be proven clean.
"""

from __future__ import annotations

import os
import stat

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
EXTRA_SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/run/shm", "/dev/mqueue")
"""World-writable directories a candidate may write to when they are not private to the sandbox
(the ``unshare`` and ``uid`` levels see the host's): what the slot uid leaves there is removed."""


def _empty(dfd: int) -> int:
    """Remove everything below the directory open at ``dfd`` (which must be ours and searchable).

    Iterative and fd-relative, never following symlinks: one directory fd is open at a time (going
    down with openat, back up with ``..``), so nesting deeper than PATH_MAX or the fd limit, mode-000
    directories at any depth (chmod is allowed: the candidate ran as this uid), sticky bits, fifos,
    sockets and hard links are all removed. Returns how many entries could not be removed."""
    failed = 0
    cur = os.dup(dfd)
    pending: list[list[str]] = [os.listdir(cur)]
    try:
        while True:
            names = pending[-1]
            descended = False
            while names:
                name = names.pop()
                try:
                    st = os.stat(name, dir_fd=cur, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                except OSError:
                    failed += 1
                    continue
                if not stat.S_ISDIR(st.st_mode):
                    try:
                        os.unlink(name, dir_fd=cur)
                    except FileNotFoundError:
                        pass
                    except OSError:
                        failed += 1
                    continue
                try:
                    os.rmdir(name, dir_fd=cur)  # the usual case: an empty directory
                    continue
                except OSError:
                    pass
                try:  # nothing of the candidate runs any more: the lstat above still holds
                    if st.st_mode & 0o700 != 0o700:
                        os.chmod(name, 0o700, dir_fd=cur)
                    child = os.open(name, _DIR_FLAGS, dir_fd=cur)
                except OSError:
                    failed += 1
                    continue
                names.append(name)  # rmdir it once it is empty
                os.close(cur)
                cur = child
                try:
                    pending.append(os.listdir(cur))
                except OSError:
                    pending.append([])
                    failed += 1
                descended = True
                break
            if descended:
                continue
            pending.pop()
            if not pending:
                return failed
            parent = os.open("..", _DIR_FLAGS & ~os.O_NOFOLLOW, dir_fd=cur)
            os.close(cur)
            cur = parent
            name = pending[-1].pop()  # the directory just emptied
            try:
                os.rmdir(name, dir_fd=cur)
            except OSError:
                failed += 1
    finally:
        os.close(cur)


def _remove(root_fd: int, name: str, st: os.stat_result) -> int:
    """Remove one entry of a directory (recursively when it is a directory)."""
    if not stat.S_ISDIR(st.st_mode):
        try:
            os.unlink(name, dir_fd=root_fd)
        except FileNotFoundError:
            pass
        except OSError:
            return 1
        return 0
    try:
        if st.st_mode & 0o700 != 0o700:
            os.chmod(name, 0o700, dir_fd=root_fd)
        fd = os.open(name, _DIR_FLAGS, dir_fd=root_fd)
    except OSError:
        return 1
    try:
        failed = _empty(fd)
    finally:
        os.close(fd)
    try:
        os.rmdir(name, dir_fd=root_fd)
    except OSError:
        failed += 1
    return failed


def wipe(dirs: list[str], modes: dict[str, int] | None = None) -> int:
    """Empty each (private) directory: its mode is restored first (the candidate owns it, it may
    have made it unsearchable). Returns how many entries could not be removed."""
    failed = 0
    for root in dirs:
        mode = (modes or {}).get(root)
        try:
            if mode is not None and stat.S_IMODE(os.lstat(root).st_mode) != mode:
                os.chmod(root, mode)
            fd = os.open(root, _DIR_FLAGS)
        except OSError:
            failed += 1
            continue
        try:
            failed += _empty(fd)
        except OSError:
            failed += 1
        finally:
            os.close(fd)
    return failed


def _owned_entries(root: str, uid: int) -> tuple[list[tuple[str, str, os.stat_result]], list[str]]:
    """Entries owned by ``uid`` directly in ``root`` and one level down in the world-writable
    directories there that belong to someone else (e.g. /tmp/.X11-unix): (dir, name, stat)."""
    found: list[tuple[str, str, os.stat_result]] = []
    subdirs: list[str] = []
    try:
        names = os.listdir(root)
    except OSError:
        return found, subdirs
    for name in names:
        try:
            st = os.lstat(os.path.join(root, name))
        except OSError:
            continue
        if st.st_uid == uid:
            found.append((root, name, st))
        elif stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH:
            subdirs.append(os.path.join(root, name))
    for sub in subdirs:
        try:
            names = os.listdir(sub)
        except OSError:
            continue
        for name in names:
            try:
                st = os.lstat(os.path.join(sub, name))
            except OSError:
                continue
            if st.st_uid == uid:
                found.append((sub, name, st))
    return found, subdirs


def wipe_owned(dirs: list[str]) -> int:
    """Remove what this (dedicated, per-slot) uid owns in shared host directories such as /tmp at
    the ``uid`` level, where there is no private tmpfs: otherwise it reaches the next run. Verified
    by a second scan when the first found anything. Returns how many entries are left."""
    uid = os.getuid()
    dirty = False
    for root in dirs:
        found, _ = _owned_entries(root, uid)
        for parent, name, st in found:
            dirty = True
            try:
                fd = os.open(parent, _DIR_FLAGS)
            except OSError:
                continue
            try:
                _remove(fd, name, st)
            finally:
                os.close(fd)
    if not dirty:
        return 0
    return sum(len(_owned_entries(root, uid)[0]) for root in dirs)


def usage(dirs: list[str]) -> dict[str, tuple[int, int]]:
    """Used blocks and inodes of each (private tmpfs) directory's filesystem."""
    out = {}
    for root in dirs:
        try:
            vfs = os.statvfs(root)
        except OSError:
            out[root] = (-1, -1)
            continue
        out[root] = (vfs.f_blocks - vfs.f_bfree, vfs.f_files - vfs.f_ffree)
    return out


def shared_dirs(config: dict, private: list[str]) -> list[str]:
    """Shared world-writable directories whose slot-uid entries are removed after each run: those
    the launcher names, and the usual ones this process can write to that are not private roots.
    Not at the rlimits level (the oracle's own uid: nothing can be told apart)."""
    if config["sweep"] == "pgrp":
        return []
    seen = {os.path.realpath(p) for p in private}
    out = []
    for path in (*config.get("wipe_owned", []), *EXTRA_SHARED_DIRS):
        real = os.path.realpath(path)
        if real in seen or not os.path.isdir(real) or not os.access(real, os.W_OK | os.X_OK):
            continue
        seen.add(real)
        out.append(real)
    return out


def clean_up(config: dict) -> list[str]:
    """Wipe, then verify; returns why the slot cannot be proven clean (empty: clean)."""
    problems = []
    roots = [config["work_root"], *config["wipe"]]
    failed = wipe(roots, config["modes"])
    if failed:
        problems.append(f"{failed} entries could not be removed")
    for root in roots:
        try:
            left = os.listdir(root)
        except OSError as exc:
            problems.append(f"{root}: {exc.strerror}")
            continue
        if left:
            problems.append(f"{root} not empty ({len(left)} entries)")
        try:
            mode = stat.S_IMODE(os.lstat(root).st_mode)
        except OSError:
            mode = -1
        if mode != config["modes"].get(root, mode):
            problems.append(f"{root} mode {mode:o}")
    if config["usage"]:
        now = usage(list(config["usage"]))
        for root, base in config["usage"].items():
            if now[root] != base:
                problems.append(f"{root} usage {now[root][0]} blocks/{now[root][1]} inodes, baseline {base[0]}/{base[1]}")
    owned_left = wipe_owned(config["owned"])
    if owned_left:
        problems.append(f"{owned_left} entries owned by the slot uid left in shared directories")
    return problems
