"""Claim extraction: split an output into atomic, typed claims with exact spans.

Pipeline: :func:`~langchain_qgate.grounding.claims.segment.segment_text` (code blocks, block quotes,
headings and table rows are dropped) -> strip meta preambles ("Based on the documents, ",
"Sorry, ", and a meta lead-in before a colon: "Here is what I found: ") -> skip non-claims
(questions, greetings, thanks, meta text, abstentions, list intros ending in ":", sentences
that only point at a source: "This is mentioned in passage 2.") -> split compound sentences
into standalone clauses -> type each clause (factual, reasoning, opinion). References to
sources written into a claim ("(Passage 2)", ", according to document 3") are dropped from
its text.

Typing rules, in order: a recommendation or first-person preference ("I recommend", "you
should", "in my opinion", "the best") is an OPINION; an evaluative predicate ("X is a great
language") without numbers is an OPINION; a conclusion ("therefore", "which means", ", so")
is REASONING; a hedge or first-person belief ("probably", "I think", "it seems") is FACTUAL
when the rest carries checkable content (a number or a named entity) and no evaluative word
("I think Paris is the capital of France" -> FACTUAL; the calibrator reads the hedge
separately), otherwise an OPINION. Everything else is FACTUAL: a chat reply's statement about
the assistant itself ("I visited the museum last year", "I have two dogs") is a claim that
needs evidence like any other; only abstentions ("I don't know", "I couldn't find") are meta.
"""

from __future__ import annotations

import re

from langchain_qgate._text import Unformatted, repair_text, strip_format, without_format
from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.checks._lexicon import (
    MONTHS,
    WEEKDAYS,
    has_finite_verb,
    starts_object,
    tokens_with_offsets,
    verb_at,
    word_set,
    words,
)
from langchain_qgate.grounding.checks.checks import blank_references, content_stems
from langchain_qgate.grounding.claims._cleft import unclefted
from langchain_qgate.grounding.claims._compound import split_compound
from langchain_qgate.grounding.claims.segment import Segment, segment_text
from langchain_qgate.schemas import Claim, ClaimType

__all__ = ["REASONING_TRIGGERS", "classify_sentence", "extract_claims", "strip_preamble"]

