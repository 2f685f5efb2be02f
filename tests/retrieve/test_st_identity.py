from pathlib import Path

import pytest

from execir.errors import ExecIRError
from execir.model_identity import directory_fingerprint, resolve_hub_revision
from execir.retrieve.cache import namespace_of
from execir.retrieve.st import SentenceTransformerEncoder


def make_model_dir(root: Path, weights: bytes) -> Path:
    root.mkdir()
    (root / "sentence_bert_config.json").write_text('{"max_seq_length": 128}')
    (root / "model.safetensors").write_bytes(weights)
    return root


def test_fingerprint_tracks_content(tmp_path: Path) -> None:
    a = directory_fingerprint(make_model_dir(tmp_path / "a", b"\x00" * 1000))
    b = directory_fingerprint(make_model_dir(tmp_path / "b", b"\x00" * 999 + b"\x01"))
    c = directory_fingerprint(make_model_dir(tmp_path / "c", b"\x00" * 1000))
    assert a == c != b and a.startswith("sha256:")


def test_local_encoder_key_without_loading(tmp_path: Path) -> None:
    path = make_model_dir(tmp_path / "my-model", b"w")
    enc = SentenceTransformerEncoder(str(path))
    key = enc.cache_key("query")
    assert key["max_seq_length"] == 128 and key["revision"] == directory_fingerprint(path)
    assert enc.name == "my-model" and enc._model is None
    longer = SentenceTransformerEncoder(str(path), max_length=512).cache_key("query")
    assert namespace_of(key) != namespace_of(longer)
    e5 = SentenceTransformerEncoder(str(path), model_label="intfloat/e5-base-v2")
    assert e5.cache_key("query")["prompt"] == "query: "
    assert e5.cache_key("document")["prompt"] == "passage: "


def test_hub_revision_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("huggingface_hub")
    from huggingface_hub import constants

    sha = "0123456789abcdef0123456789abcdef01234567"
    assert resolve_hub_revision("org/model", sha) == sha
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(ExecIRError, match="not in the local cache"):
        resolve_hub_revision("org/model", None)
    refs = tmp_path / "models--org--model" / "refs"
    refs.mkdir(parents=True)
    (refs / "main").write_text(sha + "\n")
    assert resolve_hub_revision("org/model", None) == sha
