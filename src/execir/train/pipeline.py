"""``train-reranker``: pairs -> one fine-tuned cross-encoder per seed -> uniform soup -> dev metrics.

Output folder layout::

    OUT/training.json        the resolved configuration, data provenance, pair counts, times, dev metrics
    OUT/trunk/               with --trunk-epochs K: the first K epochs, trained once under the first seed;
                             every seed starts from it (its checkpoint/ too while it trains)
    OUT/seed-<s>/            seed s's model (LoRA merged), CrossEncoder-loadable, with execir.json;
                             OUT/seed-<s>/checkpoint/ while it trains (removed once the model is saved)
    OUT/soup/                the uniform average of the seeds' weights (two or more seeds, --soup uniform),
                             or of the seeds the greedy soup kept (--soup greedy: the best seed on dev,
                             then each other seed whose addition does not lower the dev score)
    OUT/soup-trial/          while the greedy soup scores a candidate average (removed afterwards)
    OUT/model/               the final model (the soup, else the single seed), hard links to its files:
                             what ``ce:OUT/model`` loads
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from execir import __version__
from execir.dataset.files import atomic_write_bytes, json_bytes
from execir.errors import ExecIRError
from execir.train.config import RunConfig, TrainSettings
from execir.train.data import Folder, load_folders, mine_rankings
from execir.train.dev import SOUP_MEASURES, DevMetrics, DevSet, evaluate_model, soup_score
from execir.train.groups import Group, GroupShape, build_groups
from execir.train.loop import LoopPlan, LoopResult, train_loop
from execir.train.model import MODEL_INFO, BaseIdentity, add_lora, is_complete, load_base, merged, read_info, require_training_stack, save_model
from execir.train.pairs import PAIR_ORDER, PairCounts, build_pairs, dev_candidates
from execir.train.soup import GreedySoup, greedy_soup, uniform_soup

TRAINING_JSON = "training.json"
FINAL = "model"
SOUP = "soup"
SOUP_TRIAL = "soup-trial"
TRUNK = "trunk"
CHECKPOINT = "checkpoint"
DEV_SEED = 0


@dataclass(frozen=True)
class SeedRun:
    """One seed's training: where its model is, and its loop's counts and times."""

    seed: int
    path: Path
    steps: int
    epoch_seconds: tuple[float, ...]
    epoch_mean_loss: tuple[float, ...]
    resumed_at: int | None
    counts: PairCounts = field(default_factory=PairCounts)
    """The training items it was given."""

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
        }


@dataclass(frozen=True)
class TrainingResult:
    """What a run produced; ``finished`` is False when it stopped early (``stop_after``) and can be resumed."""

    out: Path
    final: Path | None
    seeds: tuple[SeedRun, ...]
    counts: PairCounts
    dev: dict[str, list[DevMetrics]]
    """model name (``seed-0``, ``soup``) -> its metrics per folder."""
    seconds: float
    finished: bool
    soup_seeds: tuple[int, ...] = ()
    """The seeds averaged into OUT/soup (empty when there is no soup)."""
    greedy: GreedySoup[int] | None = None
    """The greedy soup's trials (``--soup greedy``), by seed."""
    trunk: SeedRun | None = None
    """The shared first epochs (``--trunk-epochs``), when trained."""


@dataclass(frozen=True)
class SeedJob:
    """What one model's training needs: its seed, settings (epochs, base), where it is saved, the
    model it starts from (with its hub revision) and, for a seed branched from a trunk, the trunk's
    fingerprint."""

    seed: int
    settings: TrainSettings
    path: Path
    start: str
    revision: str | None = None
    kind: str = "seed"
    trunk: str | None = None

    def fingerprint(self, items: Sequence[Group]) -> str:
        """What decides this model's weights (a resumed checkpoint or a saved model must match it)."""
        return fingerprint(self.settings, self.seed, items, trunk=self.trunk)


