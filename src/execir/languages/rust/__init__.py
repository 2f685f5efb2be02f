"""Rust: parsed with tree-sitter-rust; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.rust.grammar.GRAMMAR`."""

from __future__ import annotations

import re

import tree_sitter_rust

from execir.languages.base import Language
from execir.languages.rust.grammar import GRAMMAR
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for

_SIGNATURE = re.compile(r"^\s*(?:pub\s+)?fn\s+(\w+)")

OPERATORS = operators_for(GRAMMAR, exclude=("arg_delete", "attribute_swap"))
"""Every Rust operator, in name order; no ``arg_delete`` (Rust has no optional arguments) and no
``attribute_swap`` (a struct's other field rarely has the same type: 3 of 43 sampled mutants compiled)."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (``fn median(l:Vec<i32>) -> f64{``); HumanEval's
    ``fn main(){}`` before it is no entry point."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _SIGNATURE.search(line)) and match.group(1) != "main"]
    return names[-1] if names else None


RUST: Language[Program] = make_language("rust", tree_sitter_rust.language, frozenset({"line_comment", "block_comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["GRAMMAR", "OPERATORS", "RUST"]
