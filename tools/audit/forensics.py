"""Forensic trace: what one principal, source or unit put into the memory, and where it went.

Read from the journal alone, one entry at a time: every answer is in the entries' arguments and results
(a ``memory.write`` result holds the entry it stored and the one it superseded, a ``propose`` result the
unit it created and the units it superseded, evicted and demoted, an ``assemble`` result the units it
included, a tagged ``memory.snapshot`` the entries a pipeline run consumed). Nothing is replayed, and
memory grows with what is traced, never with the journal (``journal-format.md`` §13).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from arvis.canonical import decode
from kernel.abi import JournalEntry
from kernel.result_pieces import PieceFetch, piece_key

SOURCE_SYSCALLS = frozenset({"memory.write", "memory.awmu.seed", "memory.awmu.propose"})
"""The calls that take a ``source`` argument: what a ``--source`` trace starts from."""

_DISPLACING = ("superseded", "evicted", "demoted")
"""Result lists of a unit-creating call, each named for what happened to the units it holds."""


@dataclass(frozen=True)
class TraceQuery:
    """Exactly one of the three is set."""

    principal: str | None = None
    source: str | None = None
    unit: str | None = None

    def to_json(self) -> dict[str, str]:
        return {name: value for name, value in asdict(self).items() if value is not None}


@dataclass
class Trace:
    """The answer: seqs of the calls made, what they created, what that displaced, where it was used."""

    query: TraceQuery
    calls: list[int] = field(default_factory=list)
    created: list[dict[str, Any]] = field(default_factory=list)
    displaced: list[dict[str, Any]] = field(default_factory=list)
    included_in: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "query": self.query.to_json()}


def call_value(entry: JournalEntry) -> dict[str, Any]:
    """The success value of an entry, or {} (a refusal, or bytes that are not a JSON object)."""
    if entry.status != "ok":
        return {}
    try:
        result = decode(entry.result)
    except Exception:
        return {}
    value = result.get("value") if isinstance(result, dict) else None
    return value if isinstance(value, dict) else {}


def call_args(entry: JournalEntry) -> dict[str, Any]:
    """The arguments of an entry, or {} (bytes that are not a JSON object)."""
    try:
        args = decode(entry.args)
    except Exception:
        return {}
    return args if isinstance(args, dict) else {}


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def unit_ids_named(args: dict[str, Any]) -> set[str]:
    """The unit ids a call's arguments name: ``unit_id``, ``reinforce``, and the verdicts' units."""
    named = set(_strings(args.get("reinforce")))
    if isinstance(args.get("unit_id"), str):
        named.add(args["unit_id"])
    for verdict in args.get("verdicts") or []:
        if isinstance(verdict, dict) and isinstance(verdict.get("unit_id"), str):
            named.add(verdict["unit_id"])
    return named


class Tracer:
    """Feed it the journal's entries in seq order; ``trace`` holds the answer so far."""

    def __init__(self, query: TraceQuery, *, pieces: PieceFetch | None = None) -> None:
        """``pieces``: reads the pieces of results journaled by reference (``kernel.result_pieces``),
        by key (``tools.audit.pieces.fetch_from``); without it, a snapshot whose entries are journaled by
        reference names none of them. A missing or damaged piece raises ``LookupError``."""
        self.trace = Trace(query)
        self._pieces = pieces
        self._last_piece: tuple[str, Any] = ("", None)
        """The last piece read, decoded: consecutive snapshots of unchanged state share one."""
        self.units: dict[str, int] = {}
        """Traced unit id -> the seq that created it."""
        self.queued: set[str] = set()
        """Traced queued proposals (``r<seq>``): an approval later turns them into traced units."""
        self.entries: set[tuple[str, str, str]] = set()
        """Traced long-term entries as (user_id, key, created_at): how a snapshot names them."""
        self.runs: dict[str, int] = {}
        """Every pipeline run seen: its stored run id (format 2: qualified by its principal) -> the seq
        of its ``pipeline.begin``."""
        self.touched: set[str] = set()
        """Every unit a traced call named or changed (reinforced, decayed, pinned, canonized...)."""
        self.decided: set[str] = set()
        """Queued proposals and canonization requests a traced call decided."""

    def feed(self, entry: JournalEntry) -> None:
        args = call_args(entry) if entry.syscall != "kernel.record" else {}
        self.feed_decoded(entry, args, call_value(entry))

    def feed_decoded(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> None:
        """``feed`` with the entry's ``call_args`` and ``call_value`` already decoded by the caller."""
        if entry.syscall == "kernel.record":
            args = {}  # a record's payload is free-form: never read as a call's arguments
        if entry.syscall == "pipeline.begin" and isinstance(value.get("run"), dict):
            self.runs[str(value["run"].get("run_id"))] = entry.seq
        if self._origin(entry, args, value):
            self.trace.calls.append(entry.seq)
            if value:
                self._record(entry, args, value)
                self._touch(entry, args, value)
        elif entry.syscall == "memory.awmu.review" and args.get("request_id") in self.queued and value:
            self._created_units(entry, value)  # a traced queued proposal approved by someone else
        self._included(entry, args, value)

    def _origin(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> bool:
        """Whether the entry is one of the calls the query asks about."""
        query = self.trace.query
        if query.principal is not None:
            return entry.principal == query.principal
        if query.source is not None:
            return entry.syscall in SOURCE_SYSCALLS and args.get("source") == query.source
        return query.unit is not None and value.get("unit_id") == query.unit and not self.units

    def _record(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> None:
        """What one traced call created and displaced, read from its result."""
        name, seq = entry.syscall, entry.seq
        if name == "memory.write" and isinstance(value.get("entry"), dict):
            user_id, written = str(value.get("user_id")), value["entry"]
            self.entries.add((user_id, str(written.get("key")), str(written.get("created_at"))))
            self._created({"kind": "memory_entry", "user_id": user_id, "key": written.get("key"), "seq": seq})
            if isinstance(value.get("superseded"), dict):
                self._displaced_entry(user_id, value["superseded"], seq, "superseded")
        elif name == "memory.revoke" and isinstance(value.get("entry"), dict):
            self._displaced_entry(str(value.get("user_id")), value["entry"], seq, "revoked")
        elif name == "memory.awmu.create":
            self._created({"kind": "context", "id": value.get("context_id"), "seq": seq})
        elif name in ("memory.awmu.propose", "memory.awmu.seed", "memory.awmu.review"):
            self._created_units(entry, value)
        elif name == "memory.awmu.archive" and isinstance(value.get("unit"), dict):
            self._displaced_unit(value["unit"].get("unit_id"), seq, "archived", None)
        elif name == "memory.awmu.turn":
            for decayed in value.get("decayed") or []:
                if isinstance(decayed, dict) and decayed.get("archived"):
                    self._displaced_unit(decayed.get("unit_id"), seq, "archived", None)
        elif name == "memory.awmu.canonize" and isinstance(value.get("request"), dict):
            request = value["request"]
            self._created({"kind": "canon_request", "id": request.get("request_id"), "seq": seq})
        elif name in ("access.grant", "access.revoke"):
            self._grant(name, value, seq)
        elif name == "pipeline.begin" and isinstance(value.get("run"), dict):
            run = value["run"]
            self._created({"kind": "run", "id": run.get("run_id"), "user_id": run.get("user_id"), "seq": seq})
        elif name == "pipeline.end" and isinstance(value.get("run"), dict):
            run = value["run"]
            if run.get("principal") != entry.principal:
                self._displaced({"kind": "run", "id": run.get("run_id"), "seq": seq, "how": "ended"})

    def _touch(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> None:
        """Collect the units and requests an accepted traced call acted on, whatever it did to them."""
        self.touched |= unit_ids_named(args)
        for name in ("reinforced", "decayed", "superseded", "evicted", "demoted"):
            self.touched |= {
                item if isinstance(item, str) else str(item.get("unit_id"))
                for item in value.get(name) or []
                if isinstance(item, str | dict)
            }
        for name in ("unit", "request"):
            if isinstance(value.get(name), dict) and isinstance(value[name].get("unit_id"), str):
                self.touched.add(value[name]["unit_id"])
        for name in ("unit_id", "duplicate_of"):
            if isinstance(value.get(name), str):
                self.touched.add(value[name])
        if entry.syscall == "memory.awmu.review" and isinstance(args.get("request_id"), str):
            self.decided.add(args["request_id"])
        self.decided |= set(_strings(value.get("expired")))

    def _created_units(self, entry: JournalEntry, value: dict[str, Any]) -> None:
        seq = entry.seq
        if value.get("outcome") == "queued_for_review" and isinstance(value.get("review_id"), str):
            self.queued.add(value["review_id"])
            self._created({"kind": "queued_proposal", "id": value["review_id"], "seq": seq})
        for expired in _strings(value.get("expired")):
            self._displaced({"kind": "queued_proposal", "id": expired, "seq": seq, "how": "expired"})
        if value.get("outcome") == "duplicate" and value.get("corroborated") is True:
            self._created(
                {"kind": "unit", "id": value.get("duplicate_of"), "seq": seq, "via": "corroboration"}
            )
        unit_id = value.get("unit_id")
        if value.get("outcome") not in ("promoted", "seeded") or not isinstance(unit_id, str):
            return
        context = value["unit"].get("context_id") if isinstance(value.get("unit"), dict) else None
        self.units.setdefault(unit_id, seq)
        self._created({"kind": "unit", "id": unit_id, "context_id": context, "seq": seq})
        for how in _DISPLACING:
            for other in _strings(value.get(how)):
                self._displaced_unit(other, seq, how, unit_id)

    def _grant(self, name: str, value: dict[str, Any], seq: int) -> None:
        grant = value.get("grant")
        if not isinstance(grant, dict):
            return
        shown = {"principal": grant.get("principal"), "capability": grant.get("capability")}
        shown["scope"] = grant.get("scope")
        if name == "access.grant" and value.get("added") is True:
            self._created({"kind": "grant", **shown, "seq": seq})
        elif name == "access.revoke" and value.get("removed") is True:
            self._displaced({"kind": "grant", **shown, "seq": seq, "how": "revoked"})

    def _displaced_entry(self, user_id: str, old: dict[str, Any], seq: int, how: str) -> None:
        item = {"kind": "memory_entry", "user_id": user_id, "key": old.get("key")}
        self._displaced(item | {"created_at": old.get("created_at"), "seq": seq, "how": how})

    def _displaced_unit(self, unit_id: Any, seq: int, how: str, by: str | None) -> None:
        if isinstance(unit_id, str):
            self._displaced({"kind": "unit", "id": unit_id, "seq": seq, "how": how, "by": by})

    def _created(self, item: dict[str, Any]) -> None:
        self.trace.created.append(item)

    def _displaced(self, item: dict[str, Any]) -> None:
        self.trace.displaced.append(item)

    def _included(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> None:
        """Assembled blocks, snapshots and pipeline runs that included something traced."""
        if entry.syscall == "memory.awmu.assemble" and self.units:
            units = [unit for unit in _strings(value.get("included")) if unit in self.units]
            if units:
                context = value.get("context_id")
                self.trace.included_in.append(
                    {"kind": "assemble", "seq": entry.seq, "context_id": context, "units": units}
                )
        elif entry.syscall == "memory.snapshot" and self.entries:
            self._snapshot(entry, args, value)

    def _whole(self, part: Any) -> Any:
        """An array of a result as it was returned: read back from the blob store where the journal
        holds a reference to it (``kernel.result_pieces``)."""
        key = piece_key(part)
        if key is None or self._pieces is None:
            return part if isinstance(part, list) else None
        if self._last_piece[0] != key:
            self._last_piece = (key, decode(self._pieces([key])[key]))
        return self._last_piece[1]

    def _snapshot(self, entry: JournalEntry, args: dict[str, Any], value: dict[str, Any]) -> None:
        user = str(value.get("user_id"))
        snapshot = value.get("snapshot")
        active = self._whole(snapshot.get("active_entries")) if isinstance(snapshot, dict) else None
        keys = [
            item.get("key")
            for item in active or []
            if isinstance(item, dict)
            and (user, str(item.get("key")), str(item.get("created_at"))) in self.entries
        ]
        if not keys:
            return
        self.trace.included_in.append({"kind": "snapshot", "seq": entry.seq, "user_id": user, "keys": keys})
        # the run as stored (the result names it; format 1: the id as given, which the result repeats)
        run_id = value.get("run_id", args.get("run_id"))
        if isinstance(run_id, str) and run_id in self.runs:
            run = {"kind": "pipeline_run", "seq": self.runs[run_id], "run_id": run_id}
            self.trace.included_in.append(run | {"snapshot_seq": entry.seq})


def trace_journal(
    entries: Iterable[JournalEntry], query: TraceQuery, *, pieces: PieceFetch | None = None
) -> Trace:
    """The trace of ``query`` over ``entries`` (in seq order, streamed: ``JournalReader.entries``);
    ``pieces`` reads the pieces of results journaled by reference."""
    tracer = Tracer(query, pieces=pieces)
    for entry in entries:
        tracer.feed(entry)
    return tracer.trace
