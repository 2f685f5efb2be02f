"""Rerank endpoints as rerankers: ``api:<provider>/<model>`` (hosted) and ``http:URL[@MODEL][,option=value...]``.

``http:`` options: ``api=infinity|cohere|tei`` (the request shape, default ``infinity``; see
:mod:`execir.rerank.api.providers`) and ``batch=N`` (documents per call, at most the shape's own
limit). The URL is the server's base URL, or its rerank route itself when its path ends in
``rerank``; ``@MODEL`` (after the URL) names the served model and is sent with every call.
"""

from __future__ import annotations

from pathlib import Path

from execir.errors import ExecIRError
from execir.rerank.api.providers import HOSTED, SELF_HOSTED
from execir.rerank.api.reranker import ApiReranker, reranker_name
from execir.retrieve.api.http import HttpClient

HTTP_OPTIONS = ("api", "batch", "key_env")


def hosted_reranker(spec: str, arg: str, *, cache_dir: Path | None, batch_size: int | None = None, client: HttpClient | None = None) -> ApiReranker:
    """``api:<provider>/<model>`` (``arg`` is what follows ``api:``)."""
    provider, _, model = arg.partition("/")
    if provider not in HOSTED or not model.strip():
        known = ", ".join(f"api:{name}/<model>" for name in HOSTED)
        raise ExecIRError(f"unknown rerank spec '{spec}': expected one of {known}")
    return ApiReranker(HOSTED[provider](), model, name=reranker_name("api", provider, model, ""), cache_dir=cache_dir, batch_size=batch_size, client=client)


def _http_options(spec: str, text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in filter(None, text.split(",")):
        name, eq, value = item.partition("=")
        if not eq or name not in HTTP_OPTIONS or not value:
            raise ExecIRError(f"rerank spec '{spec}': bad option '{item}' (options: {', '.join(o + '=...' for o in HTTP_OPTIONS)})")
        options[name] = value
    return options


def http_reranker(spec: str, arg: str, *, cache_dir: Path | None, batch_size: int | None = None, client: HttpClient | None = None) -> ApiReranker:
    """``http:URL[@MODEL][,api=...][,batch=N][,key_env=VAR]`` (``arg`` is what follows ``http:``;
    ``key_env`` names the variable holding a bearer key for a server behind authentication)."""
    target, _, rest = arg.partition(",")
    options = _http_options(spec, rest)
    url, model = target, None
    scheme, sep, after = target.partition("://")
    if "@" in after:
        host_path, _, model = after.rpartition("@")
        url = scheme + sep + host_path
    if scheme not in ("http", "https") or not sep or not url.split("://", 1)[1] or model == "":
        raise ExecIRError(f"rerank spec '{spec}': expected http:<http(s)://host:port[/path]>[@<model>][,api=infinity|cohere|tei][,batch=N][,key_env=VAR]")
    shape = options.get("api", next(iter(SELF_HOSTED)))
    if shape not in SELF_HOSTED:
        raise ExecIRError(f"rerank spec '{spec}': api={shape} is not one of {', '.join(SELF_HOSTED)}")
    route = url if url.rstrip("/").endswith("rerank") else url.rstrip("/") + "/rerank"
    batch = options.get("batch")
    if batch is not None and not (batch.isdigit() and int(batch) > 0):
        raise ExecIRError(f"rerank spec '{spec}': batch={batch} is not a positive integer")
    limits = [size for size in (batch_size, int(batch) if batch else None) if size is not None]
    return ApiReranker(
        SELF_HOSTED[shape](route),
        model,
        name=reranker_name("http", shape, model, url),
        cache_dir=cache_dir,
        batch_size=min(limits) if limits else None,
        client=client,
        key_env=options.get("key_env"),
    )


__all__ = ["ApiReranker", "hosted_reranker", "http_reranker"]
