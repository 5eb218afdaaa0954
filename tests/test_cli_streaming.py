"""Listing and exporting stream: ``journal ls -o json`` prints the array it always printed, one entry at a
time; ``journal export`` writes each line as its entry is read; the reader holds one batch. Filters are
decided in SQL: a syscall glob selects exactly the entries ``fnmatch.fnmatchcase`` selects (checked on
awkward names and patterns, and on the fallbacks), ``--status error`` exactly the refused ones, and rows
that do not match are never decoded. No timing here: bench/bench_cli.py measures time and memory."""

from __future__ import annotations

import argparse
import fnmatch
import io
import re
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event

import journal.reader
from journal.reader import JournalFilter, JournalReader
from kernel.abi import JournalEntry
from syscalls.boot import open_kernel
from tools import journal_ls, journal_stats
from tools.cli import main
from tools.output import entry_to_json, print_json, print_json_array

AWKWARD_NAMES = [
    "memory.get",
    "memory.write",
    "memory.awmu.propose",
    "MEMORY.GET",
    "memory-get",
    "a^b",
    "^ab",
    "!x",
    "x[y]",
    "[",
    "]",
    "a*b",
    "a?b",
    "back\\slash",
    "é.unicode",
    "line\nbreak",
]
"""Syscall names, most unknown (the kernel journals the refused call under the name it was given)."""

PATTERNS = [
    "memory.*",
    "*",
    "?",
    "*.get",
    "MEMORY.*",
    "[!m]*",
    "[^a]*",
    "[]]",
    "[!]]*",
    "[",
    "[]",
    "[!]",
    "[!",
    "x[[]y]",
    "[a-c]*",
    "[z-a]*",
    "[*]",
    "[?]*",
    "a\\*b",
    "*\\*",
    "back\\slash",
    "é*",
    "line?break",
    "*[!.a-z]*",
    "nothing.matches.this",
]
"""Shell patterns where SQL patterns differ from ``fnmatch`` (``[!x]`` against ``[^x]``, a leading ``]``,
an unclosed ``[``, backslashes, reversed ranges), plus the usual ones."""


def _build(path: Path) -> None:
    kernel = open_kernel(str(path), create=True)
    try:
        for index in range(3):
            written = kernel.call(
                "memory.write",
                {"user_id": "u1", "key": f"k{index}", "memory_type": "preference", "source": "explicit_user"},
                principal="user:u1",
            )
            assert written.ok
            kernel.call("memory.get", {"user_id": "u1", "key": "missing"}, principal="user:u1")
        for name in AWKWARD_NAMES:
            kernel.call(name, {}, principal="user:u1")
    finally:
        kernel.close()


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("streaming") / "j.db"
    _build(path)
    return path


@pytest.fixture
def reader(journal_path: Path) -> Iterator[JournalReader]:
    opened = JournalReader.open(str(journal_path))
    try:
        yield opened
    finally:
        opened.close()


def _by_python(reader: JournalReader, pattern: str) -> list[JournalEntry]:
    """What the listing selected before globs went to SQL: every entry decoded, then matched."""
    return [entry for entry in reader.entries() if fnmatch.fnmatchcase(entry.syscall, pattern)]


def _globbed(reader: JournalReader, pattern: str, **extra: Any) -> list[JournalEntry]:
    return list(reader.entries(JournalFilter(syscall_glob=pattern, **extra)))


# --- the glob, decided in SQL, means what fnmatchcase means -----------------------------------------


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_glob_selects_what_fnmatchcase_selects(reader: JournalReader, pattern: str) -> None:
    assert _globbed(reader, pattern) == _by_python(reader, pattern)


@given(pattern=st.text(alphabet="ab^!-[]*?.m\\é", max_size=6))
def test_any_glob_selects_what_fnmatchcase_selects(journal_path: Path, pattern: str) -> None:
    opened = JournalReader.open(str(journal_path))
    try:
        assert _globbed(opened, pattern) == _by_python(opened, pattern)
        descending = _globbed(opened, pattern, descending=True)
        assert descending == _by_python(opened, pattern)[::-1]
    finally:
        opened.close()


