"""ExecIR: execution-verified code-retrieval benchmarks.

Build benchmarks whose hard negatives are single-edit mutants proven wrong by execution,
then measure how often retrievers put working code first.
"""

__version__ = "0.1.0"
