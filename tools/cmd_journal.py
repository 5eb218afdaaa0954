"""``arvis journal ...``: inspect, audit and export a journal without changing it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING, Any

from tools import common, journal_ls, journal_stats
from tools.admin_key import add_admin_key_argument
from tools.argtypes import positive_seconds, seq_number
from tools.common import EXIT_OK, CommandError, add_db_argument, add_pair_arguments, existing_db, later
from tools.output import FORMATS, entry_to_json, print_entry, print_json, print_table

if TYPE_CHECKING:
    from journal.reader import JournalReader
    from kernel.abi import JournalEntry


def _add_format(
    parser: argparse.ArgumentParser, default: str = "table", choices: tuple[str, ...] = FORMATS
) -> None:
    parser.add_argument("-o", "--output", choices=choices, default=default)


def _add_at(parser: argparse.ArgumentParser, summary: str = "right after this entry", first: int = 1) -> None:
    """``--at SEQ``, kept as typed: ``_with_reader`` checks it against the journal's head (``_at``)."""
    parser.add_argument("--at", metavar="SEQ", help=f"{summary} (default: the head)")
    parser.set_defaults(at_first=first)


def _at(reader: JournalReader, text: str, first: int) -> int:
    """``--at``'s seq, ``first`` to the head; past it, 0 or not a number: one error naming the head."""
    last, digits = reader.head(), text.strip()
    head = f"the journal's head ({f'seq {last.seq}' if last else 'none: the journal is empty'})"
    seq = (int(digits) if len(digits.lstrip("0")) < 20 else 2**63) if digits.isdecimal() else -1
    if seq == 0 and first:
        raise CommandError(f"--at 0 is before the first entry: seqs start at 1, up to {head}")
    if seq < first:
        raise CommandError(f"--at {text!r} is not a seq: --at takes a whole number from {first} to {head}")
    if seq > (last.seq if last else 0):
        raise CommandError(f"--at {digits} is past {head}")
    return seq


_Commands = argparse._SubParsersAction  # the ``journal`` sub-command table


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("journal", help="inspect, verify and export a journal")
    commands = parser.add_subparsers(dest="command", required=True)
    for group in (_register_reading, _register_chain, _register_tree, _register_state, _register_forensics):
        group(commands)


def _register_reading(commands: _Commands[argparse.ArgumentParser]) -> None:
    """``ls``, ``tail``, ``show``: entries as they are."""

    ls = commands.add_parser("ls", help="list entries, filtered like journalctl")
    add_db_argument(ls)
    ls.add_argument("-n", "--lines", type=int, metavar="N", help="only the last N matching entries")
    ls.add_argument("-r", "--reverse", action="store_true", help="newest first")
    journal_ls.add_filters(ls)
    _add_format(ls)
    ls.set_defaults(run=_with_reader(journal_ls.run_ls))

    tail = commands.add_parser("tail", help="the last entries; -f follows new ones")
    add_db_argument(tail)
    tail.add_argument("-n", "--lines", type=int, default=10, metavar="N")
    tail.add_argument(
        "-f", "--follow", action="store_true", help="keep printing entries as they are appended"
    )
    tail.add_argument(
        "--interval", type=positive_seconds, default=0.5, help="seconds between polls when following"
    )
    tail.add_argument(
        "--idle-exit",
        type=positive_seconds,
        metavar="S",
        help="stop following after S seconds with nothing new",
    )
    _add_format(tail, choices=("table", "json", "jsonl"))  # json: a whole array, so not with -f
    tail.set_defaults(run=_with_reader(journal_ls.run_tail))

    show = commands.add_parser("show", help="one entry, whole")
    add_db_argument(show)
    show.add_argument("seq", type=seq_number)
    show.add_argument(
        "--expand",
        action="store_true",
        help="add result_expanded: the whole result, each piece a read journaled by reference put back",
    )
    _add_format(show, default="json")
    show.set_defaults(run=_with_reader(_run_show))