def test_a_glob_is_combined_with_the_other_filters(reader: JournalReader) -> None:
    chosen = _globbed(reader, "memory.*", status="ok", after_seq=2)
    expected = [e for e in _by_python(reader, "memory.*") if e.status == "ok" and e.seq > 2]
    assert chosen == expected and chosen


def test_too_many_names_fall_back_to_matching_in_python(
    reader: JournalReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal.reader, "MAX_GLOB_NAMES", 3)
    for pattern in ("memory.*", "[!m]*", "*"):
        assert _globbed(reader, pattern) == _by_python(reader, pattern)


def test_a_name_that_is_not_utf8_is_still_matched(tmp_path: Path) -> None:
    """A hand edit leaves bytes that are not UTF-8 in the syscall column: SQL cannot be sent that name
    back, so the glob is matched in Python, with the same answer as before."""
    path = tmp_path / "tampered.db"
    _build(path)
    connection = sqlite3.connect(path)
    try:
        connection.execute("DROP TRIGGER journal_no_update")  # the journal refuses updates: a hand edit
        connection.execute("UPDATE journal SET syscall = CAST(X'6d656d6f72792eff' AS TEXT) WHERE seq = 2")
        connection.commit()
    finally:
        connection.close()
    opened = JournalReader.open(str(path))
    try:
        for pattern in ("memory.*", "memory.?", "x*", "*"):
            assert _globbed(opened, pattern) == _by_python(opened, pattern)
        assert 2 in [entry.seq for entry in _globbed(opened, "memory.*")]
    finally:
        opened.close()


