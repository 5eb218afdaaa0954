"""``journal state --at`` reads ``memory_entries`` as of the seq by one query over its version columns and
every other state table from its rows and ``graph_history`` (``tools.audit.timetravel.state_at``); these
properties hold it to the state a replay from entry 1 gives, at every seq of journals that mix memory
writes, replacements and revokes with grants, working-memory calls and graph-store puts."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from graph_values import carried
from hypothesis import given
from hypothesis import strategies as st

from arvis.canonical import canonical_bytes
from journal.blob_store import hash_of
from tools.audit.timetravel import PastNotInRows, snapshot_at, state_at

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

ROOT = Path(__file__).resolve().parents[1]
OPERATOR = "operator:ward"
NARRATOR = "agent:narrator"
CONTEXT = "ward-7"

SETUP: list[h.Call] = [
    ("memory.awmu.create", {"context_id": CONTEXT, "config": {"channels": {NARRATOR: "dm"}}}, OPERATOR),
    ("access.grant", {"principal": NARRATOR, "capability": "write", "scope": f"context:{CONTEXT}"}, OPERATOR),
    ("graph.namespace.create", {"prefix": "ledger"}, NARRATOR),
]
"""A working-memory context the narrator may write to, and a graph-store namespace it owns."""


def _call(op: str, user: str, key: str, index: int) -> h.Call:
    """One call of a schedule; many are refused (a conflict, a revoke of nothing), which changes nothing."""
    args: dict[str, Any] = {"user_id": user, "key": key}
    if op == "revoke":
        return "memory.revoke", args, f"user:{user}"
    if op in ("write", "replace"):
        write = {**args, "memory_type": "preference", "source": "explicit_user", "value_ref": f"v{index}"}
        return "memory.write", {**write, "replace": op == "replace"}, f"user:{user}"
    if op == "grant":
        grant = {"principal": f"agent:{key}", "capability": "read", "scope": f"user:{user}"}
        return "access.grant", grant, OPERATOR
    if op == "seed":
        return "memory.awmu.seed", {"context_id": CONTEXT, "text": f"Bed {index} is free."}, OPERATOR
    if op == "propose":
        proposal = {"context_id": CONTEXT, "text": f"Ward {key} has {index} beds.", "confidence": 0.9}
        return "memory.awmu.propose", proposal, NARRATOR
    thread = f"thread-{user}"
    if op == "checkpoint":  # a thread's checkpoint, its channel replaced at a version another put may reuse
        data = carried(f"{key}{index}".encode())
        version = f"{len(key):032}.{0.5:016}"
        put_checkpoint = {
            "thread_id": thread,
            "checkpoint_id": f"1f0-{key}",
            "checkpoint": data,
            "metadata": {"source": "loop", "step": index, "parents": {}},
            "channel_versions": {"messages": version},
            "new_values": [{"channel": "messages", "version": version, **data}],
        }
        return "graph.checkpoint.put", put_checkpoint, NARRATOR
    if op == "writes":  # pending writes: a regular one kept, an error replaced by the next
        writes = [
            {"channel": "messages", **carried(b"w")},
            {"channel": "__error__", **carried(f"{index}".encode())},
        ]
        task = {"thread_id": thread, "checkpoint_id": f"1f0-{key}", "task_id": "task", "task_path": "~agent"}
        return "graph.checkpoint.put_writes", {**task, "writes": writes}, NARRATOR
    if op == "delete":
        return "graph.thread.delete", {"thread_id": thread}, NARRATOR
    value = {"t": f"{user}-{index}"}
    put: dict[str, Any] = {"namespace": ["ledger", user], "key": key}
    put |= (
        {"value_hash": None}
        if op == "unput"
        else {"value": value, "value_hash": hash_of(canonical_bytes(value))}
    )
    return "graph.store.put", put, NARRATOR


OPS = (
    "write",
    "replace",
    "revoke",
    "grant",
    "seed",
    "propose",
    "put",
    "unput",
    "checkpoint",
    "writes",
    "delete",
)
schedules = st.tuples(
    st.booleans(),
    st.lists(
        st.tuples(st.sampled_from(OPS), st.sampled_from(("u1", "u2")), st.sampled_from(("a", "b", "c"))),
        min_size=1,
        max_size=20,
    ),
).map(
    lambda drawn: [
        *(SETUP if drawn[0] else []),
        *(_call(op, user, key, index) for index, (op, user, key) in enumerate(drawn[1])),
    ]
)
"""Without the setup, working-memory and graph calls are refused: the other tables may stay empty (no
scratch store at all) or hold only grants."""


@given(schedules)
def test_the_state_by_query_and_fold_is_the_replayed_state_at_every_seq(calls: list[h.Call]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.db"
        h.build_journal(path, calls)
        with h.reader_of(path) as reader:
            for seq in range(1, len(calls) + 1):
                read = state_at(reader, seq)
                replayed = h.replayed_at(reader, seq)
                assert read == replayed, seq
                assert orjson.dumps(read.to_json()) == orjson.dumps(replayed.to_json()), seq


def test_revision_0016_tells_a_memory_only_row_by_its_bytes() -> None:
    """Revision 0016 drops the row of an entry whose logged bytes name ``memory_entries`` at every
    ``"table":"``: that is so exactly when every change it logged is of that table. Held on the whole change
    sets revisions 0014 and 0015 logged (the golden r5 and r6 journals), and on change sets written for it:
    one mixing memory with another table, one whose value holds the table's name."""
    logged: list[bytes] = []
    for golden in ("r5-sybil.db", "r6-queue.db"):
        with sqlite3.connect(ROOT / "tests" / "golden" / golden) as connection:
            logged += [bytes(row[0]) for row in connection.execute("SELECT effects FROM journal_effects")]
    memory = {"op": "update", "table": "memory_entries", "set": {"revoked_at": "t"}, "where": {"key": "k"}}
    grant = {"op": "insert", "table": "grants", "row": {"principal": '"table":"memory_entries"'}}
    logged += [canonical_bytes([memory, grant]), canonical_bytes([memory, memory]), canonical_bytes([grant])]
    decided = set()
    for effects in logged:
        skipped = effects.count(b'"table":"') == effects.count(b'"table":"memory_entries"')
        assert skipped == all(change["table"] == "memory_entries" for change in orjson.loads(effects))
        decided.add(skipped)
    assert decided == {True, False}, "no row of one kind: the test proves nothing"


