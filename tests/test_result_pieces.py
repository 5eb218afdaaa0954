"""Reads by reference (journal format 3, ``kernel.result_pieces``): a read's bulky arrays are journaled
once, content-addressed, and the entry holds their reference; the caller still gets the whole result,
verification covers the pieces, and journals of the older formats keep their results inline."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.exc import OperationalError

from arvis.canonical import canonical_bytes_of_own, decode, sha256_hex
from journal import blob_store
from journal.copy import copy_journal
from journal.engine import open_engine
from journal.reader import JournalFilter, JournalReader
from journal.schema import FORMAT_VERSION, FORMAT_VERSIONS
from kernel.dispatcher import Kernel
from kernel.formats import PIECES_FORMAT_3, UnknownFormat, piece_paths, rules_of
from kernel.protocols import StorageError
from kernel.result_pieces import PieceMismatch, expand, references, split
from syscalls.table import SYSCALL_TABLE
from tools.audit import pieces as pieces_module
from tools.audit.forensics import TraceQuery, trace_journal
from tools.audit.replay import verify_journal

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

ADMIN = "admin:ops"
MIN = PIECES_FORMAT_3.min_bytes
USER = "u1"
Capsys = pytest.CaptureFixture[str]


def _write(key: str) -> tuple[str, dict[str, Any], str]:
    return (
        "memory.write",
        {"user_id": USER, "key": key, "memory_type": "preference", "source": "explicit_user"},
        ADMIN,
    )


def _filled(kernel: Kernel, entries: int) -> None:
    results = kernel.call_many([_write(f"k{index:05d}") for index in range(entries)])
    assert all(result.ok for result in results)


def _journal_row(path: Path, seq: int) -> tuple[str, bytes]:
    with sqlite3.connect(path) as connection:
        syscall, result = connection.execute(
            "SELECT syscall, result FROM journal WHERE seq = ?", (seq,)
        ).fetchone()
    return str(syscall), bytes(result)


def _row_bytes(path: Path, seq: int) -> int:
    """The bytes of one journal row's columns (what an entry adds, before page overhead)."""
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT length(CAST(seq AS TEXT)) + length(recorded_at) + length(syscall) + length(principal)"
            " + length(args) + length(status) + length(result) + length(effects_hash) + length(prev_hash)"
            " + length(entry_hash) FROM journal WHERE seq = ?",
            (seq,),
        ).fetchone()
    return int(row[0])


def _blobs(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as connection:
        return [
            (str(key), int(size))
            for key, size in connection.execute("SELECT hash, length(data) FROM graph_blobs")
        ]


# -- the encoding ------------------------------------------------------------------------------------


def test_every_format_this_release_reads_has_rules() -> None:
    assert max(FORMAT_VERSIONS) == FORMAT_VERSION
    assert [rules_of(version).version for version in FORMAT_VERSIONS] == list(FORMAT_VERSIONS)
    assert [rules_of(version).pieces for version in FORMAT_VERSIONS] == [
        None,
        None,
        *[PIECES_FORMAT_3] * 6,
    ]
    with pytest.raises(UnknownFormat):
        rules_of(max(FORMAT_VERSIONS) + 1)


def test_a_small_array_stays_inline_and_encodes_as_before() -> None:
    value = {"entries": [{"a": 1}], "user_id": USER}
    parts = split(value, [("entries",)], MIN)
    assert parts.pieces == ()
    assert parts.journaled == parts.whole == canonical_bytes_of_own({"ok": True, "value": value})


def test_a_bulky_array_is_journaled_by_its_hash() -> None:
    items = [{"key": f"k{index}", "v": "x" * 20} for index in range(100)]
    value = {"entries": items, "user_id": USER}
    parts = split(value, [("entries",), ("missing", "path")], MIN)
    piece = canonical_bytes_of_own(items)
    assert len(piece) >= MIN
    assert parts.pieces == ((sha256_hex(piece), piece),)
    assert parts.whole == canonical_bytes_of_own({"ok": True, "value": value})
    assert decode(parts.journaled) == {
        "ok": True,
        "value": {"entries": {"piece": sha256_hex(piece), "bytes": len(piece)}, "user_id": USER},
    }
    assert references(parts.journaled, [("entries",)]) == [sha256_hex(piece)]
    assert expand(parts.journaled, [("entries",)], lambda keys: {key: piece for key in keys}) == parts.whole


def test_a_pre_encoded_array_is_not_encoded_again() -> None:
    items = [{"n": index} for index in range(300)]
    raw = msgspec.Raw(canonical_bytes_of_own(items))
    parts = split({"snapshot": {"active_entries": raw, "notes": None}}, [("snapshot", "active_entries")], MIN)
    assert parts.pieces[0][1] == bytes(raw)
    assert parts.whole == canonical_bytes_of_own(
        {"ok": True, "value": {"snapshot": {"active_entries": items, "notes": None}}}
    )


def test_a_refusal_and_a_non_array_reference_nothing() -> None:
    assert references(b'{"error":{"code":"x"},"ok":false}', [("entries",)]) == []
    assert references(b"not json", [("entries",)]) == []
    assert split({"entries": {"not": "an array"}}, [("entries",)], MIN).pieces == ()


@given(
    st.lists(
        st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=40), max_size=4), max_size=60
    ),
    st.lists(st.text(max_size=30), max_size=80),
)
def test_expanding_the_journaled_form_gives_back_the_whole_result(
    first: list[Any], second: list[str]
) -> None:
    value = {"a": first, "b": {"c": second, "d": 1}}
    paths = [("a",), ("b", "c")]
    parts = split(value, paths, MIN)
    stored = dict(parts.pieces)
    assert parts.whole == canonical_bytes_of_own({"ok": True, "value": value})
    assert expand(parts.journaled, paths, lambda keys: {key: stored[key] for key in keys}) == parts.whole
    assert all(sha256_hex(data) == key and len(data) >= MIN for key, data in parts.pieces)


