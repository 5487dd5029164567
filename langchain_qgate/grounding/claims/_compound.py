"""Split compound sentences into independent clauses, carrying the subject.

"Acme was founded in 2020 and has 500 employees." becomes "Acme was founded in 2020." and
"Acme has 500 employees.". A small deterministic heuristic: a conjunction ("and", "but",
"while", "whereas", "yet", a semicolon) splits only when the left side is a clause (it has a
finite verb and does not end on one: "designs and manufactures chips" shares its object) and
the right side stands alone: it starts with a verb phrase (the subject is carried), a
pronoun and a verb, or (after a comma / semicolon) a short noun phrase and a verb. Noun lists
("salt and pepper", "Tom and Jerry were friends", "between 2019 and 2021", "both X and Y")
have no verb on one side and stay whole.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from langchain_qgate.grounding.checks._lexicon import (
    ADVERBS,
    AUXILIARIES,
    BE_FORMS,
    FUNCTION_WORDS,
    PRONOUNS,
    bare,
    first_verb,
    is_past_form,
    pronoun_clause_at,
    tokens_with_offsets,
    verb_at,
    words,
)

__all__ = ["Part", "split_compound"]

_MAX_TOKENS = 150
_MAYBE_COMPOUND = re.compile(r"\b(?:and|but|while|whereas|yet)\b|;")
_CONJUNCTIONS = frozenset({"and", "but", "while", "whereas", "yet"})
_NEEDS_COMMA = frozenset({"while", "whereas", "yet"})
_NO_SPLIT_AFTER = frozenset({"both", "between", "either", "neither", "from"})
_LEADING_ADVERBIALS = words("compound.leading_adverbials")
_NP_BLOCKERS = words("compound.np_blockers")
_REPLACEABLE_PRONOUNS = frozenset({"it", "he", "she", "they"})
_MAX_SUBJECT_WORDS = 12
_NP_DETERMINERS = words("compound.np_determiners")
_SUBORDINATORS = words("compound.subordinators")
_PREPOSITIONS = words("compound.prepositions")
_NAME_PARTICLES = words("compound.name_particles")
# Past forms that are not passives after "was born in X and ...": "moved to Paris".
_INTRANSITIVE_PAST = words("compound.intransitive_past")


def _ends_on_verb(token: str) -> bool:
    """A left side ending on a participle/verb shares what follows ("written and directed")."""
    return is_past_form(bare(token))


class Part(NamedTuple):
    """One clause of a sentence: its span relative to the sentence and its standalone text."""

    start: int
    end: int
    text: str


def _nesting(tokens: list[str]) -> list[bool]:
    """For each token: whether it sits inside parentheses or a double-quoted stretch."""
    inside: list[bool] = []
    depth = 0
    quoted = False
    for tok in tokens:
        inside.append(depth > 0 or quoted)
        depth = max(0, depth + tok.count("(") - tok.count(")"))
        if (tok.count('"') % 2) == 1:
            quoted = not quoted
        if "“" in tok and "”" not in tok:
            quoted = True
        elif "”" in tok and "“" not in tok:
            quoted = False
    return inside


_COMMA = re.compile(r",(?=\s|$)")


def _subject(sentence: str, tokens: list[str], starts: list[int], lo: int, hi: int) -> str | None:
    """The subject of the clause ``tokens[lo:hi]``: the words before its first verb."""
    verb = first_verb(tokens, lo, hi)
    if verb <= lo:
        return None
    text = sentence[starts[lo] : starts[verb - 1] + len(tokens[verb - 1])]
    pieces = [p.strip() for p in _COMMA.split(text) if p.strip()]  # not "46,011"
    if not pieces:
        return None
    first_word = bare(pieces[0].split()[0])
    subject = pieces[-1] if first_word in _LEADING_ADVERBIALS else pieces[0]
    words = [bare(w) for w in subject.split()]
    if len(words) > _MAX_SUBJECT_WORDS or any(w in _SUBORDINATORS for w in words):
        return None
    return subject


_NOT_ANTECEDENTS = words("compound.not_antecedents")


_SINGULAR_IN_S = words("compound.singular_in_s")


def _antecedent_ok(pronoun: str, subject: str) -> bool:
    """Whether ``subject`` can stand for ``pronoun`` (a cautious agreement check)."""
    words = subject.split()
    first = re.split(r"['’]", bare(words[0]))[0]  # "It's never" starts with a pronoun
    if first in PRONOUNS or first in _NOT_ANTECEDENTS:
        return False  # "No words ..." / "Every student ..." stand for nothing one can name
    if all(bare(w) in FUNCTION_WORDS for w in words):
        return False
    if pronoun in {"he", "she"}:  # a personal name: capitalised words only ("Francis Church")
        return all(w[:1].isupper() or bare(w) in _NAME_PARTICLES for w in words) and bare(
            words[0]
        ) not in {"the", "a", "an"}
    if pronoun == "they":  # "The members", "Tom and Jerry" (not "EliteSportingGoods")
        return (words[-1].islower() and words[-1].endswith("s")) or " and " in subject
    # "it" never stands for a plural ("The prices are high, but it is child-friendly")
    last = words[-1]
    return not (
        last.islower()
        and last.endswith("s")
        and not last.endswith(("ss", "us", "is", "ics"))
        and last not in _SINGULAR_IN_S
    )


def _verb_group_end(tokens: list[str], first: int, hi: int) -> int:
    """Index after the main verb group starting at ``first`` ("has been widely praised")."""
    k = first + 1
    while k < hi:
        word = bare(tokens[k])
        if tokens[k - 1][-1:] in ",;:" or not (
            word in AUXILIARIES
            or word in BE_FORMS
            or word in ADVERBS
            or word == "not"
            or word.endswith("ly")
            or is_past_form(word)
        ):
            break
        k += 1
    return k


def _passive_aux(tokens: list[str], first: int, hi: int) -> str | None:
    """The auxiliaries of a passive main verb ("was", "has been"), else None."""
    end = _verb_group_end(tokens, first, hi)
    group = [bare(t) for t in tokens[first:end]]
    if len(group) < 2 or not is_past_form(group[-1]):
        return None
    aux = [w for w in group[:-1] if w in AUXILIARIES or w in BE_FORMS]
    if not aux or aux[-1] not in BE_FORMS:
        return None
    return " ".join(aux)


def _skip_adverbs(tokens: list[str], j: int) -> int:
    while j < len(tokens) - 1 and bare(tokens[j]) in ADVERBS:
        j += 1
    return j


def _right_kind(tokens: list[str], j: int, *, comma: bool) -> str | None:
    """What the right side starting at ``tokens[j]`` is: ``"vp"``, ``"pron"``, ``"np"``."""
    j = _skip_adverbs(tokens, j)
    if j >= len(tokens) - 1 and not (j < len(tokens) and pronoun_clause_at(tokens, j)):
        return None
    if pronoun_clause_at(tokens, j):
        return "pron"
    if verb_at(tokens, j):
        return "vp"
    head = bare(tokens[j])
    if not comma or head in _NP_BLOCKERS or head in PRONOUNS or head.endswith("ly"):
        return None
    for k in range(j + 1, min(len(tokens), j + 5)):
        prev = tokens[k - 1]
        word = bare(prev)
        closed = word in FUNCTION_WORDS or word in PRONOUNS or word in _NP_BLOCKERS
        if prev[-1:] in ",;:" or (closed and (k - 1 > j or word not in _NP_DETERMINERS)):
            return None
        if verb_at(tokens, k):
            return "np"
    return None


def _vp_split_ok(tokens: list[str], is_verb: list[bool], lo: int, hi: int, semicolon: bool) -> bool:
    """Whether the verb phrase after ``tokens[lo:hi]`` can take the clause's subject."""
    right_verb = bare(tokens[_skip_adverbs(tokens, hi + 1 if not semicolon else hi)])
    last = tokens[hi - 1]
    open_end = not semicolon and not last.endswith(",")
    if open_end and (is_verb[hi - 1] or bare(last) in FUNCTION_WORDS or _ends_on_verb(last)):
        return False
    first = first_verb(tokens, lo, hi)
    # "..., to ensure that it operates well, and is maintained": the verb phrase may belong
    # to the embedded clause; keep the sentence whole rather than carry the wrong subject.
    if any(bare(t) in _SUBORDINATORS for t in tokens[max(first, lo) + 1 : hi]):
        return False
    if first < 0 or not is_past_form(right_verb):
        return True
    # "... children being diagnosed as incompetent and sent to hospitals": a past form
    # after an embedded participle coordinates with that participle, not the main verb.
    for t in tokens[_verb_group_end(tokens, first, hi) : hi]:
        word = bare(t)
        if t[:1].islower() and (is_past_form(word) or (len(word) >= 5 and word.endswith("ing"))):
            return False
    return True


