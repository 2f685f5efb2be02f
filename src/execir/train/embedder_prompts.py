"""The prompts a trained bi-encoder's rows and its saved folder carry (``--prompts``).

Under ``--prompts task`` every code query gets the query prompt of its task direction
(:data:`~execir.retrieve.prompts.TRAINED_QUERY_PROMPTS`), in its training rows, in the dev
evaluation and, declared in the model's ``execir.json``, wherever the model later retrieves
(:func:`~execir.retrieve.prompts.trained_profile`). Text queries and documents stay bare. Only the
directions trained on are declared, so a direction the model never saw prompted is encoded bare.
"""

from __future__ import annotations

from collections.abc import Iterable

from execir.dataset import get_spec
from execir.errors import ExecIRError
from execir.retrieve.prompts import TRAINED_QUERY_PROMPTS, declared_prompts


def task_query_prompt(task: str, mode: str) -> str:
    """The prompt on ``task``'s queries under ``mode`` (``""`` for text queries, unknown tasks and ``none``)."""
    if mode == "none":
        return ""
    try:
        direction = get_spec(task).direction
    except ExecIRError:
        return ""
    return TRAINED_QUERY_PROMPTS.get(direction, "")


def model_prompts(tasks: Iterable[str], mode: str) -> dict[str, dict[str, str]]:
    """``execir.json``'s ``"prompts"``: each prompted direction among ``tasks``, with its query prompt."""
    found: dict[str, tuple[str, str]] = {}
    for task in tasks:
        prompt = task_query_prompt(task, mode)
        if prompt:
            found[get_spec(task).direction] = (prompt, "")
    return declared_prompts(found)
