"""Imports run one way: the primitives every layer may import (errors, types, edits, the JSONL
reader, source text, model identity, the language declarations) import no other part of ExecIR,
and no import runs from a lower package to a higher one (the packages' import graph, command-line
modules aside, has no cycle)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "execir"
PRIMITIVES = frozenset(
    {"errors", "types", "edits", "jsonl", "source_text", "model_identity", "language_declarations", "paths", "console", "results", "cli_help"}
)
"""Top-level modules below every package."""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports() -> dict[str, set[str]]:
    """Module -> the ExecIR modules it imports (at any depth of its code: lazy imports count)."""
    found: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        if "harness" in path.parts:  # trusted harness files run in the sandbox, outside the package
            continue
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "execir":
                names |= {f"execir.{a.name}" for a in node.names} if node.module == "execir" else {node.module}
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names if a.name.split(".")[0] == "execir"}
        found[_module(path)] = names
    return found


def _part(module: str) -> str:
    """The package (or top-level module) a module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _is_command_line(module: str) -> bool:
    return module in ("execir.cli", "execir.__main__") or module.endswith(".commands") or ".commands." in module


def test_primitives_import_only_primitives():
    for module, names in _imports().items():
        if _part(module) in PRIMITIVES and module.count(".") == 1:
            assert {_part(name) for name in names} <= PRIMITIVES, module


def _cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph, or [] when it has none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_no_import_runs_from_a_lower_package_to_a_higher_one():
    edges: dict[str, set[str]] = defaultdict(set)
    for module, names in _imports().items():
        if _is_command_line(module):
            continue
        for name in names:
            source, target = _part(module), _part(name)
            if source != target and target not in PRIMITIVES:
                edges[source].add(target)
    assert _cycle(edges) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}}) == []
