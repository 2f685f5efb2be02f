"""Judge server: runs the task's tests against a proxy of the candidate (stdlib only).

Runs on the host side as its own unprivileged uid and never loads candidate code. For each job it:
waits for the candidate's ``ready``; seeds ``random`` with 0 (tests that draw random inputs are
deterministic); execs the reference program (the canonical, for helpers such as ``encode_cyclic``)
and the test code in a fresh namespace with the entry point bound to a :class:`Proxy`; reports
per-test outcomes on the result socket and ``done`` on its control socket. The host restarts the
judge when ``done`` does not come (test code stuck). Each proxy call sends a fresh nonce (the reply must echo it, so
replies written before the request was read are rejected) and the
exact-type-encoded arguments over the channel and decodes the reply into plain builtins, so the
assertions evaluate here on values no candidate object can impersonate.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import codec  # noqa: E402
import frames  # noqa: E402

TYPE_CHECKING = False  # typing is not imported at run time (mypy treats this name as always true)
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType

clock: dict[str, float] = {}
_CODE_CACHE: dict[tuple[str, str], CodeType] = {}
CODE_CACHE_SIZE = 512


def compiled(source: str, name: str) -> CodeType:
    """``compile`` memoised by source text: a task's tests and reference are the same for every
    candidate, and code objects are immutable, so each job still execs into a fresh namespace."""
    key = (source, name)
    code = _CODE_CACHE.get(key)
    if code is None:
        if len(_CODE_CACHE) >= CODE_CACHE_SIZE:
            _CODE_CACHE.clear()
        code = _CODE_CACHE[key] = compile(source, name, "exec")
    return code


class ProtocolViolation(BaseException):
    """The candidate broke the channel protocol or must fail outright (exit, budget, unsupported
    value). A BaseException so that ``except Exception`` in test code cannot swallow it; the
    proxy records it, so even ``except BaseException`` cannot turn the job into a PASS."""


class CandidateRaised(Exception):
    """The candidate raised an exception that could not be rebuilt here."""


_CONTROL_FLOW = (StopIteration, StopAsyncIteration)
"""Never re-raised as themselves from a call: a StopIteration from ``candidate`` inside ``map``/
``filter``/``zip`` in the test code would end the iteration early and skip the remaining asserts (a
candidate that raises it on every call passed ``all(map(...))``). PEP 479 semantics instead: a
RuntimeError. From a remote iterator's ``__next__`` it is the end of the iteration."""
_STANDARD: dict[tuple[str, str], type] = {}
REFS_HELD = 3
"""``sys.getrefcount`` of an object held only by the mirror table (table, loop variable, argument)."""
MEMORY_LIMIT = 4 << 30


class RemoteIterator:
    """A candidate iterator (generator, ``map`` ...): each ``next`` asks the candidate, lazily."""

    __slots__ = ("_proxy", "_mid")

    def __init__(self, proxy: Proxy, mid: int) -> None:
        self._proxy, self._mid = proxy, mid

    def __iter__(self) -> RemoteIterator:
        return self

    def __next__(self) -> object:
        return self._proxy.request({"op": "next", "i": self._mid}, None)


