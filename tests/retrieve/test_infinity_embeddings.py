"""A real Infinity server's ``/embeddings`` against in-process sentence-transformers over one model folder,
and ``execir eval`` through it (``http:URL@MODEL,api=openai``) against ``dense``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from execir.cli import main
from execir.retrieve.registry import bundled_minilm_path
from execir.retrieve.st import SentenceTransformerEncoder
from tests.infinity_server import InfinityServer
from tests.train.helpers import write_build

TEXTS = (
    "Return the smallest even number in the list.",
    "def smallest_even(xs):\n    return min(x for x in xs if x % 2 == 0)\n",
    "def smallest_even(xs):\n    return max(x for x in xs if x % 2 == 0)\n",
    "Write a function to check whether a string is a palindrome.",
    'def is_palindrome(s: str) -> bool:\n    """True when s reads the same backwards."""\n    return s == s[::-1]\n',
    "#include <vector>\nint sum(const std::vector<int>& v) { int s = 0; for (int x : v) s += x; return s; }",
    'fn main() { println!("{}", (1..=10).sum::<i32>()); }',
    "x",
    "ünïcödé text — with dashes and emoji 🙂",
    "word " * 300,  # past the model's 256-token window: both sides truncate the same way
)
MIN_COSINE = 0.9999


def test_infinity_vectors_agree_with_in_process_sentence_transformers(infinity_minilm: InfinityServer) -> None:
    answer = infinity_minilm.post("/embeddings", {"model": "minilm", "input": list(TEXTS), "encoding_format": "float"})
    data = sorted(answer["data"], key=lambda item: item["index"])  # type: ignore[arg-type, index]
    served = np.asarray([item["embedding"] for item in data], dtype=np.float64)
    local = SentenceTransformerEncoder(str(bundled_minilm_path()), device="cpu").encode(list(TEXTS), role="document").astype(np.float64)
    assert served.shape == local.shape == (len(TEXTS), 384)
    served /= np.linalg.norm(served, axis=1, keepdims=True)
    local /= np.linalg.norm(local, axis=1, keepdims=True)
    cosines = (served * local).sum(axis=1)
    worst = int(np.argmin(cosines))
    print(f"infinity vs sentence-transformers: min cosine {cosines.min():.8f}, max |difference| {np.abs(served - local).max():.3e}")
    assert cosines.min() >= MIN_COSINE, f"text {worst} ({TEXTS[worst][:40]!r}) has cosine {cosines[worst]:.6f}"
    # distinct texts stay distinct: the comparison is not between two constant outputs
    assert float(served[1] @ served[2]) < 0.9999 and float(served[0] @ served[7]) < 0.9


def test_eval_through_infinity_measures_as_in_process_dense(infinity_minilm: InfinityServer, tmp_path: Path) -> None:
    folder = write_build(tmp_path / "build", problems=6) / "t2c-description"
    served = f"http:{infinity_minilm.url}@minilm,api=openai"
    args = ["eval", str(folder), "--retriever", "dense", "--retriever", served, "--split", "all", "--cache-dir", str(tmp_path / "cache")]
    assert main([*args, "--out", str(tmp_path / "o"), "--no-progress"]) == 0
    systems = json.loads((tmp_path / "o" / "results.json").read_text())["systems"]
    assert sorted(systems) == ["dense-all-MiniLM-L6-v2", "dense-http-minilm"]
    assert systems["dense-http-minilm"]["metrics"] == systems["dense-all-MiniLM-L6-v2"]["metrics"]
    assert systems["dense-http-minilm"]["metrics"]["ndcg@10"]["mean"] > 0
