"""What the gate can read: the language of an answer and of its evidence.

The claim extractor, the rules and the verifier read English. Text in another language runs
through them but its grades mean nothing (a German "kein" is no negation to them), so the gate
asks first whether it can read the text (:func:`check_languages`) and its policy decides what
to do when it cannot (``GatePolicy.on_unsupported_language``).

The detector is a measured heuristic, deterministic and linear in the text:

1. **Script.** Every word is assigned the script of its first letter (Latin, Han, kana,
   Hangul, Arabic, Cyrillic, Greek, Hebrew, Devanagari, Thai...), weighted by how much a letter
   of that script carries (a Han character about three Latin letters).
2. **Function words**, for Latin script: how many of the words are very frequent words
   ("the", "of", "und", "der", "les", "los"...) of each of 19 languages
   (``data/function_words.json``); a word English also uses counts for English only. A
   capitalised word inside a sentence is a name ("Los Angeles", "Société Générale", "Die
   Zeit") and does not count, nor do "de" / "van" between two names ("Marquis de Lafayette"),
   one-letter words outside running text ("e.g.", "e2e") or a quotation ("Cien años de
   soledad"): an English answer that names a foreign company, city or book stays English.
3. **Decision.** Fewer than :data:`MIN_LETTERS` letters (a name, "OK", a number) or too few
   function words is undetermined (``"und"``): never unsupported. Latin text is the language
   with the most function words (at least two; English wins a tie); a text whose letters are
   mostly of another script (Han, Arabic...) is that script's language.

Measured by ``benchmarks/bench_language.py`` (``benchmarks/results/language.json``): 3 of the
19,731 responses and contexts of the English benchmark files read as another language (French
museum names in SGD records); 120 of 120 sentences written in German, French, Spanish, Chinese
and Arabic flagged, and 98 of 100 written after the word lists were tuned; 50 of 50 English
sentences that quote foreign names kept. A Latin-script language without a word list
(Estonian, Latvian...) is undetermined, hence read as English.

Codes are ISO 639-1 (``en``, ``de``, ``zh``, ``ar``...) where the words or the script tell the
language, else the ISO 15924 script code in lowercase (``cyrl`` for Cyrillic without a letter
that marks Russian, ``deva``...); ``und`` is undetermined.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "EVIDENCE_MAJORITY",
    "MIN_LETTERS",
    "SUPPORTED_LANGUAGES",
    "UNDETERMINED",
    "LanguageAction",
    "LanguageCheck",
    "check_languages",
    "describe_languages",
    "detect_language",
    "language_name",
]

SUPPORTED_LANGUAGES = frozenset({"en"})
"""Languages the claim extractor, the rules and the shipped verifier read."""

UNDETERMINED = "und"
"""The code of a text too short, or with too few telling words, to say (ISO 639-2 ``und``)."""

EVIDENCE_MAJORITY = 0.5
"""Evidence is unsupported when more than this share of it is in other languages."""

MIN_LETTERS = 16
"""Fewer letters (script-weighted) than this: undetermined ("OK", "Müller GmbH", "16 GB")."""

_MIN_HITS = 2  # function words a Latin-script language needs
_OTHER_SCRIPT_SHARE = 0.5  # Latin with a language is outweighed only at twice its letters
_MAX_CHARS = 200_000  # evidence read per call, spread evenly over its texts

LanguageAction = Literal["warn", "reject", "verifier"]
"""What the gate did with text it cannot read (``GatePolicy.on_unsupported_language``)."""

_WORD = re.compile(r"[^\W\d_]+")
# Text in double quotes is a quotation (a title, a name, a motto); in single quotes only when
# the quote opens after a space and closes before a non-letter, so "restaurant's" never opens.
_QUOTED = re.compile(r"[\"“„«][^\"“”„«»\n]{1,300}[\"”“»]|(?<!\w)'[^'\n]{1,300}'(?!\w)")
_SENTENCE_END = frozenset(".!?\n")
_APOSTROPHES = frozenset("'’")

# (first code point, script); a letter belongs to the last range starting at or before it.
_RANGES: tuple[tuple[int, str], ...] = (
    (0x0000, "latin"),
    (0x0250, "other"),
    (0x0370, "greek"),
    (0x0400, "cyrillic"),
    (0x0530, "armenian"),
    (0x0590, "hebrew"),
    (0x0600, "arabic"),
    (0x0700, "other"),
    (0x0750, "arabic"),
    (0x0780, "other"),
    (0x08A0, "arabic"),
    (0x0900, "devanagari"),
    (0x0980, "indic"),
    (0x0E00, "thai"),
    (0x0E80, "other"),
    (0x10A0, "georgian"),
    (0x1100, "hangul"),
    (0x1200, "other"),
    (0x1C80, "cyrillic"),
    (0x1C90, "other"),
    (0x1E00, "latin"),
    (0x1F00, "greek"),
    (0x2000, "other"),
    (0x2C60, "latin"),
    (0x2C80, "other"),
    (0x2DE0, "cyrillic"),
    (0x2E00, "other"),
    (0x3005, "han"),
    (0x3008, "other"),
    (0x3040, "kana"),
    (0x3100, "han"),  # Bopomofo: Chinese
    (0x3130, "hangul"),
    (0x3190, "other"),
    (0x31F0, "kana"),
    (0x3200, "other"),
    (0x3400, "han"),
    (0xA000, "other"),
    (0xA640, "cyrillic"),
    (0xA6A0, "other"),
    (0xA720, "latin"),
    (0xA800, "other"),
    (0xAC00, "hangul"),
    (0xD7B0, "other"),
    (0xF900, "han"),
    (0xFB00, "latin"),
    (0xFB1D, "hebrew"),
    (0xFB50, "arabic"),
    (0xFE00, "other"),
    (0xFE70, "arabic"),
    (0xFF00, "latin"),  # full-width Latin
    (0xFF66, "kana"),  # half-width katakana
    (0xFFA0, "other"),
    (0x20000, "han"),
    (0x30000, "other"),
)
_STARTS = [start for start, _ in _RANGES]

_WEIGHT = {"han": 3.0, "kana": 2.0, "hangul": 2.5}
"""Latin letters one letter of a script is worth (a Chinese word is one or two characters)."""

_SCRIPT_CODE = {
    "greek": "el",
    "hebrew": "he",
    "armenian": "hy",
    "georgian": "ka",
    "thai": "th",
    "hangul": "ko",
    "devanagari": "deva",
    "indic": "inda",
    "other": "mis",
}
_RUSSIAN = frozenset("ыэё")
_UKRAINIAN = frozenset("іїєґ")
_PERSIAN = frozenset("پچژگکی")
_URDU = frozenset("ٹڈڑںے")

_NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "pl": "Polish",
    "cs": "Czech",
    "ro": "Romanian",
    "tr": "Turkish",
    "id": "Indonesian",
    "fi": "Finnish",
    "hu": "Hungarian",
    "ca": "Catalan",
    "vi": "Vietnamese",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "ar": "Arabic",
    "fa": "Persian",
    "ur": "Urdu",
    "ru": "Russian",
    "uk": "Ukrainian",
    "el": "Greek",
    "he": "Hebrew",
    "hy": "Armenian",
    "ka": "Georgian",
    "th": "Thai",
    "cyrl": "Cyrillic script",
    "arab": "Arabic script",
    "deva": "Devanagari script",
    "inda": "an Indic script",
    "mis": "an unlisted script",
    "und": "undetermined",
}


def language_name(code: str) -> str:
    """The language (or script) a code stands for, for people: ``"de"`` -> ``"German"``."""
    return _NAMES.get(code, code)


class _Lexicon(NamedTuple):
    words: dict[str, tuple[str, ...]]  # a function word -> the languages it tells
    contractions: frozenset[str]  # English pieces after an apostrophe ("s", "t", "ll")
    elisions: dict[str, tuple[str, ...]]  # words elided before one ("l", "qu", "dell")
    particles: frozenset[str]  # words that join the parts of a name ("de", "van")


def _by_word(lists: dict[str, list[str]], english: set[str]) -> dict[str, tuple[str, ...]]:
    listed: dict[str, list[str]] = {}
    for lang, words in lists.items():
        for word in words:
            if lang == "en" or word not in english:
                listed.setdefault(word, []).append(lang)
    return {word: tuple(langs) for word, langs in listed.items()}


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    """``data/function_words.json``, loaded once.

    A word English also uses ("in", "is", "a", "was") tells English only: it never counts
    against English, so "Ludwig van Beethoven was born in Bonn" is English, not Dutch.
    """
    path = resources.files("langchain_qgate.data").joinpath("function_words.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    english = set(data["words"]["en"])
    return _Lexicon(
        words=_by_word(data["words"], english),
        contractions=frozenset(data["contractions"]),
        elisions=_by_word(data["elisions"], set()),
        particles=frozenset(data["name_particles"]),
    )


def _script(char: str) -> str:
    return _RANGES[bisect_right(_STARTS, ord(char)) - 1][1]


def _title(word: str) -> bool:
    return word[0].isupper() and (len(word) == 1 or word[1:].islower())


def _spaced(char: str) -> bool:
    return not char or char.isspace()


def _tells(text: str, words: list[re.Match[str]], i: int, lexicon: _Lexicon) -> tuple[str, ...]:
    """The languages the ``i``-th word tells, if any.

    Next to an apostrophe it is a contraction ("it's": English) or an elision ("l'hôtel").
    Otherwise a function word counts in lower case, unless it is a particle between two
    capitalised words ("Marquis de Lafayette"), and capitalised only where a sentence starts:
    inside one it is a name ("Los Angeles", "Die Zeit"). An elision between two capitalised
    words is part of a name too ("Le Coq d'Or", "Côte d'Ivoire"). A one-letter word counts
    only between spaces: "e.g.", "e2e" and "\\d" tell no language.
    """
    match = words[i]
    word, lower = match.group(), match.group().lower()
    start, end = match.span()
    before, after = text[start - 1 : start] if start else "", text[end : end + 1]
    if before in _APOSTROPHES and lower in lexicon.contractions:
        return ("en",)
    if after in _APOSTROPHES:
        named = 0 < i < len(words) - 1 and _title(words[i - 1].group())
        if named and _title(words[i + 1].group()):
            return ()  # "Coq d'Or": a name's particle
        return lexicon.elisions.get(lower, ())
    if word == "I":  # the English pronoun is always a capital
        return ("en",)
    if len(word) == 1 and not (_spaced(before) and _spaced(after)):
        return ()
    if word.islower():
        inside_name = (
            word in lexicon.particles
            and 0 < i < len(words) - 1
            and _title(words[i - 1].group())
            and _title(words[i + 1].group())
        )
        return () if inside_name else lexicon.words.get(lower, ())
    if not _title(word):
        return ()
    opening = text[max(0, start - 4) : start].rstrip(" \t")
    starts_sentence = not opening or opening[-1] in _SENTENCE_END
    return lexicon.words.get(lower, ()) if starts_sentence else ()


def _guess(text: str) -> tuple[str, float]:
    """``(code, weighted letters)`` of one text: one pass over its words."""
    unquoted = _QUOTED.sub(" ", text)
    if len(unquoted) * 2 >= len(text):  # quotations do not count, unless they are the text
        text = unquoted
    lexicon = _lexicon()
    letters: dict[str, float] = {}
    hits: dict[str, int] = {}
    words = list(_WORD.finditer(text))
    for i, match in enumerate(words):
        word = match.group()
        script = "latin" if word.isascii() else _script(word[0])
        letters[script] = letters.get(script, 0.0) + len(word) * _WEIGHT.get(script, 1.0)
        if script != "latin":
            continue
        for lang in _tells(text, words, i, lexicon):
            hits[lang] = hits.get(lang, 0) + 1
    total = sum(letters.values())
    if total < MIN_LETTERS:
        return UNDETERMINED, total
    latin = letters.get("latin", 0.0)
    other, other_letters = max(
        ((s, n) for s, n in letters.items() if s != "latin"), key=lambda t: t[1], default=("", 0)
    )
    best = max(hits, key=lambda lang: (hits[lang], lang == "en"), default="")
    if best and hits[best] >= _MIN_HITS and latin >= _OTHER_SCRIPT_SHARE * other_letters:
        return best, total
    if other and other_letters >= MIN_LETTERS and other_letters >= _OTHER_SCRIPT_SHARE * latin:
        return _script_language(other, text), total
    return UNDETERMINED, total


def _script_language(script: str, text: str) -> str:
    """The code of a non-Latin script's text (a marker letter tells a language apart)."""
    if script in ("han", "kana"):
        return "ja" if any("\u3040" <= c <= "\u30ff" for c in text) else "zh"
    if script == "arabic":
        chars = set(text)
        if chars & _URDU:
            return "ur"
        return "fa" if chars & _PERSIAN else "ar"
    if script == "cyrillic":
        chars = set(text.lower())
        if chars & _UKRAINIAN:
            return "uk"
        return "ru" if chars & _RUSSIAN else "cyrl"
    return _SCRIPT_CODE.get(script, script)


