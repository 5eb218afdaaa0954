"""``arvis journal verify|checkpoint|snapshot|state|diff``: the auditor's commands."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, Any

from journal.engine import shown as shown_target
from journal.engine import valid_text
from journal.entry import JournalEntry, Pos
from journal.reader import JournalReader
from tools import argtypes
from tools.audit.state_compare import StateComparison, compare_states
from tools.audit.timetravel import snapshot_at, state_at
from tools.common import EXIT_FAILED, EXIT_OK, CommandError, resolve_db
from tools.output import cell, position, print_json, printable, progress_bar, shown

if TYPE_CHECKING:  # the kernel, rich and the signing library are loaded by the commands that use them
    from tools.audit.replay import ReplayReport
    from tools.journal_proofs import SignedCheckpoint


HEADER_FIELDS = ("journal_id", "format_version", "created_at", "genesis_hash")


def run_verify(options: argparse.Namespace, open_journal: Callable[[str], JournalReader]) -> int:
    """Verify every journal given, in turn; exit 1 when any is not verified. All are opened before any replay
    (``open_journal``: ``CommandError`` for a file without a journal), so a wrong path is reported (exit 2) at
    once, not after minutes of replay of the others. JSON: the report of one journal, or a list of them in
    argument order when several are given (JSON lines: one report a line either way); every report names its
    ``db``. Signed checkpoints are read and their signatures checked before anything is replayed."""
    from rich.progress import TimeRemainingColumn

    from syscalls.table import SYSCALL_TABLE
    from tools.audit.replay import verify_journal

    checkpoint, signed = _parsed_checkpoints(options.checkpoint, options.key)
    checked = [{"checkpoint": str(pos), "seq": pos.seq, "entry_hash": pos.entry_hash} for pos in checkpoint]
    checked += [each.to_json() for each in signed]
    targets = list(options.db) if options.db else [resolve_db(None)]  # those named, else $ARVIS_DB
    several = len(targets) > 1
    reports: list[dict[str, Any]] = []
    with ExitStack() as stack:
        readers = [stack.enter_context(closing(open_journal(target))) for target in targets]
        for target, reader in zip(targets, readers, strict=True):
            report: ReplayReport | None = None
            if signed:  # checked first: one pass over the entry hashes, before the chain and the replay
                from tools import journal_proofs

                report = journal_proofs.signed_report(reader, signed)  # None: it holds every one
            if report is None:  # a bar on a terminal, for a table of 1,000 entries or more, moved every 500
                total = reader.count()
                steps = total if options.output == "table" and total >= 1_000 else 0
                with progress_bar("verifying", steps, TimeRemainingColumn(), keep=True) as bar:
                    report = verify_journal(
                        reader,
                        table=SYSCALL_TABLE,
                        replay=not options.chain_only,
                        checkpoint=checkpoint,
                        # called during this iteration only
                        progress=lambda seq: bar(completed=seq) if seq % 500 == 0 or seq == total else None,  # noqa: B023
                    )
            held = [each | {"held": report.verified} for each in checked]
            # named by its db (never a URL's password), its head also as a position (specs/cli.md)
            named = {"db": shown_target(target), **report.to_json(), "position": position(report.head)}
            reports.append(named | {"checkpoints": held})
            if options.output == "table":
                _print_verdict(report, f"{shown_target(target)}: " if several else "", checked)
            elif options.output == "jsonl":
                print_json(reports[-1], lines=True)
    verified = sum(1 for report in reports if report["verified"])
    if options.output == "json":
        print_json(reports if several else reports[0])
    elif options.output == "table" and several:
        print(f"{verified} of {len(reports)} journals verified")
    return EXIT_OK if verified == len(reports) else EXIT_FAILED


def _parsed_checkpoints(
    given: Sequence[str] | None, keys: Sequence[str] | None
) -> tuple[list[Pos], list[SignedCheckpoint]]:
    """Each ``--checkpoint``: a signed checkpoint FILE (an existing file, verified with ``--key``), else
    ``SEQ:HASH``."""
    texts = list(given or ())
    files = [text for text in texts if Path(text).is_file()]
    if files and not keys:
        raise CommandError("a signed checkpoint needs the key that signed it", hint="add --key KEYFILE.pub")
    if keys and not files:
        raise CommandError("--key verifies a signed checkpoint", hint="add --checkpoint FILE")
    signed: list[SignedCheckpoint] = []
    if files:
        from tools import journal_proofs

        verifiers = journal_proofs.load_keys(list(keys or ()))
        signed = [journal_proofs.load_signed_checkpoint(text, verifiers) for text in files]
    legacy: list[Pos] = []
    for text in (text for text in texts if text not in files):
        try:  # a usage error with a hint, not argparse's usage dump: an auditor copies it by hand
            legacy.append(argtypes.checkpoint(text))
        except argparse.ArgumentTypeError as exc:
            hint = "pass SEQ:HASH as `arvis journal checkpoint` printed it, or a FILE of `checkpoint --sign`"
            raise CommandError(
                str(exc) if ":" in text else f"no checkpoint file {shown(text)}", hint
            ) from None
    clash = min(
        (one.seq for one in legacy for other in legacy if one.seq == other.seq and one != other), default=0
    )
    if clash:
        raise CommandError(f"two checkpoints at seq {clash} with different hashes: no journal holds both")
    return legacy, signed


def _print_verdict(report: ReplayReport, prefix: str, checked: list[dict[str, Any]]) -> None:
    """The verdict; when verified, the head, the state digest and each checkpoint that held."""
    if report.verified:
        what = "chain intact, replay byte-identical" if report.replayed else "chain intact (not replayed)"
        rate = f", {report.entries_per_second:,.0f} entries/s" if report.entries else ""
        print(f"{prefix}verified: {report.entries} entries, {what}{rate}")
        print(f"head {report.head}")
        if report.state_digest is not None:
            print(f"state digest {report.state_digest}")
        for each in checked:  # each checkpoint that held
            if "checkpoint" in each:
                print(f"checkpoint {each['checkpoint']} held")
            else:
                print(
                    f"signed checkpoint {shown(each['file'])} held: tree size {each['tree_size']}, "
                    f"root {each['root']}, signed by {', '.join(each['signers'])}"
                )
        return
    divergence = report.divergence
    assert divergence is not None
    where = f"seq {divergence.seq} ({shown(divergence.syscall) or '-'})"
    print(f"{prefix}NOT verified: {where}: {divergence.kind}: {divergence.reason}")
    if divergence.diff:
        print(divergence.diff)
    elif divergence.expected is not None:  # the two sides, each named for what it is (replayed, stored)
        sides = [
            (f"{label}:" if label == role else f"{label} ({role}):", value)
            for label, role, value in zip(
                divergence.labels, ("expected", "found"), (divergence.expected, divergence.found), strict=True
            )
        ]
        width = max(len(name) for name, _ in sides)
        for name, value in sides:
            print(f"{name:<{width}} {value}")


def run_checkpoint(reader: JournalReader, options: argparse.Namespace) -> int:
    head = reader.head()
    if head is None:
        raise CommandError("the journal is empty: nothing to checkpoint")
    kept = head.pos
    if options.output == "table":
        print(kept)
    else:
        value = {"seq": kept.seq, "entry_hash": kept.entry_hash, "checkpoint": str(kept)}
        print_json(value | {"position": position(kept)}, lines=options.output == "jsonl")
    return EXIT_OK


def run_snapshot(reader: JournalReader, options: argparse.Namespace) -> int:
    if not valid_text(options.user):  # raw bytes on the command line: no user id the kernel accepts is that
        raise CommandError(f"--user {shown(options.user)} is not valid text", hint="a user id is UTF-8 text")
    # --at is checked against the head already (``cmd_journal._at``)
    value = snapshot_at(reader, options.user, options.at)
    print_json(value, lines=options.output == "jsonl")
    snapshot = value.get("snapshot")
    if isinstance(snapshot, dict) and snapshot.get("total_entries") == 0:
        from tools.journal_empty import explain_empty_snapshot

        explain_empty_snapshot(reader, options.user, value.get("seq"))
    return EXIT_OK


def run_state(reader: JournalReader, options: argparse.Namespace) -> int:
    gc.disable()  # the rows are new objects by the hundred thousand, in no cycle, that collections would walk
    try:
        state = state_at(reader, options.at)
        if options.output == "table":
            print(f"state after seq {state.seq} ({state.recorded_at}): digest {state.digest}")
            for name, rows in state.tables.items():
                print(f"  {name}: {len(rows)} rows")
        else:
            print_json(state.to_json(), lines=options.output == "jsonl")
    finally:  # the command line runs with the collector on
        gc.enable()
    return EXIT_OK


@dataclass(frozen=True)
class FirstDifference:
    """Where two journals first part: the seq, and the entry fields that differ there; or, when one
    journal is a prefix of the other, the first entry only the longer one has (``only_in``)."""

    seq: int
    fields: tuple[str, ...] = ()
    only_in: str | None = None
    """``"first"`` or ``"second"``: the journal that goes on after the other ends."""
    after_seq: int = 0
    """With ``only_in``: the seq the shorter journal ends at."""

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "fields": list(self.fields), "only_in": self.only_in}


@dataclass(frozen=True)
class JournalDiff:
    header_fields: tuple[str, ...]
    first_difference: FirstDifference | None
    lengths: tuple[int, int]
    state: StateComparison

    @property
    def identical(self) -> bool:
        return not self.header_fields and self.first_difference is None and self.state.identical

    def to_json(self) -> dict[str, Any]:
        first = self.first_difference
        return {
            "identical": self.identical,
            "first_difference": None if first is None else first.to_json(),
            "header_fields": list(self.header_fields),
            "lengths": list(self.lengths),
            "state": self.state.to_json(),
        }


def _entry_difference(
    a: JournalEntry | None, b: JournalEntry | None, after_seq: int
) -> FirstDifference | None:
    """Every stored field is compared, not the entry hash alone: a row edited behind the chain's back
    keeps its old hash, and two such copies are not the same journal."""
    if a is None or b is None:
        present = b if a is None else a
        assert present is not None
        return FirstDifference(present.seq, only_in="second" if a is None else "first", after_seq=after_seq)
    fields = tuple(name for name in JournalEntry.__struct_fields__ if getattr(a, name) != getattr(b, name))
    return FirstDifference(min(a.seq, b.seq), fields) if fields else None


def compare_journals(first: JournalReader, second: JournalReader) -> JournalDiff:
    """Both journals streamed side by side (memory does not grow with their length), to the end of
    both, so the lengths are exact even after the first difference; then the states both hold, the
    same way (``tools.audit.state_compare``): equal entries do not make equal memories when a state row
    was edited behind the journal's back, and the kernel serves the stored state."""
    found: FirstDifference | None = None
    lengths, common = [0, 0], 0
    for a, b in zip_longest(first.entries(), second.entries()):
        lengths[0] += a is not None
        lengths[1] += b is not None
        if found is None:
            found = _entry_difference(a, b, common)
            if found is None and a is not None:
                common = a.seq  # both journals hold this entry, alike
    headers = (first.header(), second.header())
    header_fields = tuple(
        name for name in HEADER_FIELDS if getattr(headers[0], name, None) != getattr(headers[1], name, None)
    )
    with first.engine.connect() as ours, second.engine.connect() as theirs:
        state = compare_states(ours, theirs)
    return JournalDiff(header_fields, found, (lengths[0], lengths[1]), state)


