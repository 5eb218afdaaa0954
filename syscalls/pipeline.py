"""The pipeline family: a run begins (its user's memory is held still), takes its snapshot through
``memory.snapshot`` tagged with the run id, and ends. Mutations of that user in between are refused.

Under the first release's rules (``AccessRules.FIRST``) a run id is global and a run begins with ``read``.
Under ``AccessRules.OWNED`` a run begins with ``write`` and its id is scoped to the principal that begins it:
the run is stored as ``<principal>/<run_id>``, and an id given to ``pipeline.end`` or ``memory.snapshot``
is resolved for the caller (``find_run``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

import msgspec

from arvis.access import AccessRules, Capability, authorize
from arvis.changes import Decision, Insert, Update
from arvis.pipeline_runs import PipelineRun, qualified_run_id
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError
from syscalls.access import require_admin
from syscalls.types import PLAIN, UserId

MAX_RUN_ID_LENGTH = 128
RunId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_RUN_ID_LENGTH, pattern=PLAIN)]


class BeginArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    user_id: UserId
    run_id: RunId


class EndArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    run_id: RunId


def find_run(ctx: CallContext, run_id: str) -> PipelineRun | None:
    """The run ``run_id`` names for the call's principal. First rules: the run stored under that id.
    Owned rules: the caller's own run of that id (``<caller>/<run_id>``) when one was ever begun, else
    the run stored under ``run_id`` itself (another principal's run, named by its qualified id)."""
    runs = ctx.read.pipeline_runs
    if ctx.access_rules == AccessRules.FIRST:
        return runs.get(run_id)
    own = runs.get(qualified_run_id(ctx.principal, run_id))
    if own is not None and own.principal == ctx.principal:  # not a run of a principal named "<caller>/…"
        return own
    return runs.get(run_id)


def pipeline_begin(ctx: CallContext, args: BeginArgs) -> Decision:
    first = ctx.access_rules == AccessRules.FIRST
    # holding a user's memory still blocks its writes: under the owned rules that takes write
    authorize(ctx, Capability.READ if first else Capability.WRITE, args.user_id)
    run_id = args.run_id if first else qualified_run_id(ctx.principal, args.run_id)
    # format 2: a run id given holds no "/" (so a stored id splits at its last "/" into one principal and
    # one id, and no principal can take another's), and the stored id fits the ``RunId`` that
    # ``pipeline.end`` and ``memory.snapshot`` accept (else nobody but its principal could ever name it,
    # and an administrator could not end it)
    if not first and "/" in args.run_id:
        raise KernelError(
            ErrorCode.INVALID_ARGS, f"run id '{args.run_id}' holds '/': the kernel adds '<principal>/'"
        )
    if not first and len(run_id) > MAX_RUN_ID_LENGTH:
        raise KernelError(
            ErrorCode.INVALID_ARGS,
            f"the run id qualified by its principal has {len(run_id)} characters, "
            f"more than the {MAX_RUN_ID_LENGTH} a run id may have",
        )
    if ctx.read.pipeline_runs.get(run_id) is not None:
        raise KernelError(ErrorCode.PIPELINE_RUN_EXISTS, f"run id '{args.run_id}' has been used")
    run = PipelineRun(run_id, args.user_id, ctx.principal, ctx.seq)
    return Decision({"run": asdict(run)}, (Insert("pipeline_runs", asdict(run)),))


def pipeline_end(ctx: CallContext, args: EndArgs) -> Decision:
    run = find_run(ctx, args.run_id)
    if ctx.access_rules >= AccessRules.TYPED:
        # another's run, or an id that could be (any but the caller's qualified id or one without "/", which
        # is resolved to ``<caller>/<id>``): one refusal, saying neither whether it exists nor ended
        head, slash, _ = args.run_id.rpartition("/")
        others = run.principal != ctx.principal if run is not None else slash == "/" and head != ctx.principal
        if others:
            require_admin(ctx)
    if run is None:
        raise KernelError(ErrorCode.PIPELINE_RUN_NOT_FOUND, f"no run '{args.run_id}'")
    if not run.active:
        raise KernelError(ErrorCode.PIPELINE_RUN_NOT_FOUND, f"run '{args.run_id}' has ended")
    if run.principal != ctx.principal:
        require_admin(ctx)
    ended = PipelineRun(run.run_id, run.user_id, run.principal, run.began_seq, ctx.seq)
    change = Update("pipeline_runs", {"run_id": run.run_id}, {"ended_seq": ctx.seq})
    return Decision({"run": asdict(ended)}, (change,))
