"""The journal as it would have run without one principal: a replay that skips its calls.

Each of the principal's entries is passed over (its seq taken by a refusal that writes nothing, so every
later entry keeps its seq and the unit, review and request ids derived from it); every other entry is
re-executed on the scratch store. The state left there is what a rollback aims at. Every later call of
another principal that came out differently, or that named or displaced what the principal made, *depended*
on the principal's calls: a rollback cannot make the journal as if those calls never happened, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from arvis.access import is_operator
from journal.header import JournalHeader
from kernel.abi import JournalEntry, SyscallTable
from tools.audit.forensics import TraceQuery, Tracer, call_args, call_value, unit_ids_named
from tools.audit.pieces import fetch_from
from tools.audit.replayer import Replayer

ROLLBACK_KIND = "arvis.rollback"
"""The ``kernel.record`` kind that opens a rollback: ``{"principal": P, "calls": N}``, then N calls."""

_OUTCOME_FIELDS = ("outcome", "unit_id", "duplicate_of", "review_id", "added", "removed")
_LIST_FIELDS = ("superseded", "demoted", "evicted", "expired")


@dataclass(frozen=True)
class DependentCall:
    seq: int
    syscall: str
    principal: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "syscall": self.syscall, "principal": self.principal, "why": self.why}


def _ids(value: Any) -> set[str]:
    """Unit ids in a list of ids or of objects carrying ``unit_id``."""
    found: set[str] = set()
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict) and isinstance(item.get("unit_id"), str):
            found.add(item["unit_id"])
    return found


class Counterfactual:
    """Feed it the journal in seq order; ``replayer`` then holds the state without ``principal``'s calls,
    ``dependents`` the later calls of others that depended on them, ``tracer`` the principal's trace."""

    def __init__(
        self,
        header: JournalHeader,
        principal: str,
        *,
        table: SyscallTable,
        on_disk: bool = False,
        blobs_from: Engine | None = None,
    ) -> None:
        self.principal = principal
        self.table = table
        self.replayer = Replayer(header, table=table, on_disk=on_disk, blobs_from=blobs_from)
        self.tracer = Tracer(
            TraceQuery(principal=principal),
            pieces=None if blobs_from is None else fetch_from(blobs_from),
        )
        self.dependents: list[DependentCall] = []
        self.skipped: list[int] = []
        self._keys: dict[tuple[str, str], str] = {}
        """(user_id, key) -> the principal whose call last wrote or revoked it."""
        self._compensating: dict[str, int] = {}
        """Operator -> how many of its next calls still belong to a rollback of this principal."""

    def close(self) -> None:
        self.replayer.close()

    def feed(self, entry: JournalEntry) -> None:
        args, value = call_args(entry), call_value(entry)  # decoded once, read by every step below
        if entry.principal == self.principal:
            self.replayer.pass_over(entry)
            self.skipped.append(entry.seq)
        elif self._compensation(entry, args):
            self.replayer.pass_over(entry)
        else:
            replayed = self.replayer.rerun(entry)
            why = self._why(entry, args, value, replayed)
            if why:
                self.dependents.append(
                    DependentCall(entry.seq, entry.syscall, entry.principal, "; ".join(why))
                )
        self.tracer.feed_decoded(entry, args, value)
        if entry.syscall in ("memory.write", "memory.revoke") and isinstance(value.get("entry"), dict):
            self._keys[(str(value.get("user_id")), str(value["entry"].get("key")))] = entry.principal

    def _compensation(self, entry: JournalEntry, args: dict[str, Any]) -> bool:
        """Whether the entry belongs to an earlier rollback of this principal: its ``kernel.record`` of
        kind ``arvis.rollback`` made by an operator (``operator:<name>``, as ``arvis journal rollback --as``
        requires) and the next ``calls`` calls of that operator. They exist only
        to undo the principal's calls, so a replay without those calls has no use for them either."""
        left = self._compensating.get(entry.principal, 0)
        if left > 0:
            self._compensating[entry.principal] = left - 1
            return True
        if entry.syscall != "kernel.record" or entry.status != "ok":
            return False
        if not is_operator(entry.principal):
            return False  # only an operator makes rollbacks: anyone may record, no one else may mark
        payload = args.get("payload") if args.get("kind") == ROLLBACK_KIND else None
        if not isinstance(payload, dict) or payload.get("principal") != self.principal:
            return False
        calls = payload.get("calls")
        self._compensating[entry.principal] = calls if isinstance(calls, int) and calls > 0 else 0
        return True

    def _why(
        self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any], replayed: JournalEntry | None
    ) -> list[str]:
        """Why a call of another principal depended on the rolled-back one's; [] when it did not. Reads
        never depend (they changed nothing); what they saw is in the trace's ``included_in``."""
        spec = self.table.get(entry.syscall)
        if spec is None or not spec.mutates:
            return []
        why = self._references(entry, args, value)
        if replayed is None:
            return [*why, "it could not be re-executed without the principal's calls"]
        if replayed.status != entry.status:
            why.append(f"without the principal's calls it is {replayed.status} (recorded {entry.status})")
        elif entry.status == "ok":
            why.extend(self._outcome_differs(entry, value, call_value(replayed)))
        return why

    def _references(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> list[str]:
        units = self.tracer.units
        why: list[str] = []
        named = sorted(unit_ids_named(args) & units.keys())
        if named:
            why.append(f"names {', '.join(named)}, made by the principal")
        if args.get("request_id") in self.tracer.queued:
            why.append(f"decides {args['request_id']}, queued by the principal")
        if entry.syscall == "pipeline.end" and args.get("run_id") in {
            str(item.get("id")) for item in self.tracer.trace.created if item.get("kind") == "run"
        }:
            why.append(f"ends run {args['run_id']}, begun by the principal")
        if entry.syscall in ("memory.write", "memory.revoke"):
            key = (str(args.get("user_id")), str(args.get("key")))
            if self._keys.get(key) == self.principal:
                what = "revokes" if entry.syscall == "memory.revoke" else "writes over"
                why.append(f"{what} {key[0]}/{key[1]}, last written by the principal")
        listed = ("conflicts", "reinforced", "superseded", "evicted", "demoted")
        touched = {str(value.get("duplicate_of"))}.union(*(_ids(value.get(name)) for name in listed))
        touched = (touched & units.keys()) - set(named)
        if touched:
            why.append(f"its result involves {', '.join(sorted(touched))}, made by the principal")
        return why

    def _outcome_differs(
        self, entry: JournalEntry, recorded: dict[str, Any], now: dict[str, Any]
    ) -> list[str]:
        """The decisive parts of an accepted call's result that differ without the principal's calls
        (not ranks, trust scores or other measures that move with any unit present)."""
        mine = set(self.tracer.units)
        differ = [name for name in _OUTCOME_FIELDS if recorded.get(name) != now.get(name)]
        differ += [
            name
            for name in _LIST_FIELDS
            if _ids(recorded.get(name)) - mine != _ids(now.get(name)) - mine
            or (
                name == "superseded"
                and isinstance(recorded.get(name), dict) != isinstance(now.get(name), dict)
            )
        ]
        if entry.syscall == "memory.write":
            old, new = recorded.get("superseded"), now.get("superseded")
            if (
                isinstance(old, dict)
                and isinstance(new, dict)
                and old.get("created_at") != new.get("created_at")
            ):
                differ.append("superseded")
        if entry.syscall == "memory.awmu.turn":
            if _ids(recorded.get("reinforced")) - mine != _ids(now.get("reinforced")) - mine:
                differ.append("reinforced")
            if _archived(recorded) - mine != _archived(now) - mine:
                differ.append("decayed")
        if not differ:
            return []
        return [f"without the principal's calls its result differs in {', '.join(sorted(set(differ)))}"]


def _archived(value: dict[str, Any]) -> set[str]:
    return {
        str(item.get("unit_id"))
        for item in value.get("decayed") or []
        if isinstance(item, dict) and item.get("archived")
    }
