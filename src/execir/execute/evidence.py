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
