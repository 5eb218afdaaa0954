"""``arvis demo``: a short, realistic session on a fresh journal, then the chain verification."""

from __future__ import annotations

import argparse
import os
from contextlib import closing
from pathlib import Path
from typing import Any

from tools.common import EXIT_FAILED, EXIT_OK, CommandError
from tools.output import print_json, print_table

USER = "alice"
AGENT = "agent:assistant"
PLANNER = "service:planner"

# (what it shows, syscall, args, principal)
SESSION: list[tuple[str, str, dict[str, Any], str]] = [
    ("the operator lets onboarding write Alice's memory", "access.grant",
     {"principal": "service:onboarding", "capability": "write", "scope": f"user:{USER}"}, "operator:local"),
    ("the operator lets governance write it too", "access.grant",
     {"principal": "service:governance", "capability": "write", "scope": f"user:{USER}"}, "operator:local"),
    ("the operator lets the assistant read it", "access.grant",
     {"principal": AGENT, "capability": "read", "scope": f"user:{USER}"}, "operator:local"),
    ("an agent tries to grant itself write access", "access.grant",
     {"principal": AGENT, "capability": "write", "scope": f"user:{USER}"}, AGENT),
    ("Alice says she writes in French", "memory.write",
     {"user_id": USER, "key": "language", "memory_type": "preference", "source": "explicit_user",
      "value_ref": "vault:alice/language"}, f"user:{USER}"),
    ("onboarding records her timezone", "memory.write",
     {"user_id": USER, "key": "timezone", "memory_type": "context", "source": "onboarding",
      "value_ref": "vault:alice/timezone"}, "service:onboarding"),
    ("she opts out of marketing email", "memory.write",
     {"user_id": USER, "key": "no_marketing_emails", "memory_type": "constraint",
      "source": "explicit_user"}, f"user:{USER}"),
    ("she has a penicillin allergy (a hard constraint)", "memory.write",
     {"user_id": USER, "key": "no_penicillin", "memory_type": "constraint", "source": "explicit_user",
      "governance": {"visibility": "sealed", "sharing": "never_share"}}, f"user:{USER}"),
    ("governance sets a formal tone", "memory.write",
     {"user_id": USER, "key": "tone_style", "memory_type": "style", "source": "governance",
      "value_ref": "plain:formal"}, "service:governance"),
    ("the assistant, read-only, tries to store what it inferred", "memory.write",
     {"user_id": USER, "key": "mood", "memory_type": "context", "source": "inferred"}, AGENT),
    ("governance tries to store an unregistered key it inferred", "memory.write",
     {"user_id": USER, "key": "mood", "memory_type": "context", "source": "inferred"}, "service:governance"),
    ("a write with an empty key", "memory.write",
     {"user_id": USER, "key": "", "memory_type": "rule", "source": "explicit_user"}, f"user:{USER}"),
    ("the tone is written again without replace", "memory.write",
     {"user_id": USER, "key": "tone_style", "memory_type": "style", "source": "governance",
      "value_ref": "plain:casual"}, "service:governance"),
    ("Alice asks for a casual tone: replace supersedes, history kept", "memory.write",
     {"user_id": USER, "key": "tone_style", "memory_type": "style", "source": "explicit_user",
      "value_ref": "plain:casual", "replace": True}, f"user:{USER}"),
    ("she withdraws her timezone", "memory.revoke", {"user_id": USER, "key": "timezone"}, f"user:{USER}"),
    ("the agent reads her timezone", "memory.get", {"user_id": USER, "key": "timezone"}, AGENT),
    ("the agent reads an unknown key", "memory.get", {"user_id": USER, "key": "hobby"}, AGENT),
    ("the agent reads her language", "memory.get", {"user_id": USER, "key": "language"}, AGENT),
    ("the agent lists everything, history included", "memory.list",
     {"user_id": USER, "include_inactive": True}, AGENT),
    ("the assistant, read-only, cannot hold her memory still for a run", "pipeline.begin",
     {"user_id": USER, "run_id": "run-1"}, AGENT),
    ("the operator lets the planner read her memory", "access.grant",
     {"principal": PLANNER, "capability": "read", "scope": f"user:{USER}"}, "operator:local"),
    ("and write it: a run holds her writes back, which takes write", "access.grant",
     {"principal": PLANNER, "capability": "write", "scope": f"user:{USER}"}, "operator:local"),
    ("the planner begins a pipeline run", "pipeline.begin", {"user_id": USER, "run_id": "run-1"}, PLANNER),
    ("the run takes its snapshot, tagged with the run", "memory.snapshot",
     {"user_id": USER, "run_id": "run-1"}, PLANNER),
    ("Alice's memory cannot change mid-run", "memory.write",
     {"user_id": USER, "key": "no_shellfish", "memory_type": "constraint", "source": "explicit_user"},
     f"user:{USER}"),
    ("the run ends", "pipeline.end", {"run_id": "run-1"}, PLANNER),
    ("now the write goes through", "memory.write",
     {"user_id": USER, "key": "no_shellfish", "memory_type": "constraint", "source": "explicit_user"},
     f"user:{USER}"),
    ("a call to a syscall that does not exist", "memory.forget", {"user_id": USER}, AGENT),
]  # fmt: skip


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="run a short session on a fresh journal and verify it")
    parser.add_argument("--db", default="demo-journal.db", help="journal file to create (a path)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the file if it holds the journal an earlier demo run wrote (nothing else)",
    )
    parser.add_argument("-o", "--output", choices=("table", "json"), default="table")
    parser.set_defaults(run=run)


