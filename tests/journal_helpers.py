"""Builders, tamper tools and hypothesis strategies shared by the replay, audit and CLI tests.

Used only by test_replay.py, test_replay_kernel.py, test_timetravel.py, test_migrations.py and
test_cli.py. Every helper closes what it opens (pytest runs with ``filterwarnings = error``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from arvis.changes import Decision
from arvis.memory.memory_long_entry import MemoryLongEntry, MemoryLongType
from arvis.memory.memory_service import insert_entry
from journal.engine import open_engine
from journal.entry import Pos, compute_entry_hash
from journal.reader import JournalReader
from journal.sql import SqlRunner
from journal.store import ManualClock, SqlJournalStore
from journal.transaction import SqlMemoryReader
from kernel.abi import CallContext, Handler, Service, Support, SyscallResult, SyscallSpec, SyscallTable
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE
from tools import argtypes
from tools.audit.replay import ReplayReport, verify_journal

try:
    from tests.strategies import VOUCHED
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    from strategies import VOUCHED

ARVIS_BIN = Path(sys.executable).with_name("arvis")
"""The installed ``arvis`` script next to the interpreter running the tests (``.venv/bin/arvis``)."""

T0 = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=1)
JOURNAL_ID = "j-test"
USER = "u1"
PRINCIPAL = "user:u1"
AGENT = "agent:planner"
SERVICE = "service:onboarding"
OPERATOR = "operator:test"

WRITE: dict[str, Any] = {
    "user_id": USER,
    "key": "language",
    "memory_type": "preference",
    "source": "explicit_user",
}

Call = tuple[object, object, object]
"""(syscall name, args, principal) exactly as passed to ``Kernel.call``."""

SETUP_CALLS: list[Call] = [
    ("access.grant", {"principal": AGENT, "capability": "read", "scope": f"user:{USER}"}, OPERATOR),  # 1 ok
    (
        "access.grant",
        {"principal": SERVICE, "capability": "write", "scope": f"user:{USER}"},
        OPERATOR,
    ),  # 2 ok
]
"""An administrator lets the agent read and the onboarding service write the user's memory."""

# A journal that exercises every path: grants, writes, supersession, revocation, reads, every kind of
# refusal. Tests name its entries by the SEQ_* constants below, computed from the list.
STANDARD_CALLS: list[Call] = [
    *SETUP_CALLS,
    ("memory.write", WRITE, PRINCIPAL),  # 3 ok
    ("memory.write", {**WRITE, "key": "timezone", "source": "onboarding"}, SERVICE),  # 4 ok
    ("memory.get", {"user_id": USER, "key": "language"}, AGENT),  # 5 ok (read)
    ("memory.write", WRITE, PRINCIPAL),  # 6 memory_conflict
    ("memory.write", {**WRITE, "replace": True, "value_ref": "ref-2"}, PRINCIPAL),  # 7 ok
    ("memory.write", {**WRITE, "key": "no_ads", "source": "governance"}, PRINCIPAL),  # 8 policy denied
    ("memory.snapshot", {"user_id": USER}, AGENT),  # 9 ok (read)
    ("memory.revoke", {"user_id": USER, "key": "timezone"}, PRINCIPAL),  # 10 ok
    ("memory.get", {"user_id": USER, "key": "timezone"}, AGENT),  # 11 memory_entry_revoked
    ("memory.list", {"user_id": USER, "include_inactive": True}, AGENT),  # 12 ok (read)
    ("memory.unknown", {}, AGENT),  # 13 unknown_syscall
    ("memory.list", {"user_id": USER, "extra": "é"}, AGENT),  # 14 invalid_args
    ("memory.list", {"user_id": USER}, ""),  # 15 invalid_principal
    ("memory.revoke", {"user_id": USER, "key": "language"}, AGENT),  # 16 access denied: read only
    ("memory.snapshot", {"user_id": USER}, AGENT),  # 17 ok (read)
]
STANDARD_STATUSES = [
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "memory_conflict",
    "ok",
    "memory_policy_denied",
    "ok",
    "ok",
    "memory_entry_revoked",
    "ok",
    "unknown_syscall",
    "invalid_args",
    "invalid_principal",
    "memory_policy_denied",
    "ok",
]
MUTATING_SYSCALLS = frozenset({"memory.write", "memory.revoke", "access.grant", "access.revoke"})


