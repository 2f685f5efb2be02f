"""File names of the on-disk format (one owner: every reader and writer takes them from here).

A build's output folder::

    OUT/manifest.json                  collection manifest: format, build facts, every folder
    OUT/build_report.json              timing and oracle counters of the build (not content)
    OUT/<task>[-<language>]/           one BEIR-layout folder per task (and language)
        corpus.jsonl, queries.jsonl    BEIR rows; null-free ``metadata``
        qrels/<split>.tsv              graded: 2 correct, 1 same-task hard negative (BEIR header)
        qrels-strict/<split>.tsv       binary: 1 correct, 0 hard negative (listed), for other tools
        qrels[-strict]/<split>.jsonl   the same rows as JSONL: what the card's ``configs`` name (one
                                       reader for the whole folder; splits with no judgement left out)
        trec/<split>.qrels             the strict qrels in TREC format (``qid 0 docid rel``)
        README.md                      dataset card (``configs:`` for ``datasets`` and MTEB)
        manifest.json                  task spec, counts, splits, sha256 of every file (written last)
"""

from __future__ import annotations

CORPUS = "corpus.jsonl"
QUERIES = "queries.jsonl"
MANIFEST = "manifest.json"
CARD = "README.md"
BUILD_REPORT = "build_report.json"

FOLDER_FORMAT = "execir-dataset/2"
COLLECTION_FORMAT = "execir-collection/1"


def qrels_file(split: str) -> str:
    """Graded BEIR qrels of a split."""
    return f"qrels/{split}.tsv"


def strict_qrels_file(split: str) -> str:
    """Binary BEIR qrels of a split (hard negatives listed with 0)."""
    return f"qrels-strict/{split}.tsv"


def trec_qrels_file(split: str) -> str:
    """Binary TREC qrels of a split."""
    return f"trec/{split}.qrels"


def folder_name(task: str, language: str | None) -> str:
    """``t2c-full`` (single-language build) or ``t2c-full-java``."""
    return f"{task}-{language}" if language else task
