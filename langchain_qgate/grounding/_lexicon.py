"""Small word lists and token tests shared by claim extraction (no tagger, no downloads).

A "strong" verb form is almost never anything else (``is``, ``has``, ``became``,
``employs``); a "weak" one could be a noun or adjective too (``plays``, ``fried``) and only
counts as a verb when the next word looks like the start of an object or complement.
"""

from __future__ import annotations

import re

UNITS: dict[str, str] = {
    "kg": "kg", "kilogram": "kg", "kilo": "kg", "g": "g", "gram": "g", "lb": "lb",
    "pound": "lb", "lbs": "lb", "oz": "oz", "ounce": "oz", "km": "km", "kilometer": "km",
    "kilometre": "km", "mi": "mi", "mile": "mi", "m": "m", "meter": "m", "metre": "m",
    "cm": "cm", "mm": "mm", "ft": "ft", "foot": "ft", "feet": "ft", "in": "in", "inch": "in",
    "l": "l", "liter": "l", "litre": "l", "ml": "ml", "gb": "gb", "mb": "mb", "tb": "tb",
    "kwh": "kwh", "wh": "wh", "w": "w", "watt": "w", "kw": "kw", "min": "min",
    "minute": "min", "hr": "h", "h": "h", "sqkm": "km2", "km2": "km2", "mph": "mph",
    "kmh": "kmh", "mi2": "mi2", "m2": "m2", "ft2": "ft2", "degree": "deg",
    "fahrenheit": "degf", "celsius": "degc",
}  # fmt: skip
"""Units of measure as written after a figure, each to one spelling ("kilo" -> "kg"); the one
table for prose (``slots``) and records (``fields``)."""
MEASURES: dict[str, tuple[str, ...]] = {
    "deg": ("temperature", "temp"), "degf": ("temperature", "temp"),
    "degc": ("temperature", "temp"), "kg": ("weight",), "lb": ("weight",),
    "km": ("distance",), "mi": ("distance",), "kmh": ("speed",), "mph": ("speed",),
}  # fmt: skip
"""The key words naming what a unit measures ("89 degrees" fills ``temperature``)."""


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a frozen set."""
    return frozenset(text.split())


AUXILIARIES = word_set(
    """is are was were am has have had do does did will would can could shall should may might
    must isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't
    can't cannot couldn't shouldn't mustn't"""
)
# Negated auxiliaries as people type them without the apostrophe ("it isnt family friendly"),
# with the word they stand for. "cant" and "wont" are rare words of their own; as typed they
# are the negation.
UNAPOSTROPHED_NEGATIONS: dict[str, str] = {
    w.replace("'", ""): w
    for w in word_set(
        """isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't
        wouldn't can't couldn't shouldn't mustn't ain't"""
    )
}
AUXILIARIES |= frozenset(UNAPOSTROPHED_NEGATIONS)  # "doesnt" is a verb of the clause too
_NAME_LIKE_MODALS = word_set("may will can must might could would should shall")
_IRREGULAR_PAST = word_set(
    """became began won wrote made took gave went came grew led held left built bought sold said
    told found knew saw ran met paid rose fell brought thought kept lost spent sent taught caught
    chose drew drove flew forgot hid hung sang sat slept spoke stood struck swam threw understood
    wore fought sought got lay laid meant felt heard broke shook drank ate rode won became
    remained arose bore forbade forgave froze overtook oversaw undertook withdrew"""
)
_STRONG_PRESENT = word_set(
    """includes contains employs produces operates owns remains becomes consists provides
    requires allows enables describes represents serves reaches lies sits stands seems appears
    means sells holds belongs connects depends exists involves focuses develops manufactures
    publishes creates receives loses earns generates affects helps wants knows says tells grows
    rises expects continues begins opens closes joins teaches writes speaks gives takes gets
    goes comes directs sings competes attends manages acquires invests hires occurs
    specializes comprises measures weighs costs equals exceeds"""
)
_WEAK_PRESENT = word_set(
    """features offers covers ranks runs leads plays works uses hosts borders flows designs
    releases wins reports shows causes needs increases decreases falls plans starts ends leaves
    moves lives reads stars acts graduates studies sponsors controls trains fires makes
    supports marks lists names records sets puts cuts hits tops heads houses"""
)
STRONG_VERBS = AUXILIARIES | _IRREGULAR_PAST | _STRONG_PRESENT
_ED_NOT_VERBS = word_set(
    """hundred sacred naked wicked beloved rugged talented kindred aged crooked ragged learned
    bed red shed sled wed fled bred need seed speed breed feed greed creed steed embed
    united limited related based"""
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week, in order, lower-cased."""
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
"""The months, in order, lower-cased."""
PRONOUNS = word_set("it he she they we i you there this")
COLLECTIVES = word_set("pairs sets couples groups dozens teams")
"""Nouns that count groups: "19 chromosome pairs" counts pairs, not chromosomes."""
_PLURAL_PRONOUNS = word_set("they we i you")
FUNCTION_WORDS = word_set(
    """a an the of to in on at by for with from and or but as that which who whose into than
    nor his her its their our my your this these those some any each every no not so very"""
)
_OBJECT_STARTERS = word_set(
    """the a an his her its their our my your this that these those in on at by to from with
    for as into onto over under after before during since until through about against between
    up out off down him them it me us several many some more most all both over around across
    along nearly approximately almost only also not no first last two three four five six
    seven eight nine ten its here there"""
)
ADVERBS = word_set(
    """then later also subsequently eventually still now currently again soon finally often
    never always recently previously once ultimately further additionally thereby thus
    primarily mainly largely mostly usually only just even already therefore hence"""
)
PARTICIPLES = word_set(
    """written given taken chosen driven spoken broken forgotten hidden ridden risen stolen
    sworn torn worn known shown grown thrown drawn flown blown seen done gone born borne begun
    run sung swum eaten fallen beaten bitten shaken woken frozen proven been"""
)
BE_FORMS = word_set("is are was were am be been being")
IRREGULAR_FORMS: dict[str, str] = dict(
    pair.split(":")
    for pair in word_set(
        """became:become begun:begin began:begin won:win wrote:write written:write
    made:make took:take taken:take gave:give given:give went:go gone:go came:come grew:grow
    grown:grow led:lead held:hold built:build bought:buy sold:sell told:tell knew:know
    known:know ran:run met:meet paid:pay fell:fall fallen:fall brought:bring thought:think
    kept:keep lost:lose spent:spend sent:send taught:teach caught:catch chose:choose
    chosen:choose drew:draw drawn:draw drove:drive driven:drive flew:fly flown:fly
    forgot:forget forgotten:forget hid:hide hidden:hide hung:hang sang:sing sung:sing
    slept:sleep spoke:speak spoken:speak stood:stand struck:strike swam:swim threw:throw
    thrown:throw understood:understand wore:wear worn:wear fought:fight sought:seek got:get
    gotten:get meant:mean heard:hear broke:break broken:break shook:shake shaken:shake
    drank:drink ate:eat eaten:eat rode:ride ridden:ride arose:arise risen:rise shown:show
    stolen:steal stole:steal froze:freeze frozen:freeze withdrew:withdraw withdrawn:withdraw
    overtook:overtake oversaw:oversee undertook:undertake forbade:forbid forbidden:forbid
    forgave:forgive forgiven:forgive beaten:beat bitten:bite blew:blow blown:blow
    dealt:deal dug:dig fed:feed fled:flee lent:lend sank:sink sat:sit shot:shoot
    slid:slide spun:spin stuck:stick swore:swear sworn:swear tore:tear torn:tear woke:wake
    woken:wake rebuilt:rebuild said:say did:do done:do
    children:child men:man women:woman feet:foot teeth:tooth mice:mouse geese:goose
    knives:knife wives:wife halves:half shelves:shelf criteria:criterion
    phenomena:phenomenon analyses:analysis crises:crisis theses:thesis"""
    )
)
"""Irregular past forms and plurals with their base word. Forms that are as often another
word are left out ("found" a company, "left" side, a "saw", "rose", "felt", "lay", "born")."""
_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = "\"'“”‘’()[]{}*_,;:.!?"


