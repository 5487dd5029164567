"""The unit tier runs on fakes: the hashing embedder and no learned pair model.

The shipped claim-evidence verifier is a real model; the monitors the unit tests build read
the rules-only combination (``GroundingPolicy(pair_model=None)`` is the default here, except
in tests marked ``model``). Tests of the verifier's decisions pass a scripted pair model
(``test_pair_signals.py``); the shipped model runs in the model tier.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from langchain_qgate.config import GroundingPolicy


@pytest.fixture(autouse=True)
def _rules_only_by_default(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("model") is not None:
        yield  # a real-model test here runs the shipped default
        return
    defaults = GroundingPolicy.__init__.__kwdefaults__
    saved = defaults["pair_model"]
    defaults["pair_model"] = None
    try:
        yield
    finally:
        defaults["pair_model"] = saved
