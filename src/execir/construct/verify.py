"""Generate -> execute -> keep: prove each canonical correct and each kept mutant wrong.

For every task the canonical must PASS ``canonical_repeats`` times; its CPU time sets the time
budget of its mutants. Mutant candidates are tried in the seeded priority order of
:func:`execir.mutate.order_candidates`, in rounds across all tasks (so the oracle runs them in
parallel), until ``max_mutants`` verified failures per task are found or the candidates run out.
A candidate that PASSES is equivalent under the tests and rejected; a FLAKY or UNDECIDED one is
never a label and is rejected under its own reason (``flaky``, ``undecided``). A hard negative is a
program that compiles and fails at run time: an ERROR (it does not compile, or does not load) is
rejected as ``does_not_compile``, and a C++ failure whose run reaches undefined behaviour before a
test fails is rejected as ``undefined_behaviour`` (:mod:`execir.construct.undefined_behaviour`).
Per operator, the outcome counts how many candidates were generated, executed, compiled, rejected
for either reason and kept.

Human-written bugs (``Task.human_bugs``, HumanEvalPack) are run once each, before the mutant rounds,
and kept when verified to fail; they do not count against ``max_mutants``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tqdm import tqdm

from execir.construct.config import BuildConfig
from execir.construct.protected import protected_lines
from execir.construct.undefined_behaviour import UndefinedBehaviourScreen
from execir.execute import Admission, ExecResult, Job, Limits, Oracle
from execir.languages import ParseError, get_language, select_operators
from execir.languages.base import family_table
from execir.mutate import generate_mutants, order_candidates
from execir.mutate.distance import levenshtein
from execir.tasks.livecodebench import lcb_limits
from execir.tasks.registry import runnable_program
from execir.types import Edit, ExcludedTask, Mutant, Task, Verdict


@dataclass(frozen=True)
class KeptMutant:
    """A mutant proven to fail, with the verdict that proves it."""

    mutant: Mutant
    result: ExecResult


@dataclass
class VerifiedTask:
    """A task whose canonical passed, with its verified-failing mutants."""

    task: Task
    limits: Limits
    canonical_seconds: float
    mutants: list[KeptMutant] = field(default_factory=list)
    candidates: list[Mutant] = field(default_factory=list)
    tried: int = 0
    human: list[KeptMutant] = field(default_factory=list)
    """Human-written bugs verified to fail."""
    protocol: str = ""
    """How the canonical's tests were judged at admission (``judged-outside`` or ``in-process``;
    empty for a task without a canonical)."""
    extras: list[KeptExtra] = field(default_factory=list)
    """Rewrites verified to pass, and user candidates verified to pass (grade 2) or fail (grade 1)."""

    @property
    def has_canonical(self) -> bool:
        """False for a task with no reference solution (LiveCodeBench): its pool is its candidates."""
        return bool(self.task.solution)


@dataclass(frozen=True)
class KeptExtra:
    """A rewrite or a user candidate with the verdict(s) that judged it."""

    kind: str
    """``rewrite`` or ``candidate``."""
    text: str
    grade: int
    operator: str
    """The rewrite rule, or the candidate's source."""
    verdict: str
    edit: Edit
    edit_distance: int


@dataclass
class VerifyOutcome:
    """Result of verification over all tasks."""

    verified: list[VerifiedTask]
    excluded: list[ExcludedTask]
    rejected: Counter[str]
    candidates_generated: int
    candidates_executed: int
    verdicts: Counter[str]
    flaky: list[str]
    undecided: list[str] = field(default_factory=list)
    """Candidates the oracle could not decide (the task's own test code failed, the judge broke)."""
    canonicals_run: int = 0
    """Distinct canonicals executed for admission (duplicate texts are excluded without running)."""
    timeouts: int = 0
    near_limit_timeouts: int = 0
    """TIMEOUTs whose CPU time stayed under the budget (ended by the wall backstop): the labels a
    loaded machine could flip, which the oracle re-ran serially before accepting."""
    surplus: int = 0
    """Candidates verified to fail in a round after their task already had enough mutants."""
    human_rejected: Counter[str] = field(default_factory=Counter)
    """Human-written bugs not kept, by reason (``passes_tests``: the tests do not catch the bug)."""
    human_run: int = 0
    not_mutated: list[str] = field(default_factory=list)
    """Admitted tasks whose canonical the mutation parser cannot read (task id: reason): they keep
    their canonical and human bugs, without mutants."""
    operators: dict[str, Counter[str]] = field(default_factory=dict)
    """Per operator: ``generated``, ``executed``, ``compiled`` (executed, not ERROR),
    ``does_not_compile``, ``undefined_behaviour`` and ``kept`` candidates."""
    undefined_behaviour: dict[str, object] = field(default_factory=dict)
    """The undefined-behaviour probes' account (:meth:`UndefinedBehaviourScreen.to_json`)."""


