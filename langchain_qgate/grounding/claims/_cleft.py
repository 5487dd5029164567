"""Clefts read in their plain order: what a claim states, whatever it puts first.

English can put a time or a person in focus with a cleft: "It was in 1998 that Google was
founded." states "Google was founded in 1998."; "It was Larry Page who founded Google."
states "Larry Page founded Google."; in chat, a time said first and its event after "when"
does the same: "I guess that was back in 1916, when the coach won the championship." states
"I guess the coach won the championship in 1916.". The checks read a figure or a name in
the place its event gives it (a year beside "won the championship"), so a cleft hid a wrong
year from them: the claim was "partly supported" where its plain order is contradicted.

:func:`unclefted` returns the plain order of such a sentence (a lead-in such as "I guess"
kept: the calibrator reads the hedge) and any other sentence unchanged; the claim keeps its
span in the answer. Patterns are anchored and bounded: linear in the sentence.
"""

from __future__ import annotations

import re

__all__ = ["unclefted"]

_LEAD = r"(?P<lead>(?:[A-Za-z']+,?\s+){0,4}?)"
_FOCUS_TIME = r"(?P<focus>(?:in|on|during|around|at)\s+[^,;:.!?]{1,40}?)"
# "that was back in 1916, when ...", "It was in 1998 that ...", "this happened in May, when ..."
_TIME_CLEFT = re.compile(
    _LEAD + r"(?i:it|that|this)(?:'s|\s+was|\s+is|\s+happened|\s+had\s+been)\s+"
    r"(?i:(?:(?:way|all\s+the\s+way)\s+)?back\s+)?"
    + _FOCUS_TIME
    + r",?\s+(?i:when|that)\s+(?P<clause>[^,;:!?]{3,200}?)(?P<end>[.!?]?)\s*$"
)
# "It was Larry Page who founded Google." (a name, capitalised, in focus)
_SUBJECT_CLEFT = re.compile(
    _LEAD + r"(?i:it)\s+(?:was|is)\s+(?P<focus>(?:the\s+)?[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,4})"
    r"\s+(?:who|that)\s+(?P<clause>[a-z][^,;:!?]{2,200}?)(?P<end>[.!?]?)\s*$"
)
_MAX_CHARS = 400
_CUE = re.compile(r"(?i)\b(?:it|that|this)\b")  # every cleft has one


def unclefted(sentence: str) -> str:
    """``sentence`` in its plain order when it is a cleft (see the module docstring), else
    ``sentence`` itself."""
    if len(sentence) > _MAX_CHARS or not _CUE.search(sentence):
        return sentence
    m = _TIME_CLEFT.match(sentence)
    if m is not None:
        return _joined(m["lead"], f"{m['clause']} {m['focus']}", m["end"])
    m = _SUBJECT_CLEFT.match(sentence)
    if m is not None:
        return _joined(m["lead"], f"{m['focus']} {m['clause']}", m["end"])
    return sentence


def _joined(lead: str, body: str, end: str) -> str:
    if not lead:
        body = body[:1].upper() + body[1:]
    return f"{lead}{body}{end or '.'}"
