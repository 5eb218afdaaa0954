"""A partitioned set written before partitioned sets were removed (issue 49): each of its journal files
still verifies on its own with ``arvis journal verify --db FILE``.

``tests/golden/partitioned-set/`` (``tests/golden/README.md``) holds what the last code with partitions
wrote: two partitions (tenant key) and the global log of their heads, beside the manifest. Nothing here
reads the manifest any more; a file is an ordinary journal. Each test works on a copy: opening a WAL-mode
SQLite file may create ``-wal``/``-shm`` files beside it, and nothing may touch the fixtures.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import journal_helpers as h
import pytest

from journal.reader import JournalReader

SET_DIR = Path(__file__).parent / "golden" / "partitioned-set"


@dataclass(frozen=True)
class Member:
    name: str
    journal_id: str
    entries: int
    head_hash: str
    sha256: str  # of the file's bytes: the fixture is never edited or rewritten

    def __str__(self) -> str:
        return self.name


MEMBERS = (
    Member(
        "p0.db",
        "ps-golden/p0",
        4,
        "9642a09e1bf24353456fafab4942f7d4a5fd1395f8a7ccc3dc151ebde41b250c",
        "2c7932605e804a95d64c013cf274ed776c1ca870fd97b3efa26b269dd0986578",
    ),
    Member(
        "p1.db",
        "ps-golden/p1",
        4,
        "2f6888238898bd1da924865fd0fc3590f842f7abef94dfe803ff15fad8b64567",
        "f35b0b3a44a868cc6b9d3d42f0d1ce1bf19883a272b300f798a0ad6e6aeb795d",
    ),
    Member(
        "global.db",
        "ps-golden/global",
        2,
        "dbd1c85664c9e0b89f8ea8c621fb03f9205b617bd450dda88aa5b1039e48da00",
        "181f7aa8dde408ec762c2bcd3fa99d4ad79f30b886f14a5d30e276a88c61ac2f",
    ),
)


@pytest.mark.parametrize("member", MEMBERS, ids=str)
def test_the_fixture_is_pristine(member: Member) -> None:
    path = SET_DIR / member.name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == member.sha256, (
        f"{path} was changed: golden journals are never edited or regenerated (tests/golden/README.md)"
    )
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        assert not side.exists(), f"{side} exists: the golden file was opened in place; delete it"


@pytest.mark.parametrize("member", MEMBERS, ids=str)
def test_each_journal_of_the_set_verifies_on_its_own(
    member: Member, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / member.name
    shutil.copyfile(SET_DIR / member.name, copy)
    code, out, err = h.cli(capsys, "journal", "verify", "--db", copy, "-o", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["verified"] and report["replayed"], report
    assert (report["entries"], report["head_seq"], report["head_hash"]) == (
        member.entries,
        member.entries,
        member.head_hash,
    )
    reader = JournalReader.open(str(copy))
    try:
        header = reader.header()
    finally:
        reader.close()
    assert header is not None and header.journal_id == member.journal_id