def admit_tasks(tasks: Sequence[Task], oracle: Oracle, config: BuildConfig) -> tuple[list[VerifiedTask], list[ExcludedTask], int]:
    """Run every distinct canonical ``canonical_repeats`` times; keep tasks whose canonical always
    passes. Returns the admitted tasks, the excluded ones and how many canonicals were run."""
    admitted: list[VerifiedTask] = []
    excluded: list[ExcludedTask] = []
    seen_texts: dict[str, str] = {}
    pool_only = [t for t in tasks if not t.solution]
    tasks = [t for t in tasks if t.solution]
    for task in tasks:
        if task.solution in seen_texts:
            excluded.append(ExcludedTask(task.task_id, f"canonical identical to {seen_texts[task.solution]}"))
            continue
        seen_texts[task.solution] = task.task_id
    candidates = [t for t in tasks if seen_texts.get(t.solution) == t.task_id]
    languages = {t.language for t in tasks}
    if len(languages) > 1:
        raise ValueError(f"one build is one language, got {sorted(languages)}")
    admissions = oracle.admit_canonicals(
        [(t.solution, t.tests, t.entry_point) for t in candidates],
        repeats=config.canonical_repeats,
        language=next(iter(languages), "python"),
    )
    for task, admission in zip(candidates, admissions):
        if admission.ok:
            admitted.append(VerifiedTask(task, admission.limits, admission.cpu_seconds, protocol=admission.results[0].protocol))
        else:
            excluded.append(ExcludedTask(task.task_id, exclusion_reason(admission)))
    order = {t.task_id: i for i, t in enumerate(tasks)}
    excluded.sort(key=lambda e: order[e.task_id])
    # no reference solution to prove (LiveCodeBench): admitted with the admission budget, judged by candidates alone
    admitted += [VerifiedTask(task, lcb_limits(), 0.0) for task in pool_only]
    return admitted, excluded, len(candidates)


def exclusion_reason(admission: Admission) -> str:
    """Why a canonical was not admitted; an undecided or flaky run is named as such, not as a failure."""
    verdicts = {r.verdict for r in admission.results}
    for unlabelled in (Verdict.UNDECIDED, Verdict.FLAKY):
        if unlabelled in verdicts:
            return f"{unlabelled.value.lower()}: the oracle could not label the canonical ({admission.reason})"
    return f"canonical does not pass its own tests: {admission.reason}"


