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

import builtins
import os
import random
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import codec  # noqa: E402
import frames  # noqa: E402

clock: dict[str, float] = {}
_CODE_CACHE: dict[tuple[str, str], object] = {}
CODE_CACHE_SIZE = 512


def compiled(source: str, name: str):  # type: ignore[no-untyped-def]
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
    """The candidate broke the channel protocol (EOF, malformed frame, unencodable value).

    A BaseException so that ``except Exception`` in test code cannot swallow it.
    """


class CandidateRaised(Exception):
    """The candidate raised an exception that is not a builtin Exception type."""


_CONTROL_FLOW = (StopIteration, StopAsyncIteration)
"""Never re-raised as themselves: a StopIteration from ``candidate`` inside ``map``/``filter``/
``zip`` in the test code would end the iteration early and skip the remaining asserts (a
candidate that raises it on every call passed ``all(map(...))``). PEP 479 semantics instead."""


def _exception_type(name: object) -> type[BaseException]:
    found = getattr(builtins, name, None) if isinstance(name, str) else None
    if isinstance(found, type) and issubclass(found, Exception) and not issubclass(found, _CONTROL_FLOW):
        return found
    return CandidateRaised


class Proxy:
    """Stands in for the candidate's entry point inside the judge."""

    def __init__(self, chan: socket.socket) -> None:
        self.chan = chan
        self.calls = 0
        self.violation: str | None = None

    def __call__(self, *args: object, **kwargs: object) -> object:
        if self.violation:
            raise ProtocolViolation(self.violation)
        self.calls += 1
        try:
            self.expect_quiet()
            nonce = os.urandom(8).hex()
            frames.send(self.chan, {"op": "call", "n": nonce, "a": codec.encode(list(args)), "k": codec.encode(kwargs)})
            frame = frames.recv(self.chan)
            if frame is None:
                raise ProtocolViolation("candidate closed the channel")
            reply = frame[0]
            if type(reply) is not dict or reply.get("n") != nonce:
                raise ProtocolViolation("malformed reply or reply to another request")
            if reply.get("op") == "ret":
                return codec.decode(reply.get("v"))
            if reply.get("op") == "exc":
                raise _exception_type(reply.get("type"))(str(reply.get("msg", ""))[:200])
            raise ProtocolViolation("unexpected reply")
        except (OSError, frames.FrameError, codec.CodecError, RecursionError, MemoryError) as exc:
            self.violation = f"{type(exc).__name__}: {exc}"[:300]
            raise ProtocolViolation(self.violation) from None
        except ProtocolViolation as exc:
            self.violation = str(exc)
            raise


    def expect_quiet(self) -> None:
        """A reply must answer a request: bytes waiting before we ask are a forged record."""
        try:
            early = self.chan.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        if early:
            raise ProtocolViolation("candidate wrote to the channel before being called")


def _outcome(thunk) -> tuple[bool, str]:  # type: ignore[no-untyped-def]
    try:
        thunk()
        return True, ""
    except BaseException as exc:  # noqa: BLE001 - any exception fails the test
        return False, f"{type(exc).__name__}: {exc}"[:300]


def evaluate(msg: dict, chan: socket.socket) -> dict:
    """Run one job's tests; returns the report sent to the host."""
    clock["start"] = time.monotonic()
    first = frames.recv(chan)
    clock["ready"] = time.monotonic()
    if first is None:
        return {"ready": False, "violation": "candidate exited before loading"}
    hello = first[0]
    if type(hello) is not dict or hello.get("op") not in ("ready", "load_error"):
        return {"ready": False, "violation": "malformed hello"}
    if hello["op"] == "load_error":
        return {"ready": False, "load_error": str(hello.get("reason", ""))[:500]}
    proxy = Proxy(chan)
    namespace: dict = {"__name__": "__judge__"}
    entry = msg["entry_point"]
    try:
        if msg.get("reference"):
            exec(compiled(msg["reference"], "<reference>"), namespace)
        namespace[entry] = proxy
        exec(compiled(msg["code"], "<tests>"), namespace)
    except BaseException as exc:  # noqa: BLE001 - the task's own code is broken
        return {"ready": True, "judge_error": f"{type(exc).__name__}: {exc}"[:500]}
    namespace[entry] = proxy
    if msg["kind"] == "check":
        outcomes = [_outcome(lambda: namespace["check"](proxy))]
    else:
        outcomes = [_outcome(lambda a=a: exec(compiled(a, "<assert>"), namespace)) for a in msg["asserts"]]
    clock["done"] = time.monotonic()
    if not proxy.violation:
        try:
            proxy.expect_quiet()
        except ProtocolViolation as exc:
            proxy.violation = str(exc)
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
        report = {"ready": False, "judge_error": f"{type(exc).__name__}: {exc}"[:500]}
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
