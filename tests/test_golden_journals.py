"""Golden journals: a journal written by any release verifies under every later one.

``tests/golden/r1-*.db`` were written once by release r1 (commit 758671f, ``tests/golden/README.md``)
and are never regenerated. Each test works on a copy in ``tmp_path``: opening a WAL-mode SQLite file,
even to read it, may create ``-wal``/``-shm`` files beside it, and nothing may touch the fixtures.

What must hold for every golden journal, under the code being tested:
- it verifies: chain intact, every entry replayed byte for byte (status, result bytes, effects hash),
  the stored state equal to the replayed state, through the library and through ``arvis journal verify``;
- its entry count, head entry hash and state digest are the recorded ones (a change of what old bytes
  mean is caught);
- ``JournalReplayKernel`` serves every recorded call back, in order, with its recorded result.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from arvis.canonical import decode
from journal import blob_store
from journal.entry import Pos
from journal.reader import JournalReader
from kernel.abi import JournalEntry
from kernel.formats import piece_paths
from kernel.replay_kernel import JournalReplayKernel
from kernel.result_pieces import expand, references
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal

GOLDEN_DIR = Path(__file__).parent / "golden"
ARVIS_BIN = Path(sys.executable).with_name("arvis")


@dataclass(frozen=True)
class Golden:
    name: str
    journal_id: str
    entries: int
    head_hash: str
    sha256: str  # of the file's bytes: the fixture itself is never edited or rewritten
    state_digest: str  # of its stored state, as release r1's ``journal.state.state_digest`` computes it

    def __str__(self) -> str:
        return self.name


GOLDENS = (
    Golden(
        "r1-long-term.db",
        "golden:r1-long-term",
        78,
        "2e341437404f171f65cda8fcebd74ea1fb470557eef5c065890307a1f495f396",
        "a804566a17e73b1616728f8b99ad60cd13ee11982cc429f6b0565b79549db62f",
        "fe57dfac9ca07ae4cb82fd6826d4bc92d0d092e13effce970394b8b159ac491e",
    ),
    Golden(
        "r1-working-memory.db",
        "golden:r1-working-memory",
        155,
        "5c176b2cf4a7ea169ff1360237bca5e3a1d149a36817428fc171536bada3d3d0",
        "112020939c2083543597814b21020563e8fe8bfdbe1b20e19649906d662e492c",
        "759da06c380b7f5e5dd86a343e1ee4d8e449b37c83d1f72eba3463dd0dc757bd",
    ),
    Golden(
        "r1-scenario.db",
        "scenario:poisoned-source:FULL_AWMU",
        135,
        "a13c6920d5bb0ae80f97691dca2b1ab0722964869cdb9c20606c83f18a234dfa",
        "5661c6433c67697b01b68555871ac73a3ac195907d90f75c09b38b7ae7f2375a",
        "1c474d471782ed99443ece46734171e965ee621495a5e67e31f322fcbf777c74",
    ),
    # rules 2 of the working memory, with the semantic detector's runs recorded (generate_r2.py)
    Golden(
        "r2-scenario.db",
        "scenario:poisoned-source:FULL_AWMU",
        95,
        "183cfc1ac0ccd7c8de87f3866b1e73c883583dc9fc54864dc251c0690dcfd31a",
        "9578724427e9ce0319cf8760899ff46912608c3a1fefae4f7a3b68e096cadb3c",
        "03f00aecdb40703c9c2ad39d707fdad2f02f6fa7fed713f58abcde48c39fe7af",
    ),
    # journal format 3: reads journaled by reference (generate_r3.py)
    Golden(
        "r3-contract.db",
        "golden:r3-contract",
        220,
        "e06113fb33b5af8adce898e8f25af94429e85c98909f5b6b2feade496dedb620",
        "666081b117bee7a413b4ab51032d0d40d1f46eef9584885d1db6ea368729cf20",
        "56b59480bdb5fd3710be6e66922d4d57ff0645442e91546edb13c8673eaa6c9c",
    ),
    # journal format 6: a working-memory context under rules 4 (origin bound to the caller) and a graph
    # store under a quota, revision 0013 (generate_r4.py)
    Golden(
        "r4-origins.db",
        "golden:r4-origins",
        24,
        "174cfe43ecfe1811bd7855f163a19ea0092f3a521072cf7bc02b203bdbbd6a0a",
        "e7d0b314a114234537739128c87fa4d7d66736bb3f90ca72c272ae818472053c",
        "f43f35282ecf90ea797adf11b30fb29564c610ec9d380db7fb58475bf715f294",
    ),
    # journal format 7 at revision 0014 (the effects log): a working-memory context under rules 5 (the
    # Sybil bound) and a store name taken by its first write (generate_r5.py)
    Golden(
        "r5-sybil.db",
        "golden:r5-sybil",
        23,
        "8f9f35f4f1db74d7da6b19189e966a161ba33f5897d22b9df0373ed96b4ec4a7",
        "188290fde84b8abaf2a4fe6daea9f4c3ccf607ea3c52a99baabca156e1708416",
        "5d9d9fff90f89666da0bdbc25682c124d0c8bc410a2b27ee5202ba0725543d73",
    ),
    # journal format 7 at revision 0015 (memory entries' version seqs): a working-memory context under
    # rules 6 (readers of version 3) with a queue policy that expires what waits (generate_r6.py)
    Golden(
        "r6-queue.db",
        "golden:r6-queue",
        20,
        "9cd9742cfd1acf8bb49ae08a88441c44bfad5667be02fe10ba23b21bc47d3585",
        "c000fc9d56fa1baf6d882dda03de6e58785df48781528c3fe196c15771040453",
        "1bf6b4e64d0cb4495bdcad49a69f8856711938e6b1ae6bfd74d19077cda701fe",
    ),
    # journal format 7 at revision 0018 (the LangGraph tables keep their past in rows, graph_history): every
    # family's contract calls (generate_r7.py)
    Golden(
        "r7-history.db",
        "golden:r7-history",
        176,
        "778232d7e8169664223c5b1a5f8e2c1424f2d2113083c4568fa093fc6683ba74",
        "5f68fab74b63cc0543a610876c58664979a2cf1fc41e9a0b1918b04bd2d12076",
        "22b4201656ddaac143de7c0712d6fb14e8eca9564cdccbebe1503d085cf069f5",
    ),
    # journal format 8 at revision 0021 (each LangGraph value journaled once, the hash of its bytes derived):
    # every family's contract calls (generate_r8.py)
    Golden(
        "r8-values-once.db",
        "golden:r8-values-once",
        176,
        "9474f3c42d2829386555696ac3b2986a4ebf2985cb942c410181db58bd1db588",
        "f9d1d8257b8709749e183574cdf3887ce4f1c071ad4ef821638d6164bbde34c5",
        "22b4201656ddaac143de7c0712d6fb14e8eca9564cdccbebe1503d085cf069f5",
    ),
)


@pytest.fixture(params=GOLDENS, ids=str)
def golden(request: pytest.FixtureRequest) -> Golden:
    chosen: Golden = request.param
    return chosen


@pytest.fixture
def copy(golden: Golden, tmp_path: Path) -> Path:
    """A private copy of the golden file (contents only: the fixture's mode and times are not copied)."""
    target = tmp_path / golden.name
    shutil.copyfile(GOLDEN_DIR / golden.name, target)
    return target


def _verify(path: Path, *, replay: bool = True, checkpoint: Pos | None = None) -> ReplayReport:
    reader = JournalReader.open(str(path))
    try:
        return verify_journal(reader, table=SYSCALL_TABLE, replay=replay, checkpoint=checkpoint)
    finally:
        reader.close()


def test_the_fixture_is_pristine(golden: Golden) -> None:
    path = GOLDEN_DIR / golden.name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == golden.sha256, (
        f"{path} was changed: golden journals are never edited or regenerated (tests/golden/README.md)"
    )
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        assert not side.exists(), f"{side} exists: the golden file was opened in place; delete it"


def test_the_journal_verifies_by_replay(golden: Golden, copy: Path) -> None:
    report = _verify(copy)
    assert report.verified, report.to_json()
    assert report.replayed
    assert (report.entries, report.head.seq) == (golden.entries, golden.entries)
    assert report.head.entry_hash == golden.head_hash
    # the replayed state equals the stored one (verified) and digests as it did under r1: a change of how
    # rows enter the digest would otherwise pass, both sides moving together
    assert report.state_digest == golden.state_digest


def test_the_journal_still_extends_its_recorded_head(golden: Golden, copy: Path) -> None:
    report = _verify(copy, checkpoint=Pos(golden.entries, golden.head_hash))
    assert report.verified, report.to_json()
    chain_only = _verify(copy, replay=False)
    assert chain_only.verified and not chain_only.replayed, chain_only.to_json()
    assert (chain_only.entries, chain_only.head.entry_hash) == (golden.entries, golden.head_hash)


def test_the_header_and_head_entry_are_the_recorded_ones(golden: Golden, copy: Path) -> None:
    reader = JournalReader.open(str(copy))
    try:
        header = reader.header()
        head = reader.head()
        count = reader.count()
    finally:
        reader.close()
    assert header is not None and header.journal_id == golden.journal_id
    assert head is not None and (head.seq, head.entry_hash) == (golden.entries, golden.head_hash)
    assert count == golden.entries


def test_arvis_journal_verify_accepts_it(golden: Golden, copy: Path) -> None:
    completed = subprocess.run(
        [str(ARVIS_BIN), "journal", "verify", "--db", str(copy), "-o", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ARVIS_DB": ""},
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    report = json.loads(completed.stdout)
    assert report["verified"] is True and report["replayed"] is True
    assert (report["entries"], report["head_hash"]) == (golden.entries, golden.head_hash)


def _referenced(entries: list[JournalEntry]) -> list[str]:
    return [key for entry in entries for key in references(entry.result, piece_paths(entry.syscall))]


def test_journal_replay_kernel_serves_every_recorded_call(golden: Golden, copy: Path) -> None:
    reader = JournalReader.open(str(copy))
    try:
        entries = list(reader.entries())
        # a format-3 journal's reads are served whole: their pieces read back from its blob store
        pieces = blob_store.get_many(reader.engine, _referenced(entries))
    finally:
        reader.close()
    assert len(entries) == golden.entries
    replay = JournalReplayKernel(entries, pieces=lambda keys: pieces)
    first = entries[0]
    stray = replay.call(first.syscall, decode(first.args), principal=first.principal + "-someone-else")
    assert not stray.ok and stray.seq is None and stray.error is not None
    assert stray.error.code == "replay_divergence"  # and the cursor stays where it was
    for entry in entries:
        served = replay.call(entry.syscall, decode(entry.args), principal=entry.principal)
        recorded = decode(expand(entry.result, piece_paths(entry.syscall), lambda keys: pieces))
        assert served.seq == entry.seq, (entry.seq, served.to_dict())
        assert served.ok is (entry.status == "ok") is recorded["ok"]
        if served.ok:
            assert served.value == recorded["value"]
        else:
            assert served.error is not None
            assert served.error.code == entry.status == recorded["error"]["code"]
            assert served.error.detail == recorded["error"]["detail"]
    assert replay.exhausted
    assert replay.served == golden.entries


def test_a_rules_2_journal_verifies_without_the_semantic_packages(tmp_path: Path) -> None:
    """Verification reads the semantic detector's runs from the journal: with onnxruntime, tokenizers and
    numpy made unimportable, the rules-2 golden journal still verifies byte for byte."""
    target = tmp_path / "r2.db"
    shutil.copyfile(GOLDEN_DIR / "r2-scenario.db", target)
    script = (
        "import sys\n"
        "for name in ('onnxruntime', 'tokenizers', 'numpy'):\n"
        "    sys.modules[name] = None\n"
        "from journal.reader import JournalReader\n"
        "from tools.audit.replay import verify_journal\n"
        "from kernel.services import shared_encoder\n"
        "from syscalls.table import SYSCALL_TABLE\n"
        "assert shared_encoder() is None\n"
        f"report = verify_journal(JournalReader.open({str(target)!r}), table=SYSCALL_TABLE)\n"
        "assert report.verified, report.to_json()\n"
        "print(report.entries)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "95"
