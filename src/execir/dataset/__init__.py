"""The on-disk dataset format, owned here alone: task specs, layout, typed rows, splits, writing,
reading and checking. Builds write with :mod:`execir.dataset.write`; evaluation and interop read
with :func:`load_dataset` and :func:`discover`."""

from execir.dataset.read import Dataset, QueryInfo, discover, load_dataset
from execir.dataset.records import SPLITS, Document, FolderRecords, Query, doc_id
from execir.dataset.spec import TASK_SPECS, TaskSpec, get_spec, parse_tasks
from execir.dataset.splits import SplitPlan, split_problems

__all__ = [
    "SPLITS",
    "TASK_SPECS",
    "Dataset",
    "Document",
    "FolderRecords",
    "Query",
    "QueryInfo",
    "SplitPlan",
    "TaskSpec",
    "discover",
    "doc_id",
    "get_spec",
    "load_dataset",
    "parse_tasks",
    "split_problems",
]