def split_compound(sentence: str) -> list[Part]:
    """Split ``sentence`` into standalone clauses (one part when it does not split).

    Args:
        sentence: One sentence.

    Returns:
        Parts in order; each has its span in ``sentence`` and the text to verify (with the
        carried subject and a full stop). A single part's text is the sentence itself.
    """
    whole = [Part(0, len(sentence), sentence)]
    if _MAYBE_COMPOUND.search(sentence) is None:
        return whole
    tokens, starts = tokens_with_offsets(sentence)
    if len(tokens) < 5 or len(tokens) > _MAX_TOKENS:
        return whole
    inside = _nesting(tokens)
    is_verb = [verb_at(tokens, k) or pronoun_clause_at(tokens, k) for k in range(len(tokens))]
    # cuts: (index of the last token of the left part, index of the first token of the right
    # part, kind of the right part)
    cuts: list[tuple[int, int, str]] = []
    part_lo = 0
    i = 1
    while i < len(tokens) - 1:
        tok = tokens[i]
        word = tok.lower()
        semicolon = tok.endswith(";") and not inside[i]
        if not semicolon and (word not in _CONJUNCTIONS or inside[i]):
            i += 1
            continue
        comma = semicolon or tokens[i - 1].endswith(",")
        left_hi = i + 1 if semicolon else i  # exclusive end of the left part
        right_lo = i + 1
        if (word in _NEEDS_COMMA and not comma) or not any(is_verb[part_lo:left_hi]):
            i += 1
            continue
        kind = _right_kind(tokens, right_lo, comma=comma)
        tail = {bare(t) for t in tokens[max(part_lo, left_hi - 6) : left_hi]}
        if kind is None or (word in _NEEDS_COMMA and kind == "vp") or tail & _NO_SPLIT_AFTER:
            i += 1
            continue
        if kind == "vp" and not _vp_split_ok(tokens, is_verb, part_lo, left_hi, semicolon):
            i += 1
            continue
        if kind == "vp" and comma:
            right_word = bare(tokens[_skip_adverbs(tokens, right_lo)])
            first = first_verb(tokens, part_lo, left_hi)
            for k in range(max(first + 1, part_lo + 1), left_hi):
                if (
                    tokens[k - 1].endswith(",")
                    and not inside[k]
                    and verb_at(tokens, k)
                    and (is_past_form(right_word) or not is_past_form(bare(tokens[k])))
                ):
                    cuts.append((k - 1, k, "vp"))
        cuts.append((left_hi - 1, right_lo, kind))
        part_lo = right_lo
        i = right_lo + 1
    if not cuts:
        return whole
    return _assemble(sentence, tokens, starts, cuts)