def bare(token: str) -> str:
    """The token without surrounding punctuation, lowercased."""
    return token.strip(_EDGE_PUNCT).lower()


def is_past_form(word: str) -> bool:
    """A past tense or past participle (``acquired``, ``sent``, ``written``)."""
    return (
        word in _IRREGULAR_PAST
        or word in PARTICIPLES
        or (len(word) >= 4 and word.endswith("ed") and word.isalpha() and word not in _ED_NOT_VERBS)
    )


def is_weak_verb(word: str, original: str) -> bool:
    """A form that is a verb only in a verb context (``plays``, ``acquired``)."""
    if not original[:1].islower():
        return False
    if word in _WEAK_PRESENT:
        return True
    return len(word) >= 5 and word.endswith("ed") and word not in _ED_NOT_VERBS and word.isalpha()


def is_strong_verb(word: str, original: str) -> bool:
    """A form that is almost always a finite verb (``is``, ``became``, ``employs``)."""
    if original[:1].islower():
        return word in STRONG_VERBS
    # Capitalised: "Is"/"Was" may open a sentence; "May", "Will", "Can" are names/months.
    return word in AUXILIARIES and word not in _NAME_LIKE_MODALS


def starts_object(token: str | None) -> bool:
    """Whether ``token`` can begin the object/complement of a verb (guard for weak verbs)."""
    if token is None:
        return False
    word = bare(token)
    if not word:
        return False
    core = token.lstrip(_EDGE_PUNCT)
    return (
        word in _OBJECT_STARTERS
        or core[:1].isdigit()
        or core[:1] == "$"
        or core[:1].isupper()
        or word.endswith("ly")
    )


