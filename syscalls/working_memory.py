"""Handlers of the working-memory family: ``memory.awmu.*`` over the AWMU engine.

In a format-2 journal (``AccessRules.OWNED``) every call is first decided here, against the context's
owner, the caller's grants and the context's patterns (``access-and-pipelines.md`` §1.7), before anything
says whether the context exists; a format-1 journal keeps the first release's rules exactly."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, Literal

import msgspec

from arvis.awmu.config import AwmuConfig
from arvis.awmu.maintenance import archive, canonize, close_context, reopen, restore, review, set_pinned, turn
from arvis.awmu.model import Authority, Tier, UnitStatus
from arvis.awmu.promotion import Verdict
from arvis.awmu.repository import AwmuRepository, EventQuery
from arvis.awmu.resolution import ConflictType
from arvis.awmu.ruleset import RULES_FIRST, RULES_LATEST
from arvis.awmu.service import UnitFilter, WorkingMemoryService, operator_seed
from arvis.changes import Decision, Insert
from kernel.abi import CallContext
from kernel.errors import KernelError
from syscalls.context_access import (
    canonizer_verdict,
    operator_verdict,
    owned,
    require_closer,
    require_name,
    require_operator,
    require_read,
    require_write,
    review_verdict,
)
from syscalls.detectors import measure_for, recorded_value
from syscalls.judging import judge_for
from syscalls.types import NO_NUL, UserId

ContextId = UserId
UnitText = Annotated[str, msgspec.Meta(min_length=1, max_length=2_000, pattern=NO_NUL)]
UnitId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=NO_NUL)]
Source = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=NO_NUL)]
Note = Annotated[str, msgspec.Meta(max_length=1_000, pattern=NO_NUL)]
Probability = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]

_Method = Callable[..., dict[str, Any]]


class CreateArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    config: AwmuConfig = msgspec.field(default_factory=AwmuConfig)
    rules: Annotated[int, msgspec.Meta(ge=1, le=1_000)] | None = None
    """The rule set (``arvis.awmu.ruleset``); None: the latest one (on replay: the one recorded)."""


class VerdictArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit_id: UnitId
    type: ConflictType
    confidence: Probability
    detector: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] = "caller"


class ProposeArgs(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    context_id: ContextId
    text: UnitText
    source: Source | None = None
    """Rules 4: a less trusted channel to describe the statement as, None its caller's (``arvis.awmu``
    ``.origin``); before rules 4 taken as written; required before format 6 (``SourcedProposeArgs``)."""
    confidence: Probability
    verdicts: Annotated[list[VerdictArgs], msgspec.Meta(max_length=100)] = []
    utterance: Annotated[str, msgspec.Meta(max_length=50_000, pattern=NO_NUL)] = ""


class SourcedProposeArgs(ProposeArgs, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A proposal in journals before format 6: ``source`` required, where it always was."""

    source: Source


class SeedArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    text: UnitText
    authority: Authority = Authority.RELIABLE
    rank: Annotated[int, msgspec.Meta(ge=100, le=900)] | None = None
    pinned: bool = False
    source: Source | None = None
    """As a proposal's (rules 4); None before rules 4: ``operator``, as always (``OperatorSeedArgs``)."""


class OperatorSeedArgs(SeedArgs, frozen=True, forbid_unknown_fields=True):
    """A seed in journals before format 6: ``source`` a text, ``operator`` when omitted."""

    source: Source = "operator"


class TurnArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    reinforce: Annotated[list[UnitId], msgspec.Meta(max_length=1_000)] = []
    text: Annotated[str, msgspec.Meta(max_length=50_000, pattern=NO_NUL)] = ""


class UnitArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    unit_id: UnitId


class ReasonedUnitArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    unit_id: UnitId
    reason: Note = ""


class ReviewArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    request_id: UnitId
    decision: Literal["approve", "reject"]
    note: Note = ""


class ReopenArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    request_id: UnitId
    note: Note = ""


class CloseArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    reason: Note = ""


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    status: Literal["active", "archived", "superseded", "evicted", "all"] = "active"
    authority: Authority | None = None
    tier: Tier | None = None
    pinned: bool | None = None


class AssembleArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    token_budget: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)] = 0


class EventsArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    after_seq: Annotated[int, msgspec.Meta(ge=0)] = 0
    after_index: Annotated[int, msgspec.Meta(ge=-1)] | None = None
    kinds: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=32, pattern=NO_NUL)]], msgspec.Meta(max_length=32)
    ] = []
    unit_id: UnitId | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=1_000)] = 100


class SummaryArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId
    summary: Annotated[str, msgspec.Meta(max_length=50_000, pattern=NO_NUL)]
    strict: bool = False


class ContextArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    context_id: ContextId


_ActionArgs = SeedArgs | TurnArgs | UnitArgs | ReasonedUnitArgs | CloseArgs
"""What names a context and an engine action's own arguments, field for field (``_acted``)."""


def _wm(ctx: CallContext) -> WorkingMemoryService:
    service = ctx.services.working_memory_service
    assert service is not None, "admission refuses a call whose service is not bound"
    return service


def _rules(ctx: CallContext, asked: int | None) -> int:
    """The rule set a new context gets: the caller's, else the one its journal entry recorded (verification;
    absent: the first release's), else the latest."""
    if asked is not None:
        return asked
    if ctx.recorded is None:
        return RULES_LATEST
    value = recorded_value(ctx.recorded)
    recorded = value.get("rules", RULES_FIRST) if value is not None else RULES_FIRST
    return recorded if isinstance(recorded, int) else RULES_FIRST


def _decided(ctx: CallContext, method: _Method, **fields: Any) -> Decision:
    """``method`` of the bound service (``_wm``) over the call's own view of the working memory, at the
    call's seq: its result, and the rows it put as the decision's changes."""
    repo = AwmuRepository(ctx.read.awmu)
    value = method(repo, seq=ctx.seq, **fields)
    return Decision(value, tuple(repo.changes))


def _call(ctx: CallContext, method: _Method, **fields: Any) -> Decision:
    """``_decided``, by the call's principal."""
    return _decided(ctx, method, principal=ctx.principal, **fields)


def _acted(ctx: CallContext, action: _Method, args: _ActionArgs, **more: Any) -> Decision:
    """``_call`` of the bound service's ``act``: ``action`` on the context the call names, given the call's
    arguments (each field of ``args`` by its name) and ``more``."""
    return _call(ctx, partial(_wm(ctx).act, action), **msgspec.structs.asdict(args), **more)


def _operated(ctx: CallContext, action: _Method, args: _ActionArgs, **more: Any) -> Decision:
    """``_acted``, by the context's operator as the kernel decides it (``operator_verdict``, asked before
    the service is looked up)."""
    return _acted(ctx, action, args, operator=operator_verdict(ctx, args.context_id), **more)


def awmu_create(ctx: CallContext, args: CreateArgs) -> Decision:
    """The context (staged by the engine), and in a journal whose contexts are owned its owner's row,
    after it, as earlier releases wrote them."""
    has_owner = owned(ctx)
    if has_owner:
        require_name(ctx, args.context_id)
    created = _decided(
        ctx, _wm(ctx).create, context_id=args.context_id, config=args.config, rules=_rules(ctx, args.rules)
    )
    if not has_owner:
        return created
    row = {"context_id": args.context_id, "owner": ctx.principal, "created_seq": ctx.seq}
    return Decision(created.value, (*created.changes, Insert("awmu_context_owners", row)))


def awmu_propose(ctx: CallContext, args: ProposeArgs) -> Decision:
    require_write(ctx, args.context_id)
    verdicts = [Verdict(v.unit_id, v.type, v.confidence, v.detector) for v in args.verdicts]
    return _call(
        ctx,
        _wm(ctx).propose,
        context_id=args.context_id,
        text=args.text,
        source=args.source,
        confidence=args.confidence,
        verdicts=verdicts,
        measure=measure_for(ctx),
        utterance=args.utterance,
        operator=_may_operate(ctx, args.context_id),
        judge=judge_for(ctx),
    )


def _may_operate(ctx: CallContext, context_id: str) -> bool | None:
    """Whether the principal operates the context, for a proposal (rules 3: an operator may revise), as
    the kernel decides it in a format-2 journal, refusing nothing; None: the engine's ``operators``."""
    if not owned(ctx):
        return None
    try:
        return require_operator(ctx, context_id)
    except KernelError:
        return False


