"""The record of one rewrite."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rewrite:
    """A program that differs from its source by one application of rule ``rule``."""

    rule: str
    text: str
