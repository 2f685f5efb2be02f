"""The adversarial cases of the other languages, one module per language (each exporting ``CASES``)."""

from __future__ import annotations

from execir.execute import adversarial_cpp, adversarial_go, adversarial_java, adversarial_js, adversarial_php, adversarial_ruby, adversarial_ts
from execir.execute.adversarial import Case


def language_cases() -> tuple[Case, ...]:
    """Every language's cases, in a fixed order (C++, Java, Go, JavaScript, Ruby, PHP, TypeScript)."""
    return (
        adversarial_cpp.CASES
        + adversarial_java.CASES
        + adversarial_go.CASES
        + adversarial_js.CASES
        + adversarial_ruby.CASES
        + adversarial_php.CASES
        + adversarial_ts.CASES
    )
