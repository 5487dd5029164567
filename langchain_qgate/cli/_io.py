"""What every ``qgate`` subcommand shares: the exit codes, the input error, reading files.

Exit codes follow linters and test runners: 0 passed, 1 rejected, 2 usage or input error
(argparse's own usage errors exit 2 as well). Every error is one line on stderr,
``qgate <subcommand>: error: <file>: <what is wrong>``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain_qgate.errors import QGateError

__all__ = ["EXIT_CODES_HELP", "EXIT_ERROR", "EXIT_PASS", "EXIT_REJECTED", "CliError", "read_text"]

EXIT_PASS = 0
"""Every subcommand: it passed (``qgate check``: a pass with a warning included)."""
EXIT_REJECTED = 1
"""``qgate check``: the gate rejected the answer; ``qgate judge``: an object was rejected."""
EXIT_ERROR = 2
"""Every subcommand: a usage or input error (bad option, unreadable or malformed file)."""

EXIT_CODES_HELP = """\
exit codes (every subcommand):
  0  passed (qgate check: a pass with a warning included)
  1  rejected (qgate check: the gate rejected the answer; qgate judge: an object was rejected)
  2  usage or input error: one line on stderr, "qgate <subcommand>: error: <file>: ..."
     (--debug shows the traceback)
"""


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
