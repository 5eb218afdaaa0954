"""``arvis journal verify|checkpoint|snapshot|state|diff``: the auditor's commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from journal.reader import JournalReader
from journal.replay import Checkpoint, verify_journal
from journal.timetravel import snapshot_at, state_at
from syscalls.table import SYSCALL_TABLE
from tools.common import EXIT_FAILED, EXIT_OK, CommandError
from tools.output import print_json

__all__ = ["run_checkpoint", "run_diff", "run_snapshot", "run_state", "run_verify"]


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on a terminal (stderr), nothing in a pipe."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal or total < 1_000:
        yield None
        return
    with Progress(
        TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    ) as bar:
        task = bar.add_task("verify", total=total)

        def advance(seq: int) -> None:
            if seq % 500 == 0 or seq == total:
                bar.update(task, completed=seq)

        yield advance


def run_verify(reader: JournalReader, options: argparse.Namespace) -> int:
    checkpoint = None
    if options.checkpoint is not None:
        try:
            checkpoint = Checkpoint.parse(options.checkpoint)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    with _progress(reader.count(), options.output == "table") as progress:
        report = verify_journal(
            reader,
            table=SYSCALL_TABLE,
            replay=not options.chain_only,
            checkpoint=checkpoint,
            progress=progress,
        )
    if options.output != "table":
        print_json(report.to_json(), lines=options.output == "jsonl")
    elif report.verified:
        what = "chain intact, replay byte-identical" if report.replayed else "chain intact (not replayed)"
        rate = f", {report.entries_per_second:,.0f} entries/s" if report.entries else ""
        print(f"verified: {report.entries} entries, {what}{rate}")
        print(f"head {report.head_seq}:{report.head_hash}")
        if report.state_digest is not None:
            print(f"state digest {report.state_digest}")
    else:
        divergence = report.divergence
        assert divergence is not None
        where = f"seq {divergence.seq} ({divergence.syscall or '-'})"
        print(f"NOT verified: {where}: {divergence.kind}: {divergence.reason}")
        if divergence.diff:
            print(divergence.diff)
        elif divergence.expected is not None:
            print(f"expected: {divergence.expected}\nfound:    {divergence.found}")
    return EXIT_OK if report.verified else EXIT_FAILED


def run_checkpoint(reader: JournalReader, options: argparse.Namespace) -> int:
    head = reader.head()
    if head is None:
        raise CommandError("the journal is empty: nothing to checkpoint")
    print(Checkpoint(head.seq, head.entry_hash))
    return EXIT_OK


def run_snapshot(reader: JournalReader, options: argparse.Namespace) -> int:
    value = snapshot_at(reader, options.user, options.at, table=SYSCALL_TABLE)
    print_json(value, lines=options.output == "jsonl")
    return EXIT_OK


def run_state(reader: JournalReader, options: argparse.Namespace) -> int:
    state = state_at(reader, options.at, table=SYSCALL_TABLE)
    if options.output == "table":
        print(f"state after seq {state.seq} ({state.recorded_at}): digest {state.digest}")
        for name, rows in state.tables.items():
            print(f"  {name}: {len(rows)} rows")
    else:
        print_json(state.to_json(), lines=options.output == "jsonl")
    return EXIT_OK


def run_diff(first: JournalReader, second: JournalReader, options: argparse.Namespace) -> int:
    left, right = first.entries(), second.entries()
    seq = 0
    while True:
        a, b = next(left, None), next(right, None)
        if a is None and b is None:
            print(f"identical: {seq} entries")
            return EXIT_OK
        seq += 1
        if a is None or b is None:
            longer = "second" if a is None else "first"
            print(f"first difference at seq {seq}: only the {longer} journal has it")
            return EXIT_FAILED
        if a.entry_hash != b.entry_hash:
            fields = [
                name
                for name in (
                    "recorded_at",
                    "syscall",
                    "principal",
                    "args",
                    "status",
                    "result",
                    "effects_hash",
                )
                if getattr(a, name) != getattr(b, name)
            ]
            print(f"first difference at seq {a.seq}: {', '.join(fields) or 'chain (prev_hash)'} differ")
            return EXIT_FAILED
