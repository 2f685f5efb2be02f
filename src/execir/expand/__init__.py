"""Query expansion for text-to-code search and description queries (``execir eval --expand``).

Model-free pseudo-relevance feedback (RM3 over ExecIR's BM25, Rocchio over cached embeddings) and
generative expansion (HyDE, Query2doc) through an OpenAI-compatible chat endpoint or a local causal
LM, with generated text cached. Entry point: :func:`prepare_expansions` with ``--expand`` specs.
"""

from __future__ import annotations

from pathlib import Path

from execir.expand.cache import GenerationCache
from execir.expand.expansions import Expansion, expand_search, family
from execir.expand.generators import make_generator
from execir.expand.spec import EXPAND_SPEC_HELP, SUBTYPES, ExpansionSpec, parse_expansion, parse_expansions


def prepare_expansions(specs: tuple[str, ...], *, cache_dir: Path | None, progress: bool = False, device: str | None = None) -> dict[str, Expansion]:
    """Spec text -> :class:`Expansion` (bad specs and missing generator directories fail here;
    no model is loaded and no request is made yet). Generations are cached under ``cache_dir``."""
    cache = GenerationCache(cache_dir)
    out: dict[str, Expansion] = {}
    for spec in parse_expansions(specs):
        generator = make_generator(spec.generator, device=device) if spec.generator is not None else None
        out[spec.text] = Expansion(spec, generator, cache, progress)
    return out


__all__ = [
    "EXPAND_SPEC_HELP",
    "SUBTYPES",
    "Expansion",
    "ExpansionSpec",
    "GenerationCache",
    "expand_search",
    "family",
    "parse_expansion",
    "parse_expansions",
    "prepare_expansions",
]
