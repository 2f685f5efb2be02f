"""The seccomp policy applied to every candidate process, exported as a BPF program.

Denied with EPERM: sockets of any family but AF_UNIX (no network even where no network namespace
exists), and AF_UNIX sockets too unless the sandbox has its own network namespace *and* filesystem
(``bwrap``: abstract sockets are per network namespace, path sockets need a reachable path; at the
``unshare`` level the host filesystem is visible, at ``uid``/``rlimits`` nothing is private, so a
candidate could reach host services such as a D-Bus or X11 socket); the inherited channel needs no
``socket`` call, ptrace and process_vm_readv/writev (no reading other processes), namespace and mount
syscalls, kernel keyring, bpf, perf, userfaultfd, io_uring, module and reboot calls, SysV IPC and
POSIX message queues (they outlive the run inside the slot's long-lived IPC namespace: a channel to
the next candidate, and SysV shm stays charged to the slot's memory cgroup), and changing the
rlimits of *another* process (the sandbox server shares the candidate's uid; a lowered hard limit
would be inherited by every later child). ``clone3`` gets ENOSYS so libc falls back to
``clone``, whose namespace flags are then checkable.
"""

from __future__ import annotations

import errno
import socket
import tempfile

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "open_by_handle_at",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "shmget",
    "msgget",
    "semget",
    "mq_open",
    "pidfd_getfd",
)
SELF_ONLY = {"prlimit64": ((0, 0),)}
"""(argument index, required value): rlimits only of the caller (pid 0; glibc's setrlimit uses that).
Priority, scheduler and affinity of other processes are left to the server's taint check (threads
legitimately pass their own tids to sched_setaffinity/setpriority); any change makes the host
restart the slot after the run."""
CLONE_NAMESPACES = 0x10000000 | 0x20000000 | 0x40000000 | 0x04000000 | 0x08000000 | 0x00020000 | 0x02000000
"""CLONE_NEWUSER | NEWPID | NEWNET | NEWIPC | NEWUTS | NEWNS | NEWCGROUP."""


def build_bpf(*, unix_sockets: bool = False) -> bytes | None:
    """The BPF program, or None when pyseccomp/libseccomp is unavailable. ``unix_sockets`` allows
    creating AF_UNIX sockets (only where the sandbox has private network and filesystem namespaces)."""
    try:
        import pyseccomp as sc
    except (ImportError, OSError):
        return None
    filt = sc.SyscallFilter(sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    if unix_sockets:
        filt.add_rule(deny, "socket", sc.Arg(0, sc.NE, socket.AF_UNIX))
    else:
        filt.add_rule(deny, "socket")
    for name in DENIED:
        filt.add_rule(deny, name)
    for name, required in SELF_ONLY.items():
        for arg, value in required:
            filt.add_rule(deny, name, sc.Arg(arg, sc.NE, value))
    for flag in _bits(CLONE_NAMESPACES):
        filt.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    filt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as handle:
        filt.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def _bits(mask: int) -> list[int]:
    return [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