class Proxy:
    """Stands in for the candidate's entry point inside the judge."""

    def __init__(self, chan: socket.socket, cpu_budget: float | None = None) -> None:
        self.chan = chan
        self.calls = 0
        self.violation: str | None = None
        self.kind: str | None = None
        self.mirror = codec.Mirror(1)
        self.budget = codec.Budget(cpu_budget)
        self.values = codec.Decoder(self.mirror, self.budget, lambda mid: RemoteIterator(self, mid))
        self.plain = codec.Decoder(None, self.budget)
        self.classes: dict[tuple, type] = {}

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls += 1
        return self.request({"op": "call"}, (args, tuple(kwargs.items())))

    def fail(self, kind: str, why: str) -> ProtocolViolation:
        if not self.violation:
            self.violation, self.kind = why[:300], kind
        return ProtocolViolation(self.violation)

    def request(self, head: dict, payload: object) -> object:
        if self.violation:
            raise ProtocolViolation(self.violation)
        try:
            self.expect_quiet()
            head["x"] = self.mirror.collect(REFS_HELD)
            try:
                head["g"] = codec.encode(payload, self.mirror)
            except codec.CodecError as exc:
                raise self.fail("unsupported", f"the tests passed a value that cannot cross: {exc}") from None
            head["n"] = nonce = os.urandom(8).hex()
            frames.send(self.chan, head)
            self.budget.start()
            try:
                return self._reply(nonce, head["op"] == "next")
            finally:
                self.budget.stop()
        except codec.BudgetExceeded as exc:
            raise self.fail("budget", str(exc)) from None
        except (OSError, frames.FrameError, codec.CodecError, RecursionError, MemoryError) as exc:
            raise self.fail("protocol", f"{type(exc).__name__}: {exc}") from None

    def _reply(self, nonce: str, iterating: bool) -> object:
        frame = frames.recv(self.chan)
        if frame is None:
            raise self.fail("protocol", "candidate closed the channel")
        reply = frame[0]
        if type(reply) is not dict or reply.get("n") != nonce:
            raise self.fail("protocol", "malformed reply or reply to another request")
        op = reply.get("op")
        if op == "unsupported":
            kind, why = reply.get("kind"), str(reply.get("why", ""))[:200]
            if kind == "own":
                raise self.fail("own", f"the candidate returned a value whose class decides its own comparisons: {why}")
            if kind == "raised":
                raise self.fail("raised", f"the candidate's value raised while it was read: {why}")
            raise self.fail("unsupported", f"the candidate produced a value that cannot cross: {why}")
        if op not in ("ret", "exc"):
            raise self.fail("protocol", "unexpected reply")
        value = self.values.decode(reply.get("g"))  # also applies the candidate's changed state
        if op == "ret":
            return value
        raise self._exception(reply.get("e"), iterating)

    def _exception(self, info: object, iterating: bool) -> BaseException:
        if type(info) is not dict:
            raise codec.CodecError("malformed exception")
        cls = self._class(info.get("c"))
        args = self.plain.decode(info.get("a"))
        if type(args) is not tuple:
            raise codec.CodecError("malformed exception args")
        if issubclass(cls, _CONTROL_FLOW):
            return StopIteration(*args) if iterating and issubclass(cls, StopIteration) else RuntimeError(f"candidate raised {cls.__name__}")
        if not issubclass(cls, Exception):
            return self.fail("exit", f"candidate raised {cls.__name__} (an exit or interrupt fails the run)")
        try:
            return cls(*args)
        except (TypeError, ValueError, OverflowError):  # a builtin constructor that rejects these args
            pass
        try:
            exc = cls.__new__(cls)
            exc.args = args
            return exc
        except (TypeError, ValueError):  # e.g. ExceptionGroup, which needs its exceptions
            return CandidateRaised(f"{cls.__name__}: {args!r}"[:200])

    def _class(self, classes: object) -> type:
        """Rebuild the candidate's exception hierarchy: standard classes are themselves, the
        candidate's own become fresh classes (same names, rebuilt bases; cached per job)."""
        if type(classes) is not list or not 0 < len(classes) <= 64:
            raise codec.CodecError("malformed exception classes")
        built: list[type | None] = [None] * len(classes)
        for i in range(len(classes) - 1, -1, -1):
            entry = classes[i]
            if type(entry) is not list or len(entry) != 4 or type(entry[0]) is not str or type(entry[1]) is not str or type(entry[2]) is not list:
                raise codec.CodecError("malformed exception class")
            module, qualname, bases, std = entry
            if std:
                found = _STANDARD.get((module, qualname))
                if found is None:
                    raise codec.CodecError(f"unknown standard exception {module}.{qualname}"[:200])
                built[i] = found
                continue
            if not all(type(b) is int and i < b < len(classes) for b in bases) or not bases:
                raise codec.CodecError("malformed exception bases")
            parents = tuple(built[b] for b in bases)
            key = (module, qualname, parents)
            cls = self.classes.get(key)
            if cls is None:
                try:
                    cls = type(qualname.rpartition(".")[2][:200] or "Exception", parents, {"__module__": module[:200], "__qualname__": qualname[:200]})
                except (TypeError, ValueError) as exc:
                    raise codec.CodecError(f"impossible exception class: {exc}") from None
                self.classes[key] = cls
            built[i] = cls
        root = built[0]
        if not (isinstance(root, type) and issubclass(root, BaseException)):
            raise codec.CodecError("exception class is not an exception")
        return root

    def expect_quiet(self) -> None:
        """A reply must answer a request: bytes waiting before we ask are a forged record."""
        try:
            early = self.chan.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        if early:
            raise self.fail("protocol", "candidate wrote to the channel before being called")


def _outcome(thunk: Callable[..., object]) -> tuple[bool, str]:
    try:
        thunk()
        return True, ""
    except BaseException as exc:  # noqa: BLE001 - any exception fails the test
        return False, _why(exc)