def pair_digest(items: Sequence[Group]) -> str:
    """sha256 of the items' pairs (identities and labels) and of where each group ends (part of a
    checkpoint's fingerprint)."""
    digest = hashlib.sha256()
    for item in items:
        for p in item:
            digest.update(f"{p.folder}\t{p.query_id}\t{p.doc_id}\t{p.label}\t{p.kind}\n".encode())
        if len(item) > 1:
            digest.update(b"--\n")
    return digest.hexdigest()


def fingerprint(settings: TrainSettings, seed: int, items: Sequence[Group], *, trunk: str | None = None) -> str:
    """What decides a seed's weights: settings, seed, training items and the trunk it starts from."""
    data: dict[str, Any] = {"settings": settings.to_json(), "seed": seed, "pairs": pair_digest(items)}
    if trunk is not None:
        data["trunk"] = trunk
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


Rankings = dict[str, dict[str, tuple[str, ...]]]
"""folder name -> query id -> a first stage's ranking, best first."""


def seed_items(
    folders: Sequence[Folder], seed: int, settings: TrainSettings, mined: Rankings, mined_easy: Rankings | None = None
) -> tuple[list[Group], PairCounts]:
    """Every folder's training items for ``seed``, concatenated in folder order: one-pair groups
    (pointwise recipe) or a positive with its negatives (``settings.loss == "listwise"``)."""
    items: list[Group] = []
    counts = PairCounts()
    for folder in folders:
        easy = mined_easy.get(folder.name) if mined_easy is not None else None
        if settings.loss == "listwise":
            shape = GroupShape(hard=settings.group_hard, easy=settings.group_easy, text=settings.group_text)
            folder_items, folder_counts = build_groups(folder.train, seed=seed, shape=shape, mined=mined.get(folder.name), mined_easy=easy)
        else:
            folder_pairs, folder_counts = build_pairs(folder.train, seed=seed, mined=mined.get(folder.name), mined_easy=easy)
            folder_items = [(p,) for p in folder_pairs]
        items += folder_items
        counts = counts + folder_counts
    return items, counts


def check_out(out: Path, *, resume: bool) -> None:
    """Refuse an output path that is a file, or a non-empty folder unless resuming."""
    if out.exists() and not out.is_dir():
        raise ExecIRError(f"--out {out} is a file")
    if out.is_dir() and any(out.iterdir()) and not resume:
        raise ExecIRError(f"--out {out} is not empty; pass --resume to continue its training, or choose a new folder")


def determinism(threads: int | None) -> dict[str, Any]:
    import torch

    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    if threads is not None:
        torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    return {"threads": torch.get_num_threads(), "deterministic_algorithms": True}


def device_for(requested: str | None) -> str:
    import torch

    return requested or ("cuda" if torch.cuda.is_available() else "cpu")


