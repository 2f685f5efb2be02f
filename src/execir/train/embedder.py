"""``train-embedder``: rows -> one fine-tuned bi-encoder per seed -> uniform soup -> dev metrics.

Output folder layout (as ``train-reranker``'s)::

    OUT/training.json   the resolved configuration, base identity, data provenance, row counts,
                        time and peak memory per seed, dev metrics
    OUT/seed-<s>/       seed s's sentence-transformers model (LoRA merged) with execir.json;
                        OUT/seed-<s>/checkpoint/ while it trains
    OUT/soup/           the uniform average of the seeds' weights (two or more seeds, --soup uniform)
    OUT/model/          the final model (the soup, else the single seed): what ``dense:OUT/model`` loads

Every model folder loads with ``SentenceTransformer(path)``; its ``execir.json`` names the base,
so a report can pair the trained model with the model it started from.
"""

from __future__ import annotations

import hashlib
import json
import resource
import shutil
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execir import __version__
from execir.dataset.files import atomic_write_bytes, json_bytes
from execir.errors import ExecIRError
from execir.train.data import Folder, load_folders
from execir.train.dev import DevMetrics, mean_metrics
from execir.train.embedder_config import EmbedderRunConfig, EmbedderSettings
from execir.train.embedder_loop import embedder_loop
from execir.train.embedder_prompts import model_prompts, task_query_prompt
from execir.train.embedder_rows import Row, RowCounts, build_rows, rows_digest
from execir.train.loop import LoopPlan
from execir.train.model import MODEL_INFO, BaseIdentity, is_complete, local_weights_sha256, read_info, require_training_stack
from execir.train.pairs import EasyPool, PairSource
from execir.train.pipeline import CHECKPOINT, FINAL, SOUP, TRAINING_JSON, check_out, determinism, device_for, link_model, versions
from execir.train.soup import uniform_soup

MODEL_KIND = "bi-encoder"
DEV_DEPTH = 100
BATCH_GUARD = "problem-disjoint: no two rows of a batch share a problem (anchor, positive or negative) or a text"


@dataclass(frozen=True)
class EmbedderSeedRun:
    """One seed's training: where its model is, its loop's counts and times, and the process's peak memory after it."""

    seed: int
    path: Path
    steps: int
    epoch_seconds: tuple[float, ...]
    epoch_mean_loss: tuple[float, ...]
    resumed_at: int | None
    peak_rss_mb: float | None
    counts: RowCounts = field(default_factory=RowCounts)

    def to_json(self) -> dict[str, Any]:
        """The run as JSON values."""
        return {
            "seed": self.seed,
            "path": self.path.name,
            "steps": self.steps,
            "epoch_seconds": [round(s, 3) for s in self.epoch_seconds],
            "seconds": round(sum(self.epoch_seconds), 3),
            "epoch_mean_loss": [round(v, 6) for v in self.epoch_mean_loss],
            "resumed_at": self.resumed_at,
            "peak_rss_mb": self.peak_rss_mb,
        }


@dataclass(frozen=True)
class EmbedderResult:
    """What a run produced; ``finished`` is False when it stopped early (``stop_after``) and can be resumed."""

    out: Path
    final: Path | None
    seeds: tuple[EmbedderSeedRun, ...]
    counts: RowCounts
    dev: dict[str, list[DevMetrics]]
    seconds: float
    finished: bool
    soup_seeds: tuple[int, ...] = ()


def seed_rows(folders: Sequence[Folder], seed: int, settings: EmbedderSettings) -> tuple[list[Row], RowCounts]:
    """Every folder's training rows for ``seed``, concatenated in folder order (easy negatives of
    rows without hard ones come from the same folder's training problems)."""
    rows: list[Row] = []
    counts = RowCounts()
    for folder in folders:
        prompt = task_query_prompt(folder.task, settings.prompts)
        folder_rows, folder_counts = build_rows(
            folder.train,
            seed=seed,
            negatives=settings.negatives,
            pool=EasyPool(folder.train, folder.train.problems),
            anchor_prompt=prompt,
            self_positive=settings.self_positives and bool(prompt),  # a bare query is its own program's nearest text already
            mirror=settings.mirror_rows,
        )
        rows += folder_rows
        counts = counts + folder_counts
    return rows, counts


