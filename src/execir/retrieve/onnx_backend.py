"""ONNX Runtime backend for a sentence-transformers model: export, int8 quantisation, and a drop-in backbone.

sentence-transformers 6.2's own ``backend="onnx"`` exports through ``optimum-onnx``, whose newest
release (0.1.0) requires ``transformers<4.58`` and fails to import under transformers 5.23
(``get_parameter_dtype`` is gone from ``transformers.modeling_utils``). So the transformer is
exported here with ``torch.onnx.export`` (the TorchScript exporter, eager attention, dynamic batch
and sequence axes) and run by onnxruntime; int8 is onnxruntime's dynamic quantisation
(``quantize_dynamic``: symmetric per-channel int8 weights, activations quantised per batch at run
time), what sentence-transformers' ``export_dynamic_quantized_onnx_model`` applies through optimum's
``avx512_vnni`` configuration. Per-channel weights matter: per-tensor ones cost MiniLM about 0.04
cosine to the torch vectors, per-channel ones about 0.006.

Only the transformer runs in onnxruntime: tokenisation, pooling and normalisation stay the
sentence-transformers modules, so the ONNX model encodes exactly like the torch one up to
floating-point rounding. Exports are written atomically under
``<cache>/onnx/<model name>-<fingerprint>/`` (``model.onnx``, ``model_int8.onnx``) and reused.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from execir.errors import MissingDependencyError

INSTALL_HINT = "pip install 'execir[onnx]' (onnx==1.23.2, onnxruntime==1.31.1)"
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OPSET = 17


def export_dir(root: Path, name: str, fingerprint: str) -> Path:
    """Where one model's exports live (keyed by the weights' fingerprint)."""
    return root / f"{name}-{fingerprint.rsplit(':', 1)[-1][:16]}"


class _Exportable(torch.nn.Module):
    """The transformer called with keyword inputs, returning its last hidden state."""

    def __init__(self, model: torch.nn.Module, names: tuple[str, ...]) -> None:
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        return self.model(**dict(zip(self.names, inputs)), return_dict=True).last_hidden_state


def _atomic(path: Path, write: Callable[[Path], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{uuid.uuid4().hex}.onnx")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def export_transformer(st_model: Any, path: Path) -> None:
    """Export ``st_model``'s transformer (its first module) to ONNX at ``path`` (atomically)."""
    _require()
    transformer = st_model[0]
    hf = transformer.model
    sample = transformer.tokenizer(["def f(x):", "return x + 1 if x else None"], return_tensors="pt", padding=True)
    names = tuple(n for n in INPUTS if n in sample)
    if hasattr(hf, "set_attn_implementation"):
        hf.set_attn_implementation("eager")  # the TorchScript exporter traces eager attention faithfully
    wrapper = _Exportable(hf, names).eval()
    axes = {n: {0: "batch", 1: "sequence"} for n in (*names, "last_hidden_state")}

    def write(tmp: Path) -> None:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on shape-dependent Python branches (the masks are dynamic inputs)
            args = tuple(sample[n] for n in names)
            torch.onnx.export(
                wrapper, args, str(tmp), input_names=list(names), output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=OPSET, dynamo=False
            )

    _atomic(path, write)
    hf.eval()


def quantize_int8(source: Path, path: Path) -> None:
    """Dynamic int8 quantisation of the ONNX model at ``source`` into ``path`` (atomically)."""
    _require()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    _atomic(path, lambda tmp: quantize_dynamic(str(source), str(tmp), weight_type=QuantType.QInt8, per_channel=True))


def _require() -> None:
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError(f"the ONNX backend needs onnx and onnxruntime: {INSTALL_HINT}") from exc


class OrtBackbone(torch.nn.Module):
    """Stands in for the Hugging Face model inside a sentence-transformers ``Transformer`` module:
    same keyword inputs, ``last_hidden_state`` computed by an onnxruntime session."""

    def __init__(self, path: Path, config: Any) -> None:
        super().__init__()
        import onnxruntime as ort

        self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        self.inputs = tuple(i.name for i in self.session.get_inputs())
        self.config = config

    def forward(self, **features: Any) -> dict[str, torch.Tensor]:
        feed = {n: np.asarray(features[n].cpu().numpy(), dtype=np.int64) for n in self.inputs}
        (hidden,) = self.session.run(["last_hidden_state"], feed)
        return {"last_hidden_state": torch.from_numpy(hidden)}


def load_onnx(st_model: Any, root: Path, name: str, fingerprint: str, quantize: str | None) -> Path:
    """Swap ``st_model``'s transformer for onnxruntime (exporting and quantising once); returns the ONNX file used."""
    folder = export_dir(root, name, fingerprint)
    fp32 = folder / "model.onnx"
    if not fp32.is_file():
        export_transformer(st_model, fp32)
    used = fp32
    if quantize == "int8":
        used = folder / "model_int8.onnx"
        if not used.is_file():
            quantize_int8(fp32, used)
    transformer = st_model[0]
    transformer.model = OrtBackbone(used, transformer.model.config)
    return used
