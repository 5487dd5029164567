"""Helpers of the tests that read a reply against one hand-written record with the field
matcher alone (a hashing embedder and no pair model give the shipped models' decisions)."""

from __future__ import annotations

import json
from typing import Any

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import ClaimVerdict


def field_monitor() -> HallucinationMonitor:
    """A monitor that decides claims about records by their fields."""
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None))


def one_verdict(monitor: HallucinationMonitor, reply: str, record: dict[str, Any]) -> ClaimVerdict:
    """The verdict of a one-claim reply read against ``record`` as a tool's JSON."""
    verdicts = monitor.verify_grounding(reply, json.dumps(record)).verdicts
    assert len(verdicts) == 1, [v.claim.text for v in verdicts]
    return verdicts[0]
