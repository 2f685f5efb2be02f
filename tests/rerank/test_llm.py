"""LLM reranker: the Qwen3-Reranker prompt, truncation, and P(yes) against a direct forward pass."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from execir.dataset.spec import TASK_SPECS
from execir.errors import ExecIRError, MissingDependencyError
from execir.rerank.base import Reranker, RerankRequest
from execir.rerank.llm import LLMReranker, single_token_id
from execir.rerank.prompts import DEFAULT_INSTRUCTION, QWEN3, infer_family, longest_first, truncate_segments

from .conftest import make_tiny_llm

REQUEST = RerankRequest(
    queries={"q1": "sort a list", "q2": "add two numbers together and return the sum", "q3": "nothing"},
    candidates={"q1": ("d1", "d2", "d3"), "q2": ("d3", "d1", "d2"), "q3": ()},
    documents={"d1": "def f(x):\n    return sorted(x)", "d2": "def g(a, b):\n    return a + b", "d3": "print('hi')"},
)


# ---- prompt template (pure) ----


def test_qwen3_prompt_is_the_reference_template() -> None:
    assert QWEN3.prompt("Find code.", "sort a list", "def f(x): return sorted(x)") == (
        "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. "
        'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n'
        "<Instruct>: Find code.\n<Query>: sort a list\n<Document>: def f(x): return sorted(x)"
        "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
    )


def test_segments_locate_query_and_document() -> None:
    body, (q0, q1), (d0, d1) = QWEN3.segments("I {x}", "a {query} q", "the doc")
    assert body == "<Instruct>: I {x}\n<Query>: a {query} q\n<Document>: the doc"
    assert (body[q0:q1], body[d0:d1]) == ("a {query} q", "the doc")


def test_infer_family() -> None:
    assert infer_family("Qwen/Qwen3-Reranker-0.6B", None) == (QWEN3, False)
    assert infer_family("someone/other-reranker", None) == (QWEN3, True)
    assert infer_family("someone/other-reranker", "qwen3") == (QWEN3, False)
    with pytest.raises(ExecIRError, match="unknown family 'gemma'"):
        infer_family("x", "gemma")


# ---- truncation (pure) ----


@pytest.mark.parametrize(
    ("query", "document", "budget", "expected"),
    [
        (3, 4, 10, (3, 4)),
        (3, 40, 10, (3, 7)),
        (40, 3, 10, (7, 3)),
        (40, 40, 10, (5, 5)),
        (40, 40, 9, (4, 5)),
        (6, 40, 10, (5, 5)),
        (0, 40, 10, (0, 10)),
    ],
)
def test_longest_first(query: int, document: int, budget: int, expected: tuple[int, int]) -> None:
    assert longest_first(query, document, budget) == expected
    assert sum(longest_first(query, document, budget)) <= budget


def _offsets(text: str) -> list[tuple[int, int]]:
    """One token per character."""
    return [(i, i + 1) for i in range(len(text))]


def test_truncate_segments_cuts_query_and_document_ends_only() -> None:
    body, query_span, document_span = QWEN3.segments("I", "QQQQ", "DDDDDDDDDD")
    offsets = _offsets(body)
    assert truncate_segments(offsets, query_span, document_span, len(body)) == list(range(len(body)))
    kept = truncate_segments(offsets, query_span, document_span, len(body) - 6)
    assert kept is not None
    assert "".join(body[i] for i in kept) == "<Instruct>: I\n<Query>: QQQQ\n<Document>: DDDD"
    kept = truncate_segments(offsets, query_span, document_span, len(body) - 10)
    assert kept is not None
    assert "".join(body[i] for i in kept) == "<Instruct>: I\n<Query>: QQ\n<Document>: DD"
    assert truncate_segments(offsets, query_span, document_span, len(body) - 15) is None  # the template alone is longer


def test_truncate_segments_with_tokens_straddling_boundaries() -> None:
    body, query_span, document_span = QWEN3.segments("I", "ab", "cdef")
    start = document_span[0]
    # the space before the document is glued to its first word, as a byte-level BPE does
    offsets = [(0, start - 1), (start - 1, start + 2), (start + 2, start + 4)]
    assert truncate_segments(offsets, query_span, document_span, 2) == [0, 1]


# ---- the reranker without a model ----


class _Vocab:
    unk_token_id = 0

    def __init__(self, tokens: dict[str, int]) -> None:
        self.tokens = tokens

    def convert_tokens_to_ids(self, token: str) -> int | None:
        return self.tokens.get(token, self.unk_token_id)

    def convert_ids_to_tokens(self, token_id: int) -> str:
        return {v: k for k, v in self.tokens.items()}.get(token_id, "<unk>")


def test_single_token_id() -> None:
    vocab = _Vocab({"<unk>": 0, "yes": 5, "no": 6})
    assert (single_token_id(vocab, "yes"), single_token_id(vocab, "no")) == (5, 6)
    with pytest.raises(ExecIRError, match="no single token 'Yes'"):
        single_token_id(vocab, "Yes")


def test_reranker_shape_instruction_and_errors_before_loading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "Qwen3-Reranker-tiny"
    model.mkdir()
    reranker = LLMReranker(str(model), progress=False)
    assert isinstance(reranker, Reranker)
    assert reranker.name == "llm:Qwen3-Reranker-tiny"
    assert reranker.instruction == DEFAULT_INSTRUCTION
    reranker.use_task(TASK_SPECS["c2t"])
    assert reranker.instruction == TASK_SPECS["c2t"].instruction
    reranker.use_task(None)
    assert reranker.instruction == DEFAULT_INSTRUCTION
    assert reranker.score(RerankRequest(queries={"q": "t"}, candidates={}, documents={})) == {"q": {}}
    config = reranker.config()
    assert (config["family"], config["family_guessed"], config["warning"], config["batch_size"]) == ("qwen3", False, None, 8)
    assert LLMReranker(str(model), family=None, progress=False).config()["max_length"] == 4096
    assert LLMReranker("org/some-llm").config()["warning"]
    with pytest.raises(ExecIRError, match="batch size"):
        LLMReranker(str(model), batch_size=0)
    with pytest.raises(ExecIRError, match="does not exist"):
        LLMReranker(str(tmp_path / "missing"))
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(MissingDependencyError, match=r"execir\[rerank\]"):
        reranker.score(REQUEST)


# ---- with a tiny model (slow: loads torch and transformers) ----


def _direct_p_yes(path: Path, prompt: str) -> float:
    """P(yes) from one unpadded forward pass over the whole prompt text."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    ids = tokenizer(prompt, add_special_tokens=False, return_tensors="pt")["input_ids"]
    with torch.no_grad():
        logits = model(input_ids=ids).logits[0, -1]
    yes, no = tokenizer.convert_tokens_to_ids("yes"), tokenizer.convert_tokens_to_ids("no")
    return float(torch.softmax(torch.stack([logits[no], logits[yes]]).double(), dim=0)[1])


