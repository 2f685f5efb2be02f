"""ExecIR retrieve stage: BM25, dense (sentence-transformers, hosted APIs) and RRF hybrids.

Entry point: :func:`get_retriever` with a spec string (``"bm25"``, ``"dense"``,
``"dense:<model>"``, ``"hybrid"``, ``"hybrid:<a>+<b>"``, ``"api:<provider>:<model>"``).
"""

from execir.retrieve.base import Retriever
from execir.retrieve.bm25 import BM25Retriever
from execir.retrieve.dense import DenseRetriever
from execir.retrieve.encoders import CachingEncoder, Encoder, HashingEncoder
from execir.retrieve.fusion import HybridRetriever, rrf
from execir.retrieve.registry import available_retrievers, get_retriever
from execir.retrieve.tokenize import CodeTokenizer

__all__ = [
    "BM25Retriever",
    "CachingEncoder",
    "CodeTokenizer",
    "DenseRetriever",
    "Encoder",
    "HashingEncoder",
    "HybridRetriever",
    "Retriever",
    "available_retrievers",
    "get_retriever",
    "rrf",
]
