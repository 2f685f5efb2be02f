"""Isolation levels and the command lines that start a worker slot's sandbox server and judge.

Strongest first (``auto`` takes the first that starts):

* ``bwrap``: bubblewrap with every namespace unshared (no network, own pid namespace with the
  server as PID 1, no further user namespaces), a fresh root with read-only ``/usr``, tmpfs
  ``/tmp``, cleared environment; started as the slot's own unprivileged uid.
* ``unshare``: util-linux ``unshare`` (pid, net, ipc, uts, mount namespaces, tmpfs over /tmp,
  /var/tmp and /dev/shm), then ``setpriv`` to the slot uid.
* ``uid``: no namespaces; the slot uid, rlimits, seccomp and cgroups only.
* ``rlimits``: the oracle's own uid with rlimits (and seccomp/cgroups when asked): the weakest.

In every level the candidate runs in a child of the trusted server with rlimits, setsid and (when
available) the seccomp filter; the slot's cgroup bounds pids and memory and measures tree CPU.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from execir.errors import ExecIRError

LEVELS = ("bwrap", "unshare", "uid", "rlimits")
HARNESS = Path(__file__).parent.parent / "harness"
SANDBOX_FILES = ("server.py", "driver.py", "codec.py", "frames.py", "wipe.py")
ENV = {
    "PYTHONHASHSEED": "0",
    "TZ": "UTC",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PATH": "/usr/bin:/bin",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
}
TOOLCHAIN_MOUNTS = ("/etc/alternatives", "/etc/java-17-openjdk", "/etc/ssl/certs")
"""Host directories outside /usr that the Debian toolchains read (bound read-only under bwrap),
besides each runtime's own ``mounts`` (see :func:`toolchain_mounts`)."""
GUARANTEES = {
    "bwrap": (
        "own pid, network, ipc, uts, mount and user namespaces; read-only /usr, private tmpfs /tmp and /dev/shm wiped and verified after every run; "
        "unprivileged slot uid; seccomp (no sockets but AF_UNIX inside the private namespaces); cgroup pids/memory/CPU; rlimits"
    ),
    "unshare": (
        "own pid, network, ipc, uts and mount namespaces with private tmpfs /tmp, /var/tmp, /dev/shm; "
        "the host filesystem is visible read/write where the slot uid may write; unprivileged slot uid; seccomp (no sockets at all); cgroup; rlimits"
    ),
    "uid": (
        "no namespaces: the host filesystem, processes and abstract sockets are visible; "
        "unprivileged slot uid, seccomp (no sockets at all, so no host unix or network sockets), cgroup, rlimits; "
        "files the slot uid leaves in /tmp, /var/tmp, /dev/shm are removed"
    ),
    "rlimits": (
        "the oracle's own uid with rlimits, seccomp (no sockets) and cgroups where available: "
        "a candidate can read and write whatever the oracle's user can; for trusted programs only"
    ),
}
"""What each level guarantees, recorded in every reliability report and dataset manifest."""
PY_FLAGS = ("-S", "-s", "-P", "-B")
"""No site, no user site, no unsafe sys.path entry, no .pyc. Not -I/-E: they ignore PYTHONHASHSEED."""


class IsolationError(ExecIRError):
    """The requested isolation level cannot be provided here."""


@dataclass(frozen=True)
class Interpreter:
    """The interpreter candidates and the judge run under."""

    path: str
    prefix: str
    version: str


def is_root() -> bool:
    return os.geteuid() == 0


def world_accessible(path: Path) -> bool:
    """True when a non-owner, non-root user can reach and execute/read ``path``."""
    path = path.resolve()
    return traversable(path.parent) and bool(os.stat(path).st_mode & (stat.S_IROTH | stat.S_IXOTH))


