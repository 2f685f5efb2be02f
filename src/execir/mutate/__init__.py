"""ExecIR mutate stage: single-edit "near clone" candidates of Python solutions.

``generate_mutants`` applies every operator in :data:`OPERATORS` to a module,
``order_candidates`` gives a seeded priority order spreading operators and lines, and
``token_edit_distance`` measures how far a mutant is from its source in tokens.
"""

from execir.mutate.distance import token_edit_distance
from execir.mutate.engine import generate_mutants
from execir.mutate.operators import OPERATORS
from execir.mutate.select import order_candidates

__all__ = ["OPERATORS", "generate_mutants", "order_candidates", "token_edit_distance"]
