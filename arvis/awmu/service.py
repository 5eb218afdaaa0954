"""The working-memory service bound in the kernel registry: one method per ``memory.awmu.*`` syscall."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from arvis.awmu.admission import Measure, propose_by_content
from arvis.awmu.assembly import assemble
from arvis.awmu.compaction import pressure, protected_losses
from arvis.awmu.config import AwmuConfig
from arvis.awmu.detection import Readings
from arvis.awmu.engine import ContextSession, unit_wire
from arvis.awmu.errors import AwmuErrorCode, AwmuRuleError
from arvis.awmu.judging import Ask
from arvis.awmu.model import Authority, CanonRequest, EventKind, ReviewItem, Tier, Unit, UnitStatus
from arvis.awmu.origin import OPERATOR_CHANNEL, bound_source
from arvis.awmu.promotion import Verdict, propose, seed
from arvis.awmu.repository import AwmuRepository, ContextRecord, EventQuery
from arvis.awmu.ruleset import RULES_FIRST, RULES_LATEST, SUPPORTED_RULES
from arvis.awmu.waiting import contested_marks, waiting


def _UNMEASURED(text: str, units: Sequence[Unit]) -> Readings:
    """No semantic detector: value and lexical detectors decide alone."""
    return Readings()


class UnitFilter(msgspec.Struct, frozen=True, kw_only=True):
    statuses: tuple[UnitStatus, ...] = (UnitStatus.ACTIVE,)
    authority: Authority | None = None
    tier: Tier | None = None
    pinned: bool | None = None


def _source_of(session: ContextSession, named: str | None, *, unnamed: str | None = None) -> str:
    """The source a statement is recorded under: bound to the calling principal from rules 4 on
    (``arvis.awmu.origin``); before, the one the caller named (else ``unnamed``), as it was."""
    if session.rules >= 4:
        return bound_source(session.config, session.principal, operator=session.is_operator(), named=named)
    chosen = named if named is not None else unnamed
    if chosen is None:  # the kernel refuses it first, as it always did (``syscalls.working_memory``)
        raise AwmuRuleError(AwmuErrorCode.NOT_AUTHORIZED, "before rules 4 a proposal names its source")
    return chosen


class WorkingMemoryService:
    """Stateless: every method gets the transaction's repository, the call's seq and principal."""

    def create(
        self,
        repo: AwmuRepository,
        *,
        context_id: str,
        config: AwmuConfig,
        seq: int,
        rules: int = RULES_LATEST,
    ) -> dict[str, Any]:
        """A new context under ``rules`` (the latest unless a replay or the caller says otherwise); the
        result names the rules unless they are the first release's, whose result had no such field."""
        if repo.get_context(context_id) is not None:
            raise AwmuRuleError(AwmuErrorCode.CONTEXT_EXISTS, f"context '{context_id}' exists already")
        if rules not in SUPPORTED_RULES:
            raise AwmuRuleError(
                AwmuErrorCode.INVALID_CONFIG,
                f"rules {rules} are not among the supported {list(SUPPORTED_RULES)}",
            )
        try:
            config.validate()
        except ValueError as exc:
            raise AwmuRuleError(AwmuErrorCode.INVALID_CONFIG, str(exc)) from None
        if config.queue is not None and rules < 3:
            raise AwmuRuleError(
                AwmuErrorCode.INVALID_CONFIG, f"a queue policy needs rules 3 or later, not {rules}"
            )
        repo.put_context(
            ContextRecord(context_id=context_id, config=config, created_seq=seq, updated_seq=seq, rules=rules)
        )
        result: dict[str, Any] = {"context_id": context_id, "config": config.wire()}
        if rules != RULES_FIRST:
            result["rules"] = rules
        return result

    def _open(
        self, repo: AwmuRepository, context_id: str, seq: int, principal: str, operator: bool | None = None
    ) -> ContextSession:
        return ContextSession.open(repo, context_id, seq=seq, principal=principal, operator=operator)

    def _read(self, repo: AwmuRepository, context_id: str, seq: int) -> ContextSession:
        """An audit's view: a closed context too."""
        return ContextSession.open(repo, context_id, seq=seq, principal="", reading=True)

    def propose(
        self,
        repo: AwmuRepository,
        *,
        context_id: str,
        text: str,
        source: str | None,
        confidence: float,
        verdicts: list[Verdict],
        seq: int,
        principal: str,
        measure: Measure = _UNMEASURED,
        utterance: str = "",
        operator: bool | None = None,
        judge: Ask | None = None,
    ) -> dict[str, Any]:
        """``measure``: the semantic detector (rules 2); without it, value and lexical detectors only.
        ``judge``: a model judge asked about the pairs found (rules 2; ``arvis.awmu.judging``).
        ``utterance``: the message the statement was taken from (rules 2). ``operator``: whether the
        principal operates the context, as the kernel decided it (format 2; rules 3 lets an operator
        revise); None: the context's ``operators`` patterns decide. ``source``: the channel the caller
        names, which rules 4 binds to the principal (``arvis.awmu.origin``)."""
        session = self._open(repo, context_id, seq, principal, operator)
        bound = _source_of(session, source)
        if session.rules >= 2:
            result = propose_by_content(
                session,
                text=text,
                source=bound,
                confidence=confidence,
                verdicts=verdicts,
                measure=measure,
                utterance=utterance,
                model_judge=judge,
            )
        else:
            result = propose(session, text=text, source=bound, confidence=confidence, verdicts=verdicts)
        session.write_back()
        return result

    def act(
        self,
        action: Callable[..., dict[str, Any]],
        repo: AwmuRepository,
        *,
        context_id: str,
        seq: int,
        principal: str,
        operator: bool | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """``action`` (``operator_seed`` or one of ``arvis.awmu.maintenance``'s) with ``fields``, on the
        context as the principal opens it. ``operator``: whether the principal may operate it, as the kernel
        decided it (format 2); None: the context's ``operators`` patterns decide."""
        return action(self._open(repo, context_id, seq, principal, operator), **fields)

    def decide(
        self,
        action: Callable[..., dict[str, Any]],
        repo: AwmuRepository,
        *,
        request_id: str,
        seq: int,
        principal: str,
        granted: Callable[[str], bool] = lambda context_id: False,
        **fields: Any,
    ) -> dict[str, Any]:
        """``action`` (``review``, to decide, or ``reopen``, to set a decided one back to PENDING) on a
        canonization request or a queued proposal, in the context the request comes from.

        The principal is a canonizer of the context (its config) or ``granted(context_id)`` says so
        (the kernel's canonize grant)."""
        found = _request(repo, request_id)
        session = self._open(repo, found.context_id, seq, principal)
        return action(session, request_id=request_id, granted=granted(found.context_id), **fields)

    def list(self, repo: AwmuRepository, *, context_id: str, where: UnitFilter, seq: int) -> dict[str, Any]:
        """Units and queues; a closed context too, its closure named (``closed``, only then)."""
        session = self._read(repo, context_id, seq)
        units = repo.units(context_id, list(where.statuses))
        chosen = [
            unit
            for unit in units
            if (where.authority is None or unit.authority is where.authority)
            and (where.tier is None or unit.tier is where.tier)
            and (where.pinned is None or unit.pinned == where.pinned)
        ]
        chosen.sort(key=lambda unit: (-unit.rank, unit.created_seq, unit.unit_id))
        listed = {
            "context_id": context_id,
            "turn": session.context.turn,
            "units": [unit_wire(unit) for unit in chosen],
            "count": len(chosen),
            "review_queue": [item.wire() for item in repo.pending_reviews(context_id)],
            "canon_requests": [msgspec.to_builtins(item) for item in repo.pending_canon_requests(context_id)],
        }
        if session.rules >= 3:
            listed["waiting"] = waiting(repo, context_id)
        if session.context.closed is not None:
            listed["closed"] = msgspec.to_builtins(session.context.closed)
        return listed

    def get(self, repo: AwmuRepository, *, context_id: str, unit_id: str, seq: int) -> dict[str, Any]:
        return {"unit": unit_wire(self._read(repo, context_id, seq).stored_unit(unit_id))}

    def assemble(
        self, repo: AwmuRepository, *, context_id: str, token_budget: int, seq: int
    ) -> dict[str, Any]:
        """The block a model is given: refused for a closed context, which holds nothing in force."""
        session = self._open(repo, context_id, seq, "")
        pending = waiting(repo, context_id) if session.rules >= 3 else None
        block = assemble(
            session.ranked(),
            token_budget=token_budget,
            chars_per_token=session.config.chars_per_token,
            marks=None if pending is None else contested_marks(pending, session.disputes()),
        )
        assembled = {
            "context_id": context_id,
            "turn": session.context.turn,
            "text": block.text,
            "included": list(block.included),
            "dropped": list(block.dropped),
            "estimated_tokens": block.estimated_tokens,
            "token_budget": token_budget,
            "over_budget": block.over_budget,
        }
        if pending is not None:
            assembled["waiting"] = [
                {
                    key: item[key]
                    for key in ("review_id", "source", "contests", "reasons", "expires_at_turn")
                    if key in item
                }
                for item in pending
            ]
        return assembled

    def events(self, repo: AwmuRepository, *, query: EventQuery, seq: int) -> dict[str, Any]:
        self._read(repo, query.context_id, seq)
        found = repo.events(query)
        return {"context_id": query.context_id, "events": [msgspec.to_builtins(event) for event in found]}

    def validate_summary(
        self, repo: AwmuRepository, *, context_id: str, summary: str, strict: bool, seq: int, principal: str
    ) -> dict[str, Any]:
        session = self._open(repo, context_id, seq, principal)
        protected, losses = protected_losses(session.ranked(), summary, strict=strict)
        session.emit(EventKind.COMPACTION_CHECKED, None, protected=protected, lost=len(losses), strict=strict)
        session.write_back()
        return {
            "context_id": context_id,
            "ok": not losses,
            "protected": protected,
            "strict": strict,
            "lost": [
                {"unit_id": loss.unit_id, "text": loss.text, "missing_terms": list(loss.missing_terms)}
                for loss in losses
            ],
        }

    def pressure(self, repo: AwmuRepository, *, context_id: str, seq: int) -> dict[str, Any]:
        session = self._read(repo, context_id, seq)
        conflicts, demotions, compactions = session.window_counts()
        gauge = pressure(
            session.config,
            active=len(session.active),
            conflicts=conflicts,
            demotions=demotions,
            compactions=compactions,
        )
        return {
            "context_id": context_id,
            "turn": session.context.turn,
            "active": len(session.active),
            "budget": session.config.budget,
            "window": {"conflicts": conflicts, "demotions": demotions, "compactions": compactions},
            **gauge,
        }


def operator_seed(
    session: ContextSession,
    *,
    text: str,
    authority: Authority,
    rank: int | None,
    pinned: bool,
    source: str | None,
) -> dict[str, Any]:
    """An operator's unit at a given authority and rank, whatever source it names."""
    session.require_operator("seed")  # before the source: a seed is an operator's, whatever it names
    bound = _source_of(session, source, unnamed=OPERATOR_CHANNEL)
    result = seed(session, text=text, authority=authority, rank=rank, pinned=pinned, source=bound)
    session.write_back()
    return result


def _request(repo: AwmuRepository, request_id: str) -> CanonRequest | ReviewItem:
    """The canonization request (``c…``) or queued proposal (any other id) of this id, else refused."""
    found = repo.get_canon_request(request_id) if request_id.startswith("c") else repo.get_review(request_id)
    if found is None:
        raise AwmuRuleError(AwmuErrorCode.REQUEST_NOT_FOUND, f"no request '{request_id}'")
    return found
