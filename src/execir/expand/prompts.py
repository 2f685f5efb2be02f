"""The generation prompts of HyDE and Query2doc, and how each builds its search query.

HyDE (Gao et al., arXiv 2212.10496; texttron/hyde ``src/hyde/promptor.py``) asks for a passage that
answers the question, with a domain word per corpus ("scientific paper passage", "financial article
passage"...). ExecIR's corpus is code, so its domain variant is "code passage"::

    Please write a code passage to answer the question.
    Question: {query}
    Passage:

Its search vector is the mean of the embeddings of the query (query role) and of the ``n``
generated passages (document role: the paper encodes them with the document encoder); with BM25
the search text is the query followed by the passages.

Query2doc (Wang et al., EMNLP 2023, arXiv 2303.07678) few-shot prompts for a pseudo-document
("Write a passage that answers the given query:" followed by ``Query:``/``Passage:`` examples) and
keeps the query: for BM25 the query repeated 5 times, then the pseudo-document; for dense retrieval
the query, a space and the pseudo-document (the paper's ``q [SEP] d'``; sentence embedders have no
separator token of their own). ExecIR's examples are two small code tasks that occur in none of the
bundled sources::

    Write a code passage that answers the given query:

    Query: reverse the order of the words in a sentence
    Passage: def reverse_words(sentence):
        return " ".join(reversed(sentence.split()))

    Query: count the vowels in a string
    Passage: def count_vowels(text):
        return sum(1 for ch in text.lower() if ch in "aeiou")

    Query: {query}
    Passage:

With ``n > 1`` Query2doc samples, the pseudo-document is the samples joined by newlines.
"""

from __future__ import annotations

from collections.abc import Sequence

HYDE_PROMPT = "Please write a code passage to answer the question.\nQuestion: {query}\nPassage:"

QUERY2DOC_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("reverse the order of the words in a sentence", 'def reverse_words(sentence):\n    return " ".join(reversed(sentence.split()))'),
    ("count the vowels in a string", 'def count_vowels(text):\n    return sum(1 for ch in text.lower() if ch in "aeiou")'),
)
QUERY2DOC_HEADER = "Write a code passage that answers the given query:"
QUERY2DOC_REPEATS = 5
"""Times the query is repeated before the pseudo-document in a BM25 query (Query2doc's n=5)."""


def query2doc_prompt(query: str) -> str:
    """The few-shot Query2doc prompt for ``query``."""
    shots = "".join(f"Query: {q}\nPassage: {d}\n\n" for q, d in QUERY2DOC_EXAMPLES)
    return f"{QUERY2DOC_HEADER}\n\n{shots}Query: {query}\nPassage:"


def prompt_for(kind: str, query: str) -> str:
    """The generation prompt of ``kind`` (``hyde`` or ``query2doc``) for ``query``."""
    if kind == "hyde":
        return HYDE_PROMPT.format(query=query)
    if kind == "query2doc":
        return query2doc_prompt(query)
    raise ValueError(f"no prompt for expansion kind '{kind}'")


def lexical_query(kind: str, query: str, samples: Sequence[str]) -> str:
    """The BM25 query text: HyDE's query and passages, or Query2doc's 5 x query and pseudo-document."""
    if kind == "hyde":
        return "\n".join([query, *samples])
    return " ".join([query] * QUERY2DOC_REPEATS + ["\n".join(samples)])


def dense_query(query: str, samples: Sequence[str]) -> str:
    """Query2doc's dense query text: the query, a space, the pseudo-document."""
    return query + " " + "\n".join(samples)
