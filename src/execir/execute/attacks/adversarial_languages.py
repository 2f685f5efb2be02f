"""The adversarial cases of the other languages, one module per language (each exporting ``CASES``),
as :mod:`execir.language_declarations` names them."""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case
from execir.language_declarations import DECLARATIONS, load


def language_cases() -> tuple[Case, ...]:
    """Every language's cases, in the declarations' order."""
    cases: tuple[Case, ...] = ()
    for declaration in DECLARATIONS.values():
        if declaration.selftest:
            cases += load(declaration.selftest)
    return cases
