"""Which ``--expand`` specs apply to a folder and a retriever, and why the others add no system.

An expansion applies to a folder whose task is text to code with a ``search`` or ``description``
query (:data:`~execir.expand.spec.SUBTYPES`): short natural-language queries, the case expansion is
meant for. ``t2c-full`` queries already carry the whole problem with examples, and c2t and c2c
queries are code, so no expanded system is added there; :func:`expansion_notes` says so in the report.
Within a folder, a spec applies to the retrievers of its families (rm3: BM25; rocchio: dense;
hyde, query2doc: both), never to hybrids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from execir.expand import SUBTYPES, Expansion, family
from execir.expand.spec import APPLIES_TO

if TYPE_CHECKING:
    from execir.dataset.spec import TaskSpec


def task_applies(task: TaskSpec | None) -> bool:
    """True for a text-to-code search or description folder."""
    return task is not None and task.direction == "t2c" and task.subtype in SUBTYPES


def applicable(expansions: Mapping[str, Expansion] | None, task: TaskSpec | None, retriever: object) -> list[Expansion]:
    """The expansions (in configured order) that add a system beside ``retriever`` on a folder of ``task``."""
    if not expansions or not task_applies(task):
        return []
    kind = family(retriever)
    return [e for e in expansions.values() if kind is not None and e.spec.applies_to(kind)]


def expansion_notes(expansions: Mapping[str, Expansion] | None, task: TaskSpec | None, retrievers: Iterable[object]) -> tuple[str, ...]:
    """One line per spec that adds no system on this folder, saying why."""
    if not expansions:
        return ()
    if not task_applies(task):
        name = task.name if task is not None else "unknown"
        wanted = " and ".join(f"t2c-{s}" for s in SUBTYPES)
        return tuple(f"{e.spec.text}: not applied; this folder's task is {name}, and query expansion is for {wanted} queries" for e in expansions.values())
    families = [family(r) for r in retrievers]
    notes = []
    for e in expansions.values():
        if not any(f is not None and e.spec.applies_to(f) for f in families):
            notes.append(f"{e.spec.text}: not applied; no {' or '.join(APPLIES_TO[e.kind])} retriever was evaluated (hybrids are not expanded)")
    return tuple(notes)
