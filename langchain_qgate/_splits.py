"""The fixed fit/report split of the development data.

Every figure fitted on ``../shared/benchdata`` uses rows whose split is ``"fit"`` and reports on
rows whose split is ``"report"``. The split is a hash of the row id, so it is stable across
runs, machines and row order, and shared by every script (grounding weights, calibration map).
"""

from __future__ import annotations

import hashlib
from typing import Literal

__all__ = ["Split", "split_of"]

Split = Literal["fit", "report"]
"""Which half of the development data a row belongs to."""


def split_of(row_id: str) -> Split:
    """Return ``"fit"`` or ``"report"`` for a data row id (about half each)."""
    digest = hashlib.blake2b(row_id.encode("utf-8"), digest_size=8).digest()
    return "fit" if digest[0] % 2 == 0 else "report"