def awmu_seed(ctx: CallContext, args: SeedArgs) -> Decision:
    return _operated(ctx, operator_seed, args)


def awmu_turn(ctx: CallContext, args: TurnArgs) -> Decision:
    require_write(ctx, args.context_id)
    return _acted(ctx, turn, args, measure=measure_for(ctx))


def awmu_pin(ctx: CallContext, args: UnitArgs) -> Decision:
    return _operated(ctx, set_pinned, args, pinned=True)


def awmu_unpin(ctx: CallContext, args: UnitArgs) -> Decision:
    return _operated(ctx, set_pinned, args, pinned=False)


def awmu_archive(ctx: CallContext, args: ReasonedUnitArgs) -> Decision:
    return _operated(ctx, archive, args)


def awmu_restore(ctx: CallContext, args: ReasonedUnitArgs) -> Decision:
    canonizer = partial(canonizer_verdict, ctx, args.context_id)  # asked only for a CANON unit
    return _operated(ctx, restore, args, canonizer=canonizer)


def awmu_canonize(ctx: CallContext, args: ReasonedUnitArgs) -> Decision:
    require_write(ctx, args.context_id)
    return _acted(ctx, canonize, args)


def _on_request(ctx: CallContext, action: _Method, args: ReviewArgs | ReopenArgs, **fields: Any) -> Decision:
    """``_call`` of the bound service's ``decide``: ``action`` on the request ``args`` names, by the right
    ``review`` needs in the request's context (``review_verdict``)."""
    return _call(
        ctx,
        partial(_wm(ctx).decide, action),
        request_id=args.request_id,
        note=args.note,
        granted=review_verdict(ctx, args.request_id),
        **fields,
    )


def awmu_review(ctx: CallContext, args: ReviewArgs) -> Decision:
    return _on_request(ctx, review, args, approve=args.decision == "approve")


def awmu_reopen(ctx: CallContext, args: ReopenArgs) -> Decision:
    """Decided by the right ``review`` needs in the request's context (``review_verdict``)."""
    return _on_request(ctx, reopen, args)


def awmu_close(ctx: CallContext, args: CloseArgs) -> Decision:
    """Format 2: ``require_closer``; format 1: the context's ``operators`` patterns (the engine)."""
    operator = require_closer(ctx, args.context_id) if owned(ctx) else None
    return _acted(ctx, close_context, args, operator=operator)


_STATUSES = {status.lower(): (status,) for status in UnitStatus} | {"all": tuple(UnitStatus)}


def awmu_list(ctx: CallContext, args: ListArgs) -> Decision:
    require_read(ctx, args.context_id)
    where = UnitFilter(
        statuses=_STATUSES[args.status], authority=args.authority, tier=args.tier, pinned=args.pinned
    )
    return _decided(ctx, _wm(ctx).list, context_id=args.context_id, where=where)


def awmu_get(ctx: CallContext, args: UnitArgs) -> Decision:
    require_read(ctx, args.context_id)
    return _decided(ctx, _wm(ctx).get, context_id=args.context_id, unit_id=args.unit_id)


def awmu_assemble(ctx: CallContext, args: AssembleArgs) -> Decision:
    require_read(ctx, args.context_id)
    return _decided(ctx, _wm(ctx).assemble, context_id=args.context_id, token_budget=args.token_budget)


def awmu_events(ctx: CallContext, args: EventsArgs) -> Decision:
    require_read(ctx, args.context_id)
    query = EventQuery(
        context_id=args.context_id,
        after_seq=args.after_seq,
        after_index=args.after_index,
        kinds=tuple(args.kinds),
        unit_id=args.unit_id,
        limit=args.limit,
    )
    return _decided(ctx, _wm(ctx).events, query=query)


def awmu_validate_summary(ctx: CallContext, args: SummaryArgs) -> Decision:
    require_write(ctx, args.context_id)
    return _call(
        ctx, _wm(ctx).validate_summary, context_id=args.context_id, summary=args.summary, strict=args.strict
    )


def awmu_pressure(ctx: CallContext, args: ContextArgs) -> Decision:
    require_read(ctx, args.context_id)
    return _decided(ctx, _wm(ctx).pressure, context_id=args.context_id)