MIXED: list[h.Call] = [
    *SETUP,
    *(
        _call(op, user, key, index)
        for index, (op, user, key) in enumerate(
            [
                ("write", "u1", "a"),
                ("put", "u1", "a"),
                ("replace", "u1", "a"),
                ("seed", "u1", "a"),
                ("revoke", "u1", "a"),
                ("write", "u2", "b"),
                ("grant", "u2", "b"),
                ("revoke", "u2", "b"),
            ]
        )
    ),
]


def _every_seq_as_replayed(path: Path) -> None:
    with h.reader_of(path) as reader:
        for seq in range(1, len(MIXED) + 1):
            assert state_at(reader, seq) == h.replayed_at(reader, seq), seq


def test_a_version_seq_that_cannot_be_derived_is_refused_as_an_edit(tmp_path: Path) -> None:
    """A revoke the journal does not show (a hand edit) leaves NULL beside a set ``revoked_at``: the
    query cannot say when it happened, and nothing is re-executed to find out: refused, naming verify."""
    path = tmp_path / "journal.db"
    h.build_journal(path, MIXED)
    with h.raw_db(path) as connection:
        connection.execute("UPDATE memory_entries SET revoked_seq = NULL WHERE user_id = 'u2'")
        connection.commit()
    with h.reader_of(path) as reader:
        for read in (lambda: state_at(reader, None), lambda: snapshot_at(reader, "u2", None)):
            with pytest.raises(PastNotInRows, match=r"without the seq that set it: `arvis journal verify`"):
                read()


def test_a_database_older_than_the_version_columns_is_refused_until_upgraded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Revision 0014 (time travel reads without migrating) has no version columns: refused, naming
    ``arvis db upgrade``; once upgraded, every seq reads as its replay gives it."""
    path = tmp_path / "journal.db"
    h.write_at_revision(str(path), "0014", MIXED)
    with h.reader_of(path) as reader, pytest.raises(PastNotInRows, match=r"revision 0014.*arvis db upgrade"):
        state_at(reader, 3)
    code, _, err = h.cli(capsys, "db", "upgrade", "--db", path)
    assert code == 0, err
    _every_seq_as_replayed(path)


def test_on_postgresql_the_state_by_query_is_the_sqlite_state(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The query orders keys as bytes there too (``COLLATE "C"``), as the state digest reads a table: the
    same state at every seq as the SQLite journal it was copied from, and as its own replay."""
    source = tmp_path / "source.db"
    h.build_journal(source, [*MIXED, _call("write", "U2", "B", 99), _call("write", "u2", "é", 100)])
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", pg_url)
    assert code == 0, err
    with h.reader_of(source) as sqlite, h.reader_of(pg_url) as postgres:  # type: ignore[arg-type]
        for seq in range(1, len(MIXED) + 3):
            expected = state_at(sqlite, seq)
            assert state_at(postgres, seq) == expected, seq
            assert h.replayed_at(postgres, seq) == expected, seq


def test_the_command_prints_what_its_replay_gives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.db"
    h.build_journal(path, MIXED)
    for seq in (1, 4, len(MIXED)):
        with h.reader_of(path) as reader:
            replayed = h.replayed_at(reader, seq)
        code, out, err = h.cli(capsys, "journal", "state", "--db", path, "--at", seq, "-o", "json")
        assert (code, orjson.loads(out)) == (0, orjson.loads(orjson.dumps(replayed.to_json()))), err
        code, out, err = h.cli(capsys, "journal", "state", "--db", path, "--at", seq, "-o", "table")
        assert code == 0 and f"digest {replayed.digest}" in out, err