def _why(exc: BaseException) -> str:
    """``Type: message``; the type alone when the message cannot be made (an assert's message
    holding the candidate's int of over 4300 digits raises ValueError in ``str``)."""
    try:
        return f"{type(exc).__name__}: {exc}"[:300]
    except BaseException:  # noqa: BLE001 - the exception still decides the outcome, not its text
        return type(exc).__name__[:300]


def evaluate(msg: dict, chan: socket.socket) -> dict:
    """Run one job's tests; returns the report sent to the host."""
    clock["start"] = time.monotonic()
    try:
        first = frames.recv(chan)
    except (OSError, frames.FrameError) as exc:  # the candidate wrote a broken frame, then ended
        return {"ready": False, "violation": f"malformed hello: {type(exc).__name__}: {exc}"[:300]}
    clock["ready"] = time.monotonic()
    if first is None:
        return {"ready": False, "violation": "candidate exited before loading"}
    hello = first[0]
    if type(hello) is not dict or hello.get("op") not in ("ready", "load_error"):
        return {"ready": False, "violation": "malformed hello"}
    if hello["op"] == "load_error":
        return {"ready": False, "load_error": str(hello.get("reason", ""))[:500]}
    proxy = Proxy(chan, msg.get("cpu_seconds"))
    namespace: dict = {"__name__": "__judge__"}
    entry = msg["entry_point"]
    setup_failed = None
    try:
        if msg.get("reference"):
            exec(compiled(msg["reference"], "<reference>"), namespace)
        namespace[entry] = proxy
        exec(compiled(msg["code"], "<tests>"), namespace)
    except BaseException as exc:  # noqa: BLE001 - the task's own code is broken, or a module-level test failed
        if proxy.calls == 0 and not proxy.violation:
            return {"ready": True, "judge_error": _why(exc), "decode_cpu": proxy.budget.used}
        setup_failed = _why(exc)
    namespace[entry] = proxy
    if setup_failed is not None:
        outcomes = [(False, setup_failed)]
    elif msg["kind"] == "check":
        outcomes = [_outcome(lambda: namespace["check"](proxy))]
    else:
        outcomes = [_outcome(lambda a=a: exec(compiled(a, "<assert>"), namespace)) for a in msg["asserts"]]
    clock["done"] = time.monotonic()
    if not proxy.violation:
        try:
            proxy.expect_quiet()
        except ProtocolViolation:
            pass
        except OSError as exc:  # the candidate's end broke the channel after its last reply
            proxy.fail("protocol", f"{type(exc).__name__}: {exc}")
    failures = [why for ok, why in outcomes if not ok]
    try:
        frames.send(chan, {"op": "bye"})
    except OSError:
        pass
    return {
        "ready": True,
        "per_test": [ok for ok, _ in outcomes],
        "calls": proxy.calls,
        "violation": proxy.violation,
        "violation_kind": proxy.kind,
        "decode_cpu": round(proxy.budget.used, 6),
        "first_failure": failures[0] if failures else "",
        "clock": clock,
    }


def judge_one(msg: dict, chan: socket.socket, result: socket.socket) -> None:
    """Evaluate one job in this process, with the interpreter state reset around it."""
    limit = sys.getrecursionlimit()
    random.seed(0)
    try:
        report = evaluate(msg, chan)
    except BaseException as exc:  # noqa: BLE001
        report = {"ready": False, "judge_error": _why(exc)}
    finally:
        sys.setrecursionlimit(limit)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        chan.close()
    try:
        frames.send(result, report)
    except OSError:
        pass
    result.close()


def main() -> None:
    ctrl = socket.socket(fileno=int(sys.argv[1]))
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    if len(sys.argv) > 2:
        os.sched_setaffinity(0, {int(sys.argv[2])})
    for name in ("typing", "math", "re", "collections", "itertools", "functools", "heapq", "string", "hashlib", "fractions", "decimal", "copy"):
        __import__(name)
    _STANDARD.update({name: cls for cls, name in codec.standard_exceptions().items()})
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))  # a huge reply is a MemoryError (FAIL), not a lost judge
    frames.send(ctrl, {"op": "hello", "pid": os.getpid(), "python": sys.version.split()[0]})
    while True:
        frame = frames.recv(ctrl, max_fds=2)
        if frame is None:
            return
        msg, fds = frame
        if msg.get("op") == "judge":
            judge_one(msg, socket.socket(fileno=fds[0]), socket.socket(fileno=fds[1]))
            frames.send(ctrl, {"op": "done"})


if __name__ == "__main__":
    main()
