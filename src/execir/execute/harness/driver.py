"""Candidate driver: runs in the forked child inside the sandbox (stdlib only).

``call`` mode: load the candidate module, then serve ``call`` frames from the judge over the
channel (fd 3), answering with exact-type-encoded results or the exception's type name. The driver
never sees the tests or the expected values. ``main`` mode (stdio tasks): run the program as
``__main__`` with stdin from a memfd and stdout/stderr to the host's pipes.

stdio process rules (``main`` mode): the program runs as ``python3 main.py < input > output``
would under a pipe judge. ``__name__ == "__main__"``, ``sys.argv == ["main.py"]``, ``__file__`` is
``<workdir>/main.py`` (the source is written there); ``exit()``/``quit()`` exist (the interpreter
runs with ``-S``, so they are installed as site would); ``input()`` raises EOFError at the end of
stdin; ``sys.stdin.buffer.read()`` and ``os.read(0, ...)`` read the same bytes. Exit status: 0 at the
end of the code; ``SystemExit``: None -> 0, an int -> itself, anything else printed to stderr -> 1;
an uncaught exception: traceback through ``sys.excepthook``, 1; a failing stdout flush: 120. Then,
as ``Py_FinalizeEx``: non-daemon threads are joined (``threading._shutdown``), ``atexit`` handlers
run, ``sys.stdout``/``sys.stderr`` are flushed, ``__main__``'s globals dropped and collected (so an
unclosed ``open(1, "w")`` is flushed), the original streams flushed; daemon threads just end. The
server then waits until every other process of the run has exited (their output counts), all
within the run's CPU and wall budgets: a program still running, or leaving a process running, at
the budget is a TIMEOUT even if its output so far is right. stdout is capped (over the cap: FAIL);
stderr is drained but only its tail kept, its volume never decides.

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
        if (
            libc.syscall(
                _SYS_SECCOMP,
                ctypes.c_ulong(_SECCOMP_SET_MODE_FILTER),
                ctypes.c_ulong(_SECCOMP_FILTER_FLAG_SPEC_ALLOW),
                ctypes.c_void_p(ctypes.addressof(self._prog)),
            )
            != 0
        ):
            raise OSError(ctypes.get_errno(), "seccomp")


def _set_limits(limits: dict) -> None:
    cpu = int(limits["cpu_rlimit"])
    mib = 1 << 20
    # exec mode: the hard limit leaves room for the compile step's own (larger) soft limit
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, max(cpu, int(limits.get("compile_rlimit", 0))) + 1))
    if limits.get("address_space", True):  # JVM/V8 reserve far more than they use: cgroup-bounded
        resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib, limits["memory_mb"] * mib))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size_mb"] * mib, limits["file_size_mb"] * mib))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["nproc"], limits["nproc"]))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["nofile"], limits["nofile"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _wire_fds(mode: str, fds: list[int], stdin: str | None) -> None:
    """Put the channel on fd 3, output on 1/2, stdin on 0; close everything else."""
    chan, out_w, err_w = fds[0], fds[1], fds[2] if mode in ("main", "exec") else fds[1]
    if mode in ("main", "exec") and len(fds) > 3:  # the host's sealed memfd (any size)
        memfd = fds[3]
        os.lseek(memfd, 0, os.SEEK_SET)
    elif mode in ("main", "exec"):
        memfd = os.memfd_create("stdin")
        data = (stdin or "").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(memfd, view) :]
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
        _run_main(msg["program"], chan, _exit, workdir)
    if msg["mode"] == "exec":
        _run_exec(msg, chan, _exit, workdir)
    _serve_calls(msg["program"], msg["entry_point"], chan, _exit)


def _compile(program: str, chan: socket.socket, send: _Send, filename: str = codec.OWN_CODE) -> types.CodeType | None:
    try:
        return compile(program, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        send(chan, {"op": "load_error", "reason": f"compile: {type(exc).__name__}: {exc}"[:500]})
        return None


MAIN_NAME = "main.py"
LOG_TAIL = 8192


def _run_exec(msg: dict, chan: socket.socket, _exit: _Exit, workdir: str) -> NoReturn:
    """A program of another language (``exec`` mode): write the plan's files, run the compile
    command in a child (its own CPU limit; no candidate code has run yet, so the ``compiled`` report
    is trusted), then replace this process with the run command. fd 3 stays open for the nonce."""
    send = frames.send
    env = dict(os.environ, **msg["env"])
    try:
        for name, text in msg["files"].items():
            path = os.path.join(workdir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(text)
        record = _compile_step(msg["compile"], env, msg["limits"]) if msg["compile"] else {"op": "compiled", "ok": True, "cpu": 0.0, "log": ""}
    except OSError as exc:
        record = {"op": "compiled", "ok": False, "cpu": 0.0, "log": f"harness: {exc}", "harness": True}
    send(chan, record)
    if not record["ok"]:
        _exit(0)
    cpu = int(msg["limits"]["cpu_rlimit"])
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.getrlimit(resource.RLIMIT_CPU)[1]))
        env[msg["nonce_env"]] = msg["nonce"]
        run = msg["run"]
        os.execve(run[0] if "/" in run[0] else os.path.join(workdir, run[0]), run, env)
    except OSError:
        _exit(127)
    _exit(127)  # unreachable: execve replaced the process


def _compile_step(argv: list[str], env: dict, limits: dict) -> dict:
    """Run the compiler with its own CPU limit; its output (bounded tail) is the log."""
    log_r, log_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(log_w, 1)
            os.dup2(log_w, 2)
            os.closerange(3, 1 << 16)
            cpu = int(limits["compile_rlimit"])
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.getrlimit(resource.RLIMIT_CPU)[1]))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(log_w)
    tail = b""
    while chunk := os.read(log_r, 1 << 16):
        tail = (tail + chunk)[-LOG_TAIL:]
    os.close(log_r)
    _pid, status, usage = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return {"op": "compiled", "ok": code == 0, "status": code, "cpu": usage.ru_utime + usage.ru_stime, "log": tail.decode("utf-8", "replace")}


def _run_main(program: str, chan: socket.socket, _exit: _Exit, workdir: str) -> NoReturn:
    """Run a stdio program as ``python3 main.py < input`` would (see the module docstring)."""
    send = frames.send
    path = os.path.join(workdir, MAIN_NAME)
    code = _compile(program, chan, send, path)
    if code is None:
        _exit(0)
    send(chan, {"op": "loaded"})
    chan.close()
    try:  # the source next to the program, as for a script run from a file (``open(__file__)``)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        os.write(fd, program.encode("utf-8", "surrogatepass"))
        os.close(fd)
    except (OSError, UnicodeError):
        pass
    import atexit
    import builtins

    # -S: site did not add exit()/quit(); installed as site would (they close stdin, raise SystemExit)
    builtins.exit = _QUITTER("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _QUITTER("quit", "Ctrl-D (i.e. EOF)")
    atexit._clear()  # nothing of the server's is the program's to run at exit
    module = types.ModuleType("__main__")
    module.__file__ = path
    module.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = module
    sys.argv = [MAIN_NAME]
    try:
        exec(code, module.__dict__)
        status = 0
    except SystemExit as exc:
        status = _system_exit_status(exc)
    except BaseException as exc:  # noqa: BLE001 - reported like the interpreter would
        _print_exception(exc)
        status = 1
    _exit(_finalize(status, module) & 0xFF)


def _system_exit_status(exc: SystemExit) -> int:
    """The status ``python3`` exits with: None -> 0, an int -> itself, anything else is printed
    to stderr and gives 1."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return int(code)
    try:
        sys.stderr.write(f"{code}\n")
    except BaseException:  # noqa: BLE001
        pass
    return 1


