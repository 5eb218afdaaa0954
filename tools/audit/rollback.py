"""Rollback planning: the compensating calls that bring what one principal touched back to the state a
replay without its calls reaches (``tools/audit/counterfactual.py``), and what no syscall can bring back.

Only what the principal's calls touched is compared (its keys, its units and the units they displaced or
changed, its queued proposals and requests and those it decided, its contexts, its grants and runs); the
live store and the counterfactual store share every seq-derived id, so a unit is looked up by the same id
on both sides. Pure planning: it reads the two stores and returns calls; the caller makes them through
the kernel, so each is an ordinary journaled call (``journal-format.md`` §14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, inspect, select

from arvis.access import AccessRules, Capability, Grant, ScopeKind, granted, scope_of
from journal.content_digest import entry_content, stored_body, unit_content
from journal.schema import FORMAT_VERSION, journal_header
from kernel.formats import rules_of
from tools.audit.forensics import Tracer
from tools.audit.rollback_side import StoreSide


@dataclass(frozen=True)
class PlannedCall:
    syscall: str
    args: dict[str, Any]
    why: str


@dataclass
class RollbackPlan:
    calls: list[PlannedCall]
    not_undone: list[str]
    """What no syscall of the table can restore, one sentence each."""


def _write_args(row: dict[str, Any]) -> dict[str, Any]:
    """A ``memory.write`` that stores ``row``'s content again as the entry in force."""
    args: dict[str, Any] = {name: row[name] for name in ("user_id", "key", "memory_type", "source")}
    for name in ("notes", "value_ref", "expires_at"):
        if row[name] is not None:
            args[name] = row[name]
    args["governance"] = stored_body(row["governance"])
    args["replace"] = True
    return args


def _active(unit: dict[str, Any] | None) -> dict[str, Any] | None:
    return unit if unit is not None and unit.get("status") == "ACTIVE" else None


def plan_rollback(
    live: Connection, target: Connection, tracer: Tracer, principal: str, operator: str | None = None
) -> RollbackPlan:
    """The calls that undo ``principal``'s footprint (``tracer``: its trace over the whole journal), made
    by ``operator`` (when given, a review or a CANON unit's restore it may not make is wrapped in a grant of
    ``canonize`` it then withdraws)."""
    now, aim = StoreSide(live), StoreSide(target)
    rules = _access_rules(live)
    plan = RollbackPlan([], [])
    note = f"rollback of {principal}"
    created, displaced = tracer.trace.created, tracer.trace.displaced
    _runs(plan, now, aim, created, displaced)
    _grants(plan, now, aim, principal)
    _entries(plan, now, aim, created + displaced)
    decisions = RollbackPlan([], plan.not_undone)
    _decisions(decisions, now, aim, created, tracer.decided | now.reopened_by(principal), note)
    plan.calls.extend(_as_canonizer(decisions.calls, now, rules, operator, plan.calls))
    _units(plan, now, aim, set(tracer.units) | tracer.touched, note, (rules, operator))
    _contexts(plan, now, aim, tracer, principal, note)
    _graph(plan, now, principal)
    return plan


def _access_rules(live: Connection) -> AccessRules:
    """The live journal's access rules: how a grant names a context (``arvis.access.scope_of``). Read
    from the live header alone: the counterfactual's scratch store copies it."""
    version = None
    if "journal_header" in inspect(live).get_table_names():
        version = live.execute(select(journal_header.c.format_version)).scalar()
    return rules_of(FORMAT_VERSION if version is None else int(version)).access


def _graph(plan: RollbackPlan, now: StoreSide, principal: str) -> None:
    """LangGraph state (``langgraph.md``) is not rolled back: no syscall gives a thread or a store prefix
    another owner, and deleting rows would take others' writes with them. Each thread and store prefix the
    principal owns or wrote into live is listed, and each of its calls that deleted graph rows."""
    threads, prefixes = now.graph_footprint(principal)
    for kind, found in (("graph thread", threads), ("graph store prefix", prefixes)):
        for name, held in sorted(found.items()):
            plan.not_undone.append(
                f"{kind} {name} ({', '.join(held)}) stays as it is: a rollback does not undo graph state"
            )
    for seq, syscall in now.graph_deletions(principal):
        plan.not_undone.append(
            f"{syscall} at seq {seq} deleted graph rows that stay deleted: "
            "a rollback does not undo graph state"
        )


