"""``arvis journal trace|rollback``: where one principal's or source's memories went, and taking them back.

``trace`` only reads. ``rollback`` is the one journal command that writes: every change it makes is an
ordinary call of an operator through the kernel, appended to the journal like any other (nothing is
deleted), so the journal still verifies afterwards (``journal-format.md`` §13, §14).
"""

from __future__ import annotations

import argparse
from contextlib import closing
from typing import Any

from arvis.access import is_operator
from journal.content_digest import content_digest
from journal.reader import JournalFilter, JournalReader
from kernel.services import default_services
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.admin_key import Identity, identity_for
from tools.audit.counterfactual import ROLLBACK_KIND, Counterfactual
from tools.audit.forensics import TraceQuery, trace_journal
from tools.audit.pieces import fetch_from
from tools.audit.replay import IN_MEMORY_LIMIT
from tools.audit.rollback import PlannedCall, plan_rollback
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, existing_db
from tools.output import print_json, print_table

_VERIFY_HINT = "the journal's pieces are damaged: `arvis journal verify` names the entry"


def run_trace(reader: JournalReader, options: argparse.Namespace) -> int:
    """Exit 0 whether or not anything was found: an empty trace is an answer."""
    given = {"principal": options.subject, "source": options.source, "unit": options.unit}
    chosen = {name: value for name, value in given.items() if value is not None}
    if len(chosen) != 1:
        raise CommandError("trace one thing", hint="give exactly one of --subject, --source, --unit")
    try:
        trace = trace_journal(
            reader.entries(JournalFilter()), TraceQuery(**chosen), pieces=fetch_from(reader.engine)
        )
    except LookupError as exc:  # a piece of a read journaled by reference is missing or damaged
        raise CommandError(str(exc), hint=_VERIFY_HINT) from None
    if not trace.calls and not trace.created and options.subject is not None:
        from tools.journal_empty import explain_empty_listing

        explain_empty_listing(reader, options.subject)
    if options.output != "table":
        print_json(trace.to_json(), lines=options.output == "jsonl")
        return EXIT_OK
    (name, value), *_ = trace.query.to_json().items()
    print(f"trace of {name} {value}: {len(trace.calls)} calls")
    print("calls: " + (" ".join(str(seq) for seq in trace.calls) or "none"))
    for title, items in (
        ("created", trace.created),
        ("displaced", trace.displaced),
        ("included in", trace.included_in),
    ):
        rows = [(item.get("seq"), item.get("kind"), _what(item)) for item in items]
        print(f"{title}: {len(rows)}")
        if rows:
            print_table(None, ("seq", "kind", "what"), rows)
    return EXIT_OK


def _what(item: dict[str, Any]) -> str:
    return " ".join(
        f"{name}={value}" for name, value in item.items() if name not in {"seq", "kind"} and value is not None
    )


def run_rollback(options: argparse.Namespace) -> int:
    """Plan against a replay without the principal, make the calls, compare the content digests."""
    operator = options.caller
    if not is_operator(operator):
        raise CommandError(
            f"--as {operator}: a rollback is made by an operator", hint="give --as operator:NAME"
        )
    principal = options.subject
    if not principal:
        raise CommandError("no principal to roll back", hint="give --subject P")
    if principal == operator:
        raise CommandError("an operator cannot roll itself back", hint="give --as another operator:NAME")
    target = existing_db(options.db)
    identity = identity_for(operator, target, options.admin_key)  # exit 2 before anything opens
    with closing(JournalReader.open(target)) as reader:  # open to the end: the replay reads its blobs
        header = reader.header()
        if header is None:
            raise CommandError(f"{target} holds no arvis journal", hint="is this the right file?")
        head = reader.head()
        counterfactual = Counterfactual(
            header,
            principal,
            table=SYSCALL_TABLE,
            on_disk=head is not None and head.seq > IN_MEMORY_LIMIT,
            blobs_from=reader.engine,
        )
        try:
            report = _roll_back(target, counterfactual, principal, operator, identity)
        except LookupError as exc:  # before any compensating call: the plan reads the pieces first
            raise CommandError(str(exc), hint=_VERIFY_HINT) from None
        finally:
            counterfactual.close()
    _print_report(report, options.output)
    # what no syscall restored (graph state among it, which the content digest does not cover) fails too
    clean = report["equal"] and not report["dependents"] and not report["not_undone"]
    return EXIT_OK if clean else EXIT_FAILED