def test_rows_that_do_not_match_are_never_decoded(
    reader: JournalReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[object] = []
    real = journal.reader.row_to_entry

    def counting(row: Any) -> JournalEntry:
        decoded.append(row)
        return real(row)

    monkeypatch.setattr(journal.reader, "row_to_entry", counting)
    chosen = _globbed(reader, "x[[]*")
    assert [entry.syscall for entry in chosen] == ["x[y]"]
    assert len(decoded) == 1
    decoded.clear()
    assert _globbed(reader, "no.such.*") == []
    assert decoded == []


def test_errors_only_keeps_every_refusal(reader: JournalReader, monkeypatch: pytest.MonkeyPatch) -> None:
    refused = [entry for entry in reader.entries() if entry.status != "ok"]
    assert refused and len(refused) < reader.count()
    assert list(reader.entries(JournalFilter(errors_only=True))) == refused
    decoded: list[object] = []
    real = journal.reader.row_to_entry

    def counting(row: Any) -> JournalEntry:
        decoded.append(row)
        return real(row)

    monkeypatch.setattr(journal.reader, "row_to_entry", counting)
    list(reader.entries(JournalFilter(errors_only=True)))
    assert len(decoded) == len(refused)


# --- reading holds one batch ------------------------------------------------------------------------


def test_the_reader_decodes_one_batch_ahead_at_most(
    reader: JournalReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[object] = []
    real = journal.reader.row_to_entry

    def counting(row: Any) -> JournalEntry:
        decoded.append(row)
        return real(row)

    monkeypatch.setattr(journal.reader, "row_to_entry", counting)
    entries = reader.entries(batch=5)
    first = next(entries)
    assert first.seq == 1 and len(decoded) == 5
    assert sum(1 for _ in entries) == reader.count() - 1


@pytest.mark.parametrize("descending", [False, True])
def test_each_batch_is_bounded_by_one_seq_on_each_side(journal_path: Path, descending: bool) -> None:
    """SQLite seeks on one bound and tests the others row by row: with ``after_seq`` and the keyset
    boundary both as lower bounds, every batch scanned from the first entry (quadratic)."""
    statements: list[str] = []
    opened = JournalReader.open(str(journal_path))

    def trace(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(statements.append)

    event.listen(opened.engine, "connect", trace)
    try:
        chosen = JournalFilter(after_seq=2, until_seq=opened.count() - 1, descending=descending)
        entries = list(opened.entries(chosen, batch=4))
    finally:
        opened.close()
    expected = list(range(3, len(entries) + 3))
    assert [entry.seq for entry in entries] == (expected[::-1] if descending else expected)
    batches = [text for text in statements if text.startswith("SELECT") and "LIMIT" in text]
    assert len(batches) > 3
    for text in batches:
        assert len(re.findall(r"journal\.seq [<>]", text)) == 2, text  # one lower bound, one upper


# --- the printers stream ----------------------------------------------------------------------------


def _printed(capsys: pytest.CaptureFixture[str], emit: Any) -> str:
    capsys.readouterr()
    emit()
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "values",
    [
        [],
        [{}],
        [[]],
        [1, "two", None, [3, {"four": [5]}]],
        [{"b": 1, "a": {"nested": [1, 2, {"x": []}]}, "text": 'quote " and \\n newline'}],
        [{"text": "not utf-8 \udcff"}, {"é": "ü"}],
    ],
)
def test_the_streamed_array_is_the_array_print_json_prints(
    capsys: pytest.CaptureFixture[str], values: list[Any]
) -> None:
    whole = _printed(capsys, lambda: print_json(values))
    streamed = _printed(capsys, lambda: print_json_array(iter(values)))
    assert streamed == whole


LISTINGS: list[tuple[list[str], dict[str, Any]]] = [
    ([], {}),
    (["--syscall", "memory.*"], {"syscall": "memory.*"}),
    (["--syscall", "pipeline.*"], {"syscall": "pipeline.*"}),  # in the table, not in this journal
    (["-r"], {"reverse": True}),
    (["-n", "3"], {"lines": 3}),
    (["--status", "error"], {"status": "error"}),
    (
        ["--syscall", "[!m]*", "--status", "error", "-r"],
        {"syscall": "[!m]*", "status": "error", "reverse": True},
    ),
]


@pytest.mark.parametrize(("argv", "chosen"), LISTINGS)
def test_ls_json_prints_what_it_printed_when_it_built_the_list(
    journal_path: Path,
    reader: JournalReader,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    chosen: dict[str, Any],
) -> None:
    capsys.readouterr()
    assert main(["journal", "ls", "--db", str(journal_path), "-o", "json", *argv]) == 0
    streamed = capsys.readouterr().out
    entries = _selected(reader, **chosen)
    assert streamed == _printed(capsys, lambda: print_json([entry_to_json(entry) for entry in entries]))


def _selected(
    reader: JournalReader,
    *,
    syscall: str | None = None,
    status: str | None = None,
    lines: int | None = None,
    reverse: bool = False,
) -> list[JournalEntry]:
    """The entries ``journal ls`` selects, worked out the slow way: everything decoded, then filtered."""
    entries = list(reader.entries())
    if syscall is not None:
        entries = [entry for entry in entries if fnmatch.fnmatchcase(entry.syscall, syscall)]
    if status == "error":
        entries = [entry for entry in entries if entry.status != "ok"]
    if lines is not None:
        entries = entries[-lines:]
    return entries[::-1] if reverse else entries


class _Watched:
    """Entries handed out one at a time, noting how much had been written when each was asked for."""

    def __init__(self, entries: list[JournalEntry], written: Any) -> None:
        self._entries = entries
        self._written = written
        self.seen: list[int] = []

    def __iter__(self) -> Iterator[JournalEntry]:
        for entry in self._entries:
            self.seen.append(self._written())
            yield entry


def test_ls_json_writes_each_entry_before_reading_the_next(
    reader: JournalReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    watched = _Watched(list(reader.entries()), lambda: len(out.getvalue()))
    journal_ls.print_entries(watched, "json")
    assert len(watched.seen) > 2
    assert all(later > earlier for earlier, later in zip(watched.seen[1:], watched.seen[2:], strict=False))


class _Reader:
    """What ``run_export`` needs of a reader."""

    def __init__(self, watched: _Watched) -> None:
        self._watched = watched

    def entries(self) -> Iterator[JournalEntry]:
        return iter(self._watched)


def test_export_writes_each_line_before_reading_the_next(
    reader: JournalReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8"))
    entries = list(reader.entries())
    watched = _Watched(entries, lambda: len(raw.getvalue()))
    assert journal_stats.run_export(_Reader(watched), argparse.Namespace(output="jsonl")) == 0  # type: ignore[arg-type]
    assert watched.seen[1:] == sorted(set(watched.seen[1:])) and watched.seen[-1] > 0
    assert raw.getvalue() == b"".join(journal_stats.export_line(entry) for entry in entries)