def _contexts(
    plan: RollbackPlan, now: StoreSide, aim: StoreSide, tracer: Tracer, principal: str, note: str
) -> None:
    """Close each context the principal created that the replay does not have, once its units are
    archived (the calls before): no syscall deletes a context, and a closed one holds nothing in force
    (``journal-format.md`` §13.2). Not where others' content lives in it: that stays, said so. A context
    closed live that the replay has open stays closed: no syscall reopens a context."""
    wanted = aim.closed()
    for context_id, closure in sorted(now.closed().items()):
        if context_id not in wanted and aim.context(context_id) is not None:
            plan.not_undone.append(
                f"context {context_id} closed at seq {closure.get('seq')} by {closure.get('by')} stays "
                "closed: no syscall reopens a context"
            )
    for item in tracer.trace.created:
        if item.get("kind") != "context":
            continue
        context_id, seq = str(item.get("id")), item.get("seq")
        live = now.context(context_id)
        if live is None or live.get("closed") is not None:
            continue  # gone (never), or closed already (an earlier rollback)
        if aim.context(context_id) is not None:
            plan.not_undone.append(
                f"context {context_id} (created at seq {seq}) stays: without the principal a later call "
                "creates a context of that id, which no syscall can turn this one into"
            )
            continue
        others = now.held_by_others(context_id, tracer, principal)
        if others:
            plan.not_undone.append(
                f"context {context_id} (created at seq {seq}) stays open: it holds {', '.join(others)}, "
                "not made by the principal"
            )
            continue
        args = {"context_id": context_id, "reason": note}
        plan.calls.append(
            PlannedCall(
                "memory.awmu.close", args, f"context {context_id}, created by the principal at seq {seq}"
            )
        )


def _runs(
    plan: RollbackPlan,
    now: StoreSide,
    aim: StoreSide,
    created: list[dict[str, Any]],
    displaced: list[dict[str, Any]],
) -> None:
    """End the principal's runs first: while one is active the user's memory refuses every write."""
    live, wanted = now.active_runs(), aim.active_runs()
    for item in created:
        run = str(item.get("id"))
        if item.get("kind") == "run" and run in live and run not in wanted:
            plan.calls.append(
                PlannedCall("pipeline.end", {"run_id": run}, f"run {run} begun at seq {item['seq']}")
            )
    for item in displaced:
        run = str(item.get("id"))
        if item.get("kind") == "run" and run in wanted and run not in live:
            plan.not_undone.append(
                f"run {run} ended at seq {item['seq']} stays ended: a run id is single-use, "
                "no syscall reopens it"
            )


def _grants(plan: RollbackPlan, now: StoreSide, aim: StoreSide, principal: str) -> None:
    """Withdraw every grant the principal holds, and the grants its calls gave or withdrew back to the
    replay's (a grant held by another principal is compared only when the principal's calls touched it:
    the replay has exactly the grants of others that the principal did not change)."""
    live, wanted = now.grants(), aim.grants()
    for grant in sorted(live):
        if grant[0] == principal or grant not in wanted:
            args = {"principal": grant[0], "capability": grant[1], "scope": grant[2]}
            plan.calls.append(PlannedCall("access.revoke", args, f"grant {'/'.join(grant)}"))
    for grant in sorted(wanted - live):
        if grant[0] != principal:
            args = {"principal": grant[0], "capability": grant[1], "scope": grant[2]}
            why = f"grant {'/'.join(grant)} withdrawn by the principal"
            plan.calls.append(PlannedCall("access.grant", args, why))


def _entries(plan: RollbackPlan, now: StoreSide, aim: StoreSide, items: list[dict[str, Any]]) -> None:
    entries = [item for item in items if item.get("kind") == "memory_entry"]
    for user_id, key in sorted({(str(item.get("user_id")), str(item.get("key"))) for item in entries}):
        live, wanted = now.entry(user_id, key), aim.entry(user_id, key)
        if live is not None and wanted is not None and entry_content(live) == entry_content(wanted):
            continue
        if wanted is not None:
            why = f"restore {user_id}/{key} as it would be without the principal"
            plan.calls.append(PlannedCall("memory.write", _write_args(wanted), why))
        elif live is not None:
            why = f"revoke {user_id}/{key}, written by the principal"
            plan.calls.append(PlannedCall("memory.revoke", {"user_id": user_id, "key": key}, why))