def train_reranker(config: RunConfig, *, stop_after: int | None = None) -> TrainingResult:
    """Train one model per seed, soup them, evaluate on dev and write ``training.json``.

    ``stop_after`` stops each unfinished seed after that many updates (checkpoint written) and
    returns an unfinished result; a later call with ``resume=True`` continues."""
    require_training_stack()
    check_out(config.out, resume=config.resume)
    started = time.perf_counter()
    folders = load_folders(config.datasets, split=config.split, dev_split=config.dev_split, tasks=config.tasks)
    rankings: dict[str, Rankings] = {}
    mined = _mined(folders, config, config.settings.hard_negatives, rankings)
    mined_easy = _mined(folders, config, config.settings.easy_negatives, rankings) or None
    runtime = {**determinism(config.threads), "device": device_for(config.device)}
    runs: list[SeedRun] = []
    identity: BaseIdentity | None = None
    trunk: SeedRun | None = None
    settings = config.settings
    jobs = [SeedJob(seed, settings, config.out / f"seed-{seed}", settings.base, settings.revision) for seed in config.seeds]
    if config.trunk_epochs:
        trunk_job = SeedJob(config.seeds[0], replace(settings, epochs=config.trunk_epochs), config.out / TRUNK, settings.base, settings.revision, kind="trunk")
        trunk, identity, trunk_print = _train_job(config, folders, trunk_job, mined, mined_easy, runtime["device"], stop_after)
        if trunk is None:
            return TrainingResult(config.out, None, (), PairCounts(), {}, time.perf_counter() - started, finished=False)
        branch = replace(settings, epochs=settings.epochs - config.trunk_epochs)
        jobs = [replace(job, settings=branch, start=str(trunk.path), revision=None, trunk=trunk_print) for job in jobs]
    for job in jobs:
        run, seed_identity, _ = _train_job(config, folders, job, mined, mined_easy, runtime["device"], stop_after)
        identity = identity or seed_identity
        if run is None:
            return TrainingResult(config.out, None, tuple(runs), _counts(runs), {}, time.perf_counter() - started, finished=False, trunk=trunk)
        runs.append(run)
    devs = _dev_sets(config, folders)
    evaluated = [trunk, *runs] if trunk is not None else runs
    seed_dev = {r.path.name: _evaluate(config, r.path, devs, runtime["device"]) for r in evaluated} if devs else {}
    greedy: GreedySoup[int] | None = None
    soup_dev: list[DevMetrics] | None = None
    if _souped(config, runs) and config.soup == "greedy":
        greedy, soup_dev = _greedy(config, runs, identity, folders, devs, seed_dev, runtime["device"])
    members = tuple(runs) if greedy is None else tuple(r for seed in greedy.members for r in runs if r.seed == seed)
    final = _finish_models(config, runs, members, identity, folders)
    dev = dict(seed_dev)
    if devs and _souped(config, runs):
        dev[SOUP] = soup_dev if soup_dev is not None else _evaluate(config, config.out / SOUP, devs, runtime["device"])
    soup_seeds = tuple(r.seed for r in members) if _souped(config, runs) else ()
    result = TrainingResult(
        config.out, final, tuple(runs), _counts(runs), dev, time.perf_counter() - started, finished=True, soup_seeds=soup_seeds, greedy=greedy, trunk=trunk
    )
    atomic_write_bytes(config.out / TRAINING_JSON, json_bytes(_training_json(config, folders, result, identity, runtime)))
    return result


def _mined(folders: Sequence[Folder], config: RunConfig, spec: str, done: dict[str, Rankings]) -> Rankings:
    """Every folder's rankings by the retriever of a ``mined:<spec>`` setting ({} for other
    settings); ``done`` keeps them by spec so hard and easy negatives mined alike search once."""
    if not spec.startswith("mined:"):
        return {}
    retriever = spec.removeprefix("mined:")
    if retriever not in done:
        done[retriever] = {f.name: mine_rankings(f, retriever, device=config.device, progress=config.progress) for f in folders}
    return done[retriever]


def _provenance(config: RunConfig, folders: Sequence[Folder], identity: BaseIdentity | None) -> dict[str, Any]:
    return {
        "toolkit": {"name": "execir", "version": __version__},
        "base": identity.to_json() if identity else {"model": config.settings.base},
        "settings": config.settings.to_json(),
        "split": config.split,
        "datasets": [{"path": str(f.path), "name": f.name, "manifest_sha256": f.manifest_sha256} for f in folders],
    }