def standard_seqs(predicate: Callable[[Call, str], bool]) -> list[int]:
    """The seqs of the standard journal whose (call, status) satisfy ``predicate``."""
    pairs = zip(STANDARD_CALLS, STANDARD_STATUSES, strict=True)
    return [seq for seq, (call, status) in enumerate(pairs, start=1) if predicate(call, status)]


def _first(predicate: Callable[[Call, str], bool]) -> int:
    return standard_seqs(predicate)[0]


MUTATING_OK_SEQS = frozenset(standard_seqs(lambda c, s: s == "ok" and c[0] in MUTATING_SYSCALLS))
"""Seqs of STANDARD_CALLS that changed the state (the grants included: they are state)."""
SEQ_FIRST_WRITE = _first(lambda c, s: c[0] == "memory.write" and s == "ok")
SEQ_AGENT_GET = _first(lambda c, s: c[0] == "memory.get" and c[2] == AGENT and s == "ok")
SEQ_CONFLICT = _first(lambda c, s: s == "memory_conflict")
SEQ_REPLACE = _first(lambda c, s: isinstance(c[1], dict) and c[1].get("replace") is True and s == "ok")
SEQ_AGENT_SNAPSHOT = _first(lambda c, s: c[0] == "memory.snapshot" and c[2] == AGENT)
SEQ_REVOKE = _first(lambda c, s: c[0] == "memory.revoke" and s == "ok")
SEQ_EMPTY_PRINCIPAL = _first(lambda c, s: s == "invalid_principal")
SEQ_ACCESS_DENIED = _first(lambda c, s: c[2] == AGENT and s == "memory_policy_denied")

JOURNAL_COLUMNS = (
    "recorded_at",
    "syscall",
    "principal",
    "args",
    "status",
    "result",
    "effects_hash",
    "prev_hash",
    "entry_hash",
)
BLOB_COLUMNS = frozenset({"args", "result"})


# --- building journals ---------------------------------------------------------------------------


def make_clock(start: datetime = T0, step: timedelta = STEP) -> ManualClock:
    return ManualClock(start, step=step)


def run_calls(kernel: Any, calls: Sequence[Call]) -> list[SyscallResult]:
    return [kernel.call(name, args, principal=principal) for name, args, principal in calls]


def build_journal(
    path: Path,
    calls: Sequence[Call] = STANDARD_CALLS,
    *,
    clock: ManualClock | None = None,
    journal_id: str = JOURNAL_ID,
    admin_key: bytes | None = None,
) -> list[SyscallResult]:
    """Create (or extend) the journal at ``path`` with ``calls`` (a new one records the verifier of
    ``admin_key``); returns their results."""
    kernel = open_kernel(
        str(path),
        clock=clock or make_clock(),
        journal_id=journal_id,
        identity=VOUCHED,
        admin_key=admin_key,
        create=True,
    )
    try:
        return run_calls(kernel, calls)
    finally:
        kernel.close()