_I = re.IGNORECASE
_SOURCES = (
    r"(?:documents?|context|information|sources?|search results?|results?|data|text|passages?"
    r"|evidence|articles?|excerpts?|materials?|references?|snippets?|findings?|records?"
    r"|research)"
)
# "passage 2", "documents 1 and 3" (see ``checks.reference_spans``)
_SOURCE_NUMBERS = r"(?:\s*#?\d+(?:\s*(?:,|&|and)\s*\d+)*)?"
_PREAMBLE = re.compile(
    r"(?:(?:based on|according to|from|per|using|in) (?:the |my |your |these |this )?"
    r"(?:provided |given |available |retrieved |above |attached |supplied |search |relevant )?"
    + _SOURCES
    + _SOURCE_NUMBERS
    + r"(?: (?:provided|above|given|you (?:provided|shared|gave)|i found|available))?\s*[,:]"
    r"|as (?:stated|mentioned|noted|described|explained|shown|indicated|outlined|specified)"
    r" (?:in|by) (?:the )?(?:provided |given |above |retrieved )?"
    + _SOURCES
    + _SOURCE_NUMBERS
    + r"\s*,"
    r"|(?:sure|certainly|of course|absolutely|okay|ok|alright|well|yes|no|indeed|oh|ah|wow"
    r"|no problem|my pleasure|got it|will do|perfect"
    r"|haha|yeah|yep|hmm|oh wow|oh nice|oh yes|oh no|great question|good question|thanks|thank you"
    r"|sorry|i apologi[sz]e|unfortunately|i(?:'m| am) (?:so |very |really )?sorry"
    # an answer or a reaction before a dash ("Yes - ...", "Good news — ..."; not "Not yet -",
    # which states what a value "not_yet" does)
    r"|(?:good|great|bad) news|sadly|luckily|fortunately|thankfully|yup|nope|nah|no worries"
    r"|all (?:sorted|set|done)|no need|(?:unfortunately|sadly|i'm afraid|afraid) not"
    r"|not (?:right now|at the moment|this time))"
    r"(?:\s*[,!.:]|\s+[-\u2013\u2014]\s|\s*[\u2013\u2014])"
    r"|i(?:'m| am) not (?:sure|certain)(?:\s*,\s*(?:but\b)?|\s+but\b)"
    r"|(?:hi|hello|hey)(?: there)?\s*[,!]"
    r"|(?:in summary|to summarize|in short|in conclusion|to conclude|to answer your question"
    r"|to sum up|in brief|briefly|summary|tl;?dr|answer|short answer)\s*[,:]"
    r"|(?:please )?note(?: that\b|\s*:)|it(?: is|'s) (?:worth noting|important to note"
    r"|worth mentioning) that\b|it should be noted that\b|importantly,|notably,"
    r"|interestingly,|i found that\b|as (?:mentioned|noted)(?: above| earlier| before)?,)\s*",
    _I,
)
# A greeting line, but not "Hey, I saw them live in 2019!" (a statement after a greeting).
_GREETING = re.compile(
    r"(?:(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening)|dear)\b"
    r"(?:(?!\b(?:i|we)\b)[^.!?]){0,30}"
    r"|welcome(?: back)?(?: to [^.!?,;:]{1,40})?)[.!?,]*$",  # "Welcome to the Fitzbillies."
    _I,
)
_PLEASANTRY = re.compile(
    r"(?:(?:i )?hope (?:(?:this|that|it) helps|you\b|to\b)|let me know|feel free"
    r"|(?:please )?(?:don't|do not) hesitate|happy to help|glad (?:i could|to) help|good luck"
    r"|have a (?:great|nice|good|wonderful|lovely)|you(?:'re| are) welcome|thanks?\b(?! to\b)"
    r"|thank you|cheers\b"
    r"|(?:great|good|excellent|interesting|nice) question|i(?:'d| would) be (?:happy|glad)"
    r"|i(?:'m| am) (?:happy|glad) to|no problem|my pleasure|if you have (?:any )?(?:other"
    r"|more|further|additional)|is there anything else|anything else\b"
    r"|(?:(?:sure|certainly|of course|absolutely|okay|ok|alright|great|yes|no|indeed|got it"
    r"|will do|perfect)\b\W*)+$"
    r"|(?:(?:oh|ah|aw|wow|haha|ha|lol|yeah|yep|hmm|nice|cool|awesome|great|really)\b\W*)+$"
    r"|(?:me too|me neither|same here)\W*$"
    r"|(?:just |one |wait )?(?:a )?(?:moment|second|sec)(?: please)?\W*$"
    r"|(?:please )?(?:hold on|bear with me)\b[^.!?]{0,20}\W*$"
    r"|i(?:'m| am) (?:so |very |really )?sorry (?:to hear|for|about)\b)",
    _I,
)
_META = re.compile(
    r"(?:here(?:'s| is| are)\b|below (?:is|are)\b|let me\b|let's\b"
    r"|the following (?:is|are|list|table|summary|points|facts|information|sources)\b"
    r"|i(?:'ll| will| can) (?:explain|summarize|describe|walk|outline|break|go|list|provide"
    r"|start|help|check|look|fetch|search|pull up)"
    r"|i (?:searched|looked|checked|have searched|reviewed)\b"
    # "I've found an event that matches your criteria": a search done, no fact of the result
    r"|i(?:['’]ve| have)? found (?:a|an|some|several|a few|a couple of|many|lots of) (?:\w+ ){1,3}"
    r"(?:that|which) (?:match|matches|fits?|meets?|suits?) your\b"
    r"|as an ai\b|i(?:'m| am) an ai\b|i(?:'m| am) (?:just )?a language model"
    r"|(?:sources?|references?|citations?|further reading|see also|disclaimer|summary"
    r"|key (?:facts|points|takeaways))\s*[:\-–]"
    r"|i (?:don't|do not|cannot|can't|couldn't|could not|am unable to|was unable to"
    r"|am not able to|wasn't able to|was not able to)(?: (?:seem to|currently|actually))?"
    r" (?:know|find|locate|see|access|answer|help|verify|confirm|provide|give|share|tell|say"
    r"|determine|recall|remember|comment|check|open|view|retrieve|search|browse|predict"
    r"|guarantee|speculate|assist|be sure|be certain|discuss|disclose|offer|identify|pinpoint"
    r"|have (?:any|enough|the|that|this|specific|more|further|real-time|current|personal|direct"
    r"|access|information|data|details|knowledge|context|records?|an? (?:answer|opinion|way)))\b"
    r"|i have no (?:information|data|details|knowledge|access|records?|idea|way|context|means"
    r"|ability|opinions?|personal|specific|further|more|real-time|current|clue|preferences?"
    r"|feelings|emotions)\b"
    r"|i(?:'m| am) (?:not sure|not certain|unable|sorry)"
    r"|(?:and )?(?:the |this |these )?(?:evidence|sources?|documents?|context|records?)"
    r" (?:confirms?|shows?|supports?|verif(?:y|ies)) (?:this|that|it)\b"
    r"|(?:the )?(?:provided |given |available )?" + _SOURCES + r" (?:do(?:es)? not|don't"
    r"|doesn't|did not|didn't) (?:mention|provide|contain|say|include|specify|state|discuss"
    r"|give|cover)\b)",
    _I,
)
# A sentence that only says where something is stated ("This is mentioned in passage 2.",
# "See document 3."), read with its references blanked out (``checks.blank_references``).
_REFERENCE_ONLY = re.compile(
    r"[(\[]?\s*(?:(?:this|that|it|these|those|which|all of this|the (?:answer|information"
    r"|above|steps?|details?))(?: information)?\s+(?:is|are|was|were|can be)(?: also| all)?"
    r"\s+(?:\w+ly\s+)?(?:mentioned|stated|described|found|noted|explained|given|listed|covered"
    r"|discussed|shown|specified|outlined|detailed|confirmed|supported|cited|documented|written"
    r"|addressed|referenced|based)\s+(?:in|by|on|under|at|from)\b|see(?: also)?\b|cf\.?"
    r"|according to\b|as (?:stated|mentioned|noted|described|shown) in\b|per\b|from\b)"
    r"(?:\s|,|&|\band\b|\bthe\b|\bprovided\b|\bgiven\b|\babove\b|\bretrieved\b|\b"
    + _SOURCES
    + r"\b)*[\s.!)\]]*",
    _I,
)
# Linear on long tokens: a URL match may only start where a token starts, and its lazy
# prefix stops at the first "://", so no start position re-scans the token.
_URL_OR_CITATION = re.compile(r"(?<!\S)\S+?://\S+|www\.\S+|\[\d+(?:[,\-–]\s*\d+)*\]|\[\^?\w+\]")
_WORDY = re.compile(r"[^\W\d_]{2,}")
_LEAD_IN = re.compile(r"[^:\n]{1,80}:\s+")
_SOURCE_LIST = re.compile(
    r"\W*(?:sources?|references?|citations?|further reading|see also|disclaimer)\s*:", _I
)
_INITIAL_REASONING = re.compile(
    r"(?:so\b(?!-|\s+(?:far|many|much|long|that|called)\b)|thus|hence|therefore|consequently"
    r"|accordingly|as a result|it follows that"
    r"|this (?:means|implies|suggests|shows|indicates))\b",
    _I,
)
_REASONING = re.compile(
    r"\b(?:therefore|thus|hence|consequently|as a result|it follows that|(?:this|which|that)"
    r" (?:means|implies|suggests|shows|indicates)|for this reason|we can conclude"
    r"|one can conclude|(?:this|which) is why)\b"
    r"|,\s+so\s+(?!that\b|far\b|much\b|many\b|on\b|forth\b|long\b|as\b|-)",
    _I,
)
_OPINION_STRONG = re.compile(
    r"\b(?:i|we)(?: would|'d|(?: do| did)(?: not|n't)| can't| cannot)? (?:strongly |highly "
    r"|personally "
    r"|really |absolutely |just )?(?:recommend|suggest|advise|prefer|love|like|hate|enjoy"
    r"|dislike|adore|loved|liked|hated|enjoyed|disliked|adored)\b"
    r"|\b(?:i|we)(?:'m| am|'re| are) (?:a |such a |such )?(?:big |huge |great )?fans?\b"
    r"|\b(?:you|we|one) (?:should|ought to|might want to|may want to|could consider|need to"
    r"|must)\b"
    # a liking foretold for the listener ("You might like them.", "you'll love it")
    r"|\byou(?:['’]ll| will| might| may| could)? (?:probably |really |definitely |surely )?"
    r"(?:like|love|enjoy|adore) (?:it|them|this|that|these|those)"
    r"(?=\s*(?:[.!,;]|$|(?:too|as well|a lot|very much)\b))"
    r"|\bin my (?:opinion|view|experience|estimation)\b|\bpersonally\b"
    r"|\bit(?: is|'s) (?:recommended|advisable|a good idea|wise|better|best)\b"
    r"|\bmy (?:favorite|favourite)\b|\bi'd (?:say|go with)\b|\bhonestly\b"
    r"|^(?:consider|try|avoid|make sure|be sure|remember to|don't forget|choose|go with"
    r"|opt for|stick with|start with|check out|keep in mind)\b",
    _I,
)
_BEST = re.compile(r"\bthe (?:best|worst|greatest)\b(?![-\s]+(?:known|selling|seller))")
_EVALUATIVE = (
    r"(?:great|excellent|amazing|awesome|wonderful|terrible|awful|horrible|good|bad|better"
    r"|worse|beautiful|ugly|fantastic|impressive|outstanding|brilliant|interesting|boring"
    r"|fascinating|remarkable|superb|poor|nice|lovely|overrated|underrated|elegant|ideal"
    r"|perfect|superior|inferior|exciting|enjoyable|delicious|disappointing|incredible"
    r"|stunning|magnificent|mediocre|useful|helpful|valuable|worthwhile|convenient|easy"
    r"|intuitive|clunky|messy|simple|pleasant|unpleasant|cool|fun|important|essential"
    r"|crucial|overpriced|worth it|a must)"
)
_EVALUATIVE_WORDS = frozenset(_EVALUATIVE.strip("(?:)").split("|")) - {"worth it", "a must"}
_WORD = re.compile(r"[a-z']+")
_OPINION_TRIGGERS = words("claims.opinion_triggers")
_BEST_TRIGGERS = frozenset({"best", "worst", "greatest"})
REASONING_TRIGGERS = words("claims.reasoning_triggers")
"""Words that mark a sentence as a conclusion drawn from others (with the phrase patterns)."""
_HEDGE_TRIGGERS = words("claims.hedge_triggers")
# A copula, contracted or not ("is", "seems", "she's", "they're").
_COPULA = r"(?:\b(?:is|are|was|were|be|been|seems?|looks?|sounds?|feels?)|['’](?:s|re))"
_EVALUATIVE_PREDICATE = re.compile(
    _COPULA + r"(?: not)?(?: (?:a|an|the|very"
    r"|really|quite|so|truly|extremely|incredibly|pretty|rather|particularly|absolutely"
    r"|genuinely|definitely|one of the|such an?|more|most|less|least))* " + _EVALUATIVE + r"\b",
    _I,
)
_INTENSIFIERS = (
    "so such super pretty incredibly absolutely truly totally insanely ridiculously seriously"
)
_INTENSIFIER_TRIGGERS = word_set(_INTENSIFIERS)
# A copula and an intensifier before a word: a judgement whatever the word ("she's so
# clever", "they're such majestic animals", "it's super relaxing"), not "so many" or "so far".
_INTENSIFIED = re.compile(
    _COPULA
    + r" (?:just |really |also )?(?:such(?: an?)?|"
    + "|".join(_INTENSIFIERS.split())
    + r") (?!(?:many|much|far|few|long|that|often)\b)(?![a-z'’-]+ (?:that|as)\b)[a-z]",
    _I,
)
# Interjections and reactions that open a chat reply ("haha", "lol", "same here", "agreed").
_REACTION = re.compile(
    r"(?:oh|ah|aw+|wow|ooh|haha\w*|ha|lol|omg|yay|ugh|hmm+|yeah|yep|yes|no|nope|nah|right"
    r"|same(?: here)?|agreed|totally|exactly|seriously|honestly|me too|mine too|true)\b",
    _I,
)
# The speaker as the subject ("i'd say croissants", "mine too"): first person singular after any
# reactions and frames ("We present a method" is authors stating what their paper does). A
# frame that reports another fact ("i read he broke his wrist", "i think it opened in 1920")
# leaves that fact the claim.
_FIRST_PERSON = re.compile(r"(?:i|i['’](?:m|d|ve|ll)|me|my|mine|myself)\b", _I)
_FRAME = re.compile(
    r"(?:(?:i|we)(?:['’]ve| have)? (?:(?:just|once|also|actually|really|kind of|sort of) )?"
    r"(?:think|thought|believe|guess|suppose|reckon|bet|suspect|read|heard|hear|saw|seen"
    r"|learned|learnt|know|knew|remember|recall|understand|noticed|found out)"
    r"|(?:i|we)['’]m (?:pretty |fairly |quite |almost |not )?(?:sure|certain|told)"
    r"|apparently|supposedly|reportedly|allegedly|probably|maybe|perhaps|arguably|seemingly"
    r"|it (?:seems|appears)(?: like)?|if i remember"
    r"(?: right| correctly)?|as far as i know|from what i(?:['’]ve| have)? (?:read|heard))"
    r"(?: that)?\b[\s,]*",
    _I,
)
_LEAD = re.compile(r"[\W_]+")
# "may" and "march" are verbs too often to count as months here
_CALENDAR_WORDS = frozenset(
    [*WEEKDAYS, *(f"{d}s" for d in WEEKDAYS), *(m for m in MONTHS if m not in ("may", "march"))]
)
_EXISTENTIAL = re.compile(r"\bthere\s*(?:['’]|\s(?:is|are|was|were|be|been)\b)", _I)
_PARTS = re.compile(r"\s*[,;]\s*|\s+(?:and|but)\s+")
_INTENSIFIER_LED = re.compile(
    r"(?:such(?: an?)?|so|super|pretty|absolutely|totally|truly|really|incredibly)"
    r" [a-z'’-]+(?: [a-z'’-]+)?\W*",
    _I,
)
_ADVERBS = (
    r"(?:(?:really|just|totally|so|also|honestly|kinda|kind of|pretty|super|a bit|still|not|sure"
    r"|certainly|definitely|absolutely)\s+)*"
)
_FEELING_VERBS = (
    r"(?:love|loved|adore|adored|hate|hated|like|liked|enjoy|enjoyed|wish|hope|want|wanted|miss"
    r"|missed|prefer|can['’]?t wait|cannot wait|can['’]?t get enough|would love|would like"
    r"|dabble)\b"
)
_FEELINGS = (
    r"(?:excited|scared|terrified|afraid|happy|glad|sad|jealous|curious|hooked|obsessed|into it"
    r"|a (?:big |huge )?fan|not (?:very )?good|bad at|good at|torn|sold|in)\b"
)
# What the speaker feels, wishes, would do or offers ("i'd be terrified", "i love it", "i'm so
# excited", "i used to!", "i can try"), not an experience or a fact about the speaker ("I
# visited the museum last year", "I have two dogs", "I can't swim": claims a persona can
# ground).
_SPEAKER_ATTITUDE = re.compile(
    r"(?:i['’]d\b|(?:i|we)\s+" + _ADVERBS + r"(?:would|could|might)\b"
    r"|(?:i|we)\s+"
    + _ADVERBS
    + _FEELING_VERBS
    + r"|(?:i['’]m|i am|we['’]re|we are)\s+"
    + _ADVERBS
    + _FEELINGS
    + r"|(?:me|mine)(?: too| neither| as well)?\W*$|(?:me|mine) (?:too|neither)\b"
    r"|(?:i|we)\s+"
    + _ADVERBS
    + r"(?:used to|do|did|have|had|am|can|will|would)(?:\s+(?:too|as well|though))?\W*$"
    # an offer ("I can try!", "we'll look into it"): what the speaker will do, nothing stated
    r"|(?:i|we)(?:['’]ll|\s+can|\s+will)\s+(?:try|help|look|check|ask|see|find out|get back)\b)",
    _I,
)
# In lowercase chat the speaker may be left out ("can't get enough of it", "love it", "used to,
# all the time"; "Should the board approve it, ..." is no such sentence) or be the one a thing
# does something to ("it gives me chills every time").
_SPEAKER_DROPPED = re.compile(r"(?:" + _FEELING_VERBS + r"|used to\b)", _I)
_SPEAKER_MOVED = re.compile(r"\b(?:gives?|gave|makes?|made|gets?|got|blows?) (?:me|my mind)\b", _I)
_NEXT_CLAUSE = re.compile(r"(?:[,;]\s*)?\b(?:and(?: then)?|but|while|whereas|then)\b\s+|;\s*")
_CLAUSE_BREAK = re.compile(r"[,;:]\s")
_FRAGMENT_OPINION_MAX_WORDS = 8
_SLIGHT_WORDS = 2
_WH = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", _I)
_ASKING = re.compile(
    r"(?:what|who|whom|whose|when|where|which|why|how|is|are|was|were|do|does|did|can|could"
    r"|would|will|should|has|have|had|name|list|tell me|give me|find)\b",
    _I,
)
_PAST = re.compile(r"\b(?:was|were|had|did|[a-z]{3,}ed)\b", _I)
_HEDGE = re.compile(
    r"\b(?:i|we) (?:think|believe|feel|guess|suppose|reckon|assume)\b|\bit (?:seems|appears)"
    r"\b|\b(?:seems|seem) to\b|\barguably\b|\bperhaps\b|\bprobably\b|\bmaybe\b|\blikely\b"
    r"|\bapparently\b|\bin general\b|\bpossibly\b",
    _I,
)
_CHECKABLE_ENTITY = re.compile(r"(?<=\s)[\"“(]?(?!I\b)[A-Z][\w’'.-]*")
_BOLD_LINE = re.compile(r"(?:\*\*|__).+(?:\*\*|__):?$")
_EMPHASIS = re.compile(r"\*\*|__")
_YES_NO = re.compile(r"(?:yes|no)\W*$", _I)
_FRAGMENT_MAX_WORDS = 12
_HEADING_MAX_WORDS = 6
_CONTRACTED_IS = re.compile(
    r"(?i)\b(?:there|here|it|that|he|she|what|who|where)['’]s\b|\b(?:they|we|you)['’]re\b"
)


