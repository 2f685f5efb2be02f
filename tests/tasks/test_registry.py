"""The task-source registry: ``execir build`` offers exactly its sources, each source's path rule
and languages, and the one place a source changes the program the oracle runs."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from execir.construct.commands import register
from execir.errors import ExecIRError
from execir.execute.runtimes import LANGUAGES
from execir.tasks.livecodebench import PRELUDE
from execir.tasks.registry import SOURCES, PathRule, runnable_program, task_source
from execir.types import Task, TestSuite


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="execir")
    register(parser.add_subparsers(dest="command"))
    return parser


def test_build_offers_every_registered_source_and_only_those():
    parser = build_parser()
    build = next(a for a in parser._subparsers._group_actions[0].choices["build"]._actions if isinstance(a, argparse._SubParsersAction))  # type: ignore[union-attr]
    assert list(build.choices) == list(SOURCES)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_path_rule_and_languages_reach_the_command_line(name):
    source = SOURCES[name]
    parser = build_parser()
    argv = ["build", name, "--out", "x"]
    if source.path is PathRule.FILE:
        with pytest.raises(SystemExit):  # --path is required
            parser.parse_args(argv)
        argv += ["--path", "tasks.jsonl"]
    args = parser.parse_args(argv)
    assert getattr(args, "language", "python") == source.languages[0]
    assert set(source.languages) <= set(LANGUAGES)


def test_unknown_source_and_missing_path_are_clear_errors():
    with pytest.raises(ExecIRError, match="unknown task source 'nope'"):
        task_source("nope")
    with pytest.raises(ExecIRError, match="needs --path FILE"):
        task_source("mbpp").resolve_path(None)
    assert task_source("mbpp").resolve_path(Path("m.jsonl")) == Path("m.jsonl")
    assert task_source("humaneval").resolve_path(None).exists()


def test_only_livecodebench_python_programs_get_an_adapter():
    suite = TestSuite(kind="stdio")
    lcb = Task("lcb/1", "", "", "", suite, "livecodebench")
    assert runnable_program(lcb, "print(1)\n").startswith(PRELUDE)
    assert runnable_program(Task("lcb/1", "", "", "", suite, "livecodebench", language="cpp"), "int main(){}\n") == "int main(){}\n"
    for source in ("humaneval", "mbpp", "a-source-of-no-registry"):
        assert runnable_program(Task("t/1", "", "", "", suite, source), "print(1)\n") == "print(1)\n"