def write_at_revision(
    target: str,
    revision: str,
    calls: Sequence[Call],
    *,
    clock: ManualClock | None = None,
    journal_id: str = JOURNAL_ID,
) -> list[SyscallResult]:
    """A journal of ``calls`` in the database ``target`` at schema ``revision``, as a release of that
    revision left it: written at head in a scratch database, then its rows copied, the columns the old
    tables have, into ``target`` migrated to ``revision`` alone (a store opened on a database upgrades
    it first, and the migrations cannot all be undone). The calls must touch no table newer than it."""
    from sqlalchemy import MetaData, select

    from journal.migrate import upgrade_to_head

    with tempfile.TemporaryDirectory() as scratch:
        written = open_engine(str(Path(scratch) / "head.db"))
        clock = clock or make_clock()
        store = SqlJournalStore(written, clock=clock, journal_id=journal_id)
        kernel = Kernel(table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock)
        try:
            results = run_calls(kernel, calls)
        finally:
            kernel.close()
        old = open_engine(target)
        upgrade_to_head(old, target=revision)
        new_tables, old_tables = MetaData(), MetaData()
        new_tables.reflect(written)
        old_tables.reflect(old)
        with written.connect() as source, old.begin() as copy:
            for name, table in old_tables.tables.items():
                if name == "alembic_version" or name not in new_tables.tables:  # dropped since
                    continue
                stored = new_tables.tables[name]
                columns = [stored.c[column.name] for column in table.columns]
                rows = [dict(row._mapping) for row in source.execute(select(*columns))]
                if rows:
                    copy.execute(table.insert(), rows)
        old.dispose()
        written.dispose()
    return results


def copy_db(source: Path, target: Path) -> Path:
    """Copy a closed journal (its WAL files too, should any remain)."""
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return target


@contextlib.contextmanager
def memory_reader(store: Any) -> Iterator[SqlMemoryReader]:
    """The memory repository over a store's rows, outside any syscall (its transaction rolled back): what
    the store's ``read_only`` gave while time travel read a scratch store so."""
    with store.engine.connect() as connection, connection.begin() as transaction:
        sql = SqlRunner(connection)
        sql.attach()
        try:
            yield SqlMemoryReader(sql)
        finally:
            sql.close()
            transaction.rollback()


@contextlib.contextmanager
def reader_of(path: Path) -> Iterator[JournalReader]:
    reader = JournalReader.open(str(path))
    try:
        yield reader
    finally:
        reader.close()


def verify(
    path: Path,
    *,
    table: SyscallTable = SYSCALL_TABLE,
    replay: bool = True,
    checkpoint: Pos | str | None = None,
) -> ReplayReport:
    if isinstance(checkpoint, str):
        checkpoint = argtypes.checkpoint(checkpoint)
    with reader_of(path) as reader:
        return verify_journal(reader, table=table, replay=replay, checkpoint=checkpoint)


def head_checkpoint(path: Path) -> Pos:
    with reader_of(path) as reader:
        head = reader.head()
    assert head is not None
    return head.pos


# --- a table with a test syscall -----------------------------------------------------------------


class CounterArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    label: str = ""


_COUNTER = {"n": 0}


def _next_count() -> int:
    _COUNTER["n"] += 1
    return _COUNTER["n"]


def counter_handler(ctx: CallContext, args: CounterArgs) -> dict[str, Any]:
    """Nondeterministic on purpose: every run (live or replay) sees a new value."""
    return {"label": args.label, "n": _next_count()}


def constant_handler(ctx: CallContext, args: CounterArgs) -> dict[str, Any]:
    """The deterministic twin of ``counter_handler`` (a control for the custom table)."""
    return {"label": args.label, "n": 0}


def hidden_effect_handler(ctx: CallContext, args: CounterArgs) -> Decision:
    """Returns a constant result but writes a row that differs on every run."""
    entry = MemoryLongEntry(
        memory_type=MemoryLongType.CONTEXT,
        key=f"hidden-{args.label}",
        created_at=ctx.now,
        source="explicit_user",
        value_ref=f"run-{_next_count()}",
    )
    current = ctx.read.memory.current(user_id=USER, key=entry.key)
    version = 1 if current is None else current.version + 1
    return Decision({"label": args.label}, (insert_entry(USER, entry, version=version, seq=ctx.seq),))


def _test_spec(name: str, handler: Handler, *, mutates: bool, summary: str) -> SyscallSpec:
    return SyscallSpec(
        name=name,
        request_type=CounterArgs,
        handler=handler,
        mutates=mutates,
        service=Service.MEMORY,
        support=Support.EXTENSION,
        summary=summary,
    )