@pytest.mark.slow
def test_score_is_p_yes_of_the_prompt(tiny_llm_reranker: Path) -> None:
    reranker = LLMReranker(str(tiny_llm_reranker), progress=False)
    reranker.use_task(TASK_SPECS["t2c-search"])
    scores = reranker.score(REQUEST)
    assert {q: set(docs) for q, docs in scores.items()} == {q: set(docs) for q, docs in REQUEST.candidates.items()}
    for qid, doc in (("q1", "d1"), ("q2", "d3")):
        prompt = QWEN3.prompt(TASK_SPECS["t2c-search"].instruction, REQUEST.queries[qid], REQUEST.documents[doc])
        assert scores[qid][doc] == pytest.approx(_direct_p_yes(tiny_llm_reranker, prompt), abs=1e-6)
    assert len({round(s, 6) for row in scores.values() for s in row.values()}) > 1
    stats = reranker.stats()
    assert (stats.queries, stats.pairs, stats.extra["truncated_pairs"]) == (3, 6, 0)
    assert reranker.config()["dtype"] == "torch.float32"


@pytest.mark.slow
def test_left_padded_batches_match_one_by_one(tiny_llm_reranker: Path) -> None:
    batched = LLMReranker(str(tiny_llm_reranker), batch_size=8, progress=False)
    single = LLMReranker(str(tiny_llm_reranker), batch_size=1, progress=False)
    together, alone = batched.score(REQUEST), single.score(REQUEST)
    assert together == batched.score(REQUEST)  # deterministic
    for qid, row in alone.items():
        for doc, value in row.items():
            assert together[qid][doc] == pytest.approx(value, abs=1e-5)


@pytest.mark.slow
def test_long_documents_are_truncated_not_the_template(tiny_llm_reranker: Path) -> None:
    reranker = LLMReranker(str(tiny_llm_reranker), max_length=420, progress=False)
    ids, cut = reranker.encode("sort a list", "x = 1\n" * 100)
    assert cut and len(ids) == 420
    tokenizer = reranker._load()[0]
    text = tokenizer.decode(ids)
    assert text.startswith(QWEN3.prefix + f"<Instruct>: {DEFAULT_INSTRUCTION}\n<Query>: sort a list\n<Document>: x = 1\n")
    assert text.endswith(QWEN3.suffix)
    assert text.count("x = 1") < 100
    reranker.score(RerankRequest(queries={"q": "sort a list"}, candidates={"q": ("d",)}, documents={"d": "x = 1\n" * 100}))
    assert reranker.stats().extra["truncated_pairs"] == 1
    with pytest.raises(ExecIRError, match="max_length 100 is too short"):
        LLMReranker(str(tiny_llm_reranker), max_length=100, progress=False).encode("q", "d")


@pytest.mark.slow
def test_tokenizer_without_yes_no_tokens_is_an_error(tmp_path: Path) -> None:
    model = make_tiny_llm(tmp_path / "no-yes", yes_no=False)
    with pytest.raises(ExecIRError, match="no single token 'yes'"):
        LLMReranker(str(model), progress=False).score(REQUEST)


@pytest.mark.slow
def test_directory_without_a_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ExecIRError, match="cannot load LLM reranker"):
        LLMReranker(str(tmp_path), progress=False).score(REQUEST)
