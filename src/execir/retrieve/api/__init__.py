"""Hosted embedding APIs, one module per provider; spec ``api:<provider>:<model>``.

Requests go through urllib (no SDK dependency); keys come from environment variables and are
read only when something must actually be encoded, so fully cached runs need no key.
"""

from __future__ import annotations

from execir.errors import ExecIRError
from execir.retrieve.api.base import ApiEncoder, Transport
from execir.retrieve.api.cohere import CohereEncoder
from execir.retrieve.api.openai import OpenAIEncoder
from execir.retrieve.api.voyage import VoyageEncoder

PROVIDERS: dict[str, type[ApiEncoder]] = {
    "openai": OpenAIEncoder,
    "voyage": VoyageEncoder,
    "cohere": CohereEncoder,
}


def api_encoder(provider: str, model: str, *, transport: Transport | None = None) -> ApiEncoder:
    """The encoder for ``provider`` (one of :data:`PROVIDERS`) and ``model``."""
    if provider not in PROVIDERS:
        raise ExecIRError(f"unknown embedding API provider '{provider}'; known: {', '.join(sorted(PROVIDERS))}")
    return PROVIDERS[provider](model, transport=transport)


__all__ = ["PROVIDERS", "ApiEncoder", "Transport", "api_encoder"]
