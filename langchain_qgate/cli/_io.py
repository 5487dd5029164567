"""What every ``qgate`` subcommand shares: exit codes, the input error, reading and writing.

Exit codes follow linters and test runners: 0 passed, 1 rejected, 2 usage or input error
(argparse's own usage errors exit 2 as well). Every error is one line on stderr,
``qgate <subcommand>: error: <file>: <what is wrong>``.

Standard output closed early (``qgate check --json | head -c 10``) is no error: as Unix tools
do, ``qgate`` stops writing without a message. A subcommand that has its verdict before it
writes (``check``, ``judge``, ``bench``, ``warm``; ``--help`` and ``--version`` too) still
exits with that status; one that was still producing its output (``demo``) exits 141, the
status of a process ended by SIGPIPE (``yes | head`` under ``set -o pipefail``).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any

from langchain_qgate.errors import QGateError

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_CODES_HELP",
    "EXIT_EMPTY",
    "EXIT_ERROR",
    "EXIT_PASS",
    "EXIT_REJECTED",
    "JSON_PLACES",
    "CliError",
    "discard_stdout",
    "emit",
    "flush_stdout",
    "read_text",
    "rounded",
]

EXIT_PASS = 0
"""Every subcommand: it passed (``qgate check``: a pass with a warning included)."""
EXIT_REJECTED = 1
"""``qgate check``: the gate rejected the answer; ``qgate judge``: an object was rejected."""
EXIT_ERROR = 2
"""Every subcommand: a usage or input error (bad option, unreadable or malformed file)."""
EXIT_EMPTY = 3
"""``qgate check --fail-on-empty``: the answer has no checkable claims (empty, or only
questions or opinions). Without the option such an answer passes (0) with a warning."""
EXIT_BROKEN_PIPE = 141
"""Standard output was closed while ``qgate`` was still writing it (``qgate demo | head``):
128 + SIGPIPE, what a Unix tool ended by SIGPIPE reports. Subcommands that have their verdict
before writing exit with the verdict instead."""

EXIT_CODES_HELP = """\
exit codes (every subcommand):
  0  passed (qgate check: a pass with a warning included)
  1  rejected (qgate check: the gate rejected the answer; qgate judge: an object was rejected)
  2  usage or input error: one line on stderr, "qgate <subcommand>: error: <file>: ..."
     (--debug shows the traceback)
  3  qgate check --fail-on-empty: the answer has no checkable claims
standard output closed early (| head): qgate stops writing quietly and exits with the verdict
  above; qgate demo, still writing, exits 141 as a tool ended by SIGPIPE does
"""

JSON_PLACES = 4
"""Decimal places of the figures in ``--json`` output (``0.9336889999999999`` -> ``0.9337``)."""


class CliError(QGateError, ValueError):
    """A bad command-line input (unreadable file, malformed JSON...): one line, exit 2."""


def read_text(path: str) -> str:
    """The UTF-8 text of a file, or of standard input for ``-``.

    Raises:
        CliError: The file cannot be read or is not UTF-8; the message names it.
    """
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            data = buffer.read() if buffer is not None else sys.stdin.read().encode()
        else:
            data = Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {name}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"cannot read {name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); convert it to UTF-8 first"
        ) from exc


def rounded(value: Any, places: int = JSON_PLACES) -> Any:
    """A copy of a JSON-shaped ``value`` with every float rounded to ``places`` decimals.

    For printing only: the verdict objects the figures come from are not changed. Booleans,
    integers, strings and non-finite floats are kept as they are.
    """
    if isinstance(value, float):
        return round(value, places) if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: rounded(v, places) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v, places) for v in value]
    return value


def emit(text: str) -> None:
    """Write ``text`` and a newline to standard output, flushed.

    When the reader has gone (``| head``), the rest of the output is discarded without a
    message, as Unix tools do, and the caller goes on to return its verdict.
    """
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        discard_stdout()


def flush_stdout() -> None:
    """Flush standard output; a reader that has gone (``| head``) is no error."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        discard_stdout()


def discard_stdout() -> None:
    """Send whatever is still to be written to standard output to the null device.

    After the reader of a pipe has gone, both the next write and the interpreter's last flush
    would raise ``BrokenPipeError`` again (Python then prints ``Exception ignored ...`` at
    exit); pointing the file descriptor at ``os.devnull`` ends that, as the Python
    documentation recommends for SIGPIPE.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing held
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
