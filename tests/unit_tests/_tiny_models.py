"""Tiny randomly initialised BERT models with the bundled tokenizer, for fast model-code tests."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from langchain_qgate.grounding.evidence.embeddings import resolve_model_path

TOKENIZER_FILES = (
    "vocab.txt",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
)


def save_tiny_bert(out: Path, model_class: Any, **config: Any) -> Path:
    """Save a 2-layer, 32-wide ``model_class`` (e.g. ``BertModel``) with MiniLM's tokenizer.

    ``config`` adds to or overrides the tiny ``BertConfig`` (labels for a classifier...).
    """
    import torch
    from transformers import BertConfig

    torch.manual_seed(0)
    src = Path(resolve_model_path("all-MiniLM-L6-v2"))
    out.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        shutil.copy(src / name, out / name)
    settings: dict[str, Any] = {
        "vocab_size": 30522,
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 64,
        **config,
    }
    model_class(BertConfig(**settings)).save_pretrained(out)
    return out
