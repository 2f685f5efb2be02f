"""Narrow, user-facing errors. Each names the file, line and field at fault."""

from __future__ import annotations


class ExecIRError(Exception):
    """Base class for errors reported to the user without a traceback."""


class InputError(ExecIRError):
    """A bad input record: names the file, the 1-based line and the field."""

    def __init__(self, path: str, line: int, field: str | None, message: str) -> None:
        self.path = path
        self.line = line
        self.field = field
        where = f"{path}:{line}" + (f": field '{field}'" if field else "")
        super().__init__(f"{where}: {message}")


class MissingDependencyError(ExecIRError):
    """An optional dependency is not installed; the message says how to install it."""