def _assemble(
    sentence: str, tokens: list[str], starts: list[int], cuts: list[tuple[int, int, str]]
) -> list[Part]:
    stripped = sentence.rstrip()
    term = stripped[-1] if stripped[-1:] in {".", "!", "。"} else ""
    bounds: list[tuple[int, int, str]] = []  # first token, last token, kind
    lo, kind = 0, "first"
    for last, nxt, nkind in cuts:
        bounds.append((lo, last, kind))
        lo, kind = nxt, nkind
    bounds.append((lo, len(tokens) - 1, kind))
    parts: list[Part] = []
    subject = _subject(sentence, tokens, starts, 0, len(tokens))
    main_verb = first_verb(tokens, 0, len(tokens))
    passive = _passive_aux(tokens, main_verb, len(tokens)) if main_verb >= 0 else None
    for n, (first, last, pkind) in enumerate(bounds):
        start = starts[first]
        end = starts[last] + len(tokens[last])
        final = n == len(bounds) - 1
        if not final:
            while end > start and sentence[end - 1] in ",;":
                end -= 1
        body = sentence[start:end]
        if pkind == "vp":
            if subject is None:
                return [Part(0, len(sentence), sentence)]
            verb = _skip_adverbs(tokens, first)
            after = bare(tokens[verb + 1]) if verb + 1 < len(tokens) else ""
            if (
                passive
                and is_past_form(bare(tokens[verb]))
                and bare(tokens[verb]) not in _INTRANSITIVE_PAST
                and after in _PREPOSITIONS
            ):
                body = f"{subject} {passive} {body}"  # "... was prepared by X and published in"
            else:
                body = f"{subject} {body}"
        elif pkind == "pron":
            pron = bare(tokens[first])
            own = _subject(sentence, tokens, starts, first, last + 1)
            if pron in _REPLACEABLE_PRONOUNS and subject and _antecedent_ok(pron, subject):
                body = f"{subject} {sentence[starts[first + 1] : end]}"
            elif own:
                subject = own
        elif pkind == "np":
            subject = _subject(sentence, tokens, starts, first, last + 1) or subject
        if not final and term and body[-1:] not in ".!?":
            body += term
        parts.append(Part(start, end, body))
    return parts