def _train_job(
    config: RunConfig, folders: Sequence[Folder], job: SeedJob, mined: Rankings, mined_easy: Rankings | None, device: str, stop_after: int | None
) -> tuple[SeedRun | None, BaseIdentity, str]:
    """Train (or, when already saved, read back) one model; None when stopped early. Also returns the
    identity of the model it started from and its fingerprint."""
    items, counts = seed_items(folders, job.seed, job.settings, mined, mined_easy)
    if not items:
        raise ExecIRError(f"no training pairs in split '{config.split}' ({counts.queries} queries, {counts.queries_without_positive} without a positive)")
    settings, path, job_print = job.settings, job.path, job.fingerprint(items)
    if config.resume and is_complete(path):
        info = read_info(path)
        if info.get("fingerprint") != job_print:
            raise ExecIRError(f"{path}: trained with other settings or data; start a new output folder")
        done = info["loop"]
        saved = SeedRun(job.seed, path, done["steps"], tuple(done["epoch_seconds"]), tuple(done["epoch_mean_loss"]), done["resumed_at"], counts)
        return saved, BaseIdentity.of(info["base"]), job_print
    model, tokenizer, identity = load_base(job.start, revision=job.revision, init_seed=settings.init_seed_for(job.seed))
    if settings.mode == "lora":
        model = add_lora(model, settings.lora)
    plan = LoopPlan(path / CHECKPOINT, job_print, config.checkpoint_every, config.resume, stop_after, config.progress)
    loop: LoopResult = train_loop(model, tokenizer, items, settings, seed=job.seed, device=device, plan=plan)
    if not loop.finished:
        return None, identity, job_print
    run = SeedRun(job.seed, path, loop.steps, loop.epoch_seconds, loop.epoch_mean_loss, loop.resumed_at, counts)
    info = {
        **_provenance(config, folders, identity),
        "kind": job.kind,
        "seed": job.seed,
        "fingerprint": job_print,
        **({"trunk": {"path": TRUNK, "fingerprint": job.trunk, "epochs": config.trunk_epochs}} if job.trunk else {}),
        "loop": {"steps": run.steps, "epoch_seconds": list(run.epoch_seconds), "epoch_mean_loss": list(run.epoch_mean_loss), "resumed_at": run.resumed_at},
    }
    save_model(merged(model).to("cpu"), tokenizer, path, max_length=settings.max_length, info=info)
    shutil.rmtree(path / CHECKPOINT, ignore_errors=True)
    return run, identity, job_print


def _souped(config: RunConfig, runs: Sequence[SeedRun]) -> bool:
    return config.soup in ("uniform", "greedy") and len(runs) > 1


def _soup_info(config: RunConfig, folders: Sequence[Folder], identity: BaseIdentity | None, members: Sequence[SeedRun]) -> dict[str, Any]:
    return {**_provenance(config, folders, identity), "kind": "soup", "soup": config.soup, "seeds": [r.seed for r in members]}


def _greedy(
    config: RunConfig,
    runs: Sequence[SeedRun],
    identity: BaseIdentity | None,
    folders: Sequence[Folder],
    devs: Sequence[DevSet],
    seed_dev: dict[str, list[DevMetrics]],
    device: str,
) -> tuple[GreedySoup[int], list[DevMetrics]]:
    """The greedy soup's choice of seeds, and the dev metrics of the average it chose (the uniform
    average of the same seeds that OUT/soup will hold, so they need no second evaluation): each
    candidate average is written to OUT/soup-trial and scored on dev (:func:`execir.train.dev.soup_score`)."""
    if not devs:
        raise ExecIRError(f"--soup greedy chooses seeds by their dev metrics, but dev split '{config.dev_split}' has no queries")
    by_seed = {r.seed: r for r in runs}
    trial_dir = config.out / SOUP_TRIAL
    evaluated: dict[tuple[int, ...], list[DevMetrics]] = {(r.seed,): seed_dev[r.path.name] for r in runs}

    def score(seeds: tuple[int, ...]) -> tuple[float, ...]:
        members = [by_seed[s] for s in seeds]
        _write_soup([r.path for r in members], trial_dir, _soup_info(config, folders, identity, members), max_length=config.settings.max_length)
        try:
            evaluated[seeds] = _evaluate(config, trial_dir, devs, device)
        finally:
            shutil.rmtree(trial_dir, ignore_errors=True)
        return soup_score(evaluated[seeds])

    greedy = greedy_soup({r.seed: soup_score(seed_dev[r.path.name]) for r in runs}, score)
    return greedy, evaluated[greedy.members]


def _finish_models(config: RunConfig, runs: Sequence[SeedRun], members: Sequence[SeedRun], identity: BaseIdentity | None, folders: Sequence[Folder]) -> Path:
    """The soup of ``members`` (two or more seeds trained, --soup uniform or greedy), then OUT/model
    linked to the final model."""
    final = runs[0].path
    if _souped(config, runs):
        final = config.out / SOUP
        _write_soup([r.path for r in members], final, _soup_info(config, folders, identity, members), max_length=config.settings.max_length)
    link_model(final, config.out / FINAL)
    return config.out / FINAL


