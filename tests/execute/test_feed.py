"""The calls of a judged-outside run reach the candidate one at a time (a real socket pair)."""

from __future__ import annotations

import socket

from execir.execute.sandbox.feed import Feed


def _readable(sock: socket.socket) -> bytes:
    try:
        return sock.recv(1 << 16, socket.MSG_DONTWAIT)
    except BlockingIOError:
        return b"(nothing)"


def _pump(feed: Feed) -> None:
    while feed.wants_write:
        feed.write()


def test_a_call_is_written_only_once_the_previous_result_is_in_and_the_end_only_after_the_last():
    host, run = socket.socketpair()
    feed = Feed(host, ("[6]", "[3]", "[10]"))
    feed.advance(0)
    _pump(feed)
    assert _readable(run) == b"[6]\n"
    feed.observe(b"REPORT", 6)  # the compile report alone: nothing unlocked
    _pump(feed)
    assert _readable(run) == b"(nothing)"
    feed.observe(b'REPORT{"ok":3', 6)  # a result line without its newline is not a result yet
    _pump(feed)
    assert _readable(run) == b"(nothing)"
    feed.observe(b'REPORT{"ok":3}\n', 6)
    _pump(feed)
    assert _readable(run) == b"[3]\n"
    feed.observe(b'REPORT{"ok":3}\n{"ok":10}\n', 6)
    _pump(feed)
    assert _readable(run) == b"[10]\n"
    assert _readable(run) == b"(nothing)"  # not even the end: whether a call is the last is unknown
    feed.observe(b'REPORT{"ok":3}\n{"ok":10}\n{"ok":5}\n', 6)
    assert run.recv(16) == b"" and feed.ended


def test_lines_written_early_count_as_answers_and_unlock_one_call_each():
    host, run = socket.socketpair()
    feed = Feed(host, ("[1]", "[2]", "[3]"))
    feed.advance(0)
    _pump(feed)
    assert run.recv(64) == b"[1]\n"
    feed.observe(b"R" + b'{"ok":0}\n' * 3, 1)  # three lines at once: call 1's answer is fixed first
    _pump(feed)
    assert run.recv(64) == b"[2]\n"
    feed.observe(b"R" + b'{"ok":0}\n' * 3, 1)
    _pump(feed)
    assert run.recv(64) == b"[3]\n"


def test_a_closed_run_stops_the_feed_without_raising():
    host, run = socket.socketpair()
    feed = Feed(host, ("[1]", "[2]"))
    run.close()
    feed.advance(0)
    _pump(feed)
    assert feed.broken and not feed.wants_write
