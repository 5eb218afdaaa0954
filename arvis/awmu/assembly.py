"""The prompt block: active units grouped by authority with RFC 2119 wording, within a token budget.

Groups in order CANON, RELIABLE, UNRELIABLE, PROVISIONAL; within a group by rank descending, then
unit id; lines numbered from 1 in each group. Over the token budget, PROVISIONAL units go first, then
UNRELIABLE, then RELIABLE, lowest rank first; CANON units are never dropped. Under rules 3 a unit a
pending statement contests says so on its line, with the statement's queue id and reasons (never its text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arvis.awmu.model import Authority, Unit

GROUPS = (
    (Authority.CANON, "CANON facts: these MUST be preserved; correct anything that contradicts them."),
    (Authority.RELIABLE, "RELIABLE facts: these MUST be preserved."),
    (Authority.UNRELIABLE, "UNRELIABLE facts: these SHOULD be considered."),
    (Authority.PROVISIONAL, "PROVISIONAL facts: these MAY be reconsidered."),
)
HEADER = "Established facts (working memory):"
_DROP_ORDER = (Authority.PROVISIONAL, Authority.UNRELIABLE, Authority.RELIABLE)


@dataclass(frozen=True)
class AssembledBlock:
    text: str
    included: tuple[str, ...]
    dropped: tuple[str, ...]
    estimated_tokens: int
    over_budget: bool


def estimate_tokens(text: str, chars_per_token: int) -> int:
    return -(-len(text) // chars_per_token)


_SHOWN_MARKS = 3


def _render(units: list[Unit], marks: Mapping[str, Sequence[str]]) -> str:
    if not units:
        return ""
    lines = [HEADER]
    for authority, wording in GROUPS:
        group = [unit for unit in units if unit.authority is authority]
        if not group:
            continue
        lines.append(wording)
        for number, unit in enumerate(group, start=1):
            line = f"{number}. {unit.text} (activation score: {unit.rank})"
            if unit.unit_id in marks:  # the first pending statements that contest it, and how many more
                contesting = marks[unit.unit_id]
                shown = "; ".join(contesting[:_SHOWN_MARKS])
                more = f"; {len(contesting) - _SHOWN_MARKS} more" if len(contesting) > _SHOWN_MARKS else ""
                line += f" [contested: {shown}{more}]"
            lines.append(line)
    return "\n".join(lines)


def assemble(
    active: list[Unit],
    *,
    token_budget: int,
    chars_per_token: int,
    marks: Mapping[str, Sequence[str]] | None = None,
) -> AssembledBlock:
    """``token_budget`` 0 means unlimited. ``marks`` (rules 3): unit id → the pending statements that
    contest it, shown on its line (``arvis.awmu.waiting.contested_marks``)."""
    marks = marks or {}
    kept = sorted(active, key=lambda unit: (-unit.rank, unit.created_seq, unit.unit_id))
    dropped: list[str] = []
    text = _render(kept, marks)
    if token_budget > 0:
        for authority in _DROP_ORDER:
            while estimate_tokens(text, chars_per_token) > token_budget:
                candidates = [unit for unit in kept if unit.authority is authority]
                if not candidates:
                    break
                victim = candidates[-1]  # lowest rank (then highest id) of the group
                kept.remove(victim)
                dropped.append(victim.unit_id)
                text = _render(kept, marks)
    tokens = estimate_tokens(text, chars_per_token)
    return AssembledBlock(
        text=text,
        included=tuple(unit.unit_id for unit in kept),
        dropped=tuple(dropped),
        estimated_tokens=tokens,
        over_budget=token_budget > 0 and tokens > token_budget,
    )
