"""Reading turn facts out of an episode value, and the reserved fields the wrapper writes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langchain_qgate._text import repair_text

__all__ = [
    "ACTIVE",
    "DAY",
    "DAY_SECONDS",
    "NOISE",
    "QGATE",
    "RESERVED",
    "episode_text",
    "session_of",
    "turn_facts",
]

ACTIVE = "active"
"""Top-level boolean: ``False`` marks a soft-deleted episode (filterable on every backend)."""
DAY = "qgate_day"
"""Top-level integer day number (``created_at // 86400``): selects dedup candidates with an
equality filter, which both InMemoryStore and PostgresStore evaluate exactly."""
NOISE = "qgate_noise"
"""Top-level boolean on decisions: ``True`` when the decision-noise filter flagged it."""
QGATE = "qgate"
"""Nested dict with the wrapper's bookkeeping (embedding, timestamps, reasons)."""
RESERVED = frozenset({ACTIVE, DAY, NOISE, QGATE})
DAY_SECONDS = 86_400.0

_TEXT_FIELDS = ("content", "text", "summary", "episode")
_USER_FIELDS = ("user", "user_text", "input", "question")
_ASSISTANT_FIELDS = ("assistant", "assistant_text", "output", "answer")


def _first_str(value: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        got = value.get(name)
        if isinstance(got, str):
            return got
    return None


def episode_text(value: Mapping[str, Any]) -> str:
    """The text an episode is embedded by.

    The first of ``content``/``text``/``summary``/``episode``; else the user and assistant
    texts joined; else the value as sorted JSON without the reserved fields. Lone surrogates
    are replaced by U+FFFD (never sent to the embedder).
    """
    text = _first_str(value, _TEXT_FIELDS)
    if text is not None:
        return repair_text(text)
    parts = [
        p for p in (_first_str(value, _USER_FIELDS), _first_str(value, _ASSISTANT_FIELDS)) if p
    ]
    if parts:
        return repair_text("\n".join(parts))
    rest = {k: v for k, v in value.items() if k not in RESERVED}
    return json.dumps(rest, sort_keys=True, default=str)


def session_of(value: Mapping[str, Any]) -> str:
    """The session id of an episode (``session_id`` or ``thread_id``; ``"default"``)."""
    for name in ("session_id", "thread_id"):
        got = value.get(name)
        if isinstance(got, str | int) and str(got):
            return str(got)
    return "default"


def turn_facts(value: Mapping[str, Any]) -> dict[str, Any]:
    """What one episode put tells about its turn (``SessionMetadata.observe_turn`` kwargs).

    Reads ``user``/``assistant`` texts (or ``user_chars``/``assistant_chars``), ``tools_used``
    (names, or dicts with a ``name``), ``remember`` and ``turn``. Without user/assistant
    fields the episode text counts as the user's.
    """
    user = _first_str(value, _USER_FIELDS)
    assistant = _first_str(value, _ASSISTANT_FIELDS)
    facts: dict[str, Any] = {}
    if user is None and assistant is None:
        user = episode_text(value)
    facts["user_text"] = user or ""
    facts["assistant_text"] = assistant or ""
    for name in ("user_chars", "assistant_chars", "turn"):
        got = value.get(name)
        if isinstance(got, int) and not isinstance(got, bool) and got >= 0:
            facts[name] = got
    tools = value.get("tools_used") or value.get("tools") or ()
    if isinstance(tools, str):
        tools = [tools]
    names: list[str] = []
    if isinstance(tools, list | tuple):
        for tool in tools:
            if isinstance(tool, str):
                names.append(tool)
            elif isinstance(tool, Mapping) and isinstance(tool.get("name"), str):
                names.append(tool["name"])
    facts["tools_used"] = names
    remember = value.get("remember")
    if isinstance(remember, bool):
        facts["remember"] = remember
    return facts
