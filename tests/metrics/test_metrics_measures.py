"""parse_measure: the registry of names, validation and error messages."""

from __future__ import annotations

import dataclasses

import pytest

from execir.metrics import KNOWN_MEASURES, Measure, parse_measure


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ndcg@10", Measure("ndcg", 10)),
        ("exec@1", Measure("exec", 1)),
        ("P@5", Measure("p", 5)),
        ("MRR@100", Measure("mrr", 100)),
        ("map", Measure("map", None)),
        (" recall@3 ", Measure("recall", 3)),
    ],
)
def test_parses_known_names(text, expected):
    assert parse_measure(text) == expected


def test_measure_round_trips_through_str():
    for name in KNOWN_MEASURES:
        assert parse_measure(str(parse_measure(f"{name}@7"))) == Measure(name, 7)


def test_unknown_name_names_it_and_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown measure 'bleu@4'.*exec@k.*ndcg@k"):
        parse_measure("bleu@4")


@pytest.mark.parametrize("text", ["ndcg@0", "ndcg@-1", "ndcg@x", "ndcg@", "p", "ndcg@1.5"])
def test_bad_cutoffs_are_rejected(text):
    with pytest.raises(ValueError, match="measure"):
        parse_measure(text)


def test_measure_is_frozen_and_validated():
    with pytest.raises(dataclasses.FrozenInstanceError):
        parse_measure("ndcg@10").k = 5  # type: ignore[misc]
    with pytest.raises(ValueError):
        Measure("ndcg", 0)