_LEADING_PRONOUN = re.compile(r"(It|He|She|They|Its|His|Her|Their)\b(?!['’])")
_POSSESSIVE = {"its": "it", "his": "he", "her": "she", "their": "they"}
_LEADING_NAME = re.compile(r"(?:The\s+)?([A-Z][\w'’.-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'’.-]*)*)")


def sentence_subject(sentence: str, *, name_fallback: bool = True) -> str | None:
    """The subject of ``sentence`` (the words before its first verb), or (with
    ``name_fallback``) the name it starts with when no verb is found."""
    tokens, starts = tokens_with_offsets(sentence)
    if len(tokens) > _MAX_TOKENS:
        return None
    found = _subject(sentence, tokens, starts, 0, len(tokens)) if tokens else None
    if found is None and name_fallback:
        m = _LEADING_NAME.match(sentence)
        found = m.group(0) if m and len(m.group(0).split()) <= 6 else None
    if found is None or _NEGATED_WORD.search(found):
        return None  # "Don't", "They're not being": a verb group, not a subject
    return found.rstrip(",;: ")


_NEGATED_WORD = re.compile(
    r"\b(?:not|never|no|nor|neither|none|nothing|nobody|unable|without)\b|n['’]t\b", re.I
)
_OPEN_SUBJECT = re.compile(r"(?:It|He|She|They|Its|His|Her|Their|The\s+[a-z]+)\b(?!['’])")


def open_subject(sentence: str) -> bool:
    """Whether ``sentence`` starts with a pronoun or a bare "The film"-like phrase whose
    referent it does not name ("It was discovered in 1935.")."""
    return _OPEN_SUBJECT.match(sentence) is not None


def resolve_pronoun(sentence: str, previous: str) -> str:
    """``sentence`` with a leading "It/He/She/They/Its/His/Her/Their" replaced by the subject
    of ``previous`` when it agrees ("It opened in 2000." -> "The Oresund Bridge opened in
    2000."); ``sentence`` itself otherwise.
    """
    m = _LEADING_PRONOUN.match(sentence)
    if m is None or not previous:
        return sentence
    word = m.group(1).lower()
    subject = sentence_subject(previous)
    if not subject or not _antecedent_ok(_POSSESSIVE.get(word, word), subject):
        return sentence
    if word in _POSSESSIVE:
        subject += "'s"
    return subject + sentence[m.end() :]
