"""Candidate driver: runs in the forked child inside the sandbox (stdlib only).

``call`` mode: load the candidate module, then serve ``call`` frames from the judge over the
channel (fd 3), answering with exact-type-encoded results or the exception's type name. The driver
never sees the tests or the expected values. ``main`` mode (stdio tasks): run the program as
``__main__`` with stdin from a memfd and stdout/stderr to the host's pipes.

Everything the driver needs is bound to locals before candidate code runs, so a candidate that
patches ``os``, ``sys`` or the codec only changes what its own process says; the judge decides.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import socket
import sys
import types

import codec
import frames

TYPE_CHECKING = False  # typing is not imported at run time (mypy treats this name as always true)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

    _Exit = Callable[[int], NoReturn]
    _Send = Callable[[socket.socket, object], None]

CHAN_FD = 3
HARNESS_ERROR_STATUS = 121
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_DUMPABLE = 4
_SYS_SECCOMP = {"x86_64": 317, "aarch64": 277}.get(os.uname().machine, 317)
_SECCOMP_SET_MODE_FILTER = 1
_SECCOMP_FILTER_FLAG_SPEC_ALLOW = 4


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class Seccomp:
    """A prepared BPF program, installed with two prctl calls in the child."""

    def __init__(self, bpf: bytes) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._buf = ctypes.create_string_buffer(bpf, len(bpf))
        self._prog = _SockFprog(len(bpf) // 8, ctypes.addressof(self._buf))

    def install(self) -> None:
        """NO_NEW_PRIVS, then seccomp(SET_MODE_FILTER, SPEC_ALLOW): without SPEC_ALLOW the kernel
        forces speculative-store-bypass mitigation on the task, which made every child ~1.2 ms slower
        here; that mitigation guards against same-process leaks that do not matter for labels."""
        libc = self._libc
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
            raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
        if libc.syscall(_SYS_SECCOMP, ctypes.c_ulong(_SECCOMP_SET_MODE_FILTER), ctypes.c_ulong(_SECCOMP_FILTER_FLAG_SPEC_ALLOW), ctypes.c_void_p(ctypes.addressof(self._prog))) != 0:
            raise OSError(ctypes.get_errno(), "seccomp")


def _set_limits(limits: dict) -> None:
    cpu = int(limits["cpu_rlimit"])
    mib = 1 << 20
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib, limits["memory_mb"] * mib))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size_mb"] * mib, limits["file_size_mb"] * mib))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["nproc"], limits["nproc"]))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["nofile"], limits["nofile"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _wire_fds(mode: str, fds: list[int], stdin: str | None) -> None:
    """Put the channel on fd 3, output on 1/2, stdin on 0; close everything else."""
    chan, out_w, err_w = fds[0], fds[1], fds[2] if mode == "main" else fds[1]
    if mode == "main":
        memfd = os.memfd_create("stdin")
        data = (stdin or "").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(memfd, view):]
        os.lseek(memfd, 0, os.SEEK_SET)
    else:
        memfd = os.open(os.devnull, os.O_RDONLY)
    os.dup2(memfd, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(chan, CHAN_FD)
    os.closerange(CHAN_FD + 1, 1 << 16)


_LIBC = ctypes.CDLL(None, use_errno=True)


def child_main(msg: dict, fds: list[int], workdir: str, seccomp: Seccomp | None) -> NoReturn:
    """Entry of the forked child; never returns."""
    _exit = os._exit
    try:
        os.setsid()
        # the server is not dumpable (so same-uid candidates cannot open /proc/1/mem); the child
        # inherited that, so /proc/self would be root-owned: make the candidate an ordinary process
        _LIBC.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the server ignores it
        _wire_fds(msg["mode"], fds, msg.get("stdin"))
        os.chdir(workdir)
        _set_limits(msg["limits"])
        if seccomp is not None:
            seccomp.install()
        chan = socket.socket(fileno=CHAN_FD)
    except BaseException:  # noqa: BLE001 - the harness failed, not the candidate
        _exit(HARNESS_ERROR_STATUS)
    if msg["mode"] == "main":
        _run_main(msg["program"], chan, _exit)
    _serve_calls(msg["program"], msg["entry_point"], chan, _exit)


def _compile(program: str, chan: socket.socket, send: _Send) -> types.CodeType | None:
    try:
        return compile(program, "<candidate>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        send(chan, {"op": "load_error", "reason": f"compile: {type(exc).__name__}: {exc}"[:500]})
        return None


def _run_main(program: str, chan: socket.socket, _exit: _Exit) -> NoReturn:
    send = frames.send
    code = _compile(program, chan, send)
    if code is None:
        _exit(0)
    send(chan, {"op": "loaded"})
    chan.close()
    module = types.ModuleType("__main__")
    sys.modules["__main__"] = module
    sys.argv = ["main.py"]
    status = 0
    try:
        exec(code, module.__dict__)
    except SystemExit as exc:
        status = exc.code if type(exc.code) is int else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - report like the interpreter would
        import traceback

        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is None:  # no __stdout__/__stderr__ (nothing to flush)
            continue
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    _exit(status & 0xFF)


def _serve_calls(program: str, entry_point: str, chan: socket.socket, _exit: _Exit) -> NoReturn:
    send, recv, encode, decode = frames.send, frames.recv, codec.encode, codec.decode
    code = _compile(program, chan, send)
    if code is None:
        _exit(0)
    module = types.ModuleType("__candidate__")
    sys.modules["__candidate__"] = module
    try:
        exec(code, module.__dict__)
        func = module.__dict__.get(entry_point)
    except BaseException as exc:  # noqa: BLE001 - the candidate failed to load
        send(chan, {"op": "load_error", "reason": f"import raised {type(exc).__name__}"})
        _exit(0)
    if not callable(func):
        send(chan, {"op": "load_error", "reason": f"entry point {entry_point!r} missing"})
        _exit(0)
    send(chan, {"op": "ready"})
    while True:
        frame = recv(chan)
        if frame is None or frame[0].get("op") != "call":
            _exit(0)
        request = frame[0]
        try:
            result = func(*decode(request["a"]), **decode(request["k"]))
            reply = {"op": "ret", "n": request.get("n"), "v": encode(result)}
        except BaseException as exc:  # noqa: BLE001 - reported to the judge by type name
            reply = {"op": "exc", "n": request.get("n"), "type": _name(exc), "msg": _text(exc)}
        send(chan, reply)


def _name(exc: BaseException) -> str:
    try:
        return str(type(exc).__name__)
    except BaseException:  # noqa: BLE001 - a hostile metaclass
        return "BaseException"


def _text(exc: BaseException) -> str:
    try:
        return str(exc)[:200] if isinstance(exc, Exception) else ""
    except BaseException:  # noqa: BLE001 - a hostile __str__
        return ""
