"""MBXP PHP's test form, shared by the PHP cases and the wire cases of every language."""

from __future__ import annotations

COMPARE = "\n\nfunction compare($x, $y) {\n    return $x == $y;\n}\n\n"


def mbxp_tests(entry: str, checks: list[tuple[str, str]]) -> str:
    """MBXP PHP's test text: the ``compare`` helper, then per check ``$xN = entry(ARGS);``, the
    expected ``$vN`` and a throw when ``compare`` rejects the result."""
    body = COMPARE
    for n, (args, expected) in enumerate(checks):
        body += f"$x{n} = {entry}({args});\n$v{n} = {expected};\n"
        body += f'if (!compare($x{n}, $v{n})) {{\n    throw new Exception("Error at {n + 1}th assert statement.");\n}}\n'
    return body
