"""The kernel family: ``kernel.record`` journals an observation from outside (a model's answer, a
judge's verdict) so that a run that used it replays offline, byte for byte, without asking again."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from kernel.abi import CallContext

__all__ = ["RecordArgs", "kernel_record"]


class RecordArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_.:-]*\Z")]
    payload: Any = None
    run_id: Annotated[str, msgspec.Meta(max_length=128)] = ""


def kernel_record(ctx: CallContext, args: RecordArgs) -> dict[str, Any]:
    """Changes no state: the journal entry is the record (its args hold the payload)."""
    return {"recorded": True, "kind": args.kind, "run_id": args.run_id, "seq": ctx.seq}