# -- on a journal ------------------------------------------------------------------------------------


def test_snapshots_of_unchanged_state_share_one_piece_and_add_under_a_kilobyte(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    _filled(kernel, 2_000)
    live = [kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN) for _ in range(3)]
    listed = [kernel.call("memory.list", {"user_id": USER}, principal=ADMIN) for _ in range(2)]
    assert all(result.ok for result in live + listed)
    assert len(live[0].value["snapshot"]["active_entries"]) == 2_000  # the caller gets everything
    assert len(listed[0].value["entries"]) == 2_000
    pieces = _blobs(path)
    assert len(pieces) == 2  # one for the snapshots' entries, one for the lists'
    engine = open_engine(str(path))
    try:
        for result in live + listed:
            assert result.seq is not None
            assert _row_bytes(path, result.seq) < 1_000
            syscall, stored = _journal_row(path, result.seq)
            paths = piece_paths(syscall)
            whole = expand(stored, paths, lambda keys: blob_store.get_many(engine, keys))
            assert decode(whole) == {"ok": True, "value": result.value}
    finally:
        engine.dispose()


def test_a_format_2_journal_keeps_its_results_inline(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    from journal.store import SqlJournalStore

    path = tmp_path / "journal.db"
    SqlJournalStore(open_engine(str(path)), clock=h.make_clock(), format_version=2).close()
    kernel = kernel_factory(str(path))
    assert kernel.format.version == 2
    _filled(kernel, 50)
    result = kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    assert result.seq is not None
    _, stored = _journal_row(path, result.seq)
    assert decode(stored) == {"ok": True, "value": result.value}
    assert _blobs(path) == []


def _journal_with_snapshot(path: Path, kernel_factory: Callable[..., Kernel]) -> int:
    kernel = kernel_factory(str(path))
    _filled(kernel, 200)
    snapshot = kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    kernel.call("memory.list", {"user_id": USER}, principal=ADMIN)
    _filled_more = kernel.call_many([_write("later")])
    assert snapshot.seq is not None and all(result.ok for result in _filled_more)
    kernel.store.close()
    return snapshot.seq


def _verified(path: Path) -> Any:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()


def test_a_journal_with_pieces_verifies(tmp_path: Path, kernel_factory: Callable[..., Kernel]) -> None:
    path = tmp_path / "journal.db"
    _journal_with_snapshot(path, kernel_factory)
    report = _verified(path)
    assert report.verified, report.divergence


def test_a_missing_piece_is_named_at_the_entry_that_references_it(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    _, stored = _journal_row(path, seq)
    (key,) = references(stored, piece_paths("memory.snapshot"))
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM graph_blobs WHERE hash = ?", (key,))
    report = _verified(path)
    assert not report.verified
    assert report.divergence.seq == seq
    assert key in report.divergence.reason


def test_a_damaged_piece_is_found(tmp_path: Path, kernel_factory: Callable[..., Kernel]) -> None:
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    _, stored = _journal_row(path, seq)
    (key,) = references(stored, piece_paths("memory.snapshot"))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE graph_blobs SET data = CAST('[]' AS BLOB) WHERE hash = ?", (key,))
    report = _verified(path)
    assert not report.verified
    assert report.divergence.seq == seq and "whose bytes hash to" in report.divergence.reason


def test_the_first_damaged_piece_by_seq_is_named_whatever_its_call(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """The walk hands each accepted read to the piece check in seq order: with the snapshot's piece and
    the list's (the entry after it; its name sorts first) both damaged, the snapshot is named."""
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    keys = [
        references(_journal_row(path, at)[1], piece_paths(name))
        for at, name in ((seq, "memory.snapshot"), (seq + 1, "memory.list"))
    ]
    with sqlite3.connect(path) as connection:
        for (key,) in keys:
            connection.execute("DELETE FROM graph_blobs WHERE hash = ?", (key,))
    report = _verified(path)
    assert not report.verified
    assert report.divergence.seq == seq and keys[0][0] in report.divergence.reason


def test_a_divergence_in_the_entries_is_named_before_a_damaged_piece(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    """The pieces are checked as the walk goes but reported after it: an entry that does not verify,
    later than the damaged piece's, is still what verification names."""
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    (key,) = references(_journal_row(path, seq)[1], piece_paths("memory.snapshot"))
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM graph_blobs WHERE hash = ?", (key,))
    h.write_cell(path, seq + 2, "result", b'{"ok":true,"value":null}')
    report = _verified(path)
    assert not report.verified
    assert report.divergence.seq == seq + 2 and key not in report.divergence.reason


def test_pieces_that_cannot_be_read_do_not_hide_a_later_divergence(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The piece check reads the blob store while the walk goes on: a read that fails there is raised
    after the walk, so an entry that does not verify, later, is still named (as when it read after)."""
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    recorded = _journal_row(path, seq + 2)[1]
    h.write_cell(path, seq + 2, "result", b'{"ok":true,"value":null}')

    def unreadable(_connection: object) -> None:
        raise OperationalError("SELECT name FROM sqlite_master", {}, Exception("disk I/O error"))

    monkeypatch.setattr(pieces_module, "inspect", unreadable)
    report = _verified(path)
    assert not report.verified and report.divergence.seq == seq + 2
    h.write_cell(path, seq + 2, "result", recorded)  # the entries verify: the unreadable pieces are reported
    with pytest.raises(StorageError, match="the result pieces could not be read"):
        _verified(path)


def test_an_edited_reference_breaks_the_chain(tmp_path: Path, kernel_factory: Callable[..., Kernel]) -> None:
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    _, stored = _journal_row(path, seq)
    (key,) = references(stored, piece_paths("memory.snapshot"))
    forged = stored.replace(key.encode(), sha256_hex(b"[]").encode())
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO graph_blobs (hash, data) VALUES (?, ?)", (sha256_hex(b"[]"), b"[]"))
    h.write_cell(path, seq, "result", forged)

    report = _verified(path)
    assert not report.verified
    assert report.divergence.seq == seq


def test_a_trace_reads_a_snapshot_journaled_by_reference(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    kernel.call_many([("memory.write", {**_write("traced")[1], "source": "onboarding"}, "agent:a")])
    kernel.call(
        "access.grant",
        {"principal": "agent:a", "capability": "write", "scope": f"user:{USER}"},
        principal=ADMIN,
    )
    assert kernel.call("memory.write", {**_write("traced")[1]}, principal="agent:a").ok
    _filled(kernel, 100)
    snapshot = kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    assert snapshot.seq is not None
    _, stored = _journal_row(path, snapshot.seq)
    assert references(stored, piece_paths("memory.snapshot"))
    reader = JournalReader.open(str(path))
    try:
        entries = reader.entries(JournalFilter())
        without = trace_journal(entries, TraceQuery(principal="agent:a"))
        with_pieces = trace_journal(
            reader.entries(JournalFilter()),
            TraceQuery(principal="agent:a"),
            pieces=lambda keys: blob_store.get_many(reader.engine, keys),
        )
    finally:
        reader.close()
    included = [item for item in with_pieces.included_in if item["kind"] == "snapshot"]
    assert included == [{"kind": "snapshot", "seq": snapshot.seq, "user_id": USER, "keys": ["traced"]}]
    assert not [item for item in without.included_in if item["kind"] == "snapshot"]


def test_show_expand_puts_the_pieces_back(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], capsys: Capsys
) -> None:
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    code, out, err = h.cli(capsys, "journal", "show", "--db", str(path), str(seq), "--expand")
    assert code == 0, err
    shown = json.loads(out)
    assert "piece" in shown["result"]["value"]["snapshot"]["active_entries"]
    assert len(shown["result_expanded"]["value"]["snapshot"]["active_entries"]) == 200


def test_a_copy_into_postgres_carries_the_pieces_and_verifies(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], pg_url: str
) -> None:
    path = tmp_path / "journal.db"
    _journal_with_snapshot(path, kernel_factory)
    source, target = JournalReader.open(str(path)), open_engine(pg_url)
    try:
        copy_journal(source.engine, target)
    finally:
        source.close()
        target.dispose()
    reader = JournalReader.open(pg_url)
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert report.verified, report.divergence


def test_the_default_size_claim_holds_on_disk(tmp_path: Path, kernel_factory: Callable[..., Kernel]) -> None:
    """Ten snapshots and ten lists of 2,000 unchanged entries grow the checkpointed file by less than
    ten inline results would hold (the pieces are stored once)."""
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    _filled(kernel, 2_000)
    kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    kernel.call("memory.list", {"user_id": USER}, principal=ADMIN)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = os.path.getsize(path)
    for _ in range(10):
        kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
        kernel.call("memory.list", {"user_id": USER}, principal=ADMIN)
    kernel.store.close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert os.path.getsize(path) - before < 20 * 1_024


def test_the_replay_kernel_serves_a_read_whole_or_says_it_cannot(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    from kernel.replay_kernel import JournalReplayKernel
    from tools.audit.pieces import replay_kernel

    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    _filled(kernel, 50)
    live = kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    kernel.store.close()
    reader = JournalReader.open(str(path))
    try:
        entries = list(reader.entries(JournalFilter(after_seq=50)))
        served = replay_kernel(reader, JournalFilter(after_seq=50)).call(
            "memory.snapshot", {"user_id": USER}, principal=ADMIN
        )
        unserved = JournalReplayKernel(entries).call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    finally:
        reader.close()
    assert served.ok and served.value == live.value and served.seq == live.seq
    assert not unserved.ok and unserved.error is not None
    assert unserved.error.code == "replay_result_unavailable" and unserved.seq == live.seq


def test_format_3_layout_is_pinned() -> None:
    """Part of format 3: a change here changes what every format-3 journal's entries mean."""
    assert PIECES_FORMAT_3.min_bytes == 1024
    assert dict(PIECES_FORMAT_3.paths) == {
        "memory.list": (("entries",),),
        "memory.snapshot": (("snapshot", "active_entries"), ("projection", "constraints")),
    }
    assert piece_paths("memory.get") == () and piece_paths("memory.list") == (("entries",),)


@pytest.mark.parametrize(("size", "by_reference"), [(1023, False), (1024, True), (1025, True)])
def test_the_threshold_is_inclusive(size: int, by_reference: bool) -> None:
    text = "x" * (size - 4)  # ["…"]: two brackets, two quotes
    parts = split({"entries": [text]}, [("entries",)], MIN)
    assert len(canonical_bytes_of_own([text])) == size
    assert bool(parts.pieces) is by_reference
    assert parts.whole == canonical_bytes_of_own({"ok": True, "value": {"entries": [text]}})


def test_expand_refuses_a_piece_that_is_not_the_array_referenced() -> None:
    items = [f"item {index}" for index in range(200)]
    parts = split({"entries": items}, [("entries",)], MIN)
    ((key, data),) = parts.pieces
    with pytest.raises(PieceMismatch):
        expand(parts.journaled, [("entries",)], lambda keys: {key: data[:-2] + b"]"})
    with pytest.raises(PieceMismatch):
        expand(parts.journaled, [("entries",)], lambda keys: {key: b"{" + data[1:]})


def test_a_snapshots_constraints_are_journaled_by_reference_and_verify(
    tmp_path: Path, kernel_factory: Callable[..., Kernel]
) -> None:
    path = tmp_path / "journal.db"
    kernel = kernel_factory(str(path))
    constraints = [
        ("memory.write", {**_write(f"no_item_{index:03d}")[1], "memory_type": "constraint"}, ADMIN)
        for index in range(80)
    ]
    assert all(result.ok for result in kernel.call_many(constraints)), kernel.call_many(constraints[:1])
    live = kernel.call("memory.snapshot", {"user_id": USER}, principal=ADMIN)
    assert live.seq is not None and len(live.value["projection"]["constraints"]) == 80
    kernel.store.close()
    _, stored = _journal_row(path, live.seq)
    assert len(references(stored, piece_paths("memory.snapshot"))) == 2
    report = _verified(path)
    assert report.verified, report.divergence


def test_a_damaged_piece_is_named_at_the_entry_that_references_it(
    tmp_path: Path, kernel_factory: Callable[..., Kernel], capsys: Capsys
) -> None:
    path = tmp_path / "journal.db"
    seq = _journal_with_snapshot(path, kernel_factory)
    _, stored = _journal_row(path, seq)
    (key,) = references(stored, piece_paths("memory.snapshot"))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE graph_blobs SET data = CAST('[1]' AS BLOB) WHERE hash = ?", (key,))
    report = _verified(path)
    assert not report.verified and report.divergence.seq == seq, report.divergence
    code, _, err = h.cli(capsys, "journal", "trace", "--db", str(path), "--principal", ADMIN)
    assert code == 2 and "arvis journal verify" in err and "unexpected" not in err
    code, _, err = h.cli(capsys, "journal", "show", "--db", str(path), str(seq), "--expand")
    assert code == 2 and "unexpected" not in err
