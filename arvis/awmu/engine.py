"""The working-memory engine: one call's decisions over one context, written through the repository.

Every operation reads the context, decides, writes what changed and emits an event per change; a
refusal raises ``AwmuRuleError`` before anything is written or the caller's transaction rolls back.
Nothing here reads a clock or draws a random number: ids come from the call's seq.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

import msgspec

from arvis.awmu.compaction import PRESSURE_WINDOW
from arvis.awmu.config import AwmuConfig, InvariantStrength
from arvis.awmu.errors import AwmuErrorCode, AwmuRuleError
from arvis.awmu.invariants import Change, Violation, check_change
from arvis.awmu.lifecycle import clamp_rank, tier_for
from arvis.awmu.model import (
    Authority,
    Event,
    EventKind,
    Unit,
    UnitStatus,
    authority_rank,
)
from arvis.awmu.repository import AwmuRepository, ContextRecord
from arvis.awmu.text import normalize
from arvis.awmu.values import values_of

MAX_TEXT = 2_000
MAX_DISPUTES = 100
"""Disputes (rules 3) one context keeps between active units."""
MAX_UNITS_PER_CONTEXT = 100_000
"""Units one context may ever hold, archived, superseded and evicted ones included."""


def unit_wire(unit: Unit) -> dict[str, Any]:
    wire: dict[str, Any] = msgspec.to_builtins(unit)
    return wire


class ContextSession:
    """One call's view of one context: the active units, the counters, and the events emitted."""

    def __init__(
        self,
        repo: AwmuRepository,
        context: ContextRecord,
        *,
        seq: int,
        principal: str,
        operator: bool | None = None,
    ) -> None:
        self.repo = repo
        self.context = context
        self.config: AwmuConfig = context.config
        self.seq = seq
        self.principal = principal
        self.operator = operator
        """Whether the principal may operate here, as the caller decided it (format-2 journals: the
        kernel, from the context's owner, grants and ``operators``); None: the context's ``operators``
        patterns decide (``require_operator``)."""
        self.active: dict[str, Unit] = {
            unit.unit_id: unit for unit in repo.units(context.context_id, [UnitStatus.ACTIVE])
        }
        self._events = 0
        self._counts = [0, 0, 0]  # conflicts, demotions, compactions in this call

    @classmethod
    def open(
        cls,
        repo: AwmuRepository,
        context_id: str,
        *,
        seq: int,
        principal: str,
        operator: bool | None = None,
        reading: bool = False,
    ) -> ContextSession:
        """Load the context; a closed one (``memory.awmu.close``) only for ``reading`` (an audit: list,
        get, events, pressure), every other call refused ``awmu_context_closed``."""
        context = repo.get_context(context_id)
        if context is None:
            raise AwmuRuleError(AwmuErrorCode.CONTEXT_NOT_FOUND, f"no working-memory context '{context_id}'")
        if context.closed is not None and not reading:
            raise AwmuRuleError(
                AwmuErrorCode.CONTEXT_CLOSED,
                f"context '{context_id}' was closed at seq {context.closed.seq}",
            )
        return cls(repo, context, seq=seq, principal=principal, operator=operator)

    # --- reading -------------------------------------------------------------------------------

    @property
    def context_id(self) -> str:
        return self.context.context_id

    @property
    def rules(self) -> int:
        """The rule set of the context (``arvis.awmu.ruleset``)."""
        return self.context.rules

    def ranked(self) -> list[Unit]:
        """Active units by rank descending, then creation, then id."""
        return sorted(self.active.values(), key=lambda unit: (-unit.rank, unit.created_seq, unit.unit_id))

    def stored_unit(self, unit_id: str) -> Unit:
        """The unit of this id in the context, whatever its status; else refused."""
        stored = self.repo.get_unit(unit_id)
        if stored is None or stored.context_id != self.context_id:
            raise AwmuRuleError(
                AwmuErrorCode.UNIT_NOT_FOUND, f"no unit '{unit_id}' in context '{self.context_id}'"
            )
        return stored

    def active_unit(self, unit_id: str) -> Unit:
        unit = self.active.get(unit_id)
        if unit is not None:
            return unit
        stored = self.stored_unit(unit_id)
        raise AwmuRuleError(AwmuErrorCode.UNIT_NOT_ACTIVE, f"unit '{unit_id}' is {stored.status.value}")

    def duplicate_of(self, text: str) -> Unit | None:
        key = normalize(text)
        for unit in sorted(self.active.values(), key=lambda unit: (unit.created_seq, unit.unit_id)):
            if normalize(unit.text) == key:
                return unit
        return None

    # --- writing -------------------------------------------------------------------------------

    def emit(self, kind: EventKind, unit_id: str | None = None, **detail: Any) -> None:
        self.repo.add_event(
            Event(
                seq=self.seq,
                index=self._events,
                context_id=self.context_id,
                turn=self.context.turn,
                kind=kind,
                unit_id=unit_id,
                detail=detail,
            )
        )
        self._events += 1
        if kind is EventKind.CONFLICT:
            self._counts[0] += 1
        elif kind is EventKind.AUTHORITY_CHANGED and detail.get("direction") == "down":
            self._counts[1] += 1
        elif kind is EventKind.COMPACTION_CHECKED:
            self._counts[2] += 1

    def save(self, unit: Unit) -> Unit:
        """Store a changed unit (stamped with this seq and its tier) and keep the active set in step."""
        stored = msgspec.structs.replace(unit, updated_seq=self.seq, tier=tier_for(self.config, unit.rank))
        self.repo.put_unit(stored)
        if stored.status is UnitStatus.ACTIVE:
            self.active[stored.unit_id] = stored
        else:
            self.active.pop(stored.unit_id, None)
        return stored

    def set_authority(self, unit: Unit, authority: Authority, reason: str, **detail: Any) -> Unit:
        if authority is unit.authority:
            return unit
        direction = "up" if authority_rank(authority) > authority_rank(unit.authority) else "down"
        changed = self.save(msgspec.structs.replace(unit, authority=authority))
        self.emit(
            EventKind.AUTHORITY_CHANGED,
            unit.unit_id,
            before=unit.authority.value,
            after=authority.value,
            direction=direction,
            reason=reason,
            **detail,
        )
        return changed

    def guard(self, before: Unit, after: Unit, change: Change, *, explicit: bool) -> bool:
        """Apply the operator invariants to a change: True when it may go ahead.

        MUST violations block it (an explicit call is refused, an automatic step skipped, with an
        event); SHOULD violations let it through with a warning event.
        """
        violations = check_change(self.config.invariants, before, after, change, self.active.values())
        must = [violation for violation in violations if violation.strength is InvariantStrength.MUST]
        for violation in violations:
            if violation.strength is InvariantStrength.SHOULD:
                self.emit(
                    EventKind.INVARIANT_WARNING,
                    before.unit_id,
                    rule=violation.rule_id,
                    message=violation.message,
                )
        if not must:
            return True
        if explicit:
            raise AwmuRuleError(
                AwmuErrorCode.INVARIANT_VIOLATION, "; ".join(violation.message for violation in must)
            )
        self.blocked(before.unit_id, must)
        return False

    def blocked(self, unit_id: str, must: list[Violation]) -> None:
        """An ``invariant_blocked`` event a MUST violation that stops an automatic step."""
        for violation in must:
            self.emit(EventKind.INVARIANT_BLOCKED, unit_id, rule=violation.rule_id, message=violation.message)

    def leave(self, unit: Unit, status: UnitStatus, kind: EventKind, **detail: Any) -> Unit:
        """Take a unit out of the active set (archived, superseded, evicted): it is kept, never deleted."""
        successor = detail.get("superseded_by")
        links = {} if successor is None else {"superseded_by": successor}
        gone = self.save(msgspec.structs.replace(unit, status=status, **links))
        self.emit(kind, unit.unit_id, **detail)
        return gone

    def guarded_leave(
        self,
        unit: Unit,
        status: UnitStatus,
        change: Change,
        kind: EventKind,
        *,
        explicit: bool,
        **detail: Any,
    ) -> Unit:
        """``leave`` once the operator invariants have judged the change (``guard``): an explicit call is
        refused on a MUST violation; an automatic step has ruled those out when it chose its units."""
        self.guard(unit, msgspec.structs.replace(unit, status=status), change, explicit=explicit)
        return self.leave(unit, status, kind, **detail)

    def eviction_order(self) -> list[Unit]:
        """Units that may be evicted, first victim first: neither pinned nor CANON nor immune by a
        MUST invariant; lowest rank, then lowest authority, then least recently updated, then id
        (rules 2: lowest authority first, then lowest rank)."""
        candidates = []
        for unit in self.active.values():
            if unit.protected:
                continue
            evicted = msgspec.structs.replace(unit, status=UnitStatus.EVICTED)
            violations = check_change(
                self.config.invariants, unit, evicted, Change.EVICT, self.active.values()
            )
            if any(violation.strength is InvariantStrength.MUST for violation in violations):
                continue
            candidates.append(unit)
        if self.config.eviction == "oldest":
            return sorted(candidates, key=lambda unit: (unit.created_seq, unit.unit_id))
        if self.rules >= 2:  # authority first; within it, small talk before specific facts
            return sorted(
                candidates,
                key=lambda unit: (
                    authority_rank(unit.authority),
                    bool(values_of(unit.text)),
                    unit.rank,
                    unit.updated_seq,
                    unit.unit_id,
                ),
            )
        return sorted(
            candidates,
            key=lambda unit: (unit.rank, authority_rank(unit.authority), unit.updated_seq, unit.unit_id),
        )

    def make_room(self) -> list[str]:
        """Evict until one more unit fits the budget; refuse (nothing written) when it can't."""
        excess = len(self.active) + 1 - self.config.budget
        if excess <= 0:
            return []
        victims = self.eviction_order()[:excess]
        if len(victims) < excess:
            raise AwmuRuleError(
                AwmuErrorCode.BUDGET_EXHAUSTED,
                f"budget {self.config.budget} is full and no unit may be evicted "
                "(all are pinned, CANON or protected by an invariant)",
            )
        for victim in victims:
            self.guarded_leave(
                victim,
                UnitStatus.EVICTED,
                Change.EVICT,
                EventKind.EVICTED,
                explicit=False,
                rank=victim.rank,
                reason="budget",
            )
        return [victim.unit_id for victim in victims]

    def new_unit(
        self,
        *,
        text: str,
        authority: Authority,
        ceiling: Authority,
        rank: int | None,
        pinned: bool,
        confidence: float,
        trust_score: float | None,
        trust_signals: dict[str, float],
        source: str,
        supersedes: tuple[str, ...] = (),
    ) -> Unit:
        """The call's one new unit, ``u<seq>-0``."""
        if self.repo.count_units(self.context_id) >= MAX_UNITS_PER_CONTEXT:
            raise AwmuRuleError(
                AwmuErrorCode.LIMIT_EXCEEDED,
                f"the context has {MAX_UNITS_PER_CONTEXT} units, the most one may have",
            )
        chosen = self.config.initial_rank if rank is None or not self.config.rank_enabled else rank
        chosen = clamp_rank(self.config, chosen)
        unit = Unit(
            unit_id=f"u{self.seq}-0",
            context_id=self.context_id,
            text=text,
            rank=chosen,
            authority=authority,
            authority_ceiling=ceiling,
            pinned=pinned,
            confidence=confidence,
            trust_score=trust_score,
            trust_signals=trust_signals,
            tier=tier_for(self.config, chosen),
            supersedes=supersedes,
            source_ids=(source,),
            created_seq=self.seq,
            updated_seq=self.seq,
            last_reinforced_turn=self.context.turn,
        )
        stored = self.save(unit)
        self.emit(
            EventKind.CREATED,
            unit.unit_id,
            authority=authority.value,
            rank=stored.rank,
            source=source,
            pinned=pinned,
        )
        return stored

    def dispute(self, unit_id: str, by: str, reason: str) -> None:
        """Rules 3: record that ``by`` disputes ``unit_id`` while both stand; disputes of units no longer
        active are dropped, and at most ``MAX_DISPUTES`` are kept (the oldest go first)."""
        kept = self.disputes()
        kept.append((unit_id, by, reason))
        self.context = msgspec.structs.replace(self.context, disputes=tuple(kept[-MAX_DISPUTES:]))

    def disputes(self) -> list[tuple[str, str, str]]:
        """The recorded disputes whose two units are both active."""
        return [d for d in self.context.disputes if d[0] in self.active and d[1] in self.active]

    def write_back(self, *, advance_turn: bool = False) -> None:
        """Write the context back: the turn counter and the pressure window with this call's counts."""
        turn = self.context.turn + (1 if advance_turn else 0)
        window = [list(item) for item in self.context.window if item[0] > turn - PRESSURE_WINDOW]
        if not window or window[-1][0] != turn:
            window.append([turn, 0, 0, 0])
        for position in range(3):
            window[-1][position + 1] += self._counts[position]
        record = msgspec.structs.replace(
            self.context,
            turn=turn,
            window=tuple((a, b, c, d) for a, b, c, d in window),
            updated_seq=self.seq,
        )
        self.repo.put_context(record)
        self.context = record
        self._counts = [0, 0, 0]

    def window_counts(self) -> tuple[int, int, int]:
        """Conflicts, demotions and compactions over the last five turns (this call's included)."""
        totals = list(self._counts)
        for turn, *counts in self.context.window:
            if turn > self.context.turn - PRESSURE_WINDOW:
                totals = [total + count for total, count in zip(totals, counts, strict=True)]
        return totals[0], totals[1], totals[2]

    def can_canonize(self) -> bool:
        return any(fnmatchcase(self.principal, pattern) for pattern in self.config.canonizers)

    def is_operator(self) -> bool:
        """Whether the principal operates this context: as the caller decided it (``operator``), else by
        the context's ``operators`` patterns."""
        if self.operator is not None:
            return self.operator
        return any(fnmatchcase(self.principal, pattern) for pattern in self.config.operators)

    def require_operator(self, action: str) -> None:
        """Seeding, pinning and explicit archiving bypass the gates: only the context's operators may
        (or, where the caller decided it, ``operator``)."""
        if not self.is_operator():
            raise AwmuRuleError(
                AwmuErrorCode.NOT_AUTHORIZED, f"principal '{self.principal}' may not {action} in this context"
            )
