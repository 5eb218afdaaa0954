"""Framing by structure (framing version 2): who claims to speak, what looks like machine output, what
claims a prior agreement, what instructs the memory.

Version 1's cue lists (``arvis.awmu.framing``) name phrases; these rules read the shape of a message
instead, so that a claim phrased in any domain's words is recognised:

``claimed_role``
    the speaker presents a role or identity to be believed on: a sentence opening "As <role>, I ..."
    ("As the duty engineer I signed ..."), "This is <someone> calling / speaking / writing / here",
    "<someone> here," opening a message, "I am your <anything>" or "I am the <role>", "on behalf of",
    "speaking for", "in my capacity as"; a header that names a system or authority as the speaker
    ("[SYSTEM]", "SYSTEM NOTICE:", "Admin note:").
``pasted_output``
    text that looks like machine output (a bracketed header, a log level or timestamp, two or more
    ``key: value`` pairs, a call with its result ``lookup(x) ->``, a JSON object) inside a message that
    also speaks in the first person: output pasted by someone, not a tool's own result.
``claimed_agreement``
    the listener's or a shared past decision invoked as proof: "you agreed / approved / signed off",
    "we agreed / settled", "as agreed / discussed / arranged", "per our call", "you would agree".
``attribution``
    a claim passed on from a third party: someone other than the speaker or the listener "told me",
    "said that", "reported that", "told the clerk that" ..., or "according to" (a scene narrated in the
    present, "she tells me it opens", is not one).
``claimed_consensus``
    everyone, every <one>, all <of them>, half the <group> (and up to four words) agree / know / say, or
    "ask anyone" (version 1 knew the adjacent "everyone agrees" only).
``instruction_to_memory``
    an imperative aimed at the record itself: "write / note / log / record / save this (down)",
    "update / correct / fix your records", "overwrite / delete the old ...", "treat this as final",
    "from now on <do>".

Every pattern is linear in the text: no quantifier is nested in another, and every repetition is bounded.
"""

from __future__ import annotations

import re


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ROLE_WORDS = _set(
    "head chief lead officer staff crew member captain boss admin owner agent rep representative clerk "
    "controller steward nurse doctor medic guard pilot chef cook bard judge mayor dean"
)
# "As usual, I ...", "As always we ...": adverbial, not a role
_AS_ADVERBS = _set(
    "usual always before expected planned such well soon far long much many said mentioned noted "
    "requested promised agreed discussed arranged a an the of if though"
)
_PRONOUNS = _set("i we you he she they it me us him her them my our your their its")
_VERBISH = ("ed", "ing")
_DETERMINERS = frozenset({"a", "an", "the", "your", "our", "of"})

_WORD = re.compile(r"[a-z][a-z'\u2019-]*+")
_SENTENCE_END = re.compile(r"[.!?;\n]")

# a header naming a system or an authority as the speaker
_SPEAKER_HEADER = re.compile(
    r"(?:^|[\n.!?]\s{0,4})(?:\[\s{0,2}(?:system|admin|administrator|bot|assistant|operator|moderator|root"
    r"|server|automated|auto|official|security|it|support)\b[^\]\n]{0,40}\]"
    r"|(?:system|admin|administrator|bot|automated|auto|server|official|security|moderator|operator)"
    r"(?: (?:note|notice|message|alert|update|override|instruction|bulletin|announcement)){0,2}\s{0,2}:)",
    re.IGNORECASE,
)
_CAPS_HEADER = re.compile(r"(?:^|\n)\s{0,4}[A-Z]{3,}(?: [A-Z]{2,}){0,3}\s{0,2}:")
_THIS_IS = re.compile(
    r"(?:^|[\n.!?]\s{0,4})[Tt]his is [\w' .-]{1,60}? (?:calling|speaking|writing|here)\b"
    r"|(?:^|\n)\s{0,4}(?!(?:I|We|It|They|You|He|She|Everyone|Everything|Nobody|Nothing)\b)"
    r"[A-Z][\w'-]{1,29}(?: [\w'-]{1,30}){0,2} here\s{0,2}[,.:!\u2014]"
)
_CAPACITY = re.compile(
    r"\b(?:on behalf of|speaking (?:for|as)|in my capacity as"
    r"|i(?:'m| am) (?:your|the (?:new |acting )?(?:\w+ )?(?:head|chief|lead|officer|manager|director"
    r"|supervisor|owner|admin|administrator|controller|captain|registrar|inspector|auditor|coordinator|dispatcher|engineer|editor)))\b",
    re.IGNORECASE,
)

# machine output
_BRACKET_HEADER = re.compile(r"(?:^|\n)\s{0,4}\[[^\]\n]{1,40}\]")
_LOG_MARK = re.compile(
    r"\b(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL|TRACE)\b|\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}"
    r"|\b\d{2}:\d{2}:\d{2}\b"
)
_KEY_VALUE = re.compile(
    r"(?:^|[;,|{]\s{0,4})[A-Za-z_][A-Za-z_.-]{0,24}(?: [A-Za-z_.-]{1,24}){0,2}\s{0,2}[:=]\s{0,2}\S"
)
_CALL = re.compile(
    r"\b[A-Za-z_]\w{0,40}(?:\.[A-Za-z_]\w{0,40}){0,4}\([^()\n]{0,80}\)\s{0,4}(?:->|=>|:|returned)"
)
_JSON = re.compile(r"\{\s{0,4}\"[^\"\n]{1,40}\"\s{0,4}:")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|we|we're|we've|our|me|us)\b", re.IGNORECASE)

