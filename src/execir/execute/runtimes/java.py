"""java: not implemented yet."""

from __future__ import annotations

from execir.execute.runtimes.base import Runtime

RUNTIME = Runtime("java", (), ())
