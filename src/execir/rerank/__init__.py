"""Second-stage rerankers: the protocol (:mod:`execir.rerank.base`), chains of rerankers used as
sort keys (:mod:`execir.rerank.chain`) and the spec registry (:mod:`execir.rerank.registry`)."""

from execir.rerank.base import Reranker, RerankRequest, RerankStats
from execir.rerank.chain import RerankChain

__all__ = ["RerankChain", "RerankRequest", "RerankStats", "Reranker"]
