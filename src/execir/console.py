"""When progress bars are shown: only on a terminal, never in logs, pipes or CI output."""

from __future__ import annotations

import os
import sys

HUB_BARS_ENV = "HF_HUB_DISABLE_PROGRESS_BARS"


def progress_enabled(requested: bool = True) -> bool:
    """True when a bar was asked for and stderr is a terminal (bars in captured output are noise)."""
    return requested and sys.stderr.isatty()


def silence_library_bars() -> None:
    """Turn off huggingface_hub's and transformers' own bars for this process (they read this variable
    when first imported; :meth:`SentenceTransformerEncoder._load` also switches them off explicitly)."""
    os.environ[HUB_BARS_ENV] = "1"


def disable_loaded_library_bars() -> None:
    """Switch off the bars of transformers and huggingface_hub, when they are installed."""
    try:
        from huggingface_hub.utils import disable_progress_bars
        from transformers.utils import logging as transformers_logging
    except ImportError:
        return
    disable_progress_bars()
    transformers_logging.disable_progress_bar()