def strip_preamble(sentence: str) -> int:
    """Length of the leading meta preamble of ``sentence`` ("Based on the documents, ").

    A meta lead-in that ends in ":" before content of the same sentence is one too ("Here is
    what I found: Acme ...", "The evidence confirms this: ..."); a lead-in alone is kept.

    Example:
        >>> s = "Based on the provided context, Acme was founded in 2020."
        >>> s[strip_preamble(s) :]
        'Acme was founded in 2020.'
        >>> s = "Here is what I found: Acme was founded in 2020."
        >>> s[strip_preamble(s) :]
        'Acme was founded in 2020.'
    """
    pos = 0
    end = len(sentence.rstrip())
    for _ in range(3):
        m = _PREAMBLE.match(sentence, pos) or _meta_lead_in(sentence, pos)
        if not m or m.end() >= end:
            break
        pos = m.end()
    return pos


def _meta_lead_in(sentence: str, pos: int) -> re.Match[str] | None:
    """A lead-in up to a ":" that is meta text ("Here is the answer:"), not a label of content
    ("Warning: ...") nor a list of sources ("Sources: ...")."""
    m = _LEAD_IN.match(sentence, pos)
    if m is None or _SOURCE_LIST.match(sentence, pos):
        return None
    lead = sentence[pos : m.end()].rstrip()
    return m if _META.match(lead) or _PREAMBLE.fullmatch(lead) else None