def _print_exception(exc: BaseException) -> None:
    try:  # like the interpreter: sys.excepthook, without the driver's own frame
        tb = exc.__traceback__.tb_next if exc.__traceback__ else None
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
    except BaseException:  # noqa: BLE001
        pass


def _finalize(status: int, module: types.ModuleType) -> int:
    """What ``Py_FinalizeEx`` does before the process exits: join non-daemon threads
    (``threading._shutdown``), run ``atexit`` handlers, flush ``sys.stdout``/``sys.stderr`` (a
    failing stdout flush makes the status 120), then drop ``__main__``'s globals and collect, so
    unclosed file objects (``open(1, 'w')``) are flushed by their finalizers."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:  # noqa: BLE001 - reported as unraisable by the interpreter; status kept
            pass
    import atexit

    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    if not _flush_std():
        status = 120
    try:
        module.__dict__.clear()
        import gc

        gc.collect()
    except BaseException:  # noqa: BLE001
        pass
    _flush_std()
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    return status


def _flush_std() -> bool:
    ok = True
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        try:
            if stream is not None and not getattr(stream, "closed", False):
                stream.flush()
        except BaseException:  # noqa: BLE001
            ok = ok and name != "stdout"
    return ok


try:
    from _sitebuiltins import Quitter as _QUITTER
except ImportError:  # pragma: no cover - every CPython has it

    class _QUITTER:  # type: ignore[no-redef]
        def __init__(self, name: str, eof: str) -> None:
            self.name = name

        def __call__(self, code: object = None) -> NoReturn:
            raise SystemExit(code)


def _serve_calls(program: str, entry_point: str, chan: socket.socket, _exit: _Exit) -> NoReturn:
    """Serve ``call`` and ``next`` (remote iterator) requests until the judge stops.

    Every request carries the judge's changed mirrored state and the mids it no longer holds;
    every reply carries this side's changed mirrored state (also after an exception), so in-place
    mutation and aliasing look as in one process. A value that cannot cross is reported as
    ``unsupported`` (a protocol violation on the judge's side), never as an exception, with its
    ``kind``: ``unsupported`` (the wire format cannot carry it), ``own`` (its class decides its own
    comparisons: :func:`codec.own_dunder`) or ``raised`` (reading it ran candidate code that
    raised, an exit included)."""
    send, recv, encode, decoder = frames.send, frames.recv, codec.encode, codec.Decoder
    own_value, codec_error = codec.OwnValue, codec.CodecError
    code = _compile(program, chan, send)
    if code is None:
        _exit(0)
    module = types.ModuleType("__candidate__")
    sys.modules["__candidate__"] = module
    try:
        exec(code, module.__dict__)
        func = module.__dict__.get(entry_point)
    except BaseException as exc:  # noqa: BLE001 - the candidate failed to load
        send(chan, {"op": "load_error", "reason": f"import raised {_name(exc)}"})
        _exit(0)
    if not callable(func):
        send(chan, {"op": "load_error", "reason": f"entry point {entry_point!r} missing"})
        _exit(0)
    mirror = codec.Mirror(-1)
    decode = decoder(mirror).decode
    send(chan, {"op": "ready"})
    while True:
        frame = recv(chan)
        request = frame[0] if frame is not None else None
        if type(request) is not dict or request.get("op") not in ("call", "next"):
            _exit(0)
        mirror.forget(request.get("x", ()))
        payload = decode(request["g"])
        reply: dict = {"op": "ret"}
        try:
            if request["op"] == "call":
                result = func(*payload[0], **dict(payload[1]))
            else:
                result = next(mirror.objects[request["i"]])
        except BaseException as exc:  # noqa: BLE001 - described to the judge, which rebuilds it
            reply, result = {"op": "exc", "e": _describe(exc)}, None
        try:
            reply["g"] = encode(result, mirror)
        except own_value as exc:
            reply = {"op": "unsupported", "kind": "own", "why": _text(exc, True)}
        except codec_error as exc:
            reply = {"op": "unsupported", "kind": "unsupported", "why": _text(exc, True)}
        except BaseException as exc:  # noqa: BLE001 - the candidate's code ran while its value was read, and raised
            reply = {"op": "unsupported", "kind": "raised", "why": f"{_name(exc)}: {_text(exc)}"[:200]}
        reply["n"] = request.get("n")
        result = payload = None
        send(chan, reply)


_STANDARD = codec.standard_exceptions()
"""Captured before any candidate code runs: a candidate class named ``TypeError`` (even with
``__module__ = 'builtins'``) is not the builtin one."""


def _describe(exc: BaseException) -> dict:
    """The exception's class hierarchy (module, qualname, base positions; standard classes by
    identity) and its args where they encode."""
    try:
        mro = [c for c in type(exc).__mro__ if c is not object][:64]
        where = {id(c): i for i, c in enumerate(mro)}
        classes = []
        for cls in mro:
            std = _STANDARD.get(cls)
            module, qualname = std if std else (str(cls.__module__)[:200], str(cls.__qualname__)[:200])
            classes.append([module, qualname, [where[id(b)] for b in cls.__bases__ if b is not object], bool(std)])
    except BaseException:  # noqa: BLE001 - a hostile metaclass: described as a bare BaseException
        classes = [["builtins", "BaseException", [], True]]
    try:
        args = codec.encode(tuple(exc.args))
    except BaseException:  # noqa: BLE001 - args that cannot cross: the message only
        args = codec.encode((_text(exc),))
    return {"c": classes, "a": args}


def _name(exc: BaseException) -> str:
    try:
        return str(type(exc).__name__)
    except BaseException:  # noqa: BLE001 - a hostile metaclass
        return "BaseException"


def _text(exc: BaseException, always: bool = False) -> str:
    try:
        return str(exc)[:200] if always or isinstance(exc, Exception) else ""
    except BaseException:  # noqa: BLE001 - a hostile __str__
        return ""
