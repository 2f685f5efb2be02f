"""The dataset card (``README.md``) of an ``execir export pairs`` folder: configs, columns, counts, source."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

COLUMN_MEANINGS: dict[str, str] = {
    "prompt": "the query under its instruction (t2c: the task text; c2t and c2c: the program)",
    "chosen": "a grade-2 document: a program verified to pass (t2c, c2c) or the task's own description (c2t)",
    "rejected": "a grade-1 document of the same problem: a program verified to fail (mutant, human bug, failing candidate) or a counterfactual description",
    "completion": "one judged document of the query's problem",
    "label": "kto: true for a grade-2 document (bool); reward: 1 for grade 2 (passes / own description), 0 for grade 1",
    "anchor": "the query (with --instruction prepended, if given)",
    "positive": "a grade-2 document",
    "negative_i": "grade-1 documents of the same problem first (seeded), then documents of other problems of the same split",
    "folder": "the dataset folder (task) the row comes from",
    "query_id": "the query's id in the dataset",
    "problem": "the problem (the unit of the problem-disjoint splits)",
    "task_id": "the task id of the query",
    "chosen_id": "document id of chosen",
    "rejected_id": "document id of rejected",
    "chosen_kind": "canonical, rewrite, candidate (t2c, c2c) or description (c2t)",
    "rejected_kind": "mutant, human, candidate (t2c, c2c), counterfactual or distractor (c2t)",
    "chosen_verdict": "the oracle's verdict of chosen (PASS; empty for descriptions)",
    "operator": "the mutation operator, rewrite or counterfactual rule, candidate source, or `human` for a human-written bug",
    "verdict": "the oracle's verdict (PASS, FAIL, TIMEOUT, ERROR; empty for descriptions, graded by a recorded edit)",
    "doc_id": "document id of completion",
    "kind": "the document's kind (canonical, rewrite, candidate, mutant, human; description, counterfactual, distractor)",
    "positive_id": "document id of positive",
    "negative_ids": "document ids of negative_1..n",
    "negative_kinds": "each negative's kind (`other-problem` for one filled from another problem)",
    "negative_operators": "each negative's operator (empty for other-problem ones)",
    "negative_verdicts": "each negative's verdict (empty for other-problem ones)",
}

TRAINERS: dict[str, str] = {
    "dpo": "TRL `DPOTrainer` (preference type, explicit prompt) and `RewardTrainer` (which takes explicit-prompt preference rows as they are)",
    "kto": "TRL `KTOTrainer` (unpaired preference type)",
    "reward": "a pointwise reward model / classifier (`prompt` + `completion` -> `label`); for TRL's pairwise `RewardTrainer` export `--format dpo`",
    "triplets": "sentence-transformers `SentenceTransformerTrainer` with `MultipleNegativesRankingLoss` (columns read in order)",
}


def _configs(splits: Sequence[str], *, triplets: bool) -> list[str]:
    lines = ["configs:", "- config_name: default", "  default: true", "  data_files:"]
    for split in splits:
        lines += [f"  - split: {split}", f"    path: {split}.jsonl"]
    if triplets:
        lines += ["- config_name: metadata", "  data_files:"]
        for split in splits:
            lines += [f"  - split: {split}", f"    path: {split}.meta.jsonl"]
    return lines


def _column_lines(names: Sequence[str]) -> list[str]:
    """One line per column; ``negative_1`` .. ``negative_n`` share one."""
    negatives = [c for c in names if c.startswith("negative_")]
    lines = [f"- `{c}`: {COLUMN_MEANINGS[c]}" for c in names if c not in negatives]
    if negatives:
        lines.append(f"- `{negatives[0]}` .. `{negatives[-1]}`: {COLUMN_MEANINGS['negative_i']}")
    return lines


def _counts_table(counts: Mapping[str, Mapping[str, Mapping[str, int]]]) -> list[str]:
    keys = ("queries", "rows", "without_positive", "without_negative", "filled", "dropped")
    lines = ["| folder | split | " + " | ".join(keys) + " |", "|---|---|" + "---|" * len(keys)]
    for folder, by_split in counts.items():
        for split, values in by_split.items():
            lines.append(f"| {folder} | {split} | " + " | ".join(str(values[k]) for k in keys) + " |")
    return lines


def card_text(facts: Mapping[str, Any], columns: tuple[Sequence[str], Sequence[str]]) -> str:
    """The card of an export from its ``export.json`` facts and its (trainer, metadata) columns."""
    fmt = str(facts["format"])
    splits = list(facts["splits"])
    trainer_columns, meta_columns = columns
    data_files = ", ".join(f'"{s}": "OUT/{s}.jsonl"' for s in splits)
    source = facts["source"]
    lines = [
        "---",
        *_configs(splits, triplets=fmt == "triplets"),
        "tags:",
        "- execir",
        f"- {fmt}",
        "---",
        f"# ExecIR {fmt} rows",
        "",
        f"For {TRAINERS[fmt]}. Written by `{facts['command']}` (ExecIR {facts['toolkit']['version']}).",
        "Every label comes from the dataset's graded qrels, checked against the oracle verdict each program carries:",
        "no failing program is ever a chosen/positive row, no passing one a rejected/negative one.",
        "Splits are the dataset's problem-disjoint ones: no problem has rows in two files.",
        "",
        "```python",
        "from datasets import load_dataset",
        f'rows = load_dataset("json", data_files={{{data_files}}})',
        "```",
        "",
        "## Columns",
        "",
        *_column_lines(trainer_columns),
        "",
        "Metadata" + (" (in `<split>.meta.jsonl`, row for row: sentence-transformers feeds every column to its loss)" if fmt == "triplets" else "") + ":",
        "",
        *(f"- `{c}`: {COLUMN_MEANINGS[c]}" for c in meta_columns),
        "",
        "## Counts",
        "",
        "Rows per split: " + ", ".join(f"{s} {n}" for s, n in facts["splits"].items()) + ".",
        "",
        *_counts_table(facts["counts"]),
        "",
        "## Source",
        "",
        f"Fingerprint (sha256 over the folders' manifest sha256s): `{source['fingerprint']}`",
        "",
        *(f"- `{f['name']}` ({f['task']}): manifest sha256 `{f['manifest_sha256']}`" for f in source["folders"]),
        "",
        f"Options: negatives {facts['options']['negatives']}, seed {facts['options']['seed']}, "
        f"instruction {json_text(facts['options']['instruction'])}, conversational {facts['options']['conversational']}.",
        "",
    ]
    return "\n".join(lines)


def json_text(value: Any) -> str:
    """A value as it reads in JSON (``null`` for the default instruction)."""
    return json.dumps(value, ensure_ascii=False)