TEST_TABLE = SyscallTable(
    [
        *(
            SYSCALL_TABLE[name]
            for name in ("memory.list", "memory.get", "memory.snapshot", "memory.write", "memory.revoke")
        ),
        _test_spec("test.counter", counter_handler, mutates=False, summary="a nondeterministic read"),
        _test_spec("test.constant", constant_handler, mutates=False, summary="a deterministic read"),
        _test_spec("test.hidden", hidden_effect_handler, mutates=True, summary="nondeterministic effects"),
    ]
)


def build_custom_journal(path: Path, calls: Sequence[Call], table: SyscallTable = TEST_TABLE) -> None:
    clock = make_clock()
    store = SqlJournalStore(open_engine(str(path)), clock=clock, journal_id=JOURNAL_ID)
    kernel = Kernel(
        table=table,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    try:
        results = run_calls(kernel, calls)
    finally:
        kernel.close()
    assert all(result.seq is not None for result in results)


# --- editing the file behind the kernel's back ---------------------------------------------------


@contextlib.contextmanager
def raw_db(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection, committed and closed on exit."""
    connection = sqlite3.connect(str(path))
    try:
        yield connection
        connection.commit()
    finally:
        connection.close()


def drop_trigger(path: Path, name: str) -> None:
    with raw_db(path) as connection:
        connection.execute(f"DROP TRIGGER IF EXISTS {name}")


def read_cell(path: Path, seq: int, column: str) -> Any:
    with raw_db(path) as connection:
        row = connection.execute(f"SELECT {column} FROM journal WHERE seq = ?", (seq,)).fetchone()
    assert row is not None, f"no row {seq}"
    return row[0]


def write_cell(path: Path, seq: int, column: str, value: Any) -> None:
    drop_trigger(path, "journal_no_update")
    with raw_db(path) as connection:
        changed = connection.execute(f"UPDATE journal SET {column} = ? WHERE seq = ?", (value, seq)).rowcount
    assert changed == 1


def replace_char(text: str, position: int, replacement: str) -> str:
    index = position % len(text)
    assert text[index] != replacement
    return text[:index] + replacement + text[index + 1 :]


def flip_bit(data: bytes, position: int, bit: int = 0) -> bytes:
    index = position % len(data)
    changed = bytearray(data)
    changed[index] ^= 1 << (bit % 8)
    return bytes(changed)


def other_char(char: str) -> str:
    """A character that differs from ``char`` and keeps hex digits hex (so only the hash can tell)."""
    alphabet = "0123456789abcdef"
    if char in alphabet:
        return alphabet[(alphabet.index(char) + 1) % len(alphabet)]
    return "x" if char != "x" else "y"


def tamper_one(path: Path, seq: int, column: str, position: int, *, replacement: str | None = None) -> None:
    """Change one character (text columns) or one bit (blob columns) of one cell."""
    value = read_cell(path, seq, column)
    if column in BLOB_COLUMNS:
        assert isinstance(value, bytes)
        write_cell(path, seq, column, flip_bit(value, position, position // 7))
    else:
        assert isinstance(value, str)
        if not value:
            write_cell(path, seq, column, replacement or "x")
            return
        char = value[position % len(value)]
        write_cell(path, seq, column, replace_char(value, position, replacement or other_char(char)))


def rewrite_history(path: Path, seq: int, column: str, value: Any) -> None:
    """Change one cell and recompute the chain from there so that the chain itself verifies."""
    drop_trigger(path, "journal_no_update")
    with raw_db(path) as connection:
        connection.execute(f"UPDATE journal SET {column} = ? WHERE seq = ?", (value, seq))
        prev = (
            connection.execute("SELECT entry_hash FROM journal WHERE seq = ?", (seq - 1,)).fetchone()
            or connection.execute("SELECT genesis_hash FROM journal_header").fetchone()
        )
        prev_hash = prev[0]
        rows = connection.execute(
            "SELECT seq, recorded_at, syscall, principal, args, status, result, effects_hash "
            "FROM journal WHERE seq >= ? ORDER BY seq",
            (seq,),
        ).fetchall()
        for row_seq, recorded_at, syscall, principal, args, status, result, effects_hash in rows:
            entry_hash = compute_entry_hash(
                prev_hash=prev_hash,
                seq=row_seq,
                recorded_at=recorded_at,
                syscall=syscall,
                principal=principal,
                args=args,
                status=status,
                result=result,
                effects_hash=effects_hash,
            )
            connection.execute(
                "UPDATE journal SET prev_hash = ?, entry_hash = ? WHERE seq = ?",
                (prev_hash, entry_hash, row_seq),
            )
            prev_hash = entry_hash


def truncate_tail(path: Path, keep: int) -> None:
    """The entries after ``keep`` removed, with the rows they kept (as a forger who knows the format)."""
    drop_trigger(path, "journal_no_delete")
    with raw_db(path) as connection:
        connection.execute("DELETE FROM journal WHERE seq > ?", (keep,))
        connection.execute("DELETE FROM graph_history WHERE ended_seq > ?", (keep,))


# --- the command line ----------------------------------------------------------------------------


def cli(capsys: Any, *argv: object) -> tuple[int, str, str]:
    """Run ``arvis`` in-process; returns (exit code, stdout, stderr)."""
    from tools.cli import main

    capsys.readouterr()
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def arvis_subprocess(*argv: object, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ARVIS_BIN), *(str(arg) for arg in argv)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "ARVIS_DB": ""},
        check=False,
    )


def error_lines(stderr: str) -> list[str]:
    """The lines of an error report, the optional ``hint:`` line and deprecation notes left out."""
    return [
        line
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(("hint:", "arvis: note:"))
    ]


# --- hypothesis strategies -----------------------------------------------------------------------


def _mostly(valid: list[Any], invalid: list[Any]) -> st.SearchStrategy[Any]:
    """Valid values most of the time, an invalid one now and then."""
    return st.integers(0, 9).flatmap(lambda i: st.sampled_from(invalid if i == 0 else valid))


_KEYS = _mostly(["language", "timezone", "tone_style"], ["no_ads", "", " padded", "a\x00b", "k" * 129])
_USERS = _mostly(["u1", "u2"], ["", "bad\x01id"])
_TYPES = _mostly(["preference", "context", "rule", "style", "constraint"], ["mood"])
_SOURCES = _mostly(["explicit_user", "onboarding", "proposed"], ["governance", "inferred", ""])
_PRINCIPALS = _mostly(
    [PRINCIPAL, PRINCIPAL, "user:u2", AGENT, SERVICE, "operator:local"], ["", "bad\nprincipal", 7]
)
_EXPIRES = _mostly(
    [None, None, "2026-01-01T00:00:05Z", "2026-01-05T00:00:00+02:00"],  # the first expires a few calls in
    [
        "2025-12-31T00:00:00Z",  # in the past
        "2026-03-01T00:00:00Z",  # beyond the TTL limit
        "2026-01-02T00:00:00",  # naive
        "not a time",
    ],
)


@st.composite
def write_args(draw: Callable[..., Any]) -> dict[str, Any]:
    args: dict[str, Any] = {
        "user_id": draw(_USERS),
        "key": draw(_KEYS),
        "memory_type": draw(_TYPES),
        "source": draw(_SOURCES),
    }
    expires = draw(_EXPIRES)
    if expires is not None:
        args["expires_at"] = expires
    if draw(st.booleans()):
        args["replace"] = True
    if draw(st.integers(0, 4)) == 0:
        args["value_ref"] = draw(st.text(max_size=8))
    if draw(st.integers(0, 8)) == 0:
        args["notes"] = draw(st.sampled_from(["ttl_default", "free text"]))
    if draw(st.integers(0, 8)) == 0:
        args["governance"] = {"visibility": draw(st.sampled_from(["sealed", "usable", "nope"]))}
    return args


_ODD_ARGS = st.sampled_from(
    [
        None,
        [],
        [1, 2],
        7,
        "text",
        {"user_id": 2**70},
        {"user_id": "u1", "x": float("nan")},
        {"user_id": "u1", "unknown_field": 1},
        {1: "non-string key"},
    ]
)


@st.composite
def calls(draw: Callable[..., Any]) -> Call:
    """One call, valid or not, as a caller might make it."""
    kind = draw(
        st.sampled_from(
            ["write"] * 4 + ["get", "get", "revoke", "list", "snapshot", "odd", "access"] + ["awmu"] * 4
        )
    )
    principal = draw(_PRINCIPALS)
    user = draw(_USERS)
    if kind == "write":
        return ("memory.write", draw(write_args()), principal)
    if kind in ("get", "revoke"):
        return (f"memory.{kind}", {"user_id": user, "key": draw(_KEYS)}, principal)
    if kind == "list":
        return ("memory.list", {"user_id": user, "include_inactive": draw(st.booleans())}, principal)
    if kind == "snapshot":
        return ("memory.snapshot", {"user_id": user}, principal)
    if kind == "awmu":
        return draw(awmu_calls())
    if kind == "access":
        return draw(access_calls())
    name = draw(st.sampled_from(["memory.write", "memory.get", "memory.forget", "", None, "x" * 200]))
    return (name, draw(_ODD_ARGS), principal)


@st.composite
def access_calls(draw: Callable[..., Any]) -> Call:
    """One ``access.*`` call, by an administrator most of the time (the others are refused)."""
    by = draw(_mostly(["operator:local", "operator:local", "admin:root", AGENT, PRINCIPAL], ["", 7]))
    name = draw(st.sampled_from(["access.grant", "access.grant", "access.revoke", "access.list"]))
    if name == "access.list":
        return (name, draw(st.sampled_from([{}, {"principal": AGENT}, {"principal": SERVICE}])), by)
    args = {
        "principal": draw(_mostly([AGENT, SERVICE], ["", "bad\nprincipal"])),
        "capability": draw(_mostly(["read", "write", "revoke", "admin", "canonize"], ["everything"])),
        "scope": draw(_mostly(["u1", "u1", "u2", "*", "c1"], ["", "bad\x01scope"])),
    }
    return (name, args, by)


_CONTEXTS = _mostly(["c1", "c1", "c1", "c2"], ["", "bad\x02ctx"])
_UNIT_IDS = st.sampled_from(["u2-0", "u3-0", "u4-0", "u5-0", "u6-0", "nope"])
_REVIEW_IDS = st.sampled_from(["r2", "r3", "r4", "r5", "nope"])
_TEXTS = st.sampled_from(
    [
        "The user lives in Paris",
        "The user lives in Berlin",
        "The user does not live in Paris",
        "Never share the user's data",
        "The user prefers tea",
    ]
)


_AWMU_KINDS = (
    *("create", "create", "propose", "propose", "propose", "seed", "turn", "turn", "pin", "unpin"),
    *("archive", "canonize", "review", "list", "get", "assemble", "events", "pressure", "summary"),
)


@st.composite
def awmu_calls(draw: Callable[..., Any]) -> Call:
    """One working-memory call (``memory.awmu.*``), valid most of the time."""
    context = draw(_CONTEXTS)
    principal = draw(_mostly([AGENT, "operator:local"], ["", "bad\nprincipal"]))
    kind = draw(st.sampled_from(_AWMU_KINDS))
    args: dict[str, Any] = {"context_id": context}
    if kind == "propose":
        args |= {
            "text": draw(_TEXTS),
            "source": draw(st.sampled_from(["user", "system", "dm", "player"])),
            "confidence": draw(st.sampled_from([0.0, 0.3, 0.65, 0.9, 1.0, 1.5])),
        }
        if draw(st.integers(0, 3)) == 0:
            args["verdicts"] = [
                {
                    "unit_id": draw(_UNIT_IDS),
                    "type": draw(st.sampled_from(["CONTRADICTION", "REVISION", "WORLD_PROGRESSION", "nope"])),
                    "confidence": draw(st.sampled_from([0.2, 0.8, 0.95])),
                }
            ]
    elif kind == "seed":
        args |= {
            "text": draw(_TEXTS),
            "authority": draw(st.sampled_from(["PROVISIONAL", "UNRELIABLE", "RELIABLE", "CANON"])),
            "pinned": draw(st.booleans()),
        }
        if draw(st.booleans()):
            args["rank"] = draw(st.sampled_from([100, 350, 600, 900, 901]))
    elif kind == "turn":
        args["reinforce"] = draw(st.lists(_UNIT_IDS, max_size=3))
    elif kind in ("pin", "unpin", "get"):
        args["unit_id"] = draw(_UNIT_IDS)
    elif kind in ("archive", "canonize"):
        args |= {"unit_id": draw(_UNIT_IDS), "reason": "test"}
    elif kind == "review":
        args = {"request_id": draw(_REVIEW_IDS), "decision": draw(st.sampled_from(["approve", "reject"]))}
    elif kind == "list":
        args["status"] = draw(st.sampled_from(["active", "all", "archived"]))
    elif kind == "assemble":
        args["token_budget"] = draw(st.sampled_from([0, 5, 40, 1000]))
    elif kind == "summary":
        args |= {"summary": draw(_TEXTS), "strict": draw(st.booleans())}
        kind = "validate_summary"
    return (f"memory.awmu.{kind}", args, principal)


call_sequences = st.lists(calls(), min_size=1, max_size=16)
AWMU_CREATE: Call = ("memory.awmu.create", {"context_id": "c1"}, AGENT)
awmu_sequences = st.lists(awmu_calls(), min_size=1, max_size=24).map(lambda calls: [AWMU_CREATE, *calls])
"""Working-memory calls on a context that exists from seq 1."""


def replayed_at(reader: JournalReader, seq: int) -> Any:
    """The state right after entry ``seq`` as a replay from entry 1 holds it (verification's replayer):
    what time travel, which reads rows, must give (``tools.audit.timetravel.StateAt``)."""
    from contextlib import closing

    from journal.reader import JournalFilter
    from journal.state import present_state_tables, state_batches
    from tools.audit.replay import header_of
    from tools.audit.replayer import Replayer
    from tools.audit.timetravel import state_of

    with closing(Replayer(header_of(reader), table=SYSCALL_TABLE, blobs_from=reader.engine)) as replayer:
        entries = list(reader.entries(JournalFilter(until_seq=seq)))
        diverged = next(filter(None, map(replayer.apply, entries)), None)
        assert diverged is None, f"the journal does not replay at seq {diverged.seq}: {diverged.reason}"
        with replayer.committed() as connection:
            batches = [(t, b) for t in present_state_tables(connection) for b in state_batches(connection, t)]
    return state_of(seq, entries[-1].recorded_at if entries else None, batches)


def replayed_snapshot(reader: JournalReader, user_id: str, seq: int) -> dict[str, Any]:
    """``memory.snapshot`` of ``user_id`` right after entry ``seq`` from a replay's rows (``replayed_at``):
    what ``tools.audit.timetravel.snapshot_at`` must give."""
    from arvis.canonical import parse_time, plain
    from arvis.memory.memory_service import MemoryService
    from journal.statements import WIRE_COLUMNS
    from tools.audit.timetravel import EntriesAsOf

    state = replayed_at(reader, seq)
    rows = [
        tuple(row[n] for n in WIRE_COLUMNS)
        for row in state.tables["memory_entries"]
        if row["user_id"] == user_id
    ]
    assert state.recorded_at is not None
    value = MemoryService().snapshot(EntriesAsOf(rows), user_id=user_id, now=parse_time(state.recorded_at))
    return {"seq": seq, **plain(value)}