def verb_at(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` is a finite verb (strong, or weak followed by an object)."""
    tok = tokens[i]
    word = bare(tok)
    if is_strong_verb(word, tok.lstrip(_EDGE_PUNCT)):
        return True
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return is_weak_verb(word, tok.lstrip(_EDGE_PUNCT)) and starts_object(nxt)


def pronoun_clause_at(tokens: list[str], i: int) -> bool:
    """``it has`` / ``she won`` / ``they live``: a pronoun followed by a verb."""
    if i + 1 >= len(tokens) or bare(tokens[i]) not in PRONOUNS:
        return False
    j = i + 1
    while j < len(tokens) - 1 and bare(tokens[j]) in ADVERBS:
        j += 1
    word = bare(tokens[j])
    original = tokens[j].lstrip(_EDGE_PUNCT)
    if is_strong_verb(word, original) or is_weak_verb(word, original):
        return True
    if not original[:1].islower() or not word.isalpha() or word in FUNCTION_WORDS:
        return False
    return word.endswith("s") or bare(tokens[i]) in _PLURAL_PRONOUNS


def tokens_with_offsets(text: str) -> tuple[list[str], list[int]]:
    """Whitespace tokens of ``text`` and their start offsets."""
    toks: list[str] = []
    starts: list[int] = []
    for m in _TOKEN.finditer(text):
        toks.append(m.group())
        starts.append(m.start())
    return toks, starts


def first_verb(tokens: list[str], lo: int, hi: int) -> int:
    """Index of the first finite verb in ``tokens[lo:hi]`` (-1 when none).

    A participle right after a comma ("Acme, founded in 2020, has") is an appositive, not
    the main verb.
    """
    for k in range(lo, hi):
        if pronoun_clause_at(tokens, k) and k + 1 < hi:
            return k + 1
        if verb_at(tokens, k):
            after_comma = k > lo and tokens[k - 1].endswith(",")
            if after_comma and is_weak_verb(bare(tokens[k]), tokens[k]):
                continue
            return k
    return -1


def has_finite_verb(text: str) -> bool:
    """Whether ``text`` contains a finite verb (used to tell fragments from sentences)."""
    tokens, _ = tokens_with_offsets(text)
    return any(verb_at(tokens, i) or pronoun_clause_at(tokens, i) for i in range(len(tokens)))
