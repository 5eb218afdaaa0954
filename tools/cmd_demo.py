"""``arvis demo``: a short, realistic session on a fresh journal, then the chain verification."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from journal.reader import JournalReader
from journal.verify import verify_chain
from kernel.boot import open_kernel
from tools.common import EXIT_FAILED, EXIT_OK
from tools.output import print_table

__all__ = ["register"]

USER = "alice"
AGENT = "agent:assistant"

# (what it shows, syscall, args, principal)
SESSION: list[tuple[str, str, dict[str, Any], str]] = [
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
    ("an agent tries to store an unregistered key from inference", "memory.write",
     {"user_id": USER, "key": "mood", "memory_type": "context", "source": "inferred"}, AGENT),
    ("a write with an empty key", "memory.write",
     {"user_id": USER, "key": "", "memory_type": "rule", "source": "explicit_user"}, AGENT),
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
    ("the pipeline takes its snapshot", "memory.snapshot", {"user_id": USER}, AGENT),
    ("a call to a syscall that does not exist", "memory.forget", {"user_id": USER}, AGENT),
]  # fmt: skip


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="run a short session on a fresh journal and verify it")
    parser.add_argument("--db", default="demo-journal.db", help="journal file to (re)create")
    parser.set_defaults(run=run)


def _outcome(result: Any) -> str:
    if not result.ok:
        return f"refused: {result.error.code} ({result.error.detail})"
    value = result.value
    if "snapshot" in value:
        projection = value["projection"]
        return (
            f"{len(value['snapshot']['active_entries'])} active entries, constraints "
            f"{projection['constraints']}, hash {value['snapshot_hash'][:16]}"
        )
    if "entries" in value:
        return ", ".join(f"{item['entry']['key']}={item['status']}" for item in value["entries"])
    if value.get("superseded"):
        return f"written; superseded the entry of {value['superseded']['created_at']}"
    return f"{value.get('status', 'written')}: {value['entry']['key']}"


def run(options: argparse.Namespace) -> int:
    path = Path(options.db)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    kernel = open_kernel(str(path))
    rows = []
    try:
        for title, syscall, args, principal in SESSION:
            result = kernel.call(syscall, args, principal=principal)
            rows.append((result.seq, title, syscall, principal, _outcome(result)))
    finally:
        kernel.close()
    print_table(f"demo session on {path}", ("seq", "what", "syscall", "principal", "outcome"), rows)

    reader = JournalReader.open(str(path))
    try:
        header = reader.header()
        assert header is not None
        report = verify_chain(header, reader.entries())
    finally:
        reader.close()
    console = Console()
    status = "intact" if report.verified else f"BROKEN at seq {report.first_bad_seq}: {report.reason}"
    console.print(f"chain verification: {report.entries} entries, {status}")
    console.print(f"checkpoint {report.head_seq}:{report.head_hash}")
    console.print(
        f"look inside: arvis journal ls {path} | arvis journal show {path} 15 | arvis journal verify {path}"
    )
    return EXIT_OK if report.verified else EXIT_FAILED
