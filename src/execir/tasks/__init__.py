"""Task loaders: one module per source format, each returning typed :class:`~execir.types.Task` records."""

from execir.tasks.humaneval import bundled_humaneval_path, load_humaneval
from execir.tasks.mbpp import load_mbpp

__all__ = ["bundled_humaneval_path", "load_humaneval", "load_mbpp"]
