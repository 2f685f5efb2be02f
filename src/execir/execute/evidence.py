"""What one run left behind, before any decision: the evidence :mod:`execir.execute.decide` reads."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Raw:
    """What one run left behind, before any decision."""

    started: bool = False
    exit_code: int | None = None
    cpu: float = 0.0
    wall: float = 0.0
    timeout: str = ""
    capped: bool = False
    memory_killed: bool = False
    server_lost: bool = False
    result: dict | None = None
    stdout: bytes = b""
    stderr_tail: str = ""
    survivors: int = 0
    extra: dict = field(default_factory=dict)
    main_exited: bool = False
    """The program's main process exited by itself (``exit_code`` is its status), as opposed to
    being killed at a budget, the output cap or a lost sandbox."""
    leftover: bool = False
    """stdio: the main process had exited but other processes of the run were still running when
    the run was stopped (budget or output cap; ``timeout``/``capped`` says which). A pipe judge waits
    for them: this is a TIMEOUT (or FAIL on the cap), never a PASS on the output so far."""
    stdout_eof: bool = False
    """stdio: stdout reached EOF (every writer exited) before the decision."""
    stderr_bytes: int = 0
    """stdio: total stderr volume (only ``stderr_tail`` is kept; volume never decides)."""
    unclean: str = ""
    """Why the slot could not be proven clean after this run (the slot was then restarted); empty
    when the wipe was verified. Reliability evidence only: the run's own verdict stands."""
    compile: dict | None = None
    """exec mode: the trusted ``compiled`` report (``ok``, ``status``, ``cpu``, ``log``), or None."""
    compile_cpu: float = 0.0
    """exec mode: CPU of the compile step (not part of ``cpu``, which is the run's)."""
    compile_timeout: bool = False
    """exec mode: the compile step exceeded its own CPU or wall budget."""
    nonce: str = ""
    """exec mode with language-native tests: the completion record the tests must write to fd 3."""
    completion: bytes = b""
    """exec mode: what the run wrote to fd 3 after the compile report (bounded)."""