def _register_chain(commands: _Commands[argparse.ArgumentParser]) -> None:
    """``verify``, ``checkpoint``: the chain and its replay, and the head to keep."""
    verify = commands.add_parser(
        "verify", help="check the chain and replay every entry byte for byte, of each journal given"
    )
    add_db_argument(verify, several=True)
    verify.add_argument("--chain-only", action="store_true", help="only the hash chain (fast), no replay")
    verify.add_argument(
        "--checkpoint",
        action="append",
        metavar="SEQ:HASH|FILE",
        help="fail unless each journal still extends it (a FILE: a signed checkpoint); repeatable",
    )
    verify.add_argument(
        "--key", action="append", metavar="PUB", help="verifier key of signed checkpoints (KEYFILE.pub)"
    )
    _add_format(verify)
    verify.set_defaults(run=lambda options: later("journal_audit", "run_verify")(options, _open))

    checkpoint = commands.add_parser(
        "checkpoint", help="print SEQ:HASH of the head, or --sign the tree: a checkpoint to keep"
    )
    add_db_argument(checkpoint)
    checkpoint.add_argument("--sign", metavar="KEY", help="sign the tree's root with this private key file")
    checkpoint.add_argument(
        "--out", metavar="FILE", help="with --sign: write the note to FILE (and FILE.tree), not stdout"
    )
    checkpoint.add_argument("--force", action="store_true", help="replace an existing FILE")
    _add_format(checkpoint)
    checkpoint.set_defaults(run=_with_reader(_run_checkpoint))


def _register_tree(commands: _Commands[argparse.ArgumentParser]) -> None:
    """``root``, ``prove``, ``consistency``, ``keygen``: the Merkle tree and its proofs."""
    root = commands.add_parser("root", help="the Merkle tree root (RFC 9162) of the first entries")
    add_db_argument(root)
    _add_at(root, "the tree of entries 1..SEQ, 0: the empty one", first=0)
    _add_format(root)
    root.set_defaults(run=_with_reader(later("journal_proofs", "run_root")))

    prove = commands.add_parser("prove", help="an inclusion proof of one entry in the tree")
    add_db_argument(prove)
    prove.add_argument("seq", type=seq_number, metavar="SEQ")
    prove.add_argument("--size", type=seq_number, metavar="N", help="in the tree of N entries (default: all)")
    _add_format(prove, default="json")
    prove.set_defaults(run=_with_reader(later("journal_proofs", "run_prove")))

    consistency = commands.add_parser(
        "consistency", help="a consistency proof: the tree of OLD_SIZE entries is a prefix of the tree"
    )
    add_db_argument(consistency)
    consistency.add_argument("old_size", type=seq_number, metavar="OLD_SIZE")
    consistency.add_argument("--size", type=seq_number, metavar="N", help="the later tree (default: all)")
    _add_format(consistency, default="json")
    consistency.set_defaults(run=_with_reader(later("journal_proofs", "run_consistency")))

    keygen = commands.add_parser("keygen", help="a new Ed25519 key for signing checkpoints")
    keygen.add_argument("--name", required=True, help="the key's name, e.g. example.com/arvis-audit")
    keygen.add_argument(
        "--out", dest="keyfile", required=True, metavar="KEYFILE", help="the private key's file (and .pub)"
    )
    keygen.add_argument("--force", action="store_true", help="replace an existing KEYFILE")
    _add_format(keygen, choices=("table", "json"))
    keygen.set_defaults(run=later("journal_proofs", "run_keygen"))


def _register_state(commands: _Commands[argparse.ArgumentParser]) -> None:
    """``snapshot``, ``state``, ``stats``, ``export``: the state as of a seq, and the journal whole."""
    snapshot = commands.add_parser("snapshot", help="a user's snapshot as of any seq (time travel)")
    add_db_argument(snapshot)
    snapshot.add_argument("--user", required=True)
    _add_at(snapshot)
    _add_format(snapshot, default="json", choices=("json", "jsonl"))
    snapshot.set_defaults(run=_with_reader(later("journal_audit", "run_snapshot")))

    state = commands.add_parser("state", help="the state digest and contents as of any seq")
    add_db_argument(state)
    _add_at(state)
    _add_format(state)
    state.set_defaults(run=_with_reader(later("journal_audit", "run_state")))

    stats = commands.add_parser("stats", help="counts per syscall and status, times, size, head")
    add_db_argument(stats)
    _add_format(stats)
    stats.set_defaults(run=_with_reader(journal_stats.run_stats))

    export = commands.add_parser("export", help="every entry as a JSON line, canonical bytes exact")
    add_db_argument(export)
    _add_format(export, default="jsonl", choices=("jsonl", "json"))  # json: one array, streamed too
    export.set_defaults(run=_with_reader(journal_stats.run_export))