def fingerprint(settings: EmbedderSettings, seed: int, rows: Sequence[Row]) -> str:
    """What decides a seed's weights: settings, seed and the rows."""
    data = {"kind": MODEL_KIND, "settings": settings.to_json(), "seed": seed, "rows": rows_digest(rows)}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def load_embedder_base(settings: EmbedderSettings, *, seed_for_lora: int, device: str) -> tuple[Any, BaseIdentity, int]:
    """(SentenceTransformer, identity, the base's own max_seq_length) of the base, truncating at
    ``settings.max_length``; with LoRA, adapters on its transformer drawn under ``seed_for_lora``."""
    import torch
    from sentence_transformers import SentenceTransformer

    local = Path(settings.base).expanduser()
    if settings.base.startswith(("/", "./", "../", "~")) and not local.is_dir():
        raise ExecIRError(f"base model {settings.base}: not a directory")
    try:
        model = SentenceTransformer(settings.base, revision=settings.revision, device=device)
    except OSError as exc:
        raise ExecIRError(f"cannot load base model '{settings.base}': {exc}") from None
    own_length = int(model.max_seq_length or settings.max_length)
    model.max_seq_length = settings.max_length
    identity = BaseIdentity(settings.base, settings.revision, None, local_weights_sha256(local) if local.is_dir() else None)
    if settings.mode == "lora":
        torch.manual_seed(seed_for_lora)
        add_embedder_lora(model, settings)
    return model, identity, own_length


def add_embedder_lora(model: Any, settings: EmbedderSettings) -> None:
    """Wrap the model's transformer with LoRA adapters (peft, task FEATURE_EXTRACTION), in place."""
    from peft import LoraConfig, TaskType, get_peft_model

    lora = settings.lora
    targets: list[str] | str | None = list(lora.targets) if isinstance(lora.targets, tuple) else lora.targets
    config = LoraConfig(task_type=TaskType.FEATURE_EXTRACTION, r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout, target_modules=targets)
    try:
        with warnings.catch_warnings():  # peft reads transformers' deprecated is_gradient_checkpointing
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
            model[0].model = get_peft_model(model[0].model, config)
    except ValueError as exc:
        raise ExecIRError(f"LoRA: {exc} (pass --lora-targets with the model's linear layer names, or all-linear)") from None


def merge_embedder_lora(model: Any) -> Any:
    """The model with LoRA adapters merged into its transformer (a fully trained model as is)."""
    from peft import PeftModel

    if isinstance(model[0].model, PeftModel):
        model[0].model = model[0].model.merge_and_unload()
    return model


def save_embedder(model: Any, out: Path, info: dict[str, Any]) -> None:
    """A SentenceTransformer-loadable folder, then ``execir.json`` (written last: a folder without it is incomplete)."""
    stale = out / MODEL_INFO
    if stale.exists():
        stale.unlink()
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out), create_model_card=False)
    atomic_write_bytes(out / MODEL_INFO, json_bytes({"model_type": MODEL_KIND, "max_length": model.max_seq_length, **info}))