def detect_language(text: str) -> str:
    """The language code of ``text``: ``en``, ``de``, ``zh``..., or ``und`` when it is too short
    or has too few telling words (a name, "OK", a number, a table of values).

    Example:
        >>> detect_language("Das Gerät hat 32 GB und unterstützt kein Laden über USB-C.")
        'de'
        >>> detect_language("The Müller GmbH plant is in Lyon, near the Société Générale office.")
        'en'
    """
    return _guess(text)[0]


class LanguageCheck(BaseModel):
    """Whether the gate can read an answer and its evidence (``QualityMetadata.language``).

    Attributes:
        answer: The answer's language code (``und``: undetermined, read as English).
        evidence: The evidence's main language (the most letters among its texts whose
            language was determined), ``und`` when none was.
        supported: Both can be read: the answer is in a supported language (or
            undetermined) and at most half of the evidence is in other languages.
        evidence_share: Share of the evidence (letters of the texts whose language was
            determined) in unsupported languages, in [0, 1]: ``0.4`` in mixed evidence says
            40% of it could not be read.
        evidence_languages: The share of each language in the evidence (the same letters),
            largest first: ``{"en": 0.6, "de": 0.4}``.
        action: What the gate's ``on_unsupported_language`` policy did when ``supported`` is
            False (``warn``, ``reject`` or ``verifier``); ``None`` otherwise.
        reason: What could not be read, for people (empty when supported).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: str = UNDETERMINED
    evidence: str = UNDETERMINED
    supported: bool = True
    evidence_share: float = 0.0
    evidence_languages: dict[str, float] = Field(default_factory=dict)
    action: LanguageAction | None = None
    reason: str = ""


def _sample(texts: list[str]) -> list[str]:
    """At most :data:`_MAX_CHARS` characters of ``texts``, spread evenly over them."""
    total = sum(len(t) for t in texts)
    if total <= _MAX_CHARS:
        return texts
    step = -(-total // _MAX_CHARS)
    return [t[:_MAX_CHARS] for t in texts[::step]]


def check_languages(answer: str, evidence: Iterable[str]) -> LanguageCheck:
    """Detect the answer's language and the evidence's languages, and say what is unreadable.

    Args:
        answer: The answer text (detected as a whole).
        evidence: The evidence texts (documents or chunks; each detected on its own, so mixed
            evidence gets a share). Long evidence is read in part: at most 200,000
            characters, spread evenly over the texts.

    Returns:
        The check; ``supported`` False when the answer is in another language than
        :data:`SUPPORTED_LANGUAGES`, or more than half of the evidence is.
    """
    lang = detect_language(answer)
    letters: dict[str, float] = {}
    for text in _sample([t for t in evidence if t]):
        code, count = _guess(text)
        if code != UNDETERMINED:
            letters[code] = letters.get(code, 0.0) + count
    total = sum(letters.values())
    foreign = sum(n for code, n in letters.items() if code not in SUPPORTED_LANGUAGES)
    share = foreign / total if total else 0.0
    main = max(letters, key=lambda c: (letters[c], c in SUPPORTED_LANGUAGES), default=UNDETERMINED)
    answer_ok = lang == UNDETERMINED or lang in SUPPORTED_LANGUAGES
    ranked = sorted(letters, key=lambda c: (-letters[c], c))
    check = LanguageCheck(
        answer=lang,
        evidence=main,
        supported=answer_ok and share <= EVIDENCE_MAJORITY,
        evidence_share=round(share, 4),
        evidence_languages={c: round(letters[c] / total, 4) for c in ranked},
    )
    return check.model_copy(update={"reason": describe_languages(check)})


def describe_languages(check: LanguageCheck) -> str:
    """What of ``check`` cannot be read, for people ("The answer is in German (de): the claim
    checks read English only"); empty when everything can."""
    parts = []
    if check.answer != UNDETERMINED and check.answer not in SUPPORTED_LANGUAGES:
        parts.append(f"the answer is in {language_name(check.answer)} ({check.answer})")
    foreign = [c for c in check.evidence_languages if c not in SUPPORTED_LANGUAGES]
    if check.evidence_share > 0 and foreign:
        names = ", ".join(f"{language_name(c)} ({c})" for c in foreign[:3])
        parts.append(f"{check.evidence_share:.0%} of the evidence is in {names}")
    if not parts:
        return ""
    text = " and ".join(parts) + ": the claim checks read English only"
    return text[0].upper() + text[1:]