def _checkable(text: str) -> bool:
    """A number, a capitalised name after the first word, or a day or month however it is
    written ("open on sundays" in lowercase chat): something evidence can check."""
    if any(ch.isdigit() for ch in text) or _CHECKABLE_ENTITY.search(text) is not None:
        return True
    return not _CALENDAR_WORDS.isdisjoint(_WORD.findall(text.lower()))


def _after_frames(body: str) -> int:
    """Where the sentence's own statement starts, after any reactions and report frames
    ("haha same, i used to" -> "i used to"; "i read that he broke" -> "he broke")."""
    pos = 0
    for _ in range(6):  # reactions and frames, a few deep
        lead = _LEAD.match(body, pos)
        pos = lead.end() if lead else pos
        m = _REACTION.match(body, pos) or _FRAME.match(body, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
    return pos


def _slight(statement: str) -> bool:
    """A statement of two content words or fewer and no past event ("fine", "the film works"),
    the size of a judgement; "he was born in brooklyn" tells of an event."""
    return len(content_stems(statement)) <= _SLIGHT_WORDS and _PAST.search(statement) is None


def _speaker_subject(body: str) -> bool:
    """The statement after the frames opens with the speaker ("mine too", "i'd say ...")."""
    return _FIRST_PERSON.match(body[_after_frames(body) :]) is not None


def _asks(question: str) -> bool:
    """Whether the user's turn is a question ("who voices homer?", "Name the capital of
    Peru", "... prevents the opposing team from what"), not a statement the answer reacts to
    ("penguins are adorable")."""
    q = question.strip().rstrip("\"'”’)] ")
    return q.endswith(("?", "？")) or _ASKING.match(q) is not None or _WH.search(q) is not None


def _personal(body: str) -> bool:
    """Nothing to check: the statement after the frames says what the speaker feels, wishes or
    would do ("i think i'd be terrified", "mine too", "it gives me chills") or holds no content
    word ("i guess so"). "i read he broke his wrist" is not: the frame reports another fact; nor
    is "I visited the museum last year", an experience a persona can ground or not."""
    rest = body[_after_frames(body) :]
    return (
        _SPEAKER_ATTITUDE.match(rest) is not None
        or (rest[:1].islower() and _SPEAKER_DROPPED.match(rest) is not None)
        or _SPEAKER_MOVED.search(rest) is not None
        or not content_stems(rest)
    )


def _other_clause_states(body: str, end: int) -> bool:
    """Whether a clause after a judgement states a fact of its own ("a player that was so good
    at football and then broke his wrist"); "great storyline and the music is beautiful" does
    not."""
    m = _NEXT_CLAUSE.search(body, end)
    if m is None:
        return False
    tail = body[m.end() :].strip()
    return len(content_stems(tail)) >= _SLIGHT_WORDS and _judgement(tail) is None


def _figure_beside(body: str, end: int) -> bool:
    """A figure in a clause of its own after a liking or a piece of advice ("i love it, it's
    been on since 1995"): the sentence states a fact beside the opinion. "I'd recommend the
    2019 model" keeps its figure inside the opinion."""
    m = _CLAUSE_BREAK.search(body, end)
    return m is not None and any(ch.isdigit() for ch in body[m.end() :])


def _judgement(body: str) -> re.Match[str] | None:
    """An evaluative predicate ("is great", "was so good", "they're such majestic animals"),
    not an existential one: "There's a really nice Accord available at Fresno Station" says
    that the car is there."""
    words = frozenset(_WORD.findall(body.lower()))
    evaluative = words & _EVALUATIVE_WORDS or "worth it" in body or "a must" in body
    found = []
    if evaluative:
        found.append(_EVALUATIVE_PREDICATE.finditer(body))
    if words & _INTENSIFIER_TRIGGERS:
        found.append(_INTENSIFIED.finditer(body))
    for matches in found:
        for m in matches:
            if not _EXISTENTIAL.search(body, max(0, m.start() - 8), m.end()):
                return m
    return None


def _reactions_only(body: str) -> bool:
    """Every part of the sentence is a verbless reaction or about the speaker, and one is about
    the speaker ("haha the classic photo, i'd totally do it too"), or it ends in an intensified
    phrase after parts that say nothing ("they really are, such majestic animals")."""
    parts = [p for p in _PARTS.split(body) if p and p.strip(" .!?")]
    if len(parts) < 2:
        return False
    personal = [_personal(p) for p in parts]
    if _INTENSIFIER_LED.fullmatch(parts[-1].strip()) and all(personal[:-1]):
        return True
    quiet = [personal[i] or not has_finite_verb(p) for i, p in enumerate(parts)]
    return any(personal) and all(quiet)


def _exclamation(body: str) -> bool:
    """A short verbless reaction ("absolutely unreal", "such majestic animals!", "haha, the
    classic photo"): nothing a passage could state."""
    words = body.split()
    if len(words) > _FRAGMENT_OPINION_MAX_WORDS or _checkable(body) or has_finite_verb(body):
        return False
    first = next((ch for ch in body if ch.isalpha()), "")
    return (
        body.rstrip().endswith("!")
        or first.islower()
        or _REACTION.match(body.lstrip("\"'“‘(")) is not None
    )


def _is_non_claim(text: str) -> bool:
    stripped = text.strip().rstrip("*_ ")
    if not stripped:
        return True
    if stripped.endswith(("?", "？", '?"', "?”", "?)")) or stripped.endswith((":", "：")):
        return True
    if _GREETING.match(stripped) or _PLEASANTRY.match(stripped) or _META.match(stripped):
        return True
    residue = _URL_OR_CITATION.sub(" ", stripped)
    blanked = blank_references(residue)
    if blanked is not residue and _REFERENCE_ONLY.fullmatch(blanked):
        return True  # "This is mentioned in passage 2."
    return _WORDY.search(blanked) is None and not any(ch.isdigit() for ch in blanked)


def classify_sentence(text: str) -> ClaimType | None:
    """Type of one sentence, or None when it is not a claim.

    Not claims: questions, greetings and pleasantries, meta text ("Here is a summary:",
    lines ending in ":", "Sources: ..."), abstentions ("I don't know"), bare URLs.

    Args:
        text: One sentence (a leading meta preamble is ignored).

    Returns:
        ``ClaimType.FACTUAL``, ``REASONING`` or ``OPINION``; None for non-claims.

    Example:
        >>> classify_sentence("Therefore, revenue will double.")
        <ClaimType.REASONING: 'reasoning'>
        >>> classify_sentence("Hope this helps!") is None
        True
    """
    if not isinstance(text, str):
        raise InvalidInputError("text", f"expected a string, got {type(text).__name__}")
    skip = strip_preamble(text)
    body = text[skip:].strip()
    # After a preamble, the rest decides ("Here is what I found: Acme ...", "Sorry, I ..."),
    # unless the whole sentence is a greeting ("Hello, and welcome!").
    if _is_non_claim(body if skip else text) or (skip and _GREETING.match(text.strip())):
        return None
    # Cheap word triggers decide which of the (slower) pattern searches can match at all.
    words = frozenset(_WORD.findall(body.lower()))
    strong = _OPINION_STRONG.search(body) if words & _OPINION_TRIGGERS else None
    if (strong and not _figure_beside(body, strong.end())) or (
        words & _BEST_TRIGGERS and _BEST.search(body)
    ):
        return ClaimType.OPINION
    evaluative = bool(words & _EVALUATIVE_WORDS or "worth it" in body or "a must" in body)
    has_digits = any(ch.isdigit() for ch in body)
    judged = _judgement(body)
    # "a player that was so good at football and then broke his wrist": a fact beside it
    more = judged is not None and _other_clause_states(body, judged.end())
    if judged and not has_digits and not more:
        return ClaimType.OPINION
    if not _checkable(body) and (_exclamation(body) or _reactions_only(body)):
        return ClaimType.OPINION  # "so excited!", "haha the classic photo, i'd do it too"
    if _INITIAL_REASONING.match(body) or (words & REASONING_TRIGGERS and _REASONING.search(body)):
        return ClaimType.REASONING
    # A hedge does not make a stated fact safe ("i guess that was back in 1916", "apparently
    # she named it after poland"): only a hedged judgement is an opinion ("It seems fine.").
    hedged = bool(words & _HEDGE_TRIGGERS) and _HEDGE.search(body) is not None
    if hedged and not _checkable(body) and _slight(body[_after_frames(body) :]):
        return ClaimType.OPINION
    if evaluative and not _checkable(body) and not more:
        return ClaimType.OPINION
    if not _checkable(body) and _personal(body):
        return ClaimType.OPINION  # what the speaker feels or would do, or nothing said
    return ClaimType.FACTUAL


def _heading_like(text: str, seg: Segment) -> bool:
    """A stand-alone label line ("Key facts", "**Summary**", "Media Play News")."""
    if seg.item or not (seg.line_start and seg.line_end):
        return False
    stripped = text.strip()
    if _BOLD_LINE.fullmatch(stripped):
        return True
    if stripped[-1:] in ".!?。！？" or any(ch.isdigit() for ch in stripped):
        return False
    if _CONTRACTED_IS.search(stripped):
        return False  # "There's Quay Tavern in Whitby": a verb, written short
    return len(stripped.split()) <= _HEADING_MAX_WORDS and not has_finite_verb(stripped)


# Text an answer writes about its own sources or verdicts ("[annual_report_2024#1]",
# "[verified: GROUNDED]", ", as the evidence confirms"): it asserts nothing to check and must
# not change a grade, so it is dropped from the claim.
_NUMBERED_SOURCE = (
    r"(?:passage|document|doc|source|excerpt|snippet|chunk)s?\s*#?\d+"
    r"(?:\s*(?:,|&|and|-|–)\s*\d+)*\b"
)
_MARKER_CUES = ("[", "【", "(", " as ", " which ", "ccording to ", " per ", " see ")
_MARKERS = re.compile(
    r"(?:^|(?<!\s)\s+|(?<=[.,;:!?]))(?:\[(?=[^\[\]\s]{0,79}[\d#_:/.])[^\[\]\s]{1,80}\](?![\w(\[])|\[(?:verified"
    r"|unverified|source|sources|citation|cite|ref|doc|document|passage|evidence|grounded"
    r"|fabricated|inferred|confidence|fact[- ]?check(?:ed)?)\b"
    r"[^\[\]\n]{0,80}\]|【[^】\n]{0,80}】|\((?:source|sources|see|ref|cf)\s*:[^()\n]{0,80}\)"
    r"|\((?:see |cf\.? )?" + _NUMBERED_SOURCE + r"\))"
    r"|(?:,|(?<![\s,]))\s+(?:as|which)\s+(?:the\s+)?(?:evidence|sources?|documents?|context"
    r"|records?)\s+"
    r"(?:confirms?|shows?|states?|says?|supports?|verif(?:y|ies))(?:\s+(?:this|that|it))?\b"
    r"|,?\s+(?:according to|as (?:stated|mentioned|noted|described) in|see|per)\s+(?:the\s+)?"
    + _NUMBERED_SOURCE,
    _I,
)


def _clean(text: str) -> str:
    if "**" in text or "__" in text:
        text = _EMPHASIS.sub("", text)
    if any(cue in text for cue in _MARKER_CUES):
        text = _MARKERS.sub("", text)
    return text


def _sentence_claims(text: str, seg: Segment) -> list[tuple[int, int, str, ClaimType]]:
    whole = text[seg.start : seg.end]
    start = seg.start + strip_preamble(whole)
    sentence = text[start : seg.end]
    if _heading_like(sentence, seg):
        return []
    ctype = classify_sentence(whole)  # the rest after a preamble, unless all is a greeting
    if ctype is None:
        return []
    parts = split_compound(sentence)
    if len(parts) == 1:
        return [(start, seg.end, unclefted(_clean(sentence)), ctype)]
    out: list[tuple[int, int, str, ClaimType]] = []
    reasoning = bool(_INITIAL_REASONING.match(sentence))
    for part in parts:
        ptype = classify_sentence(part.text)
        if ptype is None:
            continue
        if ptype is ClaimType.REASONING:
            reasoning = True
        elif ptype is ClaimType.FACTUAL and reasoning:
            ptype = ClaimType.REASONING
        out.append((start + part.start, start + part.end, unclefted(_clean(part.text)), ptype))
    return out


def _named_subject_verb(tokens: list[str]) -> bool:
    """A name or a figure, then a lowercase word in ``-s`` that takes an object: a verb the
    lexicon does not list ("The Zephyr Book 14 ships with 32 GB", "The Kestrel P3 packs a
    60 Wh battery"), so the answer is a sentence of its own."""
    for i in range(1, len(tokens) - 1):
        prev, word = tokens[i - 1], tokens[i]
        if (
            (prev[:1].isupper() or prev[:1].isdigit())
            and word.isalpha()
            and word.islower()
            and word.endswith("s")
            and not word.endswith("ss")
            and starts_object(tokens[i + 1])
        ):
            return True
    return False


def _is_fragment(answer: str) -> bool:
    """A short answer that is not a full sentence: no finite verb, or no subject."""
    tokens, _ = tokens_with_offsets(answer)
    if not tokens or len(tokens) > _FRAGMENT_MAX_WORDS:
        return False
    if _named_subject_verb(tokens):
        return False
    return not has_finite_verb(answer) or verb_at(tokens, 0)  # "is a British author"


def _question_claim(text: str, segments: list[Segment], question: str) -> Claim | None:
    """One claim ``"<question> <answer>"`` when the answer is a short fragment."""
    if len(segments) != 1 or segments[0].kind != "sentence":
        return None
    seg = segments[0]
    start = seg.start + strip_preamble(text[seg.start : seg.end])
    answer = text[start : seg.end]
    if not _is_fragment(answer) or not _asks(question):
        return None
    stripped = answer.strip()
    if _judgement(stripped) or _OPINION_STRONG.search(stripped) or _speaker_subject(stripped):
        return None  # "pizza, hands down! so good", "i'd say croissants": no answer to check
    pleasantry = _PLEASANTRY.match(stripped) and not _YES_NO.match(stripped)
    if stripped.endswith(("?", "？")) or pleasantry or _META.match(stripped):
        return None
    return Claim(
        text=f"{question.strip()} {_clean(answer)}",
        type=ClaimType.FACTUAL,
        start=start,
        end=seg.end,
        index=0,
    )


def extract_claims(text: str, *, question: str | None = None) -> list[Claim]:
    """Split ``text`` into atomic claims with exact character spans.

    Args:
        text: The output to check (plain text or markdown).
        question: The user question. When the answer is a short fragment without a finite
            verb ("Delhi", "Arthur's Magazine", "1844"), the result is one FACTUAL claim
            ``"<question> <answer>"`` spanning the answer, so the pair is verified together.

    Returns:
        Claims in output order; ``claim.index`` is the position, ``text[claim.start:
        claim.end]`` the claim's span. A split clause's ``claim.text`` carries the subject
        ("Acme has 500 employees.") while its span covers only that clause.

    Invalid Unicode (lone surrogates) is read as U+FFFD; invisible format characters (zero-width
    space, bidi controls, soft hyphen: Unicode category Cf) are not read, so "20\\u200b19" is
    the year 2019. Spans point into ``text`` as given either way.

    Raises:
        InvalidInputError: ``text`` or ``question`` is not a string.

    Example:
        >>> [c.text for c in extract_claims("Acme was founded in 2020 and has 500 staff.")]
        ['Acme was founded in 2020.', 'Acme has 500 staff.']
    """
    if not isinstance(text, str):
        raise InvalidInputError("text", f"expected a string, got {type(text).__name__}")
    if question is not None and not isinstance(question, str):
        raise InvalidInputError("question", f"expected a string, got {type(question).__name__}")
    text = repair_text(text)  # lone surrogates -> U+FFFD, same offsets
    question = strip_format(repair_text(question)) if question is not None else None
    if not text.strip():
        return []
    # Read without invisible format characters ("20\u200b19" is 2019); spans stay the text's.
    plain = without_format(text)
    claims = _claims(plain.text, question)
    if not plain.cuts:
        return claims
    return [_respan(c, plain) for c in claims]


def _respan(claim: Claim, plain: Unformatted) -> Claim:
    """``claim`` with its span in the text as given (format characters back in)."""
    start = plain.start(claim.start)
    return claim.model_copy(update={"start": start, "end": max(start, plain.end(claim.end))})


def _claims(text: str, question: str | None) -> list[Claim]:
    """``extract_claims`` of a text without format characters."""
    segments = segment_text(text, skip_code=True)
    if question and question.strip():
        claim = _question_claim(text, segments, question)
        if claim is not None:
            return [claim]
    claims: list[Claim] = []
    for seg in segments:
        if seg.kind != "sentence":
            continue
        for start, end, ctext, ctype in _sentence_claims(text, seg):
            claims.append(Claim(text=ctext, type=ctype, start=start, end=end, index=len(claims)))
    return claims


# A name inside a sentence (a capital after its first word) or a figure: what an offer states.
_OFFERED_VALUE = re.compile(r"\d|(?<=[\w,;:] )(?!I\b)[A-Z]")


_MAX_OFFER_CHARS = 400
# "Here's one, 3rd Cousin.", "Here is a Psychologist, Alissa Scanlin in Lafayette": a result
# presented by its values (in prose, "Here is a summary" is meta text and no claim)
_PRESENTED = re.compile(r"(?i)\W{0,3}here(?:['’]s| is| are)\b")
# A question that asks about something ("Is The Tin Drum cheap?", "Can I bring my children to
# Fuji?"), not one that offers it ("Would you like a 4 star hotel?", "Do you want to fly Delta?").
_ASKS = re.compile(
    r"(?i)(?:is|are|was|were|does|do|did|has|have|had|can|could|will|should|shall|isn't|"
    r"aren't|doesn't|don't)\s+(?!you\b)"
)


def _recommended(claim: Claim) -> Claim:
    """An opinion that carries a name or a figure, read as a claim: recommending a tool's
    result by its values ("I recommend Becker Hubert J, a psychologist in Redwood City.",
    "Chevys Fresh Mex is a nice Mexican spot in Vallejo.") presents it as holding them."""
    if claim.type is not ClaimType.OPINION or _OFFERED_VALUE.search(claim.text) is None:
        return claim
    return claim.model_copy(update={"type": ClaimType.FACTUAL})


def with_offers(text: str, claims: list[Claim]) -> list[Claim]:
    """``claims`` with the offers of ``text`` that carry values, for a reply built on a tool
    result: "How about a 3 star hotel called 11 Howard?" presents the result as a 3-star hotel
    named 11 Howard, so those values are checked against it. A question carrying no figure or
    name ("Would you like to book it?") stays unchecked. So are a result presented by its
    values ("Here's one, 3rd Cousin.") and a recommendation or a judgement that names or
    figures the result ("I recommend the 3 star Aka University City."): an opinion of a tool's
    result by its values is checked as a claim. Used only where the evidence is structured (a
    question about prose asks; an offer of a tool's result states)."""
    if not isinstance(text, str):
        return claims
    claims = [_recommended(c) for c in claims]
    if "?" not in text and _PRESENTED.search(text) is None:
        return claims
    text = repair_text(text)
    spans = [(c.start, c.end) for c in claims]
    added: list[Claim] = []
    for seg in segment_text(text, skip_code=True):
        body = text[seg.start : seg.end].strip()
        offered = body.endswith("?") or _PRESENTED.match(body) is not None
        if seg.kind != "sentence" or not offered or len(body) > _MAX_OFFER_CHARS:
            continue
        if any(s < seg.end and seg.start < e for s, e in spans):
            continue
        if _OFFERED_VALUE.search(body) is None or _ASKS.match(body):
            continue
        start = seg.start + (
            len(text[seg.start : seg.end]) - len(text[seg.start : seg.end].lstrip())
        )
        added.append(
            Claim(text=body, type=ClaimType.FACTUAL, start=start, end=start + len(body), index=0)
        )
    if not added:
        return claims
    merged = sorted([*claims, *added], key=lambda c: c.start)
    return [c.model_copy(update={"index": i}) for i, c in enumerate(merged)]
