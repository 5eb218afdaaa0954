"""Handlers of the long-term memory family: memory.list, get, snapshot, write, revoke."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from arvis.access import Capability, authorize
from arvis.changes import Decision
from arvis.memory.memory_long_entry import GovernanceArgs, MemoryLongType
from arvis.memory.memory_service import MemoryService
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError
from syscalls.pipeline import RunId, find_run
from syscalls.types import NO_NUL, AwareDatetime, UserId

Text = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    user_id: UserId
    include_inactive: bool = False


class KeyArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    user_id: UserId
    key: str


class SnapshotArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    user_id: UserId
    run_id: RunId | None = None


class WriteArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    user_id: UserId
    key: str
    memory_type: MemoryLongType
    source: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=NO_NUL)]
    notes: Text | None = None
    value_ref: Text | None = None
    expires_at: AwareDatetime | None = None
    governance: GovernanceArgs | None = None
    replace: bool = False


def _memory(ctx: CallContext) -> MemoryService:
    service = ctx.services.memory_service
    if service is None:
        raise KernelError(ErrorCode.NO_MEMORY_SERVICE)
    return service


def memory_list(ctx: CallContext, args: ListArgs) -> dict[str, Any]:
    authorize(ctx, Capability.READ, args.user_id)
    return _memory(ctx).list(
        ctx.read.memory,
        user_id=args.user_id,
        now=ctx.now,
        include_inactive=args.include_inactive,
    )


def memory_get(ctx: CallContext, args: KeyArgs) -> dict[str, Any]:
    authorize(ctx, Capability.READ, args.user_id)
    return _memory(ctx).get(ctx.read.memory, user_id=args.user_id, key=args.key, now=ctx.now)


def memory_snapshot(ctx: CallContext, args: SnapshotArgs) -> dict[str, Any]:
    """With ``run_id``: the snapshot of that active run (resolved for the caller, ``find_run``), tagged
    with it in the journal (the id as given) and in the result (the run's stored id)."""
    authorize(ctx, Capability.READ, args.user_id)
    run = None if args.run_id is None else find_run(ctx, args.run_id)
    if args.run_id is not None and (run is None or not run.active or run.user_id != args.user_id):
        raise KernelError(ErrorCode.PIPELINE_RUN_NOT_FOUND, f"no active run '{args.run_id}' for this user")
    value = _memory(ctx).snapshot(ctx.read.memory, user_id=args.user_id, now=ctx.now)
    return value if run is None else {**value, "run_id": run.run_id}


def _refuse_in_flight(ctx: CallContext, user_id: str) -> None:
    """Memory is consumed as a snapshot during a run: no mutation of its user until it ends (the in-flight
    rule, ``access-and-pipelines.md`` §2.2)."""
    run = ctx.read.pipeline_runs.active_for(user_id)
    if run is not None:
        raise KernelError(
            ErrorCode.MEMORY_POLICY_DENIED,
            f"in-flight mutation: pipeline run '{run.run_id}' holds this user's memory until it ends",
        )


def memory_write(ctx: CallContext, args: WriteArgs) -> Decision:
    authorize(ctx, Capability.WRITE, args.user_id)
    _refuse_in_flight(ctx, args.user_id)
    return _memory(ctx).write(ctx.read.memory, args, now=ctx.now, seq=ctx.seq)


def memory_revoke(ctx: CallContext, args: KeyArgs) -> Decision:
    authorize(ctx, Capability.REVOKE, args.user_id)
    _refuse_in_flight(ctx, args.user_id)
    return _memory(ctx).revoke(ctx.read.memory, user_id=args.user_id, key=args.key, now=ctx.now)
