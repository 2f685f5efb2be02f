"""Every applicable rewrite of a program: run each rule of its language, splice, keep what parses."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping

from execir.edits import SpanEdit, splice
from execir.errors import ExecIRError
from execir.language_declarations import DECLARATIONS
from execir.languages import get_language
from execir.rewrite.types import Rewrite

RuleSet = Mapping[str, Callable[[str, frozenset[str]], Iterable[SpanEdit]]]
"""Rule name -> function of (program text, reserved names) to candidate edits."""

RULE_MODULES: dict[str, str] = {name: d.rewrites for name, d in DECLARATIONS.items() if d.rewrites}
"""Language -> the module whose ``rules_for(language)`` returns its rules (loaded lazily)."""


def _rules(language: str) -> RuleSet:
    if language not in RULE_MODULES:
        raise ExecIRError(f"no rewrite rules for language {language!r} (build it with --rewrites 0); rewrites exist for {', '.join(RULE_MODULES)}")
    module = importlib.import_module(RULE_MODULES[language])
    rules: RuleSet = module.rules_for(language)
    return rules


def rule_names(language: str) -> tuple[str, ...]:
    """The names of a language's rewrite rules, sorted."""
    return tuple(sorted(_rules(language)))


def rewrites(text: str, language: str, *, entry_point: str) -> list[Rewrite]:
    """Every rewrite of ``text``: one rule applied at one site each, in rule-name order and, within a
    rule, in edit order; texts are distinct, differ from ``text`` and parse. ``entry_point`` (the
    function the tests call) is never renamed nor used as a fresh name. A text that does not parse
    raises :class:`~execir.languages.ParseError`."""
    checker = get_language(language)
    checker.parse(text)
    seen = {text}
    found: list[Rewrite] = []
    reserved = frozenset({entry_point})
    for name, rule in sorted(_rules(language).items()):
        for edit in sorted(set(rule(text, reserved))):
            candidate = splice(text, edit)
            if candidate in seen or not checker.is_valid(candidate):
                continue
            seen.add(candidate)
            found.append(Rewrite(name, candidate))
    return found
