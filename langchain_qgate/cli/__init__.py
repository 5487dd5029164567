"""The ``qgate`` command line: ``check``, ``bench``, ``demo``, ``judge`` and ``warm``.

Modules: ``app`` (the parser, :func:`main`, ``check`` and ``warm``), ``bench`` (the
benchmarks), ``demo`` (the scripted agent demo), ``judge`` (judge JSON results against ids).
``python -m langchain_qgate.cli`` runs :func:`main`, as does the ``qgate`` console script.

The top layer: it depends on every system below it (grounding, the gate, the judge, the
integrations for the demo) and nothing in the package imports it.
"""

from __future__ import annotations

from langchain_qgate.cli._io import EXIT_EMPTY
from langchain_qgate.cli.app import (
    EXIT_ERROR,
    EXIT_PASS,
    EXIT_REJECTED,
    CliError,
    build_parser,
    format_report,
    main,
)

__all__ = [
    "EXIT_EMPTY",
    "EXIT_ERROR",
    "EXIT_PASS",
    "EXIT_REJECTED",
    "CliError",
    "build_parser",
    "format_report",
    "main",
]
