"""The framing detector (rules 2): how a statement asks to be believed, not what it says.

Persuasion and injection have a small, stable vocabulary: a claimed memory of the assistant's own words
("you told me", "as I said"), a claimed authority ("by order of", "effective immediately", "I am your
manager"), claimed consensus ("everyone knows"), hearsay ("I heard", "rumour has it"), an instruction to
the memory itself ("ignore …", "save this as …", "update your records"), pressed certainty ("trust me",
"honestly") and a waived rule ("is waived", "no longer applies"). A statement framed so is not a fact
anyone observed; the working memory holds it for a decision instead of learning it on its own word.

Version 2 (rules 3) adds the structural cues of :mod:`arvis.awmu.framing_structure`: a claimed role,
pasted machine output, a claimed prior agreement, a third party's word, an instruction to the record,
recognised by the shape of the message rather than by a phrase. Version 3 (rules 6) is version 2 without
the phrases that echoed the project's own scenario sentences (``_CUES_V1_V2``).

Pure and versioned like the value detector: recomputed on replay. The cue lists are general (written from
the categories, not from any scenario); what they cost in true statements held back is measured by the
blind bench (benign admission).
"""

from __future__ import annotations

import re

from arvis.awmu.framing_structure import structural_cues

FRAMING_DETECTOR = "framing"

_CUES = {
    "claimed_memory": (
        r"\byou (?:told|said|promised|agreed|confirmed|mentioned)\b"
        r"|\bas (?:i|we) (?:said|mentioned|told you|explained|noted)\b"
        r"|\byou already (?:know|agreed)\b|\bremember when you\b"
        r"|\bwe (?:agreed|settled|established) (?:earlier|before|that)\b"
    ),
    "claimed_authority": (
        r"\b(?:directive|by order of|under orders|on behalf of|effective immediately"
        r"|official (?:notice|order|policy) says"
        r"|i am (?:the|your) (?:new |acting )?(?:captain|supervisor|manager|admin|administrator|owner"
        r"|commander|director)|i have (?:clearance|authority|permission))\b"
    ),
    "claimed_consensus": (
        r"\beveryone (?:knows|agrees|says)\b|\bcommon knowledge\b|\bit is well known\b"
        r"|\bthey all (?:say|agree)\b"
    ),
    "hearsay": (
        r"\bi (?:heard|hear|was told)\b|\brumou?rs?\b|\bword (?:is|has it)\b|\bpeople (?:say|are saying)\b"
    ),
    "instruction_to_memory": (
        r"\bignore (?:all|any|the|your|previous|what)\b|\bdisregard\b"
        r"|\bforget (?:what|that|everything|about)\b"
        r"|\bsave (?:this|that|it|the \w+) as\b|\bupdate (?:your|the) (?:records?|memory|notes|file)\b"
        r"|\boverwrite\b|\bnew instructions?\b|\bsystem prompt\b|\bfrom now on,? you\b"
    ),
    "pressed_certainty": (
        r"\btrust me\b|\bbelieve me\b|\bi(?:'m| am) (?:sure|certain|positive|telling you)\b"
        r"|\bsurely\b|\bobviously\b|\bhonestly\b|\bto be honest\b|\bno doubt\b"
    ),
    "waived_rule": (
        r"\b(?:is|are|been) waived\b|\bno longer (?:required|needed|applies|necessary)\b"
        r"|\bdoes ?n[o']t apply\b"
    ),
}
_CUES_V1_V2 = {
    "claimed_authority": r"\b(?:head office|management says|the boss says)\b",
    "claimed_consensus": (
        r"\b(?:the whole|all the|all of the) (?:staff|crew|team|town|village|office|ward|department)\b"
    ),
}
"""Phrases framing versions 1 and 2 also read: the project's own scenario sentences ("head office says",
"the whole ward"), not kinds of sentence; kept for their journals alone."""
_COMPILED = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _CUES.items())
_COMPILED_V1_V2 = _COMPILED + tuple(
    (name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _CUES_V1_V2.items()
)


def framing_cues(text: str, version: int = 2) -> list[str]:
    """The cue categories ``text`` uses, sorted (empty: a plain statement), as framing ``version`` reads."""
    folded = text.replace("\u2019", "'")
    found = {
        name for name, pattern in (_COMPILED if version >= 3 else _COMPILED_V1_V2) if pattern.search(folded)
    }
    if version >= 2:
        found.update(structural_cues(folded))
    return sorted(found)