CONTEXT = "tavern"
DM = "agent:game-master"
OPERATOR = "operator:alice"

# the working-memory part: (what it shows, syscall, args, principal); "{u:N}" is the unit of call N
WORKING_MEMORY: list[tuple[str, str, dict[str, Any], str]] = [
    ("a working-memory context, budget 6, owned by the operator", "memory.awmu.create",
     {"context_id": CONTEXT, "config": {"budget": 6, "channels": {DM: "dm"}}}, OPERATOR),
    ("the game master may read the context", "access.grant",
     {"principal": DM, "capability": "read", "scope": f"context:{CONTEXT}"}, OPERATOR),
    ("and write it (propose, turns), not seed, pin or review", "access.grant",
     {"principal": DM, "capability": "write", "scope": f"context:{CONTEXT}"}, OPERATOR),
    ("the operator seeds a world fact", "memory.awmu.seed",
     {"context_id": CONTEXT, "text": "The old king is dead.", "authority": "RELIABLE", "rank": 700},
     OPERATOR),
    ("the operator seeds and pins the tavern keeper", "memory.awmu.seed",
     {"context_id": CONTEXT, "text": "Elara keeps the Silver Stag tavern.", "authority": "RELIABLE",
      "pinned": True}, OPERATOR),
    ("the narrator states a fact with high confidence", "memory.awmu.propose",
     {"context_id": CONTEXT, "text": "A dragon sleeps beneath the northern mountain.", "confidence": 0.95},
     DM),
    ("a player claims the king lives", "memory.awmu.propose",
     {"context_id": CONTEXT, "text": "The old king is not dead.", "source": "player", "confidence": 0.9}, DM),
    ("the same fact again, reworded", "memory.awmu.propose",
     {"context_id": CONTEXT, "text": "the old KING is dead!", "confidence": 0.9}, DM),
    ("an unsure rumour", "memory.awmu.propose",
     {"context_id": CONTEXT, "text": "The blacksmith owes money.", "source": "player", "confidence": 0.4},
     DM),
    ("the operator rejects the queued claim that the king lives", "memory.awmu.review",
     {"request_id": "r{seq:7}", "decision": "reject", "note": "the module says he is dead"}, OPERATOR),
    ("a turn where the king's death is confirmed", "memory.awmu.turn",
     {"context_id": CONTEXT, "reinforce": ["{u:4}"]}, DM),
    ("another turn", "memory.awmu.turn", {"context_id": CONTEXT, "reinforce": ["{u:4}"]}, DM),
    ("the game master asks for CANON", "memory.awmu.canonize",
     {"context_id": CONTEXT, "unit_id": "{u:4}", "reason": "central to the plot"}, DM),
    ("the game master cannot approve it himself", "memory.awmu.review",
     {"request_id": "c{seq:13}", "decision": "approve"}, DM),
    ("the operator approves: CANON by explicit review only", "memory.awmu.review",
     {"request_id": "c{seq:13}", "decision": "approve"}, OPERATOR),
    ("the block the agent is given", "memory.awmu.assemble", {"context_id": CONTEXT}, DM),
    ("a compacted summary that forgets the tavern", "memory.awmu.validate_summary",
     {"context_id": CONTEXT, "summary": "The old king is dead and a dragon sleeps in the mountain."}, DM),
    ("the pressure gauge", "memory.awmu.pressure", {"context_id": CONTEXT}, DM),
]  # fmt: skip


