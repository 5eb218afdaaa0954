"""Crashes: a writing process killed with SIGKILL at random moments loses no acknowledged call.

The writer (``fault_injection.crash_writer``, forked from a fork server that has the kernel imported,
so a trial costs milliseconds, not an interpreter start) opens the journal, says it is ready and then
calls without pause; each acknowledged call is reported over a pipe, as (seq, entry hash, hash of
the result bytes), before the writer does anything else. The test kills it at a random moment, a few
dozen milliseconds into its writing (or, in some trials, while it is still opening the journal: on
a new file that is in the middle of creating and migrating it), then checks:

* every call reported as acknowledged, in this trial and every earlier one on the file, is in the
  journal with that entry hash and those result bytes (zero lost acknowledged calls);
* the chain verifies and the stored state equals the replay of the journal (``verify_journal``);
* the writer never failed on its own (it died of the SIGKILL) and never had a call unacknowledged.

Trials are spread over several files, half with ``synchronous=NORMAL`` and half with FULL (in WAL
mode NORMAL already survives the crash of a process: a commit is in the WAL, in the operating
system's cache, before the call returns; what FULL adds is the fsync that survives a power cut).
The writers mix reads with writes: at FULL a read commits without a flush of its own
(``specs/durability.md`` §1.1), and its acknowledged entry must survive the kill all the same, in
order, the journal a dense prefix (``tests/test_read_durability.py`` counts the flushes).
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import time
from collections import Counter
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fault_injection import AfterCrash, check_after_crash, crash_writer

from journal.engine import Durability

TRIALS = 100
FILES = 10
THREADED_WRITER = 4
"""Threads of the writer in every third trial: their calls commit in groups (durability.md §3.1)."""
"""Trials are spread over files so that the replay after each kill stays short."""
WRITE_WINDOW_S = 0.04
"""A kill lands at a uniformly random moment in the first WRITE_WINDOW_S seconds of writing."""
PRELOAD = [
    "syscalls.boot",
    "kernel.dispatcher",
    "journal.engine",
    "journal.store",
    "journal.migrate",
    "tools.audit.replay",
    "syscalls.table",
    "sqlalchemy.dialects.sqlite",
]
SAFETY_TIMEOUT_S = 120  # a hung writer fails the test instead of hanging it; never a timing assertion


def _context() -> Any:
    context = multiprocessing.get_context("forkserver")
    # the fork server imports the kernel once; each writer is forked from it. (Python 3.11's fork
    # server does not take the parent's sys.path, so only installed modules can be preloaded; the
    # writer's own module, in tests/, is imported by each child, cheaply once these are in.)
    context.set_forkserver_preload(PRELOAD)
    return context


def _drain(receiver: Any) -> list[tuple[Any, ...]]:
    """Every message the killed writer sent (it is dead: the pipe ends after them)."""
    messages = []
    while True:
        assert receiver.poll(SAFETY_TIMEOUT_S), "the pipe of a dead writer neither delivers nor ends"
        try:
            messages.append(receiver.recv())
        except (EOFError, OSError):
            return messages


def _kill_one_writer(
    context: Any,
    path: Path,
    durability: Durability,
    seed: int,
    rng: random.Random,
    early: bool,
    threads: int = 1,
) -> list[tuple[Any, ...]]:
    """Start a writer (``threads`` threads sharing its kernel: group commit), SIGKILL it at a random
    moment, return what it reported."""
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=crash_writer, args=(str(path), durability.value, seed, sender, threads))
    try:
        process.start()
        sender.close()
        if early:  # while it starts and opens (creates, migrates) the journal
            time.sleep(rng.uniform(0, 0.15))
        else:
            assert receiver.poll(SAFETY_TIMEOUT_S), "the writer never became ready"
            time.sleep(rng.uniform(0, WRITE_WINDOW_S))
        process.kill()
        process.join(SAFETY_TIMEOUT_S)
        assert process.exitcode == -signal.SIGKILL, f"the writer ended on its own: {process.exitcode}"
        return _drain(receiver)
    finally:
        if process.is_alive():  # only when an assertion above failed
            process.kill()
            process.join(SAFETY_TIMEOUT_S)
        process.close()
        receiver.close()


@dataclass
class JournalFile:
    path: Path
    durability: Durability
    acknowledged: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Every call ever reported on this file (and every entry committed before a kill), seq -> hashes."""
    trials: int = 0
    check: Future[AfterCrash] | None = None
    """The check of the file after its last kill, running in the checker process."""


def _take_check(file: JournalFile, counts: Counter[str]) -> None:
    """Wait for the file's last check and hold it to the rules."""
    if file.check is None:
        return
    found = file.check.result(timeout=SAFETY_TIMEOUT_S)
    file.check = None
    where = f"{file.path.name} after trial {file.trials}"
    if not found.journal_exists:  # killed before the journal was created: nothing to lose yet
        assert not file.acknowledged, where
        counts["kills before the journal existed"] += 1
        return
    assert not found.lost, f"{where}: acknowledged calls lost: {found.lost[:5]}"
    assert found.verified, f"{where}: {found.divergence}"
    assert found.dense, where
    # calls committed but killed before their report: in the journal, never acknowledged; from now
    # on they must stay too
    last_reported = max(file.acknowledged, default=0)
    counts["committed, killed before the report"] += max(found.entries, default=0) - last_reported
    file.acknowledged.update({seq: hashes for seq, hashes in found.entries.items() if seq > last_reported})


def test_sigkill_at_random_moments_loses_no_acknowledged_call(tmp_path: Path) -> None:
    context = _context()
    seed = random.randrange(2**32)
    print(f"\ncrash seed {seed}")
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    files = [
        JournalFile(tmp_path / f"journal-{number}.db", (Durability.NORMAL, Durability.FULL)[number % 2])
        for number in range(FILES)
    ]
    # the check after a kill (a replay) runs in another process while the next file's writer runs;
    # files take turns, so a file's check is done long before its next trial
    with ProcessPoolExecutor(1, mp_context=context) as checker:
        for trial in range(TRIALS):
            file = files[trial % FILES]
            _take_check(file, counts)
            early = file.trials == 0 or rng.random() < 0.1
            threads = THREADED_WRITER if trial % 3 == 2 else 1  # every third trial: group commits
            messages = _kill_one_writer(
                context, file.path, file.durability, rng.randrange(2**31), rng, early, threads
            )
            file.trials += 1
            counts[f"trials ({file.durability}, {threads} thread{'s' if threads > 1 else ''})"] += 1
            counts["kills while opening" if not messages else "kills while writing"] += 1
            unacknowledged = [message for message in messages if message[0] == "unacknowledged"]
            assert not unacknowledged, unacknowledged
            reported = [message for message in messages if isinstance(message[0], int)]
            for seq, entry_hash, result_hash in reported:
                assert seq not in file.acknowledged, f"seq {seq} acknowledged twice"
                file.acknowledged[seq] = (entry_hash, result_hash)
            counts["acknowledged calls"] += len(reported)
            file.check = checker.submit(check_after_crash, str(file.path), dict(file.acknowledged))
        for file in files:
            _take_check(file, counts)
            counts["journal entries"] += len(file.acknowledged)
    assert counts["kills while writing"] >= TRIALS // 2
    counts["lost acknowledged calls"] = 0
    counts["chain breaks"] = 0
    print("crashes: " + ", ".join(f"{name} {value}" for name, value in sorted(counts.items())))