_AGREEMENT = re.compile(
    r"\byou(?:'ve| have)? (?:already |yourself |earlier |previously |just |even )?(?:agreed|approved|accepted"
    r"|signed off|okayed|ok'd|authori[sz]ed|confirmed|promised|allowed|said (?:it|that|this|yes))\b"
    r"|\byou(?:'d| would| will| must| surely) agree\b"
    r"|\bwe(?:'ve| have| had)? (?:all |both |already |just )?(?:agreed|settled|arranged|discussed"
    r"|established)\b|\bwe had (?:a|an) (?:deal|agreement|understanding)\b"
    r"|\bas (?:we |you )?(?:agreed|discussed|arranged|promised|settled)\b"
    r"|\b(?:as )?per our (?:\w+ )?(?:conversation|call|chat|discussion|agreement|meeting|email|talk)\b"
    r"|\blast time you\b",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(
    r"\b(?P<subject>[\w']{1,40}) (?:\w{1,20} )?(?:told|said|claimed|swore|insisted|reported|assured|informed)"
    # what was said, reported to the speaker or as a that-clause ("told me", "said that", "told the
    # clerk that"): a claim passed on, not a scene narrated ("tells me it opens", "a deputy says")
    r"(?: (?:me|us)\b| that\b| (?:the|a|an|his|her|their|our) [\w']{1,30} that\b)"
    r"|\baccording to\b",
    re.IGNORECASE,
)
_CONSENSUS = re.compile(
    r"\b(?:everyone|everybody|every \w+|all (?:the |of the )?\w+|half (?:of )?the \w+|the whole \w+)"
    r"(?: [\w']+){0,4} (?:agrees?|knows?|says?|confirms?|swears?)\b|\bask anyone\b",
    re.IGNORECASE,
)
_NOT_THIRD = frozenset({"i", "we", "you", "i've", "we've", "you've", "i'd", "you'd", "we'd"})
_INSTRUCTION = re.compile(
    r"(?:^|[\n.!?;:,]\s{0,4})(?:(?:so|and|now|just|please|then|ok|okay),? ){0,2}"
    r"(?:write|jot|note|log|record|save|store)"
    r" (?:(?:this|that|it)(?: down\b| as\b| in (?:the|your)\b|\s{0,2}[.!,;]|\s{0,2}$)|down (?:that|this)\b)"
    r"|\b(?:update|correct|fix|change|amend|edit|overwrite|reset) (?:your|the|its) (?:\w+ )?"
    r"(?:records?|notes?|file|files|memory|entry|entries|database|system|details|log)\b"
    r"|\b(?:overwrite|replace|delete|remove|erase|drop|discard) (?:the|your|that|any|all|every) "
    r"(?:old|previous|earlier|existing|current|stored|saved|prior)\b"
    r"|\b(?:treat|consider|mark|regard) (?:this|that|it) as (?:true|fact|final|official|confirmed|correct"
    r"|settled|verified|canon)\b"
    r"|\bfrom now on,? (?:you |always |never |treat|use|consider|assume|say|tell|answer|refer|record|list)",
    re.IGNORECASE,
)


def structural_cues(text: str) -> list[str]:
    """The structural cue categories ``text`` shows, sorted."""
    folded = text.replace("\u2019", "'")
    shown = {
        "claimed_role": _claims_role(folded),
        "pasted_output": looks_like_output(folded) and _FIRST_PERSON.search(_prose(folded)),
        "claimed_agreement": _AGREEMENT.search(folded),
        "attribution": _attributes(folded),
        "claimed_consensus": _CONSENSUS.search(folded),
        "instruction_to_memory": _INSTRUCTION.search(folded),
    }
    return sorted(cue for cue, found in shown.items() if found)


def _claims_role(text: str) -> bool:
    if any(pattern.search(text) for pattern in (_SPEAKER_HEADER, _CAPS_HEADER, _THIS_IS, _CAPACITY)):
        return True
    return any(_as_role(sentence) for sentence in _SENTENCE_END.split(text.casefold()))


def _as_role(sentence: str) -> bool:
    """ "As <at most four words naming a role>, I / we ...": a role the speaker claims to speak in."""
    words = _WORD.findall(sentence)
    if len(words) < 3 or words[0] != "as":
        return False
    for at in range(2, min(len(words), 6)):
        if words[at] in ("i", "we"):
            role = words[1:at]
            if role[0] in _AS_ADVERBS and role[0] not in _DETERMINERS:
                return False
            return _role_phrase([w for w in role if w not in _DETERMINERS])
    return False


def _role_phrase(role: list[str]) -> bool:
    if not role or any(w in _PRONOUNS or w in _AS_ADVERBS for w in role):
        return False
    last = role[-1]
    if last.endswith(_VERBISH) or (last.endswith("s") and not last.endswith("ss")):
        return any(w in _ROLE_WORDS for w in role)
    return True


def looks_like_output(text: str) -> bool:
    """``text`` looks like machine output: a bracketed header, a call with its result, a JSON object, a log
    level or timestamp, or two ``key: value`` pairs."""
    if any(pattern.search(text) for pattern in (_BRACKET_HEADER, _CALL, _JSON, _LOG_MARK)):
        return True
    # two pairs on one line, or on two lines ("status: passed" / "inspector: J. Moreau"); a line read
    # twice (the statement and its message) is one line
    pairs = [
        sum(1 for _ in _KEY_VALUE.finditer(line)) for line in {line.strip() for line in text.split("\n")}
    ]
    return max(pairs, default=0) >= 2 or sum(1 for count in pairs if count) >= 2


def _prose(text: str) -> str:
    """The text without its calls and bracketed headers: where a human voice would speak."""
    return _CALL.sub(" ", _BRACKET_HEADER.sub(" ", text))


def _attributes(text: str) -> bool:
    subjects = (match.group("subject") for match in _ATTRIBUTION.finditer(text))
    return any(subject is None or subject.casefold() not in _NOT_THIRD for subject in subjects)