def _outcome(result: Any) -> str:
    if not result.ok:
        return f"refused: {result.error.code} ({result.error.detail})"
    value = result.value
    if "outcome" in value:
        review_id = value.get("review_id") or (value.get("review") or {}).get("review_id")
        extra = value.get("unit_id") or value.get("duplicate_of") or review_id or ""
        return f"{value['outcome']} {extra}".strip()
    if "snapshot" in value:
        projection = value["projection"]
        return (
            f"{len(value['snapshot']['active_entries'])} active entries, constraints "
            f"{projection['constraints']}, hash {value['snapshot_hash'][:16]}"
        )
    if "entries" in value:
        return ", ".join(f"{item['entry']['key']}={item['status']}" for item in value["entries"])
    if "request" in value:
        request = value["request"]
        return f"{request['request_id']} {request['status']} for {request['unit_id']}"
    if "turn" in value and "reinforced" in value:
        return f"turn {value['turn']}: {len(value['reinforced'])} reinforced, {len(value['decayed'])} decayed"
    if "text" in value and "included" in value:
        return f"{len(value['included'])} units, about {value['estimated_tokens']} tokens"
    if "lost" in value:
        lost = [x["unit_id"] for x in value["lost"]]
        return "summary keeps every protected unit" if value["ok"] else f"summary loses {lost}"
    if "score" in value:
        return f"pressure {value['score']:.3f} ({value['active']}/{value['budget']} units)"
    if "run" in value:
        run = value["run"]
        if run["ended_seq"]:
            return f"run {run['run_id']} ended: {run['user_id']}'s memory may change again"
        return f"run {run['run_id']} begun: {run['user_id']}'s memory held still"
    if "grant" in value:
        grant = value["grant"]
        return f"{grant['principal']} may {grant['capability']} {grant['scope']}"
    if "config" in value:
        return f"context {value['context_id']} created"
    if value.get("superseded"):
        return f"written; superseded the entry of {value['superseded']['created_at']}"
    return f"{value.get('status', 'written')}: {value['entry']['key']}"


def _fill(args: dict[str, Any], seqs: list[int | None], units: list[str | None]) -> dict[str, Any]:
    """Put the seq or unit id of an earlier WORKING_MEMORY call (by its position) where the args name it."""
    filled: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, list):
            filled[key] = [_fill({"v": item}, seqs, units)["v"] for item in value]
        elif isinstance(value, str) and "{" in value:
            kind, _, position = value[value.index("{") + 1 : value.index("}")].partition(":")
            found = (seqs if kind == "seq" else units)[len(SESSION) + int(position) - 1]
            filled[key] = value[: value.index("{")] + str(found) + value[value.index("}") + 1 :]
        else:
            filled[key] = value
    return filled