def peak_rss_mb() -> float | None:
    """The process's peak resident memory so far in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def train_embedder(config: EmbedderRunConfig, *, stop_after: int | None = None) -> EmbedderResult:
    """Train one bi-encoder per seed, soup them, evaluate on dev and write ``training.json``.

    ``stop_after`` stops each unfinished seed after that many updates (checkpoint written) and
    returns an unfinished result; a later call with ``resume=True`` continues."""
    require_training_stack()
    check_out(config.out, resume=config.resume)
    started = time.perf_counter()
    folders = load_folders(config.datasets, split=config.split, dev_split=config.dev_split, tasks=config.tasks)
    runtime = {**determinism(config.threads), "device": device_for(config.device)}
    runs: list[EmbedderSeedRun] = []
    identity: BaseIdentity | None = None
    for seed in config.seeds:
        run, seed_identity = _train_seed(config, folders, seed, runtime["device"], stop_after)
        identity = identity or seed_identity
        if run is None:
            return EmbedderResult(config.out, None, tuple(runs), runs[-1].counts if runs else RowCounts(), {}, time.perf_counter() - started, finished=False)
        runs.append(run)
    souped = config.soup == "uniform" and len(runs) > 1
    final = config.out / SOUP if souped else runs[0].path
    if souped:
        _write_soup([r.path for r in runs], final, {**_provenance(config, folders, identity), "kind": "soup", "soup": config.soup, "seeds": list(config.seeds)})
    link_model(final, config.out / FINAL)
    devs = [(f.dev, task_query_prompt(f.task, config.settings.prompts)) for f in folders if f.dev is not None and f.dev.queries]
    evaluated = [*(r.path for r in runs), *([final] if souped else [])]
    dev = {path.name: evaluate_embedder(path, devs, device=runtime["device"], batch_size=config.eval_batch_size) for path in evaluated} if devs else {}
    result = EmbedderResult(
        config.out, config.out / FINAL, tuple(runs), runs[-1].counts, dev, time.perf_counter() - started, True, tuple(config.seeds) if souped else ()
    )
    atomic_write_bytes(config.out / TRAINING_JSON, json_bytes(_training_json(config, folders, result, identity, runtime)))
    return result


def _provenance(config: EmbedderRunConfig, folders: Sequence[Folder], identity: BaseIdentity | None) -> dict[str, Any]:
    return {
        "toolkit": {"name": "execir", "version": __version__},
        "model_type": MODEL_KIND,
        "base": identity.to_json() if identity else {"model": config.settings.base},
        "prompts": model_prompts((f.task for f in folders), config.settings.prompts),
        "settings": config.settings.to_json(),
        "split": config.split,
        "datasets": [{"path": str(f.path), "name": f.name, "manifest_sha256": f.manifest_sha256} for f in folders],
    }


def _train_seed(
    config: EmbedderRunConfig, folders: Sequence[Folder], seed: int, device: str, stop_after: int | None
) -> tuple[EmbedderSeedRun | None, BaseIdentity]:
    """Train (or, when already saved, read back) one seed's model; None when stopped early."""
    settings = config.settings
    rows, counts = seed_rows(folders, seed, settings)
    if not rows:
        raise ExecIRError(f"no training rows in split '{config.split}' ({counts.queries} queries, {counts.queries_without_positive} without a positive)")
    path, seed_print = config.out / f"seed-{seed}", fingerprint(settings, seed, rows)
    if config.resume and is_complete(path):
        info = read_info(path)
        if info.get("fingerprint") != seed_print:
            raise ExecIRError(f"{path}: trained with other settings or data; start a new output folder")
        loop = info["loop"]
        wanted = config.retrieval_max_length
        if wanted is not None and info.get("max_length") != wanted:
            raise ExecIRError(f"{path}: saved to retrieve at {info.get('max_length')} tokens, not --retrieval-max-length {wanted}; start a new output folder")
        run = EmbedderSeedRun(
            seed, path, loop["steps"], tuple(loop["epoch_seconds"]), tuple(loop["epoch_mean_loss"]), loop["resumed_at"], loop.get("peak_rss_mb"), counts
        )
        return run, BaseIdentity.of(info["base"])
    model, identity, own_length = load_embedder_base(settings, seed_for_lora=settings.init_seed, device=device)
    plan = LoopPlan(path / CHECKPOINT, seed_print, config.checkpoint_every, config.resume, stop_after, config.progress)
    result = embedder_loop(model, rows, settings, seed=seed, device=device, plan=plan)
    if not result.finished:
        return None, identity
    run = EmbedderSeedRun(seed, path, result.steps, result.epoch_seconds, result.epoch_mean_loss, result.resumed_at, peak_rss_mb(), counts)
    info = {**_provenance(config, folders, identity), "kind": "seed", "seed": seed, "fingerprint": seed_print, "loop": run.to_json()}
    model.max_seq_length = config.retrieval_max_length or own_length  # training's truncation is not retrieval's
    save_embedder(merge_embedder_lora(model).to("cpu"), path, info)
    shutil.rmtree(path / CHECKPOINT, ignore_errors=True)
    return run, identity