def verify(tasks: Sequence[Task], oracle: Oracle, config: BuildConfig, *, progress: bool = False) -> VerifyOutcome:
    """Admit canonicals, then find up to ``max_mutants`` verified-failing mutants per task."""
    admitted, excluded, canonicals_run = admit_tasks(tasks, oracle, config)
    texts = {v.task.solution for v in admitted}
    screen = UndefinedBehaviourScreen(oracle)
    human_rejected, human_run = _verify_human_bugs(admitted, oracle, texts, screen)
    per_operator: dict[str, Counter[str]] = {}
    generated = 0
    unparsed: list[str] = []
    for item in tqdm(admitted, desc="generating mutants", disable=not progress, leave=False):
        if not item.has_canonical:
            continue
        language = get_language(item.task.language)
        operators = select_operators(language, config.operators)
        try:
            candidates = generate_mutants(item.task.task_id, item.task.solution, item.task.language, operators)
        except ParseError as error:
            unparsed.append(f"{item.task.task_id}: {error}")  # kept with its canonical (and human bug), no mutants
            candidates = []
        protected = protected_lines(item.task)
        candidates = [m for m in candidates if not _touches(m, protected)]
        generated += len(candidates)
        for mutant in candidates:
            per_operator.setdefault(mutant.operator, Counter())["generated"] += 1
        ordered = order_candidates(candidates, seed=config.seed, families=family_table(language))
        item.candidates = [m for m in ordered if m.text not in texts][: config.max_candidates_per_task]
    rejected: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    unlabelled: dict[str, list[str]] = {"flaky": [], "undecided": []}
    executed = 0
    timeouts = near_limit = surplus = 0
    round_number = 0
    while True:
        batch = _next_batch(admitted, config.max_mutants)
        if not batch:
            break
        round_number += 1
        jobs = [job_for(v, m.text) for v, m in batch]
        results = oracle.run(jobs, desc=f"mutants round {round_number}")
        executed += len(jobs)
        undefined = _undefined_behaviour(screen, batch, results, texts)
        for (item, mutant), result, reaches in zip(batch, results, undefined):
            verdicts[result.verdict.value] += 1
            if result.verdict is Verdict.TIMEOUT:
                timeouts += 1
                near_limit += result.seconds < item.limits.cpu_seconds
            reason = _keep_or_reject(item, mutant, result, texts, config.max_mutants, reaches)
            _count_operator(per_operator.setdefault(mutant.operator, Counter()), result, reason)
            if reason == "surplus":
                surplus += 1
            elif reason:
                rejected[reason] += 1
                if reason in unlabelled:
                    unlabelled[reason].append(f"{item.task.task_id} {mutant.operator} line {mutant.edit.line}")
    return VerifyOutcome(
        admitted,
        excluded,
        rejected,
        generated,
        executed,
        verdicts,
        unlabelled["flaky"],
        unlabelled["undecided"],
        canonicals_run,
        timeouts,
        near_limit,
        surplus,
        human_rejected,
        human_run,
        unparsed,
        {name: per_operator[name] for name in sorted(per_operator)},
        screen.to_json(),
    )


def _undefined_behaviour(
    screen: UndefinedBehaviourScreen, batch: Sequence[tuple[VerifiedTask, Mutant]], results: Sequence[ExecResult], texts: set[str]
) -> list[bool]:
    """Per candidate: a failure (that would be kept) whose run reaches undefined behaviour."""
    probed = [i for i, ((_, mutant), result) in enumerate(zip(batch, results)) if _is_hard_negative(result) and mutant.text not in texts]
    found = screen.reaches([(batch[i][0].task, batch[i][0].limits, batch[i][1].text) for i in probed])
    reaches = [False] * len(batch)
    for i, hit in zip(probed, found):
        reaches[i] = hit
    return reaches


def _is_hard_negative(result: ExecResult) -> bool:
    """A verified failure at run time (FAIL or TIMEOUT): it compiled, and it is a label."""
    return result.verdict in (Verdict.FAIL, Verdict.TIMEOUT)


def _count_operator(counts: Counter[str], result: ExecResult, reason: str | None) -> None:
    counts["executed"] += 1
    counts["compiled"] += result.verdict is not Verdict.ERROR
    if reason in ("does_not_compile", "undefined_behaviour"):
        counts[reason] += 1
    counts["kept"] += reason is None


def _touches(mutant: Mutant, lines: frozenset[int]) -> bool:
    """True when the mutant's edit starts or ends on one of ``lines``."""
    if not lines:
        return False
    last = mutant.edit.line + mutant.edit.before.count("\n")
    return any(line in lines for line in range(mutant.edit.line, last + 1))


def job_for(item: VerifiedTask, program: str) -> Job:
    """The job that runs ``program`` against the task's tests (the canonical is the reference: the
    judge takes the tests' helpers from it, and native tests are recorded and judged with it)."""
    task = item.task
    reference = task.solution if task.tests.kind in ("check", "asserts", "native") else ""
    program = runnable_program(task, program)  # the source's adapter (LiveCodeBench: its imports, a Solution method as a function)
    return Job(program, task.tests, task.entry_point, item.limits, reference=reference, language=task.language)


