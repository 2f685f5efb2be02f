"""Rerank specs: one string names a fully configured reranker (or a chain of them).

Grammar::

    ce:<model>[@<rev>]     a cross-encoder: a hub id (optionally pinned to a branch, tag or commit)
                           or a local model directory
    llm:<model>[@<rev>]    a causal language model scoring relevance, hub id or local directory
    api:<provider>/<model> a hosted rerank API: cohere, jina or voyage (key in $CO_API_KEY,
                           $JINA_API_KEY or $VOYAGE_API_KEY), scores cached under the cache root
    http:<url>[@<model>][,api=infinity|cohere|tei][,batch=N]
                           a self-hosted /rerank endpoint (Infinity, a Cohere-compatible server,
                           text-embeddings-inference); scores cached by server URL and model
    exec                   the execution reranker: candidates that pass the query's examples first,
                           the largest group that agrees on probe inputs first among them
    exec:plain             the same, two groups only: pass every example or not
    fuse:<w>:<spec>        ``<spec>``'s scores interpolated with the first stage's, each standardised
                           per query: ``w`` of the reranker, ``1 - w`` of the first stage;
                           ``fuse:<w>,<task>=<w>,...:<spec>`` gives some tasks their own weight
    <spec>+<spec>+...      a chain: the stages as sort keys, left first (``exec+ce:<model>``)

A model argument that starts with ``/``, ``./``, ``../`` or ``~`` is a local directory and must
exist; a local directory that exists is never split at ``@``. The implementations are imported
only when a spec names them, so a missing optional dependency fails for that spec alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from execir.errors import ExecIRError
from execir.execute import OracleConfig
from execir.rerank.base import Reranker
from execir.rerank.chain import RerankChain

RERANK_SPEC_FORMS = (
    "ce:<model id or local path>[@<revision>]",
    "llm:<model id or local path>[@<revision>]",
    "api:cohere|jina|voyage/<model>",
    "http:<url>[@<model>][,api=infinity|cohere|tei][,batch=N]",
    "exec",
    "exec:plain",
    "fuse:<weight 0..1>[,<task>=<weight>...]:<spec>",
    "<spec>+<spec>+...",
)

RERANK_SPEC_HELP = """rerank specs (--rerank, repeatable; each reranks every retriever's top --depth):
  ce:<model id>[@<revision>]    a cross-encoder from the hub, optionally pinned (e.g. ce:BAAI/bge-reranker-base)
  ce:<local path>               a cross-encoder model directory (/..., ./..., ../..., ~/...)
  llm:<model id or path>[@rev]  a causal language model judging relevance (e.g. llm:Qwen/Qwen2.5-0.5B-Instruct)
  api:<provider>/<model>        a hosted rerank API: api:cohere/rerank-v3.5 ($CO_API_KEY), api:jina/<model>
                                ($JINA_API_KEY), api:voyage/rerank-2.5 ($VOYAGE_API_KEY); scores cached
  http:<url>[@<model>][,api=...] a self-hosted /rerank endpoint: api=infinity (default; raw scores),
                                api=cohere (Cohere-compatible servers) or api=tei; batch=N documents a call
                                (e.g. http:http://127.0.0.1:7997@my-ce)
  exec                          execution: candidates that pass the query's examples first; among them
                                the largest group agreeing on probe inputs made from the examples;
                                failing ones by the share of examples passed (verdicts cached;
                                --workers sandboxes)
  exec:plain                    execution, two groups (pass every example or not), each in the
                                retriever's order
  fuse:<w>:<spec>               <spec>'s scores fused with the first stage's: w * z(reranker) +
                                (1 - w) * z(first stage), z-scores over each query's candidates
                                (e.g. fuse:0.3:ce:models/mbpp-ce/soup); a task's own weight after
                                the default: fuse:0.9,c2t=0.3:ce:models/mbpp-ce/soup
  <spec>+<spec>+...             a chain used as sort keys, left first (e.g. exec+ce:BAAI/bge-reranker-base)"""
"""The grammar as shown by ``execir eval --help``."""


def _bad_spec(spec: str, why: str) -> ExecIRError:
    return ExecIRError(f"unknown rerank spec '{spec}' ({why}); valid forms: " + ", ".join(RERANK_SPEC_FORMS))


def _is_path_like(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or model in (".", "..")


def split_model(spec: str, model: str) -> tuple[str, str | None]:
    """``(model, revision)`` of a ``ce:``/``llm:`` argument; a local directory must exist."""
    revision = None
    if "@" in model and not Path(model).expanduser().exists():
        model, revision = model.rsplit("@", 1)
    if not model or revision == "":
        raise _bad_spec(spec, "needs a model and, after '@', a non-empty revision")
    if _is_path_like(model) and not Path(model).expanduser().is_dir():
        what = "is not a directory" if Path(model).expanduser().exists() else "does not exist"
        raise ExecIRError(f"reranker '{spec}': the model directory {model} {what}")
    return model, revision


def _model_reranker(kind: str, spec: str, arg: str, options: dict[str, Any]) -> Reranker:
    model, revision = split_model(spec, arg)
    options = {name: value for name, value in options.items() if name != "cache_dir"}  # models keep no score cache
    if kind == "ce":
        from execir.rerank.cross_encoder import CrossEncoderReranker

        return CrossEncoderReranker(model, revision=revision, **options)
    from execir.rerank.llm import LLMReranker

    return LLMReranker(model, revision=revision, **options)


def _single(spec: str, *, oracle_config: OracleConfig, options: dict[str, Any]) -> Reranker:
    kind, _, arg = spec.partition(":")
    if kind in ("api", "http"):
        from execir.rerank.api import hosted_reranker, http_reranker

        make = hosted_reranker if kind == "api" else http_reranker
        return make(spec, arg, cache_dir=options["cache_dir"], batch_size=options.get("batch_size"))
    if kind == "fuse":
        from execir.dataset.spec import TASK_SPECS
        from execir.rerank.fusion import FusionReranker, parse_weights

        weight, _, inner = arg.partition(":")
        inner = inner.strip()
        if not inner:
            raise _bad_spec(spec, "fuse needs a weight and a reranker: fuse:<weight 0..1>:<spec>")
        if inner.startswith("fuse:"):
            raise _bad_spec(spec, "a fusion of a fusion; give one weight")
        weights = parse_weights(weight, TASK_SPECS)
        if isinstance(weights, str):
            raise _bad_spec(spec, weights)
        return FusionReranker(_single(inner, oracle_config=oracle_config, options=options), weights)
    if spec in ("exec", "exec:plain"):
        from execir.rerank.execution.reranker import ExecReranker

        return ExecReranker(oracle_config, progress=options["progress"], plain=spec == "exec:plain")
    if kind in ("ce", "llm"):
        if not arg:
            raise _bad_spec(spec, f"{kind} needs a model: {kind}:<model id or local path>")
        return _model_reranker(kind, spec, arg, options)
    why = "exec takes no argument but 'plain'" if kind == "exec" else f"'{kind}' is not a reranker kind"
    raise _bad_spec(spec, why)


def get_reranker(
    spec: str,
    *,
    cache_dir: Path | None,
    oracle_config: OracleConfig,
    progress: bool,
    device: str | None = None,
    batch_size: int | None = None,
) -> Reranker:
    """Build the reranker named by ``spec`` (see the module docstring for the grammar).

    ``oracle_config`` runs the ``exec`` reranker; ``device`` and ``batch_size`` go to model
    rerankers (None: each implementation's own default; for ``api:``/``http:`` the most documents
    per call). ``cache_dir`` is the cache root for models' outputs: the rerank APIs keep their
    scores there (None: in memory only).
    """
    spec = spec.strip()
    if not spec:
        raise _bad_spec(spec, "empty spec")
    options: dict[str, Any] = {"device": device, "progress": progress, "cache_dir": cache_dir}
    if batch_size is not None:
        options["batch_size"] = batch_size
    parts = spec.split("+")
    if any(not part.strip() for part in parts):
        raise _bad_spec(spec, "a chain joins non-empty specs with '+'")
    stages = [_single(part.strip(), oracle_config=oracle_config, options=options) for part in parts]
    return stages[0] if len(stages) == 1 else RerankChain(stages)