def _register_forensics(commands: _Commands[argparse.ArgumentParser]) -> None:
    """``trace``, ``rollback``, ``diff``: who did what, its undoing, and two journals compared."""
    trace = commands.add_parser(
        "trace", help="what a principal, source or unit put into memory, what it displaced, where it was used"
    )
    add_db_argument(trace)
    common.add_renamed_principal(trace, "--subject", "every call P made")
    trace.add_argument("--source", metavar="S", help="every write, seed or proposal with source S")
    trace.add_argument("--unit", metavar="ID", help="the call that created unit ID")
    _add_format(trace)
    trace.set_defaults(run=_with_reader(later("journal_forensics", "run_trace")))

    rollback = commands.add_parser(
        "rollback", help="undo a principal's calls by compensating calls; compare with a replay without them"
    )
    add_db_argument(rollback)
    common.add_renamed_principal(rollback, "--subject", "the principal whose calls to undo (required)")
    common.add_caller_argument(
        rollback,
        "the operator who makes the calls (needs the admin key)",
        synonym=False,
        required=True,
        metavar="operator:NAME",
    )
    add_admin_key_argument(rollback)
    _add_format(rollback)
    rollback.set_defaults(run=later("journal_forensics", "run_rollback"))

    diff = commands.add_parser(
        "diff", help="where two journals differ: the first entry, then the first state row"
    )
    add_pair_arguments(diff, "other", ("DB1", "DB2"))
    _add_format(diff)
    diff.set_defaults(run=_run_diff)


def _run_checkpoint(reader: JournalReader, options: argparse.Namespace) -> int:
    """``--sign``: a signed checkpoint note (to ``--out FILE`` or stdout); else the head's position."""
    if options.sign is not None:
        return later("journal_proofs", "run_signed_checkpoint")(reader, options)
    if options.out is not None:
        raise CommandError("--out writes a signed checkpoint", hint="add --sign KEY")
    return later("journal_audit", "run_checkpoint")(reader, options)


def _open(target: str | None) -> JournalReader:
    from journal.reader import JournalReader

    path = existing_db(target)
    reader = JournalReader.open(path)
    if reader.header() is None:
        reader.close()
        raise CommandError(f"{path} holds no arvis journal", hint="is this the right file?")
    return reader


def _with_reader(command: journal_ls.Command) -> Callable[[argparse.Namespace], int]:
    def run(options: argparse.Namespace) -> int:
        with closing(_open(options.db)) as reader:
            if getattr(options, "at", None) is not None:
                options.at = _at(reader, options.at, options.at_first)
            return command(reader, options)

    return run


def _run_show(reader: JournalReader, options: argparse.Namespace) -> int:
    entry = reader.get(options.seq)
    if entry is None:
        raise CommandError(f"no entry with seq {options.seq}")
    expanded = {"result_expanded": _expanded_result(reader, entry)} if options.expand else {}
    if options.output == "table":
        print_table(f"entry {entry.seq}", ("field", "value"), (entry_to_json(entry) | expanded).items())
    elif expanded:
        print_json(entry_to_json(entry) | expanded, lines=options.output == "jsonl")
    else:
        print_entry(entry, lines=options.output == "jsonl")
    return EXIT_OK


def _expanded_result(reader: JournalReader, entry: JournalEntry) -> Any:
    """The entry's whole result: each piece its journaled result references read back from the blob
    store and checked against its key (``tools.audit.pieces``)."""
    from arvis.canonical import decode
    from tools.audit.pieces import expanded_result

    try:
        return decode(expanded_result(reader.engine, entry))
    except LookupError as exc:
        raise CommandError(
            f"entry {entry.seq}: {exc}", hint="`arvis journal verify` checks every piece"
        ) from None
    except ValueError:
        raise CommandError(f"entry {entry.seq}: its result is not canonical JSON") from None


def _run_diff(options: argparse.Namespace) -> int:
    from tools import journal_audit

    if options.other is None:
        raise CommandError("journal diff compares two journals", hint="--db DB1 --other DB2")
    with closing(_open(options.db)) as first, closing(_open(options.other)) as second:
        return journal_audit.run_diff(first, second, options)
