"""Task specs: names, kinds, relevance, ``--tasks`` parsing and folder-name lookup."""

from __future__ import annotations

import pytest

from execir.dataset.spec import CODE2CODE, CODE2TEXT, NL2CODE, SEARCH2CODE, TASK_SPECS, get_spec, parse_tasks
from execir.errors import ExecIRError

ALL = ("t2c-description", "t2c-full", "t2c-search", "c2t", "c2c")


def test_the_five_tasks_in_canonical_order() -> None:
    assert tuple(TASK_SPECS) == (*ALL, "c2c-rewrite")
    assert all(name == spec.name for name, spec in TASK_SPECS.items())
    assert [name for name, spec in TASK_SPECS.items() if spec.by_name_only] == ["c2c-rewrite"]


@pytest.mark.parametrize(
    ("name", "direction", "subtype", "query_kind", "document_kind", "instruction"),
    [
        ("t2c-description", "t2c", "description", "text", "code", NL2CODE),
        ("t2c-full", "t2c", "full", "text", "code", NL2CODE),
        ("t2c-search", "t2c", "search", "text", "code", SEARCH2CODE),
        ("c2t", "c2t", "", "code", "text", CODE2TEXT),
        ("c2c", "c2c", "", "code", "code", CODE2CODE),
        ("c2c-rewrite", "c2c", "rewrite", "code", "code", CODE2CODE),
    ],
)
def test_spec_fields(name: str, direction: str, subtype: str, query_kind: str, document_kind: str, instruction: str) -> None:
    spec = TASK_SPECS[name]
    assert (spec.direction, spec.subtype, spec.query_kind, spec.document_kind, spec.instruction) == (
        direction,
        subtype,
        query_kind,
        document_kind,
        instruction,
    )


@pytest.mark.parametrize("name", [*ALL, "c2c-rewrite"])
def test_relevance_names_grades_two_one_zero(name: str) -> None:
    relevance = TASK_SPECS[name].relevance_json()
    assert list(relevance) == ["2", "1", "0"]
    assert all(meaning.strip() for meaning in relevance.values())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, ALL),
        ("", ALL),
        ("   ", ALL),
        ("t2c", ("t2c-description", "t2c-full", "t2c-search")),
        ("t2c-full", ("t2c-full",)),
        ("c2t", ("c2t",)),
        ("c2c,c2t", ("c2t", "c2c")),  # canonical order, not the order given
        (" c2c , t2c-search ", ("t2c-search", "c2c")),
        ("t2c,t2c-full,c2c", ("t2c-description", "t2c-full", "t2c-search", "c2c")),  # no duplicates
        ("t2c,c2t,c2c", ALL),
        ("c2c-rewrite", ("c2c-rewrite",)),  # built only when named
        ("c2c-rewrite,c2c", ("c2c", "c2c-rewrite")),
        ("t2c,c2t,c2c,c2c-rewrite", (*ALL, "c2c-rewrite")),
    ],
)
def test_parse_tasks(text: str | None, expected: tuple[str, ...]) -> None:
    assert tuple(spec.name for spec in parse_tasks(text)) == expected


@pytest.mark.parametrize("text", ["t2x", "t2c,code", "t2c-fulll", "c2c-java", "T2C"])
def test_parse_tasks_rejects_unknown_names(text: str) -> None:
    with pytest.raises(ExecIRError, match="unknown task"):
        parse_tasks(text)


@pytest.mark.parametrize(
    ("folder", "task"),
    [
        ("t2c-full", "t2c-full"),
        ("t2c-full-python", "t2c-full"),
        ("t2c-description-java", "t2c-description"),
        ("t2c-search-cpp", "t2c-search"),
        ("c2t", "c2t"),
        ("c2c", "c2c"),
        ("c2c-java", "c2c"),
        ("c2c-rewrite", "c2c-rewrite"),
        ("c2c-rewrite-java", "c2c-rewrite"),
        ("c2t-multi", "c2t"),
    ],
)
def test_get_spec_ignores_a_language_suffix(folder: str, task: str) -> None:
    assert get_spec(folder).name == task


@pytest.mark.parametrize("folder", ["t2c", "synthetic", "c2c-java-extra", "", "t2c-python"])
def test_get_spec_rejects_unknown(folder: str) -> None:
    with pytest.raises(ExecIRError, match="unknown task"):
        get_spec(folder)
