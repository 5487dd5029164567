"""What every notebook needs: the example documents, the examples' code, figures shown inline.

The notebooks (``notebooks/NN_name.py``, jupytext percent scripts; the ``.ipynb`` files are
generated from them by ``scripts/build_notebooks.py``) import this module from their own
folder: Jupyter runs them there, and ``python notebooks/NN_name.py`` puts the folder on
``sys.path`` too.
"""

from __future__ import annotations

import importlib.util
import io
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the embedding model ships with the package
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(os.environ.get("QGATE_REPO") or Path(__file__).resolve().parents[1])
"""The repository checkout (``QGATE_REPO`` overrides it)."""
EXAMPLES = REPO / "examples"
DOCS = EXAMPLES / "docs"
"""The example company documents (Nordlicht Robotics), one Markdown file each."""

__all__ = ["DOCS", "EXAMPLES", "REPO", "example", "real_chat_model", "show", "show_png"]


def example(name: str) -> ModuleType:
    """``examples/<name>.py`` imported as a module, for its code and data (its ``main()``
    does not run): each example is written once and the notebooks reuse it."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"no example named {name!r} in {EXAMPLES}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


def show_png(png: bytes | str | Path) -> None:
    """Display a PNG (bytes or a file) inline in Jupyter; do nothing when run as a script."""
    if not _in_notebook():
        return
    from IPython.display import Image, display

    data = png if isinstance(png, bytes) else Path(png).read_bytes()
    display(Image(data))


def show(fig: Any) -> None:
    """Show a matplotlib figure inline (a PNG, trimmed to its content) and close it.

    Run as a plain script, the figure is only closed: the scripts print their story and the
    pictures are in the executed ``.ipynb``.
    """
    import matplotlib.pyplot as plt

    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    show_png(png.getvalue())


def real_chat_model() -> Any:
    """A real chat model when one is configured, else ``None`` (the notebooks run offline).

    Swap one in by setting ``OPENAI_API_KEY`` (``openai:gpt-4o-mini``) or
    ``QGATE_USE_OLLAMA=1`` (``llama3.1`` with ``pip install langchain-ollama``). Token
    logprobs are requested: the calibrator reads them from ``response_metadata["logprobs"]``
    when an answer states no confidence in words.
    """
    if os.environ.get("OPENAI_API_KEY"):
        from langchain.chat_models import init_chat_model

        return init_chat_model("openai:gpt-4o-mini", logprobs=True)
    if os.environ.get("QGATE_USE_OLLAMA"):
        from langchain_ollama import ChatOllama  # type: ignore[import-not-found]

        return ChatOllama(model="llama3.1", logprobs=True)
    return None
