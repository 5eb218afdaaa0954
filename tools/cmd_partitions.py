"""``arvis partitions create|verify|heads|checkpoint|route``: partitioned journals (``specs/scale-out.md``).

Exit codes as the other audit commands: 0 done or verified, 1 not verified, 2 usage or I/O (a manifest
that cannot be read, a database that is missing when creating or recording).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from tools.common import EXIT_FAILED, EXIT_OK, CommandError

if TYPE_CHECKING:
    from journal.partition_verify import PartitionedReport
    from journal.reader import JournalReader
    from journal.replay import Checkpoint, ReplayReport

__all__ = ["register"]

LOCATION_HELP = "the set's directory (SQLite: partitions.json inside) or its manifest file (*.json)"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("partitions", help="create, verify and checkpoint a partitioned journal")
    commands = parser.add_subparsers(dest="command", required=True)

    create = commands.add_parser("create", help="create a journal split into partitions, and its global log")
    create.add_argument("location", metavar="LOCATION", help=LOCATION_HELP)
    create.add_argument("-P", "--partitions", type=int, required=True, metavar="N", help="how many (1-1024)")
    create.add_argument(
        "--partition-key",
        choices=("hash", "tenant"),
        default="hash",
        help="hash: SHA-256 of the subject; tenant: of its text before the first ':' or '/' (default hash)",
    )
    create.add_argument("--set-id", help="the set's id (default: derived from the time and the location)")
    create.add_argument(
        "--db",
        action="append",
        metavar="DB",
        help="partition k's database, repeated once per partition in order (default: LOCATION/p<k>.db)",
    )
    create.add_argument("--global-db", metavar="DB", help="the global log's database (default: global.db)")
    create.add_argument(
        "--admin-key",
        metavar="FILE",
        help="the admin key file bound to every partition (written, 0600, when it does not exist); without "
        "it the set has no administrator",
    )
    create.add_argument("-o", "--output", choices=("table", "json"), default="table")
    create.set_defaults(run=run_create)

    verify = commands.add_parser(
        "verify", help="verify the global log and every partition: chains, replay, recorded heads, routing"
    )
    verify.add_argument("location", metavar="LOCATION", help=LOCATION_HELP)
    verify.add_argument("--chain-only", action="store_true", help="only the hash chains (fast), no replay")
    verify.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="partitions verified at once")
    verify.add_argument(
        "--checkpoint",
        action="append",
        metavar="SEQ:HASH|FILE",
        help="of the global log: fail unless it still extends it (FILE: a signed checkpoint); repeatable",
    )
    verify.add_argument("--key", action="append", metavar="PUB", help="verifier key of a signed checkpoint")
    verify.add_argument("-o", "--output", choices=("table", "json"), default="table")
    verify.set_defaults(run=run_verify)

    heads = commands.add_parser("heads", help="every partition's head now, and the last one recorded")
    heads.add_argument("location", metavar="LOCATION", help=LOCATION_HELP)
    heads.add_argument("-o", "--output", choices=("table", "json"), default="table")
    heads.set_defaults(run=run_heads)

    checkpoint = commands.add_parser(
        "checkpoint", help="record every partition's head in the global log now (then sign the global log)"
    )
    checkpoint.add_argument("location", metavar="LOCATION", help=LOCATION_HELP)
    checkpoint.add_argument("-o", "--output", choices=("table", "json"), default="table")
    checkpoint.set_defaults(run=run_checkpoint)

    where = commands.add_parser("route", help="the partition(s) a call goes to")
    where.add_argument("location", metavar="LOCATION", help=LOCATION_HELP)
    where.add_argument("syscall", metavar="SYSCALL")
    where.add_argument("--args", default="{}", metavar="JSON", help="the call's arguments (default {})")
    where.add_argument("-o", "--output", choices=("table", "json"), default="table")
    where.set_defaults(run=run_route)


def _manifest(location: str) -> Any:
    from journal.partition_manifest import ManifestError, read_manifest

    try:
        return read_manifest(location)
    except ManifestError as exc:
        raise CommandError(str(exc), hint="give the set's directory or its manifest file") from None


def run_create(options: argparse.Namespace) -> int:
    from journal.partition_manifest import ManifestError
    from kernel.partition_routing import PartitionKey
    from kernel.partitioned_boot import create_partitioned
    from tools.common import checked_db

    for target in [*(options.db or ()), *([options.global_db] if options.global_db else [])]:
        checked_db(target)
    admin_key = None
    if options.admin_key is not None:
        from pathlib import Path

        from tools.admin_key import create_key_or_fail, load_key

        path = Path(options.admin_key)
        if not path.exists():
            create_key_or_fail(path)
        admin_key = load_key(path, keygen=f"arvis partitions create --admin-key {options.admin_key}")
    try:
        manifest = create_partitioned(
            options.location,
            partitions=options.partitions,
            key=PartitionKey(options.partition_key),
            set_id=options.set_id,
            databases=options.db,
            global_database=options.global_db,
            admin_key=admin_key,
        )
    except ManifestError as exc:
        raise CommandError(
            str(exc), hint="a partitioned journal is created once, on empty databases"
        ) from None
    if options.output == "json":
        from tools.output import print_json

        print_json({"manifest": str(manifest.path), **manifest.to_json()})
        return EXIT_OK
    print(
        f"created {manifest.count} partitions (key {manifest.key.value}) of set {manifest.set_id}; "
        f"manifest {manifest.path} ({manifest.manifest_hash})"
    )
    return EXIT_OK


def _global_checks(
    given: list[str] | None, keys: list[str] | None
) -> tuple[list[Checkpoint], Any, list[Any]]:
    """``--checkpoint`` values: signed notes (existing files, with ``--key``) and ``SEQ:HASH``."""
    from pathlib import Path

    from tools import argtypes

    texts = list(given or ())
    files = [text for text in texts if Path(text).is_file()]
    if files and not keys:
        raise CommandError("a signed checkpoint needs the key that signed it", hint="add --key KEYFILE.pub")
    if keys and not files:
        raise CommandError("--key verifies a signed checkpoint", hint="add --checkpoint FILE")
    plain: list[Checkpoint] = []
    for text in texts:
        if text in files:
            continue
        try:
            plain.append(argtypes.checkpoint(text))
        except argparse.ArgumentTypeError as exc:
            raise CommandError(str(exc), hint="pass SEQ:HASH, or a FILE of a signed checkpoint") from None
    if not files:
        return plain, None, []
    from tools import journal_proofs

    verifiers = journal_proofs.load_keys(list(keys or ()))
    return plain, journal_proofs, [journal_proofs.load_signed_checkpoint(text, verifiers) for text in files]


def run_verify(options: argparse.Namespace) -> int:
    from journal.partition_verify import verify_partitioned
    from syscalls.table import SYSCALL_TABLE

    if options.jobs < 1:
        raise CommandError("--jobs is at least 1")
    _manifest(options.location)  # a missing or damaged manifest: exit 2 before anything is read
    plain, proofs, signed = _global_checks(options.checkpoint, options.key)

    def precheck(reader: JournalReader) -> ReplayReport | None:
        if not signed:
            return None
        report: ReplayReport | None = proofs.signed_report(reader, signed)
        return report

    report = verify_partitioned(
        options.location,
        table=SYSCALL_TABLE,
        replay=not options.chain_only,
        jobs=options.jobs,
        global_checkpoints=plain,
        global_precheck=precheck,
    )
    if options.output == "json":
        from tools.output import position, print_json

        answer = report.to_json()
        for journal in answer["journals"]:  # each head also as a position (specs/cli.md)
            journal["position"] = position(journal["head_seq"], journal["head_hash"])
        print_json(answer)
    else:
        _print_report(report)
    return EXIT_OK if report.verified else EXIT_FAILED


def _print_report(report: PartitionedReport) -> None:
    from tools.output import shown

    for part in report.parts:
        recorded = (
            "" if part.recorded_seq is None else f", head recorded in the global log: {part.recorded_seq}"
        )
        if part.verified:
            what = "replayed" if part.replayed else "chain only"
            print(f"{part.name}: verified: {part.entries} entries ({what}), head {part.head_seq}{recorded}")
        else:
            print(f"{part.name}: NOT verified: seq {part.first_bad_seq}: {shown(part.reason or '')}")
    for problem in report.problems:
        print(f"across partitions: {problem}")
    if report.verified:
        print(
            f"verified: {report.count} partitions and the global log (heads recorded {report.heads_records} "
            f"times), manifest {report.manifest_hash}"
        )
        return
    bad = report.first_bad
    where = f"{bad.name} at seq {bad.first_bad_seq}" if bad is not None else "across partitions"
    print(f"NOT verified: first bad: {where}")


def run_heads(options: argparse.Namespace) -> int:
    from contextlib import ExitStack, closing

    from journal.partition_log import read_global_log
    from journal.reader import JournalReader
    from tools.output import position

    manifest = _manifest(options.location)
    with ExitStack() as stack:
        log_reader = stack.enter_context(closing(JournalReader.open(manifest.global_database())))
        log = read_global_log(log_reader.entries(), manifest.count)
        rows = []
        for index in range(manifest.count):
            reader = stack.enter_context(closing(JournalReader.open(manifest.database(index))))
            head = reader.head()
            recorded = log.heads[-1].heads[index] if log.heads else None
            rows.append(
                {
                    "partition": index,
                    "journal_id": manifest.partition_ids[index],
                    "head_seq": 0 if head is None else head.seq,
                    "head_hash": None if head is None else head.entry_hash,
                    "recorded_seq": None if recorded is None else recorded[0],
                    "recorded_hash": None if recorded is None else recorded[1],
                    "position": None if head is None else position(head.seq, head.entry_hash),
                    "recorded_position": None if recorded is None else position(*recorded),
                }
            )
    recorded_at = log.heads[-1].seq if log.heads else None
    if options.output == "json":
        from tools.output import print_json

        print_json({"set_id": manifest.set_id, "recorded_in_global_seq": recorded_at, "partitions": rows})
        return EXIT_OK
    for row in rows:
        now = f"{row['head_seq']}:{row['head_hash']}" if row["head_hash"] else "0 (empty)"
        print(f"p{row['partition']}: head {now}; recorded {row['recorded_seq']}")
    print(f"last record of the heads: global log seq {recorded_at}")
    return EXIT_OK


def run_checkpoint(options: argparse.Namespace) -> int:
    from kernel.partitioned_boot import record_heads

    manifest = _manifest(options.location)
    record = record_heads(options.location)
    if options.output == "json":
        from tools.output import print_json

        print_json(
            {
                "global_seq": record.global_seq,
                "global_hash": record.global_hash,
                "checkpoint": f"{record.global_seq}:{record.global_hash}",
                "heads": [list(head) for head in record.heads],
            }
        )
        return EXIT_OK
    print(f"{record.global_seq}:{record.global_hash}")
    print(
        f"sign it with: arvis journal checkpoint --db {manifest.global_database()} --sign KEY --out cp.note",
        flush=True,
    )
    return EXIT_OK


def run_route(options: argparse.Namespace) -> int:
    import json

    from kernel.arguments import MAX_NAME_LENGTH, record_args, record_text
    from kernel.partition_routing import route

    manifest = _manifest(options.location)
    try:
        args = json.loads(options.args)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--args is not JSON: {exc}") from None
    found = route(
        record_text(options.syscall, MAX_NAME_LENGTH), record_args(args), manifest.count, manifest.key
    )
    answer = {
        "partitions": list(found.partitions),
        "bound": found.bound,
        "merge": found.merge.value,
        "refused": found.refused or None,
    }
    if options.output == "json":
        from tools.output import print_json

        print_json(answer)
        return EXIT_OK
    if found.refused:
        print(f"refused by the router: {found.refused}")
    else:
        kind = "its subject's" if found.bound else "no subject: any partition may hold it;"
        print(f"partition {' and '.join(map(str, found.partitions))} ({kind} merge {found.merge.value})")
    return EXIT_OK
