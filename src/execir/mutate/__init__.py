"""ExecIR mutate stage: single-edit "near clone" candidates of programs in any supported language.

``generate_mutants`` applies a language's operators (see :mod:`execir.languages`) to a program,
``order_candidates`` gives a seeded, family-weighted priority order spreading operators and lines,
and ``token_edit_distance`` measures how far a mutant is from its source in tokens.
"""

from execir.mutate.distance import token_edit_distance
from execir.mutate.engine import generate_mutants
from execir.mutate.select import order_candidates

__all__ = ["generate_mutants", "order_candidates", "token_edit_distance"]
