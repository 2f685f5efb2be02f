"""PHP on the mutate side: the grammar description names only node types tree-sitter-php has, the
boolean flips write the other literal, and MBXP PHP canonicals' mutants all pass ``php -l``."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import tree_sitter
import tree_sitter_php

from execir.edits import splice
from execir.languages import get_language
from execir.languages.php import GRAMMAR, entry_point

PROGRAM = (
    "<?php\nfunction countPos(array $xs, bool $strict = false): int {\n    $n = 0;\n    foreach ($xs as $x) {\n"
    "        if ($x > 0 || (!$strict && $x == 0)) {\n            $n += 1;\n        }\n    }\n    return $n;\n}\n"
)


def test_grammar_node_types_exist():
    language = tree_sitter.Language(tree_sitter_php.language_php())
    assert [name for name in GRAMMAR.node_types() if language.id_for_node_kind(name, True) is None] == []


def test_operators_and_flips():
    php = get_language("php")
    mutants = {(op, splice(PROGRAM, edit)) for op, edit in php.candidates(PROGRAM)}
    ops = {op for op, _ in mutants}
    assert {"compare_swap", "augassign_swap", "bool_literal_flip", "variable_misuse", "statement_delete", "const_incr"} <= ops
    flips = [text for op, text in mutants if op == "bool_literal_flip"]
    assert flips == [PROGRAM.replace("$strict = false", "$strict = true")]
    assert entry_point("<?php\n/** doc */\nfunction minCost($cost, $m, $n){\n") == "minCost"


@pytest.mark.skipif(shutil.which("php") is None, reason="php not installed")
def test_mutants_parse(tmp_path):
    php = get_language("php")
    path = tmp_path / "m.php"
    texts = sorted({splice(PROGRAM, edit) for _, edit in php.candidates(PROGRAM)})
    assert len(texts) >= 20
    for text in texts:
        path.write_text(text, encoding="utf-8")
        assert subprocess.run(["php", "-n", "-l", str(path)], capture_output=True).returncode == 0, text
