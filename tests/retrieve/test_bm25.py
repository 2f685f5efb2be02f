import bm25s
import numpy as np
import pytest

from execir.errors import ExecIRError
from execir.retrieve import BM25Retriever, CodeTokenizer, get_retriever

CORPUS = {
    "add": "def add(a, b):\n    return a + b",
    "rev": "def reverse_string(s):\n    return s[::-1]",
    "prime": "def is_prime(n):\n    return n > 1 and all(n % i for i in range(2, n))",
    "fib": "def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a",
}


def make() -> BM25Retriever:
    r = BM25Retriever(progress=False)
    r.index(CORPUS)
    return r


def test_obvious_doc_first() -> None:
    run = make().search({"q": "Reverse the given string", "p": "is the number prime"}, top_k=2)
    assert next(iter(run["q"])) == "rev"
    assert next(iter(run["p"])) == "prime"


def test_matches_direct_bm25s_call() -> None:
    tok = CodeTokenizer()
    ids = sorted(CORPUS)
    ref = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    ref.index(tok.tokenize_many([CORPUS[d] for d in ids]), show_progress=False)
    query = "compute the fibonacci number n"
    expected = ref.get_scores(tok(query))
    run = make().search({"q": query}, top_k=len(ids))
    assert run["q"] == {d: float(expected[i]) for i, d in enumerate(ids)}
    docs, scores = ref.retrieve([tok(query)], k=1, show_progress=False)
    assert ids[int(docs[0, 0])] == next(iter(run["q"]))
    assert float(scores[0, 0]) == run["q"][next(iter(run["q"]))]


def test_zero_scores_fill_top_k_deterministically() -> None:
    run = make().search({"q": "zebra quantum"}, top_k=3)
    assert run["q"] == {"add": 0.0, "fib": 0.0, "prime": 0.0}
    assert len(make().search({"q": "zebra"}, top_k=100)["q"]) == len(CORPUS)


def test_ties_kept_and_cut_by_doc_id() -> None:
    r = BM25Retriever(progress=False)
    r.index({"z": "def f(x): return x", "y": "def f(x): return x", "w": "print(1)"})
    run = r.search({"q": "return x"}, top_k=1)
    assert list(run["q"]) == ["y"]
    full = r.search({"q": "return x"}, top_k=3)["q"]
    assert full["y"] == full["z"] > full["w"] == 0.0


def test_search_before_index_and_empty_corpus() -> None:
    with pytest.raises(ExecIRError):
        BM25Retriever(progress=False).search({"q": "x"}, top_k=1)
    with pytest.raises(ExecIRError):
        BM25Retriever(progress=False).index({})


def test_spec_and_protocol() -> None:
    from execir.retrieve import Retriever

    r = get_retriever("bm25", progress=False)
    assert isinstance(r, Retriever) and r.name == "bm25" and r.encoded_texts == 0
    assert r.config()["k1"] == 1.5  # type: ignore[attr-defined]
    assert isinstance(make().scores("add numbers"), np.ndarray)
