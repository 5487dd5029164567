"""``python -m langchain_qgate.cli``: the ``qgate`` command."""

from __future__ import annotations

from langchain_qgate.cli.app import main

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