def _decisions(
    plan: RollbackPlan,
    now: StoreSide,
    aim: StoreSide,
    created: list[dict[str, Any]],
    decided: set[str],
    note: str,
) -> None:
    """Reject what the principal left pending for review, then reopen what it decided (or expired) that
    the replay has PENDING: rejections first, so that a reopened proposal finds room in a bounded queue."""
    ids = {
        str(item.get("id")) for item in created if item.get("kind") in ("queued_proposal", "canon_request")
    }
    reopens: list[PlannedCall] = []
    for request_id in sorted(ids | decided):
        live, wanted = now.pending(request_id), aim.pending(request_id)
        live_pending = live is not None and live.get("status") == "PENDING"
        wanted_pending = wanted is not None and wanted.get("status") == "PENDING"
        if live_pending and not wanted_pending:
            args = {"request_id": request_id, "decision": "reject", "note": note}
            why = f"reject {request_id}, left pending by the principal"
            if wanted is not None:  # decided in the replay: PENDING live since the principal reopened it
                status, rejected = str(wanted.get("status")), _rejected_status(now, request_id, live)
                why = f"reject {request_id}: {status} without the principal, which reopened it"
                if rejected != status:
                    why += f"; rejected, it ends {rejected}"
                    again = {"APPROVED": "re-approves", "STALE": "makes stale", "EXPIRED": "expires"}.get(
                        status, f"decides ({status})"
                    )
                    plan.not_undone.append(
                        f"{request_id} was {status} without the principal; no syscall "
                        f"{again} it as it was (rejected again, it ends {rejected})"
                    )
            plan.calls.append(PlannedCall("memory.awmu.review", args, why))
        elif wanted_pending and live is None:
            plan.not_undone.append(f"{request_id} would still be PENDING but is not in the live store")
        elif wanted_pending and live is not None and not live_pending:
            args = {"request_id": request_id, "note": note}
            why = f"reopen {request_id}: {live.get('status')}, PENDING without the principal"
            reopens.append(PlannedCall("memory.awmu.reopen_request", args, why))
    plan.calls.extend(reopens)


def _held(now: StoreSide, operator: str, before: list[PlannedCall]) -> set[tuple[str, str]]:
    """The (capability, scope) grants ``operator`` holds once the planned calls ``before`` are made: the
    live ones, less those a planned ``access.revoke`` withdraws, plus those a planned ``access.grant``
    gives (a grant the principal gave the operator is revoked before the calls that follow)."""
    held = {(capability, scope) for who, capability, scope in now.grants() if who == operator}
    for call in before:
        if call.args.get("principal") != operator:
            continue
        grant = (str(call.args.get("capability")), str(call.args.get("scope")))
        if call.syscall == "access.revoke":
            held.discard(grant)
        elif call.syscall == "access.grant":
            held.add(grant)
    return held


def _rejected_status(now: StoreSide, request_id: str, live: dict[str, Any] | None) -> str:
    """What a ``reject`` makes of a PENDING request (``working-memory.md`` §8): a queued proposal is
    REJECTED; a canonization request is STALE when its unit is not active live or its authority moved since
    it was asked for, else REJECTED."""
    if live is None or not request_id.startswith("c"):  # a queued proposal
        return "REJECTED"
    unit = _active(now.unit(str(live.get("unit_id"))))
    if unit is None or unit.get("authority") != live.get("authority_at_request"):
        return "STALE"
    return "REJECTED"


def _as_canonizer(
    calls: list[PlannedCall],
    now: StoreSide,
    rules: AccessRules,
    operator: str | None,
    before: list[PlannedCall],
) -> list[PlannedCall]:
    """The calls that need the canonize right (reviews, reopens; restores of CANON units), each context's
    wrapped in ``access.grant`` of ``canonize`` on it to the operator and ``access.revoke`` of the same
    after, where the operator holds no such grant once the planned calls ``before`` them are made: an
    administrator is not a canonizer by name (``access-and-pipelines.md`` §1.4, §1.7), and the grants table
    ends as it was, so the content digests still compare."""
    if operator is None or not calls:
        return calls
    held = _held(now, operator, before)
    wrapped: list[PlannedCall] = []
    by_context: dict[str, list[PlannedCall]] = {}
    for call in calls:
        named = call.args.get("context_id")
        context = named if isinstance(named, str) else now.context_of(str(call.args.get("request_id")))
        by_context.setdefault(context or "", []).append(call)
    for context, group in by_context.items():
        holds = [
            Grant(operator, Capability(capability), scope)
            for capability, scope in held
            if capability in {member.value for member in Capability}  # a hand-edited row grants nothing
        ]
        scope = scope_of(rules, ScopeKind.CONTEXT, context)
        if not context or granted(holds, Capability.CANONIZE, scope):
            wrapped.extend(group)
            continue
        grant = {"principal": operator, "capability": "canonize", "scope": scope}
        wrapped.append(
            PlannedCall("access.grant", grant, f"let {operator} canonize in {context} for the rollback")
        )
        wrapped.extend(group)
        wrapped.append(
            PlannedCall("access.revoke", grant, f"withdraw the grant the rollback used in {context}")
        )
    return wrapped


