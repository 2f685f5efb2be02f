"""Text generators for HyDE and Query2doc: an OpenAI-compatible chat endpoint or a local causal LM.

* ``openai:<base_url>@<model>``: ``POST <base_url>/chat/completions`` with ``{"model", "messages":
  [{"role": "user", "content": prompt}], "n", "max_tokens", "temperature", "seed"}``; the texts are
  ``choices[i].message.content`` in ``index`` order. A server that returns fewer than ``n`` choices
  is asked again (seed + 1, ...) for the rest. ``Authorization: Bearer $OPENAI_API_KEY`` is sent
  when the variable is set (local servers need none); the key is never part of a cache key, a
  config, a record or an error message.
* ``hf:<dir>``: ``transformers`` ``AutoModelForCausalLM`` from a local directory; the prompt goes
  through the tokenizer's chat template when it has one (as a user turn), else as plain text;
  ``generate`` samples ``n`` continuations (greedy when temperature is 0) after ``torch.manual_seed
  (seed)``, so a prompt's samples do not depend on which queries came before it. Only the new
  tokens are decoded, special tokens skipped. A prompt that does not fit the model's context
  (``max_position_embeddings``) with ``max_tokens`` new tokens keeps its last tokens (the query and
  the ``Passage:`` cue are at its end); ``truncated_prompts`` counts them.

:func:`cached_samples` puts a :class:`~execir.expand.cache.GenerationCache` in front of either.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from execir.errors import ExecIRError, MissingDependencyError
from execir.expand.cache import GenerationCache, generation_key
from execir.expand.spec import GeneratorSpec
from execir.retrieve.api.http import HttpClient

KEY_ENV = "OPENAI_API_KEY"


class Generator(Protocol):
    """Prompt in, ``n`` sampled continuations out."""

    calls: int
    """Generation requests made (model calls or HTTP requests)."""

    def identity(self) -> dict[str, str]:
        """Everything besides the request that determines the text (no secrets)."""
        ...

    def generate(self, prompt: str, *, n: int, max_tokens: int, temperature: float, seed: int) -> list[str]:
        """``n`` continuations of ``prompt``."""
        ...


class OpenAIChatGenerator:
    """An OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, vLLM, llama.cpp, Ollama...)."""

    def __init__(self, base_url: str, model: str, *, client: HttpClient | None = None) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.client = client or HttpClient("chat completions")
        self.calls = 0

    def identity(self) -> dict[str, str]:
        return {"backend": "openai", "url": self.url, "model": self.model}

    def headers(self) -> dict[str, str]:
        """Bearer auth when ``$OPENAI_API_KEY`` is set, else none."""
        key = os.environ.get(KEY_ENV)
        if not key:
            return {}
        self.client.add_secret(key)
        return {"Authorization": f"Bearer {key}"}

    def generate(self, prompt: str, *, n: int, max_tokens: int, temperature: float, seed: int) -> list[str]:
        texts: list[str] = []
        while len(texts) < n:
            body = {
                "model": self.model,
                "messages": [{"role": "user", "content": prompt}],
                "n": n - len(texts),
                "max_tokens": max_tokens,
                "temperature": temperature,
                "seed": seed + len(texts),
            }
            self.calls += 1
            texts.extend(self._texts(self.client.post_json(self.url, body, headers=self.headers())))
        return texts[:n]

    def _texts(self, response: dict[str, Any]) -> list[str]:
        try:
            choices = sorted(response["choices"], key=lambda c: int(c.get("index", 0)))
            texts = [str(c["message"]["content"] or "") for c in choices]
        except (KeyError, TypeError, ValueError) as exc:
            raise ExecIRError(f"{self.url}: the answer has no choices[].message.content ({exc!r})") from exc
        if not texts:
            raise ExecIRError(f"{self.url}: the answer has no choices")
        return texts


class HFGenerator:
    """A local transformers causal LM (loaded on first use)."""

    def __init__(self, model_dir: str, *, device: str | None = None) -> None:
        self.path = Path(model_dir).expanduser()
        self.device = device
        self.calls = 0
        self.truncated_prompts = 0
        """Prompts cut from the left to fit the model's context with ``max_tokens`` new tokens."""
        self._loaded: tuple[Any, Any] | None = None
        self._revision: str | None = None

    def identity(self) -> dict[str, str]:
        from execir.model_identity import directory_fingerprint

        if self._revision is None:
            self._revision = directory_fingerprint(self.path)
        return {"backend": "hf", "model": self.path.name, "revision": self._revision}

    def _load(self) -> tuple[Any, Any]:
        if self._loaded is None:
            try:
                import torch
                from transformers import AutoModelForCausalLM, AutoTokenizer
            except ImportError as exc:
                raise MissingDependencyError("hf: generators need torch and transformers: pip install 'execir[rerank]'") from exc
            device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
            try:
                tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
                model: Any = AutoModelForCausalLM.from_pretrained(str(self.path), local_files_only=True, dtype=torch.float32 if device == "cpu" else "auto")
            except (OSError, ValueError) as exc:
                raise ExecIRError(f"cannot load generator hf:{self.path}: {exc}") from exc
            self._loaded = (tokenizer, model.to(device).eval())
        return self._loaded

    def _prompt_ids(self, tokenizer: Any, prompt: str) -> list[int]:
        if getattr(tokenizer, "chat_template", None):
            ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True, tokenize=True)
            return list(ids["input_ids"] if isinstance(ids, dict) or hasattr(ids, "keys") else ids)
        return list(tokenizer(prompt)["input_ids"])

    @staticmethod
    def context(model: Any) -> int | None:
        """The model's context length in tokens (None when its config does not say)."""
        length = getattr(model.config, "max_position_embeddings", None)
        return int(length) if isinstance(length, int) else None

    def fit_context(self, ids: list[int], max_tokens: int, context: int | None) -> list[int]:
        """The prompt's last ``context - max_tokens`` tokens (its end holds the query and the cue);
        the prompt unchanged when it fits or the context is unknown."""
        if context is None or len(ids) + max_tokens <= context:
            return ids
        if max_tokens >= context:
            raise ExecIRError(f"generator hf:{self.path}: max_tokens={max_tokens} leaves no room for a prompt in its {context}-token context")
        self.truncated_prompts += 1
        return ids[len(ids) + max_tokens - context :]

    def generate(self, prompt: str, *, n: int, max_tokens: int, temperature: float, seed: int) -> list[str]:
        import torch

        tokenizer, model = self._load()
        ids = torch.tensor([self.fit_context(self._prompt_ids(tokenizer, prompt), max_tokens, self.context(model))], device=model.device)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        sample = temperature > 0  # greedy decoding gives one text, repeated n times
        options: dict[str, Any] = {"do_sample": sample, "num_return_sequences": n if sample else 1, "max_new_tokens": max_tokens, "pad_token_id": pad}
        if sample:
            options.update(temperature=temperature, top_p=1.0, top_k=0)
        torch.manual_seed(seed)
        with torch.inference_mode():
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), **options)
        self.calls += 1
        texts = [tokenizer.decode(row[ids.shape[1] :], skip_special_tokens=True) for row in out]
        return texts if sample else texts * n


def make_generator(spec: GeneratorSpec, *, device: str | None = None) -> Generator:
    """The generator a parsed spec names."""
    if spec.backend == "openai":
        return OpenAIChatGenerator(spec.target, spec.model)
    return HFGenerator(spec.target, device=device)


def cached_samples(
    generator: Generator, cache: GenerationCache, prompt: str, *, n: int, max_tokens: int, temperature: float, seed: int
) -> tuple[list[str], bool]:
    """``(samples, from_cache)``: the ``n`` samples of ``prompt``, generated only when the cache lacks any."""
    identity = generator.identity()
    sampling = {"n": n, "max_tokens": max_tokens, "temperature": float(temperature), "seed": seed}
    keys = [generation_key({**identity, **sampling, "prompt": prompt, "sample": i}) for i in range(n)]
    found = cache.get(keys)
    if found is not None:
        return found, True
    texts = generator.generate(prompt, n=n, max_tokens=max_tokens, temperature=temperature, seed=seed)
    if len(texts) != n:
        raise ExecIRError(f"generator {identity.get('model')}: asked for {n} samples, got {len(texts)}")
    cache.put(keys, texts)
    return texts, False
