"""Sentence segmentation with exact character spans.

Rule-based and linear in the input: it survives abbreviations ("Dr.", "U.S.", "e.g."),
single initials ("J. K. Rowling"), decimals and versions ("3.5%", "v2.1.0"), URLs and
e-mails, ellipses, closing quotes and brackets after the full stop, CJK full stops
("。！？"), and markdown structure: blank lines, bullets, numbered items, headings, block
quotes, table rows and code blocks each start a new segment.

Line breaks inside a paragraph: a single newline is a boundary unless the text clearly
continues (the next line starts with a lowercase letter, or the line ends with a comma, a
hyphen or a function word such as "of" / "the"). That keeps one-sentence-per-line evidence
(Wikipedia dumps, HaluEval / WiCE contexts) and LLM answers apart while re-joining
hard-wrapped prose.

Example:
    >>> text = "Dr. Smith joined the U.S. Army in 1990. He left in 1995."
    >>> [text[s:e] for s, e in split_sentences(text)]
    ['Dr. Smith joined the U.S. Army in 1990.', 'He left in 1995.']
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

__all__ = ["Segment", "SegmentKind", "Span", "segment_text", "split_sentences"]

SegmentKind = Literal["sentence", "heading", "quote", "table", "code"]
"""What a segment is: prose sentence, markdown heading, block-quote sentence, table row or a
code block (only when code is kept)."""


class Span(NamedTuple):
    """A character span ``text[start:end]``."""

    start: int
    end: int


class Segment(NamedTuple):
    """A segment of text with its kind.

    Attributes:
        start: Offset of the first character (whitespace and markdown markers excluded).
        end: End offset (exclusive).
        kind: Sentence, heading, quote, table row or code block.
        item: True for the first sentence of a list item (a bullet or numbered line).
        line_start: True when the segment starts its line (after any markdown marker).
        line_end: True when the segment ends its line.
    """

    start: int
    end: int
    kind: SegmentKind
    item: bool = False
    line_start: bool = False
    line_end: bool = False


# --- line classification ------------------------------------------------------------------

_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
_QUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")
_ITEM = re.compile(
    r"[ \t]*(?:[-*+•‣▪◦]|\d{1,3}[.)]|\(\d{1,3}\)|\([a-z]\)|[a-z]\))[ \t]+(?:\[[ xX]\][ \t]+)?"
)
_RULE = re.compile(r"[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|={3,}[ \t]*)$")
_TABLE = re.compile(r"[ \t]*\|")
_INDENTED = re.compile(r"(?: {4}|\t)")

_LINE_END_TERMINAL = re.compile(r"[.!?:。！？…][\"'”’)\]»」』）*_]*[ \t]*$")
_LINE_END_STRONG = re.compile(r"[!?:。！？][\"'”’)\]»」』）*_]*[ \t]*$")
_JOINER_WORDS = (
    "a an the of to in on at by for with from and or but as that which who whose is are was "
    "were be his her its their our my your into than nor"
)
_LINE_END_JOINER = re.compile(
    r"(?:[,\-–—(/&]|\b(?:" + "|".join(_JOINER_WORDS.split()) + r"))[ \t]*$", re.IGNORECASE
)

# --- sentence boundaries inside a block ---------------------------------------------------

_CLOSERS = "\"'”’)]»」』）"
_CLOSER_CLASS = "[" + re.escape(_CLOSERS) + "]"
_CANDIDATE = re.compile(
    r"(?=[.!?…。！？｡])(?:"
    r"(?P<cjk>[。！？｡]+)" + _CLOSER_CLASS + "*"
    r"|(?P<term>\.{3,}|…|[.!?]+)(?:" + _CLOSER_CLASS + r"|[*_])*(?=\s|$)"
    r"|(?<=[a-z]{2})(?P<glued>\.)(?=[A-Z][a-z]))"
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Abbreviations that (almost) never end a sentence.
_NEVER_FINAL = _words(
    """dr mr mrs ms prof rev hon gen col capt lt sgt sen rep gov pres st mt vs v e.g i.e cf fig
    figs eq approx dept est vol pp ch al ca viz mme mlle messrs adm cmdr maj brig supt insp
    cit ibid nos"""
)
# Abbreviations that end a sentence only when a typical sentence opener follows.
_MAYBE_FINAL = _words(
    """etc inc ltd co corp jr sr llc plc bros a.m p.m u.s u.k u.n u.s.a e.u d.c ph.d b.a m.a
    b.sc m.sc no jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
    univ assn intl natl govt min max hr hrs km cm mm kg lb lbs oz mi yr yrs ft rd ave blvd sec
    ed eds"""
)
# Units of the list above: after a figure, a capital opens a new sentence ("1.3 kg. Owners").
_UNIT_ABBREVIATIONS = _words("km cm mm kg lb lbs oz mi ft hr hrs min sec yr yrs")
_FIGURE_BEFORE = re.compile(r"\d[\d.,]*\s*$")


def _after_figure(text: str, end: int, floor: int) -> bool:
    """Whether a figure ends right before ``end`` ("1.3 kg": the "1.3 ")."""
    return _FIGURE_BEFORE.search(text[max(floor, end - 24) : end]) is not None


_SENTENCE_OPENERS = _words(
    """the he she it they we i you this that these those there a an in on at but however his
    her its their our my as after before when since for from by with then also some many most
    all both each while although because if during today currently now later meanwhile
    moreover furthermore additionally one two three several what who which where how why
    following according despite yet so thus therefore overall finally first second
    unlike"""
)
_URLISH = re.compile(r"://|www\.|@|\.(?:com|org|net|io|gov|edu)\b", re.IGNORECASE)
_NEXT_TOKEN = re.compile(r"\s*(\S{0,40})")
_ALNUM = re.compile(r"[^\W_]")
_DOTTED = re.compile(r"(?:[a-z]\.)+[a-z]")
_LOOKBACK = 80
_QUOTE_LOOKAHEAD = 300


def _word_start(text: str, pos: int, floor: int) -> int:
    """Start of the whitespace-delimited word ending at ``pos`` (looking back to ``floor``)."""
    return 1 + max(
        text.rfind(" ", floor, pos),
        text.rfind("\n", floor, pos),
        text.rfind("\t", floor, pos),
        floor - 1,
    )


def _is_boundary(text: str, m: re.Match[str], block_start: int, block_end: int) -> bool:
    """Decide whether the candidate match ``m`` ends a sentence."""
    if m.group("cjk"):
        return True
    nm = _NEXT_TOKEN.match(text, m.end(), block_end)
    nxt = nm.group(1) if nm else ""
    if not nxt:
        return True
    floor = max(block_start, m.start() - _LOOKBACK)
    if m.group("glued"):
        # "century.First" (HaluEval joins paragraphs without a space); not URLs/e-mails.
        return not _URLISH.search(text, _word_start(text, m.start(), floor), m.end() + len(nxt))
    first = nxt.lstrip(_CLOSERS + "([{*_“‘")
    if not first:
        return True
    term = m.group("term")
    if first[0].islower():
        # "i used to! it's so relaxing"; not "? (ii) Express" (an enumeration goes on)
        return nxt[:1].islower() and _chat_boundary(text, m, term, block_start, floor)
    if term != ".":
        return True  # "!", "?", "?!" or an ellipsis followed by a capital
    written = text[_word_start(text, m.start(), floor) : m.start()].lstrip("([{\"'“‘*_")
    core = written.lower()
    if not core:
        return True  # tokenized " ." (FEVER) or a lone full stop
    opener = first.rstrip(".,;:!?\"'”’)").lower() in _SENTENCE_OPENERS
    if written.isupper() and written.isalpha() and len(written) >= 2:
        # "Santa Barbara, CA. They": a code in capitals ends a sentence before an opener.
        return opener
    if core in _NEVER_FINAL:
        return False
    if core in _UNIT_ABBREVIATIONS and _after_figure(text, m.start() - len(written), floor):
        return not first[0].isdigit()  # "weighs 1.3 kg. Owners get ...": a unit ends it
    if core in _MAYBE_FINAL:
        return opener and not first[0].isdigit()
    if len(core) == 1 and core.isalpha():
        # Single initial ("J. K. Rowling") unless a clear sentence opener follows.
        return opener and first.lower() not in {"i", "a"}
    if _DOTTED.fullmatch(core):
        return opener  # dotted acronym not in the list ("N.A.S.A.")
    return True


def _chat_boundary(text: str, m: re.Match[str], term: str, block_start: int, floor: int) -> bool:
    """A terminal before a lowercase word ends a sentence in lowercase chat ("i used to! it's
    so relaxing", "right?! absolutely unreal", "very. more than 300 people died") but not after
    a name ("Yahoo! is"), an abbreviation ("etc. and", "approx. 5") or an ellipsis ("... and
    then"). A full stop does so only in a block that itself opens in lowercase."""
    if term.startswith("..") or not term:
        return False
    written = text[_word_start(text, m.start(), floor) : m.start()].lstrip("([{\"'“‘*_")
    if not written.isalpha() or not written.islower():
        return False  # "Yahoo! is", "Dolly! with", "3. the", "U.S. and"
    if "." not in term:
        return True
    core = written.lower()
    opens_lower = text[block_start : block_start + 1].islower()
    return opens_lower and len(core) >= 3 and core not in _NEVER_FINAL and core not in _MAYBE_FINAL


def _in_open_quote(text: str, start: int, pos: int, block_end: int) -> bool:
    """True when ``pos`` sits inside a double quote that closes soon in the same block.

    ``start``..``pos`` is the sentence so far including the candidate's closing marks.
    """
    lo = max(start, pos - _QUOTE_LOOKAHEAD)
    straight = text.rfind('"', lo, pos)
    curly_open = text.rfind("“", lo, pos)
    curly_open = curly_open if curly_open > text.rfind("”", lo, pos) else -1
    opener = -1
    if (
        straight >= 0
        and (straight == 0 or text[straight - 1].isspace() or text[straight - 1] in "([{—–-:")
        and straight + 1 < len(text)
        and not text[straight + 1].isspace()
    ):
        opener = straight
    opener = max(opener, curly_open)
    if opener < 0:
        return False
    closer = '"' if opener == straight else "”"
    ahead = text[pos : min(block_end, pos + _QUOTE_LOOKAHEAD)]
    return closer in ahead


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _has_content(text: str, start: int, end: int) -> bool:
    return _ALNUM.search(text, start, end) is not None


def _split_block(
    text: str, start: int, end: int, kind: SegmentKind, item: bool, *, out: list[Segment]
) -> None:
    """Split a block ``text[start:end]`` into sentences and append them to ``out``."""
    if kind in ("heading", "table", "code"):
        s, e = _trim(text, start, end)
        if s < e and (kind == "code" or _has_content(text, s, e)):
            out.append(Segment(s, e, kind, item, line_start=True, line_end=True))
        return
    sent_start = start
    first = True
    for m in _CANDIDATE.finditer(text, start, end):
        if m.end() <= sent_start:
            continue
        if not _is_boundary(text, m, start, end):
            continue
        if m.group("term") == "." and _in_open_quote(text, sent_start, m.end(), end):
            continue
        cut = m.end() if not m.group("glued") else m.start() + 1
        s, e = _trim(text, sent_start, cut)
        if s < e and _has_content(text, s, e):
            out.append(Segment(s, e, kind, item and first, line_start=first, line_end=False))
            first = False
        sent_start = cut
    s, e = _trim(text, sent_start, end)
    if s < e and _has_content(text, s, e):
        out.append(Segment(s, e, kind, item and first, line_start=first, line_end=True))
    elif out and out[-1].start >= start:
        last = out[-1]
        out[-1] = last._replace(line_end=True)


def _continues(prev_line: str, next_line: str) -> bool:
    """Whether a single newline between two prose lines is a hard wrap, not a boundary."""
    if _LINE_END_STRONG.search(prev_line):
        return False
    stripped = next_line.lstrip()
    starts_lower = bool(stripped) and stripped[0].islower()
    if _LINE_END_TERMINAL.search(prev_line):
        return starts_lower  # "... e.g.\nthe" continues; "... 1990.\nHe" does not
    return starts_lower or bool(_LINE_END_JOINER.search(prev_line))


def segment_text(text: str, *, skip_code: bool = False) -> list[Segment]:
    """Segment text into sentences, headings, quotes, table rows and code blocks.

    Args:
        text: The text.
        skip_code: Drop fenced (```/~~~) and indented code blocks. When False, each fenced
            block is kept as one ``"code"`` segment and indented lines are treated as prose.

    Returns:
        Segments in text order with exact, whitespace-trimmed spans. Markdown markers
        (bullets, numbers, ``#``, ``>``) and horizontal rules are not part of any span.
    """
    scan = _Scan(text, skip_code)
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        line_end = n if nl < 0 else nl
        scan.line(pos, line_end, next_start=line_end + 1 if nl >= 0 else n)
        pos = line_end + 1 if nl >= 0 else n + 1
    scan.flush()
    scan.flush_code()
    if scan.fence is not None and not skip_code and scan.fence_start < n:
        _split_block(text, scan.fence_start, n, "code", False, out=scan.out)
    return scan.out


class _Scan:
    """The state of ``segment_text`` between lines."""

    def __init__(self, text: str, skip_code: bool) -> None:
        self.text, self.skip_code = text, skip_code
        self.out: list[Segment] = []
        # Current prose block: [block_start, block_end), kind, item flag, last line text.
        self.block_start = -1
        self.block_end = -1
        self.block_kind: SegmentKind = "sentence"
        self.block_item = False
        self.last_line = ""
        self.in_list = False  # last non-blank block was a list item (indented text continues)
        self.prev_blank = True
        self.fence: str | None = None
        self.fence_start = -1
        self.code_start = -1  # open indented code block
        self.code_end = -1

    def flush(self) -> None:
        if self.block_start >= 0:
            _split_block(
                self.text,
                self.block_start,
                self.block_end,
                self.block_kind,
                self.block_item,
                out=self.out,
            )
            self.block_start = -1

    def flush_code(self) -> None:
        if self.code_start >= 0:
            if not self.skip_code:
                _split_block(self.text, self.code_start, self.code_end, "code", False, out=self.out)
            self.code_start = -1

    def line(self, line_begin: int, line_end: int, *, next_start: int) -> None:
        """Reads one line: a fence, a blank, indented code, or a block's line."""
        line = self.text[line_begin:line_end]
        if self.fence is not None:
            stripped = line.strip()
            if stripped.startswith(self.fence) and stripped.strip(self.fence[0]) == "":
                if not self.skip_code:
                    _split_block(
                        self.text, self.fence_start, line_begin, "code", False, out=self.out
                    )
                self.fence = None
                self.prev_blank = True
            return
        # Fast path: a line starting with a letter has no markdown marker or indentation.
        plain = line[:1].isalpha() and line[1:2] != ")"
        fm = None if plain else _FENCE.match(line)
        if fm:
            self.flush()
            self.flush_code()
            self.fence = fm.group(1)
            self.fence_start = next_start
            self.in_list = False
            return
        if not plain and not line.strip():
            self.flush()
            if self.code_start >= 0:
                return  # blank lines inside an indented code block
            self.prev_blank = True
            return
        if (
            self.skip_code
            and not plain
            and (self.code_start >= 0 or (self.prev_blank and not self.in_list))
            and _INDENTED.match(line)
        ):
            self.flush()
            if self.code_start < 0:
                self.code_start = line_begin
            self.code_end = line_end
            self.prev_blank = False
            return
        self.flush_code()
        was_blank = self.prev_blank
        self.prev_blank = False
        if not plain and self._marked(line, line_begin, line_end):
            return
        if self.block_start >= 0 and _continues(self.last_line, line):
            self.block_end = line_end
            self.last_line = line
            return
        self.flush()
        if was_blank:
            self.in_list = False
        self.block_start, self.block_end = line_begin, line_end
        self.block_kind, self.block_item, self.last_line = "sentence", False, line

    def _marked(self, line: str, line_begin: int, line_end: int) -> bool:
        """A rule, heading, quote, table row or list item: read, and True."""
        if _RULE.match(line):
            self.flush()
            return True
        marked: tuple[tuple[re.Pattern[str], SegmentKind], ...] = (
            (_HEADING, "heading"),
            (_QUOTE, "quote"),
        )
        for pattern, kind in marked:
            m = pattern.match(line)
            if m:
                self.flush()
                self.in_list = False
                _split_block(self.text, line_begin + m.end(), line_end, kind, False, out=self.out)
                return True
        if _TABLE.match(line):
            self.flush()
            self.in_list = False
            _split_block(self.text, line_begin, line_end, "table", False, out=self.out)
            return True
        im = _ITEM.match(line)
        if im:
            self.flush()
            self.in_list = True
            self.block_start, self.block_end = line_begin + im.end(), line_end
            self.block_kind, self.block_item, self.last_line = "sentence", True, line
            return True
        return False


def split_sentences(text: str, *, skip_code: bool = False) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the sentences of ``text``, in order.

    Every span is whitespace-trimmed; together they cover all text except whitespace,
    markdown markers (bullets, numbers, ``#``, ``>``, horizontal rules) and, with
    ``skip_code``, code blocks. Headings, table rows and kept code blocks are one span each.

    Args:
        text: The text to split.
        skip_code: Skip fenced and indented code blocks (no span inside them).

    Returns:
        A list of ``Span(start, end)`` tuples.

    Example:
        >>> text = "Revenue grew 3.5% to $1.2B. See https://x.io/a.b for v2.1.0."
        >>> [text[s:e] for s, e in split_sentences(text)]
        ['Revenue grew 3.5% to $1.2B.', 'See https://x.io/a.b for v2.1.0.']
    """
    return [Span(s.start, s.end) for s in segment_text(text, skip_code=skip_code)]