def run_diff(first: JournalReader, second: JournalReader, options: argparse.Namespace) -> int:
    """Exit 0 when the journals are the same, header, every field of every entry and every stored
    state row; else 1."""
    diff = compare_journals(first, second)
    if options.output != "table":
        print_json(printable(diff.to_json()), lines=options.output == "jsonl")
    else:
        paths = (shown_target(options.db), shown_target(options.other))
        _print_diff(diff, paths)
        if not diff.identical:
            _print_state(diff.state, paths)
    return EXIT_OK if diff.identical else EXIT_FAILED


def _print_diff(diff: JournalDiff, paths: tuple[str, str]) -> None:
    first = diff.first_difference
    if diff.identical:
        print(
            f"identical: {diff.lengths[0]} entries, and the state they hold (digest {diff.state.digests[0]})"
        )
    elif first is not None and first.only_in is not None:
        longer = 0 if first.only_in == "first" else 1
        extra = diff.lengths[longer] - diff.lengths[1 - longer]
        print(
            f"first difference at seq {first.seq}: the {first.only_in} journal ({paths[longer]}) has "
            f"{extra} more {'entry' if extra == 1 else 'entries'} after seq {first.after_seq}, where the "
            f"{'second' if longer == 0 else 'first'} ends"
        )
    elif first is not None:
        print(f"first difference at seq {first.seq}: {', '.join(first.fields)} differ")
    else:
        print(f"entries identical: {diff.lengths[0]} entries")
    if diff.header_fields:
        print(f"headers differ: {', '.join(diff.header_fields)}")


