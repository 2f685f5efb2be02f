"""The argument of a ``dense`` retriever spec, split into model, revision, backend and vector index.

Grammar (after ``dense``)::

    [:<model>[@<revision>]][@onnx[,int8]][@faiss:<kind>[,<param>=<value>...]]

``@onnx`` and ``@faiss:`` are reserved suffixes: a hub revision cannot be called ``onnx`` or start
with ``faiss:``. A ``<model>`` that is an existing local directory is never split, whatever
``@`` it holds; suffixes after it still are (``dense:./my@model@faiss:hnsw``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from execir.errors import ExecIRError
from execir.retrieve.faiss_index import IndexSpec, parse_index_spec

ONNX_SUFFIX = "@onnx"
FAISS_SUFFIX = "@faiss:"
ONNX_OPTIONS = ("int8",)


@dataclass(frozen=True)
class DenseSpec:
    """What a ``dense`` spec names: the model (None: the bundled one), its revision, the encoding
    backend (``torch`` or ``onnx``), a quantisation of the ONNX graph and a vector index (None: exact search)."""

    model: str | None
    revision: str | None = None
    backend: str = "torch"
    quantize: str | None = None
    index: IndexSpec | None = None


def _split_model(model: str, spec: str) -> tuple[str, str | None]:
    """``(model, revision)``: a directory that exists is never split at ``@``."""
    if "@" not in model or Path(model).expanduser().exists():
        return model, None
    name, revision = model.rsplit("@", 1)
    if not name or not revision:
        raise ExecIRError(f"retriever '{spec}': a dense spec needs a model and a non-empty revision, got '{model}'")
    return name, revision


def _take_index(rest: str, spec: str) -> tuple[str, IndexSpec | None]:
    if Path(rest).expanduser().exists():
        return rest, None
    at = rest.rfind(FAISS_SUFFIX)
    if at < 0:
        return rest, None
    return rest[:at], parse_index_spec(rest[at + len(FAISS_SUFFIX) :], spec)


def _take_onnx(rest: str, spec: str) -> tuple[str, str | None, bool]:
    """``(rest, quantize, onnx)`` after removing a trailing ``@onnx[,<option>]``."""
    if Path(rest).expanduser().exists():
        return rest, None, False
    at = rest.rfind(ONNX_SUFFIX)
    tail = rest[at + len(ONNX_SUFFIX) :] if at >= 0 else None
    if tail is None or (tail and not tail.startswith(",")):
        return rest, None, False
    options = [o for o in tail.split(",") if o]
    unknown = [o for o in options if o not in ONNX_OPTIONS]
    if unknown or len(options) > 1:
        raise ExecIRError(f"retriever '{spec}': unknown @onnx option '{','.join(unknown or options)}' (valid: {', '.join(ONNX_OPTIONS)})")
    return rest[:at], options[0] if options else None, True


def parse_dense_spec(spec: str) -> DenseSpec:
    """Parse a whole ``dense...`` spec (``dense``, ``dense@faiss:hnsw``, ``dense:MODEL@REV@onnx,int8``...)."""
    if spec == "dense":
        return DenseSpec(None)
    if spec.startswith("dense:"):
        arg = spec[len("dense:") :]
        if not arg:
            raise ExecIRError(f"retriever '{spec}': empty model")
    elif spec.startswith("dense@"):
        arg = spec[len("dense") :]
    else:
        raise ExecIRError(f"retriever '{spec}' is not a dense spec")
    rest, index = _take_index(arg, spec)
    rest, quantize, onnx = _take_onnx(rest, spec)
    if rest.startswith("@"):
        raise ExecIRError(f"retriever '{spec}': unknown suffix '{rest}' (valid: @onnx[,int8], @faiss:<kind>[,param=value...])")
    if not rest:
        model, revision = None, None
    else:
        model, revision = _split_model(rest, spec)
    return DenseSpec(model, revision, "onnx" if onnx else "torch", quantize, index)
