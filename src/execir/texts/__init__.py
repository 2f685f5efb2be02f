"""Query and document texts derived from a task's own text, for CoREB-style retrieval benchmarks.

* :func:`search_query`: a short keyword query (what a developer types into code search);
* :func:`full_query`: the whole problem text with its examples (what a user pastes);
* :func:`counterfactuals`: single-edit descriptions that flip the task's meaning, recorded like mutants;
* :func:`load_distractors`: user-written distractor descriptions from a JSONL file.

Every derivation is pure and deterministic (no dependence on ``PYTHONHASHSEED``).
"""

from execir.texts.counterfactual import Counterfactual, counterfactuals, edit_span
from execir.texts.distractors import Distractor, load_distractors
from execir.texts.full import full_query
from execir.texts.search import search_query, token_count

__all__ = [
    "Counterfactual",
    "Distractor",
    "counterfactuals",
    "edit_span",
    "full_query",
    "load_distractors",
    "search_query",
    "token_count",
]
