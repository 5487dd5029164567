"""Command-line options shared by several ``qgate`` subcommands."""

from __future__ import annotations

import argparse

__all__ = ["add_model_options"]


def add_model_options(parser: argparse.ArgumentParser, default_model: str) -> None:
    parser.add_argument("--model", default=default_model, help="embedding model")
    parser.add_argument(
        "--backend",
        choices=["auto", "onnx", "torch"],
        default="auto",
        help="embedding runtime (auto: ONNX Runtime when the model can be exported)",
    )