def find_interpreter(need_world_access: bool) -> Interpreter:
    """``sys.executable``'s base interpreter, or the same version elsewhere when unreachable."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [getattr(sys, "_base_executable", sys.executable), sys.executable, f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    for candidate in candidates:
        path = Path(candidate)
        if not path.exists() or (need_world_access and not world_accessible(path)):
            continue
        probe = subprocess.run(
            [str(path.resolve()), "-S", "-c", "import sys;print(sys.prefix);print(sys.version.split()[0])"], capture_output=True, text=True, timeout=30
        )
        prefix, found = probe.stdout.split()
        if probe.returncode == 0 and found.startswith(version + "."):
            return Interpreter(str(path.resolve()), prefix, found)
    raise IsolationError(f"no Python {version} interpreter reachable by an unprivileged user")


def available_levels() -> list[str]:
    """Levels this machine can offer, strongest first."""
    levels = []
    if is_root() and shutil.which("bwrap"):
        levels.append("bwrap")
    if is_root() and shutil.which("unshare") and shutil.which("setpriv"):
        levels.append("unshare")
    if is_root():
        levels.append("uid")
    levels.append("rlimits")
    return levels


def bwrap_version() -> str:
    exe = shutil.which("bwrap")
    if not exe:
        return ""
    return subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()


@dataclass(frozen=True)
class ServerLaunch:
    """How to start one slot's sandbox server."""

    argv: list[str]
    env: dict[str, str]
    work_root: str
    sweep: str
    wipe: list[str]
    pass_fds: tuple[int, ...]
    wipe_owned: list[str] = field(default_factory=list)


def host_base() -> Path:
    """Where an oracle's host directory goes: the temp dir when other users can traverse it (the
    slot and judge uids must reach the staged harness), else the first such system temp dir."""
    for candidate in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        path = Path(candidate)
        if path.is_dir() and traversable(path):
            return path
    raise IsolationError("no temporary directory that other users can traverse (tried $TMPDIR, /tmp, /var/tmp, /dev/shm)")


def traversable(path: Path) -> bool:
    """True when a non-owner, non-root user can enter ``path`` (every component searchable)."""
    path = path.resolve()
    return all(os.stat(p).st_mode & stat.S_IXOTH for p in (path, *path.parents))


HARNESS_ROOT = Path("/run/execir-harness")
"""Where root oracles stage the harness: readable by the slot and judge uids, and outside the
directories the ``unshare`` level hides behind private tmpfs mounts (/tmp, /var/tmp, /dev/shm)."""


def harness_dir(host_dir: Path) -> Path:
    """The staging directory for this oracle: under :data:`HARNESS_ROOT` as root (named after the
    owning pid, for reclaim), inside the oracle's own host directory otherwise."""
    if not is_root():
        return host_dir / "harness"
    HARNESS_ROOT.mkdir(mode=0o755, exist_ok=True)
    os.chmod(HARNESS_ROOT, 0o755)
    return Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=HARNESS_ROOT))


def stage_harness(dest: Path) -> Path:
    """Copy the trusted harness files to ``dest`` (mode 0755, files 0644) and return it.

    The package may be installed anywhere (an editable checkout in a 0700 home directory, a venv
    other users cannot read); the server and judge run as unprivileged uids and start from this
    copy, never from the installed package."""
    dest.mkdir(mode=0o755, exist_ok=True)
    os.chmod(dest, 0o755)
    for source in sorted(HARNESS.glob("*.py")):
        target = dest / source.name
        target.write_bytes(source.read_bytes())
        os.chmod(target, 0o644)
    return dest


