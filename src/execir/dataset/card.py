"""The dataset card (``README.md``) of a folder and the data files its ``configs:`` name.

Hugging Face ``datasets`` picks **one** builder for a whole folder, from the first config's files:
``corpus.jsonl`` makes it the JSON builder, which cannot read the BEIR qrels TSV. So the qrels
configs point at JSONL twins of the TSV files (``qrels-strict/<split>.jsonl``: rows
``{"query-id", "corpus-id", "score"}``, the columns MTEB's retrieval loader reads), written by
:func:`card_files` together with the card. A split with no judgements is left out of the configs
(``datasets`` cannot load an empty split).

Configs: ``corpus`` (split ``corpus``), ``queries`` (split ``queries``), ``default`` (the strict
qrels, one split each) and ``graded`` (ExecIR's graded qrels), so ``datasets.load_dataset(folder,
name)`` and MTEB's ``RetrievalDatasetLoader`` read the folder as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from execir.dataset.files import jsonl_bytes
from execir.dataset.layout import CARD, CORPUS, QUERIES, qrels_file, strict_qrels_file, trec_qrels_file
from execir.dataset.records import SPLITS
from execir.dataset.spec import TaskSpec
from execir.types import Relevance

QrelsRows = Sequence[tuple[str, str, int]]


def hf_qrels_file(split: str, *, graded: bool = False) -> str:
    """The JSONL qrels of a split that the card's configs name (strict unless ``graded``)."""
    stem = qrels_file(split) if graded else strict_qrels_file(split)
    return stem.removesuffix(".tsv") + ".jsonl"


def qrels_jsonl_bytes(rows: QrelsRows) -> bytes:
    """Qrels rows as JSONL with the BEIR/MTEB column names."""
    return jsonl_bytes({"query-id": q, "corpus-id": d, "score": s} for q, d, s in rows)


def _strict(rows: QrelsRows) -> list[tuple[str, str, int]]:
    return [(q, d, 1 if grade >= Relevance.CORRECT else 0) for q, d, grade in rows]


def _split_files(name: str, splits: tuple[str, ...], *, graded: bool) -> list[str]:
    if not splits:
        return []
    lines = [f"- config_name: {name}"] + (["  default: true"] if not graded else []) + ["  data_files:"]
    for split in splits:
        lines += [f"  - split: {split}", f"    path: {hf_qrels_file(split, graded=graded)}"]
    return lines


def _configs(splits: tuple[str, ...]) -> str:
    lines = [
        "configs:",
        "- config_name: corpus",
        "  data_files:",
        "  - split: corpus",
        f"    path: {CORPUS}",
        "- config_name: queries",
        "  data_files:",
        "  - split: queries",
        f"    path: {QUERIES}",
    ]
    lines += _split_files("default", splits, graded=False) + _split_files("graded", splits, graded=True)
    return "\n".join(lines)


def card_text(name: str, spec: TaskSpec, *, source: str, language: str, counts: dict[str, object], splits: tuple[str, ...] = SPLITS) -> str:
    """The whole card; ``splits`` are those with judgements (each needs its JSONL qrels files)."""
    grades = "\n".join(f"- **{grade}**: {meaning}" for grade, meaning in spec.relevance)
    split_list = ", ".join(splits) or "none"
    example = splits[-1] if splits else "test"
    return f"""---
{_configs(splits)}
task_categories:
- text-retrieval
tags:
- code
- execir
---

# {name}: an ExecIR {spec.direction} benchmark from {source} ({language})

Queries are {spec.query_kind}{f" ({spec.queries})" if spec.queries else ""}, documents are {spec.document_kind}. Every relevance grade was decided
by executing programs against the task's tests in a sandbox (or, for text, by a recorded mechanical
edit), never by hand.

{grades}

Counts: {", ".join(f"{k} {v}" for k, v in counts.items())}.

Splits with judgements: {split_list}. Splits are problem-disjoint: a problem's queries are judged in
one split only.

## Files

- `{CORPUS}`, `{QUERIES}`: BEIR rows (`_id`, `title`, `text`, `metadata`; metadata is null-free).
- `{qrels_file("test")}` (and the other splits): graded qrels (2, 1); ExecIR's own metrics give
  grade 1 zero gain (it still occupies a rank). **Other tools count grade 1 as relevant**: do not
  score these with pytrec_eval, ranx, ir_measures, BEIR or MTEB.
- `{strict_qrels_file("test")}`: the same judgements for those tools: correct documents 1, hard
  negatives listed with 0. With a tie-ordered run (ExecIR's `runs/<system>.trec`), pytrec_eval,
  ranx, ir_measures, BEIR and MTEB reproduce ExecIR's numbers (`success_1`/`P_1` is exec@1).
- `{trec_qrels_file("test")}`: the strict qrels in TREC format (`qid 0 docid rel`), for ranx,
  ir_measures and trec_eval.
- `{hf_qrels_file("test")}`, `{hf_qrels_file("test", graded=True)}`: the strict and graded qrels
  as JSONL, for the `default` and `graded` configs below (`datasets`, MTEB).

A document whose id equals the query id is the query itself (code-to-code anchors): drop it from
every ranking (`ignore_identical_ids`).

Instruction for instruct embedders: "{spec.instruction}".

## Load

```python
from datasets import load_dataset
corpus = load_dataset("path/to/{name}", "corpus", split="corpus")
queries = load_dataset("path/to/{name}", "queries", split="queries")
qrels = load_dataset("path/to/{name}", "default", split="{example}")  # strict; "graded" for 2/1
```
"""


def card_files(name: str, spec: TaskSpec, rows: Mapping[str, QrelsRows], *, source: str, language: str, counts: dict[str, object]) -> dict[str, bytes]:
    """The card and the JSONL qrels its configs name, from the graded qrels rows of each split."""
    splits = tuple(split for split in SPLITS if rows.get(split))
    files: dict[str, bytes] = {}
    for split in splits:
        files[hf_qrels_file(split)] = qrels_jsonl_bytes(_strict(rows[split]))
        files[hf_qrels_file(split, graded=True)] = qrels_jsonl_bytes(rows[split])
    files[CARD] = card_text(name, spec, source=source, language=language, counts=counts, splits=splits).encode("utf-8")
    return files