def _units(
    plan: RollbackPlan,
    now: StoreSide,
    aim: StoreSide,
    unit_ids: set[str],
    note: str,
    acting: tuple[AccessRules, str | None],
) -> None:
    """Archive what should not be active, pin or unpin what differs only in that, restore what the
    principal took out of the active set (the same unit, when its stored record says what the replay's
    does, its pinned flag aside), re-seed what no stored unit can stand for. Archives first: they free the
    budget the restores and seeds need; a CANON unit's restore is made under the canonize right
    (``_as_canonizer``), and a restored unit is pinned or unpinned after it is back."""
    archives: list[PlannedCall] = []
    pins: list[PlannedCall] = []
    restores: list[PlannedCall] = []
    canon_restores: list[PlannedCall] = []
    repins: list[PlannedCall] = []
    seeds: list[PlannedCall] = []
    for unit_id in sorted(unit_ids):
        stored = now.unit(unit_id)
        live, wanted = _active(stored), _active(aim.unit(unit_id))
        if live is None and wanted is None:
            continue
        if live is not None and wanted is not None:
            if unit_content(live) == unit_content(wanted):
                continue
            if _same_but_pinned(live, wanted):
                pins.append(_pin(unit_id, live, wanted))
                continue
        if live is not None:
            args = {"context_id": live["context_id"], "unit_id": unit_id, "reason": note}
            archives.append(
                PlannedCall("memory.awmu.archive", args, f"{unit_id}, made or changed by the principal")
            )
        if wanted is None:
            continue
        if live is None and stored is not None and _same_but_pinned(stored, wanted):
            args = {"context_id": stored["context_id"], "unit_id": unit_id, "reason": note}
            status = str(stored.get("status", "")).lower()
            restore = PlannedCall(
                "memory.awmu.restore", args, f"{unit_id}, {status}, is active in the replay"
            )
            (canon_restores if stored.get("authority") == "CANON" else restores).append(restore)
            if unit_content(stored) != unit_content(wanted):
                repins.append(_pin(unit_id, stored, wanted))
            continue
        seed = _seed(plan, unit_id, wanted, stored)
        if seed is not None:
            seeds.append(seed)
    canonized = _as_canonizer(canon_restores, now, *acting, plan.calls)
    plan.calls.extend(archives + pins + restores + canonized + repins + seeds)


def _same_but_pinned(current: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether ``current`` says what ``wanted`` says, its pinned flag aside."""
    return unit_content({**current, "pinned": wanted.get("pinned")}) == unit_content(wanted)


def _pin(unit_id: str, current: dict[str, Any], wanted: dict[str, Any]) -> PlannedCall:
    name = "memory.awmu.pin" if wanted.get("pinned") else "memory.awmu.unpin"
    args = {"context_id": current["context_id"], "unit_id": unit_id}
    return PlannedCall(name, args, f"{unit_id} as it would be without the principal")


def _seed(
    plan: RollbackPlan, unit_id: str, wanted: dict[str, Any], stored: dict[str, Any] | None
) -> PlannedCall | None:
    """A seed that stands for ``wanted`` (the unit as the replay has it), or None when none can: the unit
    is not in the live store, or its stored record says something else, so it cannot be restored."""
    because = "is not in the live store" if stored is None else "is stored with other content"
    if wanted.get("authority") == "CANON":
        plan.not_undone.append(
            f"{unit_id} was CANON and {because}: it cannot be restored, and a seed cannot be CANON"
        )
        return None
    sources = list(wanted.get("source_ids") or [])
    if len(sources) > 1:
        plan.not_undone.append(
            f"{unit_id} had the sources {', '.join(sources)} and {because}: "
            f"its re-seed carries only {sources[0]}"
        )
    args = {
        "context_id": wanted["context_id"],
        "text": wanted["text"],
        "authority": wanted["authority"],
        "rank": wanted["rank"],
        "pinned": bool(wanted.get("pinned")),
        "source": sources[0] if sources else "operator",
    }
    why = f"re-seed {unit_id}: it {because}, so it cannot be restored"
    return PlannedCall("memory.awmu.seed", args, why)
