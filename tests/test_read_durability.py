"""Reads are durable with the next write (``specs/durability.md`` §1.1): at ``Durability.FULL`` a read's
commit does not flush the log itself; the next write's commit does, and takes the read's entry with it.

Counted where the flush happens: the process's ``fsync`` and ``fdatasync`` calls, through a shim preloaded
into a child interpreter (compiled here; the test is skipped without a C compiler). The crash test
(``tests/test_crashes.py``) holds the other half: reads and writes killed at random moments, no
acknowledged call lost, the journal a dense prefix."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from grouped_calls import between_calls

ROOT = Path(__file__).resolve().parent.parent
SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
static long flushes = 0;
long arvis_flushes(void) { return flushes; }
int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    flushes++;
    return real(fd);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    flushes++;
    return real(fd);
}
"""
CHILD = r"""
import ctypes, json, sys
from journal.engine import Durability
from syscalls.boot import open_kernel

flushes = ctypes.CDLL(None).arvis_flushes
flushes.restype = ctypes.c_long
kernel = open_kernel(sys.argv[1], durability=Durability(sys.argv[2]), create=True)
write = {"memory_type": "preference", "source": "explicit_user", "key": "language", "replace": True}
seqs = [kernel.call("memory.write", {**write, "user_id": "u1"}, principal="admin:ops").seq]
before_reads = flushes()
for _ in range(20):
    seqs.append(kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="admin:ops").seq)
after_reads = flushes()
seqs.append(kernel.call("memory.write", {**write, "user_id": "u2"}, principal="admin:ops").seq)
after_write = flushes()
kernel.close()
print(json.dumps({"reads": after_reads - before_reads, "write": after_write - after_reads, "seqs": seqs}))
"""


def _flushes(tmp_path: Path, durability: str) -> dict[str, object]:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not sys.platform.startswith("linux"):
        pytest.skip("needs a C compiler and Linux to count the flushes")
    shim = tmp_path / "flushes.so"
    source = tmp_path / "flushes.c"
    source.write_text(SHIM)
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(shim), str(source), "-ldl"], check=True)
    environment = {**os.environ, "LD_PRELOAD": str(shim), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "journal.db"), durability],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    counted: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return counted


def test_at_full_a_read_commits_without_a_flush_and_the_next_write_flushes(tmp_path: Path) -> None:
    counted = _flushes(tmp_path, "FULL")
    assert counted["seqs"] == list(range(1, 23))  # every read journaled and acknowledged
    assert counted["reads"] == 0  # 20 reads: no flush of their own (before: one each)
    assert isinstance(counted["write"], int) and counted["write"] >= 1  # the write flushes, reads along


def test_at_normal_nothing_changes_neither_reads_nor_writes_flush(tmp_path: Path) -> None:
    counted = _flushes(tmp_path, "NORMAL")
    assert counted["reads"] == 0 and counted["write"] == 0


def test_on_postgresql_reads_are_journaled_and_leave_writes_synchronous(pg_url: str) -> None:
    """A read's ``SET LOCAL synchronous_commit = off`` ends with its transaction: the session's writes
    after it still commit synchronously (a plain ``SET`` would have made every later write lossable)."""
    from journal.engine import Durability, open_engine
    from journal.store import SqlJournalStore, SystemClock
    from kernel.dispatcher import Kernel
    from kernel.identity import VouchedPrincipals
    from syscalls.boot import default_services
    from syscalls.table import SYSCALL_TABLE

    clock = SystemClock()
    store = SqlJournalStore(open_engine(pg_url, durability=Durability.FULL), clock=clock)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    try:
        write = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}
        seqs = [kernel.call("memory.write", write, principal="admin:ops").seq]
        for _ in range(3):
            got = kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="admin:ops")
            assert got.ok
            seqs.append(got.seq)
        with store.engine.connect() as other:  # a fresh session of the same engine: configured FULL
            assert other.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"

        def session_setting() -> object:
            try:
                return store._sql.scalar("SHOW synchronous_commit")
            finally:
                store._sql.rollback()  # the SHOW's implicit transaction

        assert between_calls(kernel, session_setting) == "on"  # the store's own session, after reads
        seqs.append(kernel.call("memory.write", {**write, "key": "tz"}, principal="admin:ops").seq)
        assert seqs == [1, 2, 3, 4, 5]
    finally:
        kernel.close()