def _print_state(state: StateComparison, paths: tuple[str, str]) -> None:
    """The stored states' verdict: where they first differ, which tables (and users or contexts), and
    whether the memories still say the same thing."""
    if state.identical:
        print(f"state identical (digest {state.digests[0]})")
        return
    row = state.first_difference
    if row is not None:
        key = ", ".join(f"{name}={cell(value)}" for name, value in row.key.items())
        if row.only_in is None:
            what = f"{', '.join(row.columns)} differ"
        else:
            what = f"only the {row.only_in} journal ({paths[0 if row.only_in == 'first' else 1]}) holds it"
        print(f"state differs: first at {row.table} row ({key}): {what}")
    else:
        print("state differs: the state digests differ")
    for table in state.tables:
        rows = f"{table.rows} {'row differs' if table.rows == 1 else 'rows differ'}"
        named = ", ".join(cell(part) for part in table.partitions)
        more = table.partition_count - len(table.partitions)
        where = f" in {table.partition} {named}{f' and {more} more' if more else ''}" if named else ""
        print(f"  {table.table}: {rows}{where}")
    if None in state.content_digests:
        print("memory content not compared: a stored row cannot be read as content")
    elif state.content_tables:
        print(f"memory content differs in: {', '.join(state.content_tables)}")
    else:
        print(f"memory content the same (digest {state.content_digests[0]}): only its bookkeeping differs")
