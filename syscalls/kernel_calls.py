"""The kernel family: ``kernel.record`` journals an observation from outside (a model's answer, a
judge's verdict) so that a run that used it replays offline, byte for byte, without asking again; and,
from format 6, an admin key's binding (``journal.admin_binding``), whose row it adds in the same
transaction as its entry."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from arvis.access import is_builtin_admin
from arvis.changes import Decision, Insert
from journal.admin_binding import binding_verifier
from kernel.abi import CallContext


class RecordArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_.:-]*\Z")]
    payload: Any = None
    run_id: Annotated[str, msgspec.Meta(max_length=128)] | msgspec.UnsetType = msgspec.UNSET
    """Absent and ``""`` answer alike; only a record without one is a binding (``journal.admin_binding``)."""


def kernel_record(ctx: CallContext, args: RecordArgs) -> Decision:
    """The journal entry is the record (its args hold the payload). A built-in administrator's binding
    of an admin key in a journal of format 6 or later also adds its ``admin_bindings`` row, applied with
    the entry, so no crash can leave one without the other (before format 6 the command line added the
    row in a second transaction, and still does for those journals)."""
    run_id = "" if args.run_id is msgspec.UNSET else args.run_id
    value = {"recorded": True, "kind": args.kind, "run_id": run_id, "seq": ctx.seq}
    verifier = None if args.run_id is not msgspec.UNSET else binding_verifier(args.kind, args.payload)
    if verifier is None or ctx.format_version < 6 or not is_builtin_admin(ctx.principal):
        return Decision(value)
    return Decision(value, (Insert("admin_bindings", {"seq": ctx.seq, "admin_verifier": verifier}),))
