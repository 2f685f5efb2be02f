"""Embedding APIs: hosted providers (``api:<provider>:<model>[,opt=value...]``, one module each) and
self-hosted servers (``http:URL@MODEL[,api=openai|tei|ollama,...]``, :mod:`.selfhosted`).

Requests go through :mod:`.http` (urllib, retries, redaction; no SDK dependency). Keys come from
environment variables and are read only when something must actually be encoded, so fully cached
runs need no key. :mod:`.usage` counts requests, tokens and the estimated cost.
"""

from __future__ import annotations

from execir.errors import ExecIRError
from execir.retrieve.api.base import ApiEncoder
from execir.retrieve.api.cohere import CohereEncoder
from execir.retrieve.api.gemini import GeminiEncoder
from execir.retrieve.api.http import ApiError, HttpClient, RetryPolicy
from execir.retrieve.api.jina import JinaEncoder
from execir.retrieve.api.mistral import MistralEncoder
from execir.retrieve.api.nomic import NomicEncoder
from execir.retrieve.api.openai import OpenAIEncoder
from execir.retrieve.api.selfhosted import SelfHostedEncoder, options_of, parse_http_spec
from execir.retrieve.api.voyage import VoyageEncoder

PROVIDERS: dict[str, type[ApiEncoder]] = {
    "openai": OpenAIEncoder,
    "voyage": VoyageEncoder,
    "cohere": CohereEncoder,
    "gemini": GeminiEncoder,
    "jina": JinaEncoder,
    "mistral": MistralEncoder,
    "nomic": NomicEncoder,
}


def api_encoder(provider: str, model: str, *, options: dict[str, str] | None = None, client: HttpClient | None = None) -> ApiEncoder:
    """The encoder for ``provider`` (one of :data:`PROVIDERS`) and ``model``, with validated spec options."""
    if provider not in PROVIDERS:
        raise ExecIRError(f"unknown embedding API provider '{provider}'; known: {', '.join(sorted(PROVIDERS))}")
    return PROVIDERS[provider](model, options=options, client=client)


def encoder_from_spec(kind: str, arg: str, *, client: HttpClient | None = None) -> ApiEncoder:
    """The encoder of a spec ``api:<provider>:<model>[,k=v...]`` or ``http:URL@MODEL[,k=v...]`` (``arg``: after ``kind:``)."""
    if kind == "http":
        url, model, options = parse_http_spec(arg)
        return SelfHostedEncoder(url, model, options=options, client=client)
    head, *rest = arg.split(",")
    provider, _, model = head.partition(":")
    if not provider or not model:
        raise ExecIRError(f"retriever 'api:{arg}': expected api:<provider>:<model>[,option=value...]; providers: {', '.join(sorted(PROVIDERS))}")
    return api_encoder(provider, model, options=options_of(rest, f"api:{head}"), client=client)


__all__ = ["PROVIDERS", "ApiEncoder", "ApiError", "HttpClient", "RetryPolicy", "SelfHostedEncoder", "api_encoder", "encoder_from_spec"]