def _write_soup(paths: Sequence[Path], out: Path, info: dict[str, Any]) -> None:
    from sentence_transformers import SentenceTransformer

    models = [SentenceTransformer(str(p), device="cpu") for p in paths]
    models[0].load_state_dict(uniform_soup([m.state_dict() for m in models]))
    save_embedder(models[0], out, info)


def dense_run(model: Any, source: PairSource, *, batch_size: int, depth: int = DEV_DEPTH, query_prompt: str = "") -> dict[str, dict[str, float]]:
    """Each query's ``depth`` best documents of the split's corpus by cosine similarity (never the query's own id)."""
    import numpy as np

    queries, docs = sorted(source.queries), sorted(source.corpus)
    encode = {"batch_size": batch_size, "normalize_embeddings": True, "convert_to_numpy": True, "show_progress_bar": False}
    q = model.encode([query_prompt + source.queries[i] for i in queries], **encode)
    d = model.encode([source.corpus[i] for i in docs], **encode)
    scores = np.asarray(q) @ np.asarray(d).T
    run: dict[str, dict[str, float]] = {}
    for i, query_id in enumerate(queries):
        order = sorted(range(len(docs)), key=lambda j: (-float(scores[i, j]), docs[j]))
        ranked = [j for j in order if docs[j] != query_id][:depth]
        run[query_id] = {docs[j]: float(scores[i, j]) for j in ranked}
    return run


def evaluate_embedder(path: Path, devs: Sequence[tuple[PairSource, str]], *, device: str | None, batch_size: int) -> list[DevMetrics]:
    """Load ``path`` as a SentenceTransformer and compute exec@1, exec@10, nDCG@10 on every dev folder
    (dense retrieval over the split's corpus, each folder's queries under its query prompt)."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(path), device=device)
    results = []
    for dev, query_prompt in devs:
        run = dense_run(model, dev, batch_size=batch_size, query_prompt=query_prompt)
        qrels = {q: dev.qrels.get(q, {}) for q in dev.queries}
        results.append(DevMetrics(dev.folder, len(qrels), len(dev.corpus), mean_metrics(qrels, run)))
    return results


def _training_json(
    config: EmbedderRunConfig, folders: Sequence[Folder], result: EmbedderResult, identity: BaseIdentity | None, runtime: dict[str, Any]
) -> dict[str, Any]:
    problems = sorted(set().union(*(f.train.problems for f in folders)))
    return {
        **_provenance(config, folders, identity),
        "dev_split": config.dev_split,
        "batch_guard": BATCH_GUARD,
        "folders": [f.to_json() for f in folders],
        "training_problems": {"count": len(problems), "ids": problems},
        "rows": result.counts.to_json(),
        "seeds": [r.to_json() for r in result.seeds],
        "soup": config.soup,
        "soup_seeds": list(result.soup_seeds),
        "final_model": {"path": FINAL, "source": SOUP if result.soup_seeds else result.seeds[0].path.name},
        "checkpoint_every": config.checkpoint_every,
        "runtime": runtime,
        "versions": versions(),
        "seconds": {"total": round(result.seconds, 3), "training": round(sum(sum(r.epoch_seconds) for r in result.seeds), 3)},
        "dev": {name: [m.to_json() for m in metrics] for name, metrics in result.dev.items()},
    }