def server_launch(level: str, interp: Interpreter, ctrl_fd: int, harness: Path, host_dir: str, tmp_mb: int) -> tuple[ServerLaunch, list[int]]:
    """The server's command line; also returns fds to close in the parent after spawning.
    ``harness`` is the staged copy of the harness files (see :func:`stage_harness`)."""
    py = [interp.path, *PY_FLAGS]
    if level == "bwrap":
        return _bwrap(py, interp, ctrl_fd, harness, tmp_mb)
    script = str(harness / "server.py")
    if level == "unshare":
        inner = " && ".join(f"mount -t tmpfs -o size={tmp_mb}m,mode=1777 tmpfs {d}" for d in ("/tmp", "/var/tmp", "/dev/shm"))
        argv = ["unshare", "--pid", "--fork", "--mount-proc", "--net", "--ipc", "--uts", "--kill-child", "--"]
        argv += ["/bin/sh", "-c", inner + ' && exec "$@"', "sh"]
        argv += ["setpriv", "--reuid", "{uid}", "--regid", "{uid}", "--clear-groups", "--", *py, script, str(ctrl_fd)]
        return ServerLaunch(argv, dict(ENV, HOME="/tmp"), "/tmp", "pidns", ["/dev/shm", "/var/tmp"], (ctrl_fd,)), []
    sweep = "uid" if level == "uid" else "pgrp"
    # uid level: the slot uid is dedicated, so whatever it owns in the shared world-writable dirs
    # is a candidate's leftover (rlimits level: the oracle's own uid, nothing can be told apart)
    owned = ["/tmp", "/var/tmp", "/dev/shm"] if level == "uid" else []
    return ServerLaunch([*py, script, str(ctrl_fd)], dict(ENV, HOME=host_dir), host_dir, sweep, [], (ctrl_fd,), owned), []


def _bwrap(py: list[str], interp: Interpreter, ctrl_fd: int, harness: Path, tmp_mb: int) -> tuple[ServerLaunch, list[int]]:
    argv = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv", "--as-pid-1"]
    argv += ["--ro-bind", "/usr", "/usr"]
    argv += ["--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin"]
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(tmp_mb << 20), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    argv += ["--size", str(tmp_mb << 20), "--tmpfs", "/tmp"]
    for path in toolchain_mounts():  # symlink targets of toolchains under /usr, trusted caches
        if path.startswith(TRUSTED_CACHES) and is_root():
            os.makedirs(path, mode=0o755, exist_ok=True)  # bound now, filled (live) at discovery
        if os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    if not interp.prefix.startswith("/usr/"):
        argv += ["--ro-bind", interp.prefix, interp.prefix]
    fds = []
    for name in SANDBOX_FILES:
        fd = os.memfd_create(name)
        os.write(fd, (harness / name).read_bytes())
        os.lseek(fd, 0, os.SEEK_SET)
        fds.append(fd)
        argv += ["--ro-bind-data", str(fd), f"/harness/{name}"]
    for key, value in dict(ENV, HOME="/tmp").items():
        argv += ["--setenv", key, value]
    argv += ["--remount-ro", "/", "--chdir", "/tmp", *py, "/harness/server.py", str(ctrl_fd)]
    return ServerLaunch(argv, {"PATH": "/usr/bin:/bin"}, "/tmp", "pidns", ["/dev/shm"], (ctrl_fd, *fds)), fds


TRUSTED_CACHES = "/var/cache/execir-"
"""Root-owned caches the runtimes fill at toolchain discovery (precompiled headers, class-data
archives); created before the sandbox starts so that its read-only bind shows them once built."""


def toolchain_mounts() -> tuple[str, ...]:
    """Every host directory outside /usr a toolchain reads: :data:`TOOLCHAIN_MOUNTS` and the
    ``mounts`` of each language runtime (e.g. C++'s root-owned precompiled headers)."""
    from execir.execute.runtimes import LANGUAGES, runtime
    from execir.language_declarations import is_host_language

    extra = [m for language in LANGUAGES if not is_host_language(language) for m in runtime(language).mounts]
    return tuple(dict.fromkeys((*TOOLCHAIN_MOUNTS, *extra)))


def judge_argv(interp: Interpreter, harness: Path, ctrl_fd: int, cpu: int | None) -> list[str]:
    return [interp.path, *PY_FLAGS, str(harness / "judge.py"), str(ctrl_fd), *([str(cpu)] if cpu is not None else [])]