def _fresh_file(name: str, force: bool) -> Path:
    """The file the demo writes its journal to. An existing one is replaced only on ``--force``, and
    only when it holds the journal a demo run wrote, nothing added (``written_by_the_demo``): any other
    file, a journal someone wrote into among them, is refused and left as it is. A URL or ``:memory:``
    is refused, since the demo reads its journal back from the file to verify it."""
    if name == ":memory:" or "://" in name:
        raise CommandError(f"the demo writes a journal file, not {name}", hint="give a file path to --db")
    path = Path(name)
    if path.is_dir():
        raise CommandError(f"{name} is a directory", hint="give a file path to --db")
    if os.path.lexists(path):
        if not force:
            raise CommandError(
                f"{name} already exists",
                hint="pass --force to replace the demo's own journal, or choose another --db",
            )
        if not written_by_the_demo(path):
            raise CommandError(
                f"{name} is not the journal a demo run wrote (or calls were added to it): --force replaces "
                "only that, and the file is left as it is",
                hint="choose another --db, or move the file away yourself",
            )
    # the replaced journal's admin key goes with it: it is no key of the new one (``tools.admin_key``)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}.admin-key")):
        leftover.unlink(missing_ok=True)
    return path


def written_by_the_demo(path: Path) -> bool:
    """Whether ``path`` holds a journal whose entries are exactly the demo's calls: the same syscalls by
    the same principals with the same arguments, in the same order, and nothing after them. Read
    without changing the file (``JournalReader``: read-only, never migrated)."""
    from arvis.canonical import decode
    from journal.reader import JournalReader
    from kernel.protocols import StorageError

    # (syscall, args, principal) of each call the demo makes, in order; args None where they name an
    # earlier call's seq or unit (``_fill``), which differ from run to run
    calls = [
        (syscall, None if "{" in str(args) else args, principal)
        for _, syscall, args, principal in (*SESSION, *WORKING_MEMORY)
    ]
    try:
        reader = JournalReader.open(str(path))
    except StorageError:
        return False
    try:
        head = reader.head() if reader.header() is not None else None
        if head is None or head.seq != len(calls):
            return False
        return all(
            (entry.syscall, entry.principal) == (syscall, principal)
            and (args is None or decode(entry.args) == args)
            for entry, (syscall, args, principal) in zip(reader.entries(), calls, strict=True)
        )
    except (StorageError, ValueError):  # not a journal this arvis reads, or args that are not JSON
        return False
    finally:
        reader.close()


def run(options: argparse.Namespace) -> int:
    from rich.console import Console

    from kernel.identity import VouchedPrincipals
    from syscalls.boot import open_kernel
    from tools.scenario.runner import verified

    path = _fresh_file(options.db, options.force)
    vouched = VouchedPrincipals(administrators=True)  # its own script
    rows = []
    block = ""
    seqs: list[int | None] = []
    units: list[str | None] = []
    with closing(open_kernel(str(path), identity=vouched, create=True)) as kernel:
        for title, syscall, args, principal in (*SESSION, *WORKING_MEMORY):
            result = kernel.call(syscall, _fill(args, seqs, units), principal=principal)
            seqs.append(result.seq)
            units.append(result.value.get("unit_id") if result.ok else None)
            rows.append((result.seq, title, syscall, principal, _outcome(result)))
            if result.ok and syscall == "memory.awmu.assemble":
                block = result.value["text"]
    report = verified(path)
    columns = ("seq", "what", "syscall", "principal", "outcome")
    if options.output == "json":
        print_json(
            {
                "db": str(path),
                "calls": [dict(zip(columns, row, strict=True)) for row in rows],
                "block": block,
                "verification": report.to_json(),
            }
        )
        return EXIT_OK if report.verified else EXIT_FAILED
    print_table(f"demo session on {path}", columns, rows)
    console = Console()
    console.print("\nthe assembled working-memory block:", style="bold")
    console.print(block, markup=False)
    intact = "chain intact, every entry replayed byte for byte"
    status = intact if report.verified else f"NOT verified: {report.divergence}"
    console.print(f"\nverification: {report.entries} entries, {status}")
    console.print(f"checkpoint {report.head}")
    console.print(
        f"look inside: arvis journal ls --db {path}  |  arvis journal verify --db {path}  |  "
        f"arvis journal state --db {path}"
    )
    return EXIT_OK if report.verified else EXIT_FAILED