def _write_soup(paths: Sequence[Path], out: Path, info: dict[str, Any], *, max_length: int) -> None:
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    models = [AutoModelForSequenceClassification.from_pretrained(p) for p in paths]
    soup = uniform_soup([m.state_dict() for m in models])
    models[0].load_state_dict(soup)
    save_model(models[0], AutoTokenizer.from_pretrained(paths[0]), out, max_length=max_length, info=info)


def link_model(source: Path, target: Path) -> None:
    """Make ``target`` hold ``source``'s model files (hard links where possible, else copies; no
    checkpoint), ``execir.json`` last."""
    if target.exists():
        shutil.rmtree(target)
    files = sorted(p for p in source.rglob("*") if p.is_file() and CHECKPOINT not in p.relative_to(source).parts)
    for file in sorted(files, key=lambda p: p.name == MODEL_INFO):
        destination = target / file.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(file, destination)
        except OSError:
            shutil.copy2(file, destination)


def _dev_sets(config: RunConfig, folders: Sequence[Folder]) -> list[DevSet]:
    return [DevSet(f.dev, dev_candidates(f.dev, seed=DEV_SEED, easy=config.dev_easy)) for f in folders if f.dev is not None and f.dev.queries]


def _evaluate(config: RunConfig, path: Path, devs: Sequence[DevSet], device: str) -> list[DevMetrics]:
    return evaluate_model(path, devs, device=device, batch_size=config.eval_batch_size, progress=config.progress)


def _counts(runs: Sequence[SeedRun]) -> PairCounts:
    """The result's pair counts: the last trained seed's (each seed samples its own negatives)."""
    return runs[-1].counts if runs else PairCounts()


def _trained(result: TrainingResult) -> tuple[SeedRun, ...]:
    """Every model the run trained: the trunk (when there is one), then the seeds."""
    return (result.trunk, *result.seeds) if result.trunk is not None else result.seeds


def _trials_json(greedy: GreedySoup[int]) -> list[dict[str, Any]]:
    return [{"seeds": list(t.members), "dev": dict(zip(SOUP_MEASURES, t.score)), "kept": t.kept} for t in greedy.trials]


def versions() -> dict[str, str]:
    import peft
    import sentence_transformers
    import torch
    import transformers

    return {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "peft": peft.__version__,
        "sentence_transformers": sentence_transformers.__version__,
    }


def _training_json(
    config: RunConfig, folders: Sequence[Folder], result: TrainingResult, identity: BaseIdentity | None, runtime: dict[str, Any]
) -> dict[str, Any]:
    final_source = SOUP if _souped(config, result.seeds) else result.seeds[0].path.name
    problems = sorted(set().union(*(f.train.problems for f in folders)))
    return {
        **_provenance(config, folders, identity),
        "pair_order": PAIR_ORDER,
        "dev_split": config.dev_split,
        "dev_candidates": {"pool": "grades 2 and 1", "easy_negatives": config.dev_easy, "seed": DEV_SEED},
        "folders": [f.to_json() for f in folders],
        "training_problems": {"count": len(problems), "ids": problems},
        "pairs": result.counts.to_json(),
        "seeds": [r.to_json() for r in result.seeds],
        "soup": config.soup,
        "soup_seeds": list(result.soup_seeds),
        "trunk": {**result.trunk.to_json(), "epochs": config.trunk_epochs} if result.trunk is not None else None,
        **({"soup_trials": _trials_json(result.greedy)} if result.greedy is not None else {}),
        "final_model": {"path": FINAL, "source": final_source},
        "checkpoint_every": config.checkpoint_every,
        "runtime": runtime,
        "versions": versions(),
        "seconds": {"total": round(result.seconds, 3), "training": round(sum(sum(r.epoch_seconds) for r in _trained(result)), 3)},
        "dev": {name: [m.to_json() for m in metrics] for name, metrics in result.dev.items()},
    }
