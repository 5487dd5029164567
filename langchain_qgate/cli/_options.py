"""Command-line options shared by several ``qgate`` subcommands."""

from __future__ import annotations

import argparse

__all__ = ["add_model_options", "pair_model_of"]


def add_model_options(parser: argparse.ArgumentParser, default_model: str) -> None:
    parser.add_argument("--model", default=default_model, help="embedding model")
    parser.add_argument(
        "--backend",
        choices=["auto", "onnx", "torch"],
        default="auto",
        help="embedding runtime (auto: ONNX Runtime when the model can be exported)",
    )
    parser.add_argument(
        "--pair-model",
        default="bundled",
        help="claim-evidence verifier: 'bundled' (the shipped one), a folder written by "
        "scripts/train_verifier.py, or 'none' for the rules alone",
    )


def pair_model_of(args: argparse.Namespace) -> str | None:
    """The ``GroundingPolicy.pair_model`` value of ``--pair-model``."""
    value = str(getattr(args, "pair_model", "bundled"))
    return None if value.lower() == "none" else value
