"""More than one correct document per query, and programs users bring: both judged by execution.

* **Rewrites**: semantics-preserving rewrites of each canonical (:mod:`execir.rewrite`), a seeded
  choice of ``rewrites`` per task spread over the rules, each run ``positive_repeats`` times under
  the canonical's limits; kept as grade 2 only if every run PASSES. One that fails is dropped, not a
  hard negative (a rewrite that fails is a rule's bug, not a bug someone writes).
* **Candidates** (``--candidates FILE.jsonl``): every program is run; PASS on every one of
  ``positive_repeats`` runs -> grade 2; the same failure at run time (FAIL or TIMEOUT) on every run
  -> grade 1; ERROR on every run (it does not compile: no hard negative) -> dropped as
  ``does_not_compile``; FLAKY, UNDECIDED, a PASS that did not repeat or failures that differ (FAIL then
  TIMEOUT: ``inconsistent_failure``) -> dropped, counted. Each keeps its ``source``.

Texts already in a pool (canonicals, mutants, human bugs, earlier extras) are skipped as duplicates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from execir.construct.verify import KeptExtra, VerifiedTask, human_mutant, job_for
from execir.dataset.records import NO_EDIT
from execir.execute import ExecResult, Oracle
from execir.languages import ParseError, get_language
from execir.rewrite import rewrites as rewrites_of
from execir.rewrite import select_rewrites
from execir.tasks.candidates import Candidate
from execir.types import Edit, Verdict

POSITIVE_REPEATS = 2


@dataclass
class ExtrasOutcome:
    """Counts of the rewrites and candidates tried, kept and rejected (by reason)."""

    rewrites_generated: int = 0
    rewrites_run: int = 0
    rewrites_kept: Counter[str] = field(default_factory=Counter)
    """Kept rewrites by rule."""
    rewrites_rejected: Counter[str] = field(default_factory=Counter)
    candidates_loaded: int = 0
    candidates_run: int = 0
    candidates_passed: int = 0
    candidates_failed: int = 0
    candidates_rejected: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, object]:
        """The manifest's ``extras`` counts."""
        return {
            "rewrites": {
                "generated": self.rewrites_generated,
                "run": self.rewrites_run,
                "kept": sum(self.rewrites_kept.values()),
                "kept_by_rule": dict(sorted(self.rewrites_kept.items())),
                "rejected": dict(sorted(self.rewrites_rejected.items())),
            },
            "candidates": {
                "loaded": self.candidates_loaded,
                "run": self.candidates_run,
                "passed": self.candidates_passed,
                "failed": self.candidates_failed,
                "rejected": dict(sorted(self.candidates_rejected.items())),
            },
        }


def _pool_texts(items: Sequence[VerifiedTask]) -> set[str]:
    texts = {v.task.solution for v in items if v.has_canonical}
    for item in items:
        texts.update(k.mutant.text for k in [*item.mutants, *item.human])
        texts.update(e.text for e in item.extras)
    return texts


def _edit(item: VerifiedTask, text: str) -> tuple[Edit, int]:
    if not item.has_canonical:
        return NO_EDIT, 0
    mutant = human_mutant(item.task, text)
    return mutant.edit, mutant.edit_distance


def verify_rewrites(items: Sequence[VerifiedTask], oracle: Oracle, outcome: ExtrasOutcome, *, per_task: int, seed: int) -> None:
    """Generate, run and keep up to ``per_task`` passing rewrites of every canonical."""
    if per_task <= 0:
        return
    texts = _pool_texts(items)
    batch: list[tuple[VerifiedTask, str, str]] = []
    for item in items:
        if not item.has_canonical:
            continue
        try:
            found = rewrites_of(item.task.solution, item.task.language, entry_point=item.task.entry_point)
        except ParseError:
            outcome.rewrites_rejected["canonical_unparsable"] += 1  # the rewrite parser cannot read it (the compiler can)
            continue
        outcome.rewrites_generated += len(found)
        fresh = [r for r in found if r.text not in texts]
        if len(found) > len(fresh):
            outcome.rewrites_rejected["duplicate_text"] += len(found) - len(fresh)
        for rewrite in select_rewrites(fresh, limit=per_task, seed=seed):
            batch.append((item, rewrite.rule, rewrite.text))
            texts.add(rewrite.text)
    if not batch:
        return
    runs = oracle.run_repeated([job_for(item, text) for item, _, text in batch], POSITIVE_REPEATS, desc="rewrites")
    outcome.rewrites_run += len(batch)
    for (item, rule, text), results in zip(batch, runs):
        if all(r.verdict is Verdict.PASS for r in results):
            edit, distance = _edit(item, text)
            item.extras.append(KeptExtra("rewrite", text, 2, rule, Verdict.PASS.value, edit, distance))
            outcome.rewrites_kept[rule] += 1
        else:
            outcome.rewrites_rejected[_reason(results)] += 1


def _reason(results: Sequence[ExecResult]) -> str:
    verdicts = [r.verdict for r in results]
    if any(not v.is_label for v in verdicts):
        return next(v for v in verdicts if not v.is_label).value.lower()
    if Verdict.PASS in verdicts:
        return "flaky"  # passed once, failed once
    if len(set(verdicts)) > 1:
        return "inconsistent_failure"  # failed every run, but not the same way (FAIL then TIMEOUT): no label
    return verdicts[0].value.lower()


def verify_candidates(items: Sequence[VerifiedTask], oracle: Oracle, outcome: ExtrasOutcome, candidates: Sequence[Candidate]) -> None:
    """Run every user candidate of a task in this build; judge it 2 (passes) or 1 (fails)."""
    by_task = {(v.task.task_id, v.task.language): v for v in items}
    texts = _pool_texts(items)
    batch: list[tuple[VerifiedTask, Candidate, str]] = []
    for candidate in candidates:
        item = by_task.get((candidate.task_id, candidate.language))
        if item is None:
            continue  # another language's or an excluded task's candidate: counted by the caller
        text = _document_text(candidate)
        if text in texts:
            outcome.candidates_rejected["duplicate_text"] += 1
            continue
        texts.add(text)
        batch.append((item, candidate, text))
    if not batch:
        return
    runs = oracle.run_repeated([job_for(item, text) for item, _, text in batch], POSITIVE_REPEATS, desc="candidates")
    outcome.candidates_run += len(batch)
    for (item, candidate, text), results in zip(batch, runs):
        verdicts = [r.verdict for r in results]
        edit, distance = _edit(item, text)
        if all(v is Verdict.PASS for v in verdicts):
            item.extras.append(KeptExtra("candidate", text, 2, candidate.source, Verdict.PASS.value, edit, distance))
            outcome.candidates_passed += 1
        elif all(v is Verdict.ERROR for v in verdicts):
            outcome.candidates_rejected["does_not_compile"] += 1
        elif all(v.is_failure for v in verdicts) and len(set(verdicts)) == 1:
            item.extras.append(KeptExtra("candidate", text, 1, candidate.source, verdicts[0].value, edit, distance))
            outcome.candidates_failed += 1
        else:
            outcome.candidates_rejected[_reason(results)] += 1


def _document_text(candidate: Candidate) -> str:
    """The candidate as a corpus document: comments and docstrings removed like every program's.
    ``strip_comments`` is lenient in every language: code that does not parse comes back as it is
    (it is still run, and fails)."""
    return get_language(candidate.language).strip_comments(candidate.code)