def _roll_back(
    target: str, counterfactual: Counterfactual, principal: str, operator: str, identity: Identity
) -> dict[str, Any]:
    with closing(JournalReader.open(target)) as reader:
        for entry in reader.entries(JournalFilter()):
            counterfactual.feed(entry)
        failed = counterfactual.replayer.flush()
        if failed is not None:  # the plan would compare the live state with a replay that lost calls
            raise CommandError(
                f"the counterfactual replay could not commit: {failed}; nothing was rolled back",
                hint=_VERIFY_HINT,
            )
        with reader.engine.connect() as live, counterfactual.replayer.store.engine.connect() as aimed:
            plan = plan_rollback(live, aimed, counterfactual.tracer, principal, operator)
    made = _make_calls(target, plan.calls, principal, operator, identity) if counterfactual.skipped else []
    not_undone = list(plan.not_undone)
    for call in made:
        if call["status"] != "ok":
            not_undone.append(f"{call['why']}: {call['syscall']} refused, {call['status']}: {call['detail']}")
        for evicted in call.pop("evicted", []):
            not_undone.append(f"{call['syscall']} at seq {call['seq']} evicted {evicted} to make room")
    withdrawn = frozenset({principal})
    with closing(JournalReader.open(target)) as reader, reader.engine.connect() as live:
        after = content_digest(live, withdrawn=withdrawn)
    with counterfactual.replayer.store.engine.connect() as aimed:
        without = content_digest(aimed, withdrawn=withdrawn)
    return {
        "principal": principal,
        "operator": operator,
        "undone_calls": counterfactual.skipped,
        "nothing_to_undo": not counterfactual.skipped,
        "compensating_calls": made,
        "not_undone": not_undone,
        "dependents": [dependent.to_json() for dependent in counterfactual.dependents],
        "content_digest": {"after_rollback": after, "replay_without_principal": without},
        "equal": after == without,
    }


def _make_calls(
    target: str, planned: list[PlannedCall], principal: str, operator: str, identity: Identity
) -> list[dict[str, Any]]:
    """Each planned call through the kernel, as the operator proved by the admin key: journaled like any
    other call."""
    made: list[dict[str, Any]] = []
    with closing(open_kernel(target, services=default_services(), identity=identity.policy)) as kernel:
        if planned:  # names what follows, so that a later rollback of the same principal passes over it
            payload = {"principal": principal, "calls": len(planned)}
            opened = kernel.call(
                "kernel.record",
                {"kind": ROLLBACK_KIND, "payload": payload},
                principal=operator,
                credential=identity.credential,
            )
            if not opened.ok:
                raise CommandError(f"the rollback could not be journaled: {opened.error}")
        for call in planned:
            result = kernel.call(call.syscall, call.args, principal=operator, credential=identity.credential)
            record: dict[str, Any] = {"seq": result.seq, "syscall": call.syscall, "args": call.args}
            record["why"] = call.why
            record["status"] = "ok" if result.ok else (result.error.code if result.error else "error")
            record["detail"] = result.error.detail if result.error else ""
            value = result.value if result.ok and isinstance(result.value, dict) else {}
            record["evicted"] = [item for item in value.get("evicted") or [] if isinstance(item, str)]
            made.append(record)
    return made


def _print_report(report: dict[str, Any], output: str) -> None:
    if output != "table":
        print_json(report, lines=output == "jsonl")
        return
    principal = report["principal"]
    if report["nothing_to_undo"]:
        print(f"{principal} made no call in this journal: nothing to undo")
    else:
        print(f"rolled back {len(report['undone_calls'])} calls of {principal} as {report['operator']}")
    rows = [
        (call["seq"], call["syscall"], call["status"], call["why"]) for call in report["compensating_calls"]
    ]
    if rows:
        print_table("compensating calls", ("seq", "syscall", "status", "why"), rows)
    dependents = report["dependents"]
    if dependents:
        columns = ("seq", "syscall", "principal", "why")
        print_table(
            "later calls that depended on them", columns, [tuple(d[c] for c in columns) for d in dependents]
        )
    for line in report["not_undone"]:
        print(f"not undone: {line}")
    digests = report["content_digest"]
    print(f"content digest after the rollback:       {digests['after_rollback']}")
    print(f"content digest of the replay without it: {digests['replay_without_principal']}")
    print("equal" if report["equal"] else "DIFFERENT")