def human_mutant(task: Task, text: str) -> Mutant:
    """A human-written bug as a candidate: its edit spans the first to the last changed character."""
    solution = task.solution
    prefix = 0
    limit = min(len(solution), len(text))
    while prefix < limit and solution[prefix] == text[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and solution[-1 - suffix] == text[-1 - suffix]:
        suffix += 1
    # widen to whole tokens, so "<" -> "<=" reads as such rather than "" -> "="
    while prefix > 0 and _joins(solution[prefix - 1], _edge(solution, text, prefix, suffix, first=True)):
        prefix -= 1
    while suffix > 0 and _joins(solution[len(solution) - suffix], _edge(solution, text, prefix, suffix, first=False)):
        suffix -= 1
    line = solution.count("\n", 0, prefix) + 1
    col = prefix - (solution.rfind("\n", 0, prefix) + 1)
    edit = Edit(line=line, col=col, before=solution[prefix : len(solution) - suffix], after=text[prefix : len(text) - suffix])
    tokens = get_language(task.language).tokens
    return Mutant(task.task_id, "human", edit, text, levenshtein(tokens(solution), tokens(text)), kind="human")


def _edge(solution: str, text: str, prefix: int, suffix: int, *, first: bool) -> str:
    """The changed characters at one edge of the changed region, from both sides."""
    chars = ""
    for whole in (solution, text):
        end = len(whole) - suffix
        if end > prefix:
            chars += whole[prefix] if first else whole[end - 1]
    return chars


def _char_class(char: str) -> str:
    if char.isalnum() or char == "_":
        return "word"
    return "op" if char in "<>=!+-*/%&|^~:?." else char


def _joins(outside: str, inside: str) -> bool:
    """True when ``outside`` belongs to one token with any of the ``inside`` characters (both word or
    both operator characters)."""
    kind = _char_class(outside)
    return kind in ("word", "op") and any(_char_class(char) == kind for char in inside)


def _verify_human_bugs(items: list[VerifiedTask], oracle: Oracle, texts: set[str], screen: UndefinedBehaviourScreen) -> tuple[Counter[str], int]:
    """Run every human-written bug once; keep those verified to fail at run time (an ERROR and a
    failure that reaches undefined behaviour are rejected). Returns rejections by reason and how
    many were run."""
    batch = [(item, human_mutant(item.task, text)) for item in items for text in item.task.human_bugs if text not in texts]
    rejected: Counter[str] = Counter()
    if not batch:
        return rejected, 0
    results = oracle.run([job_for(item, bug.text) for item, bug in batch], desc="human-written bugs")
    undefined = _undefined_behaviour(screen, batch, results, texts)
    for (item, bug), result, reaches in zip(batch, results, undefined):
        if result.verdict is Verdict.PASS:
            rejected["passes_tests"] += 1
        elif not result.verdict.is_label:
            rejected[result.verdict.value.lower()] += 1
        elif result.verdict is Verdict.ERROR:
            rejected["does_not_compile"] += 1
        elif reaches:
            rejected["undefined_behaviour"] += 1
        elif bug.text in texts:
            rejected["duplicate_text"] += 1
        else:
            item.human.append(KeptMutant(bug, result))
            texts.add(bug.text)
    return rejected, len(batch)


def _next_batch(items: list[VerifiedTask], max_mutants: int) -> list[tuple[VerifiedTask, Mutant]]:
    """Next candidates per task: one more than still needed (about one in eight mutants is equivalent)."""
    batch: list[tuple[VerifiedTask, Mutant]] = []
    for item in items:
        need = max_mutants - len(item.mutants)
        if need <= 0:
            continue
        take = item.candidates[item.tried : item.tried + need + 1]
        item.tried += len(take)
        batch.extend((item, m) for m in take)
    return batch


def _keep_or_reject(item: VerifiedTask, mutant: Mutant, result: ExecResult, texts: set[str], max_mutants: int, reaches_ub: bool = False) -> str | None:
    """Keep a verified failure at run time (returns None) or name the reason it was not kept."""
    if result.verdict is Verdict.PASS:
        return "passes_tests"
    if not result.verdict.is_label:
        return result.verdict.value.lower()  # "flaky" or "undecided": never a label
    if result.verdict is Verdict.ERROR:
        return "does_not_compile"  # no hard negative: the tests never ran it
    if reaches_ub:
        return "undefined_behaviour"  # its failure hangs on what the machine happened to hold
    if mutant.text in texts:
        return "duplicate_text"
    if len(item.mutants) >= max_mutants:
        return "surplus"  # verified failing, but the task already has enough
    item.mutants.append(KeptMutant(mutant, result))
    texts.add(mutant.text)
    return None
