"""``open_kernel`` never starts a journal by accident (specs/kernel-syscalls.md §3): a SQLite file that does
not exist is refused, naming the path and ``create=True``, and nothing is written; ``create=True`` starts
one, and an existing journal opens without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel.protocols import StorageError
from syscalls.boot import JournalNotFound, open_kernel


def test_a_missing_file_is_refused_naming_the_path_and_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "memroy.db"
    with pytest.raises(JournalNotFound) as refused:
        open_kernel(str(path))
    assert str(path) in str(refused.value) and "create=True" in str(refused.value)
    assert isinstance(refused.value, StorageError) and isinstance(refused.value, FileNotFoundError)
    assert list(tmp_path.iterdir()) == []  # not even a -wal file
    with pytest.raises(JournalNotFound):
        open_kernel(f"sqlite:///{path}")


def test_create_starts_a_journal_that_then_opens_without_it(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.db")
    open_kernel(path, create=True).close()
    kernel = open_kernel(path)
    assert kernel.call("memory.list", {"user_id": "ana"}, principal="user:ana").ok
    kernel.close()
    open_kernel(path, create=True).close()  # an existing journal: opened as it is


def test_an_in_memory_database_needs_no_flag() -> None:
    open_kernel(":memory:").close()
