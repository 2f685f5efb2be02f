"""The adversarial cases of the other languages, gathered from one module per language
(``adversarial_cpp``, ``adversarial_java``, ``adversarial_go``, ``adversarial_js``,
``adversarial_ruby``, each exporting ``CASES``)."""

from __future__ import annotations

import importlib

from execir.execute.adversarial import Case

MODULES = ("cpp", "java", "go", "js", "ruby")


def language_cases(languages: tuple[str, ...] = MODULES) -> tuple[Case, ...]:
    """Every language's cases, in a fixed order."""
    found: list[Case] = []
    for language in languages:
        try:
            module = importlib.import_module(f"execir.execute.adversarial_{language}")
        except ModuleNotFoundError as exc:
            if exc.name != f"execir.execute.adversarial_{language}":
                raise
            continue
        found.extend(module.CASES)
    return tuple(found)
