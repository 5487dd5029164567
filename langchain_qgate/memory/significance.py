"""Significance filter: which chat turns deserve an episode in long-term memory.

The filter reads session metadata (turn count, tools used, user and assistant characters,
an explicit remember request). The first turn always creates an episode, so a session that
ends early is not lost; later turns create one when the session is significant. At session
end a session none of whose later turns was significant ("hi" / "thanks") has its first-turn
episode soft-deleted (see the store wrapper); nothing is removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from langchain_qgate.memory.models import SignificanceReason, SignificanceVerdict
from langchain_qgate.memory.policy import MemoryFilterPolicy

__all__ = [
    "SessionMetadata",
    "assess_significance",
    "is_remember_request",
    "is_trivial_session",
]

_REMEMBER = re.compile(
    r"""
    \bremember\s+(?:this|that)\b
    | \b(?:don'?t|don’t|do\s+not)\s+forget\b
    | \bsave\s+(?:this|that|it)\s+(?:to|in|into)\s+(?:your\s+|my\s+|the\s+)?memory\b
    """,
    re.IGNORECASE | re.VERBOSE,
)


def is_remember_request(text: str) -> bool:
    """Whether ``text`` explicitly asks to remember something.

    Only narrow phrases count: "remember this/that", "don't forget" / "do not forget",
    "save this to memory". "Save this file" or "I remember when" do not.

    Example:
        >>> is_remember_request("Please remember this: I deploy on Fridays.")
        True
        >>> is_remember_request("Save this file as notes.txt")
        False
    """
    return bool(_REMEMBER.search(text))


class SessionMetadata(BaseModel):
    """Cumulative facts about one chat session (plain data; lives in the store or state).

    Attributes:
        session_id: The session (for agents: the thread id).
        turn_count: Turns observed so far.
        tools_used: Names of the tools used so far (sorted, unique).
        user_chars: Characters the user wrote so far.
        assistant_chars: Characters the assistant wrote so far.
        remember_requested: The user asked to remember something.
        started_at: Clock time of the first turn (seconds since the epoch).
        updated_at: Clock time of the latest turn.
        trivial_episode_keys: Episodes created while the session was still trivial; they are
            soft-deleted at session end if it stayed trivial.
        ended: ``end_session`` ran for this session.

    Example:
        >>> meta = SessionMetadata(session_id="t1").observe_turn(user_text="hi", now=0.0)
        >>> meta.turn_count
        1
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    session_id: str
    turn_count: int = 0
    tools_used: tuple[str, ...] = ()
    user_chars: int = 0
    assistant_chars: int = 0
    remember_requested: bool = False
    started_at: float | None = None
    updated_at: float | None = None
    trivial_episode_keys: tuple[str, ...] = ()
    ended: bool = False

    @property
    def combined_chars(self) -> int:
        """User plus assistant characters."""
        return self.user_chars + self.assistant_chars

    def observe_turn(
        self,
        *,
        user_text: str = "",
        assistant_text: str = "",
        tools_used: Iterable[str] = (),
        user_chars: int | None = None,
        assistant_chars: int | None = None,
        remember: bool | None = None,
        turn: int | None = None,
        now: float,
    ) -> SessionMetadata:
        """A copy updated with one more turn.

        Args:
            user_text: What the user wrote this turn.
            assistant_text: What the assistant answered this turn.
            tools_used: Tools called this turn.
            user_chars: Overrides ``len(user_text)``.
            assistant_chars: Overrides ``len(assistant_text)``.
            remember: Overrides the remember-request detection on ``user_text``.
            turn: The turn number when the caller knows it (otherwise ``turn_count + 1``).
            now: Clock time of the turn.
        """
        asked = is_remember_request(user_text) if remember is None else remember
        next_turn = self.turn_count + 1 if turn is None else max(int(turn), self.turn_count)
        return self.model_copy(
            update={
                "turn_count": next_turn,
                "tools_used": tuple(sorted({*self.tools_used, *(str(t) for t in tools_used)})),
                "user_chars": self.user_chars
                + (len(user_text) if user_chars is None else user_chars),
                "assistant_chars": self.assistant_chars
                + (len(assistant_text) if assistant_chars is None else assistant_chars),
                "remember_requested": self.remember_requested or asked,
                "started_at": self.started_at if self.started_at is not None else now,
                "updated_at": now,
            }
        )

    def with_episode(self, key: str, *, limit: int) -> SessionMetadata:
        """A copy that tracks ``key`` as an episode of a still-trivial session."""
        if key in self.trivial_episode_keys or len(self.trivial_episode_keys) >= limit:
            return self
        return self.model_copy(update={"trivial_episode_keys": (*self.trivial_episode_keys, key)})


def assess_significance(
    meta: SessionMetadata, policy: MemoryFilterPolicy | None = None
) -> SignificanceVerdict:
    """Whether the session's latest turn creates an episode.

    The first turn always does. A later turn does when tools were used, the session is
    multi-turn (``policy.multi_turn_min`` turns), the combined content reaches
    ``policy.min_significant_chars`` or the user asked to remember.

    Example:
        >>> meta = SessionMetadata(session_id="t", turn_count=2, user_chars=10)
        >>> assess_significance(meta).significant
        False
    """
    policy = policy or MemoryFilterPolicy()
    reasons: list[SignificanceReason] = []
    if meta.turn_count <= 1:
        reasons.append("first_turn")
    if meta.tools_used:
        reasons.append("tools_used")
    if meta.turn_count >= policy.multi_turn_min:
        reasons.append("multi_turn")
    if meta.turn_count >= 1 and meta.combined_chars >= policy.min_significant_chars:
        reasons.append("substantial_content")
    if meta.remember_requested:
        reasons.append("remember_request")
    return SignificanceVerdict(significant=bool(reasons), reasons=tuple(reasons))


def is_trivial_session(meta: SessionMetadata, policy: MemoryFilterPolicy | None = None) -> bool:
    """Whether a session stayed trivial: no turn after the first one was significant.

    That is: no tools, fewer than ``policy.multi_turn_min`` turns, combined content under
    ``policy.min_significant_chars`` and no remember request. A "hi" / "thanks" session has
    two turns and stays trivial (its second turn was skipped as insignificant); a session of
    zero or one turn is trivial on the same rules. A remember request keeps the session (the
    user asked for exactly that).

    Example:
        >>> meta = SessionMetadata(session_id="t", turn_count=2, user_chars=8, assistant_chars=20)
        >>> is_trivial_session(meta)
        True
    """
    policy = policy or MemoryFilterPolicy()
    return assess_significance(meta, policy).reasons in ((), ("first_turn",))
