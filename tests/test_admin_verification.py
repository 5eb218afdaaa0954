"""Every administrative byte verified (issue 48, finding 3): the header's admin verifier is bound by the
signed checkpoint (its ``arvis-header-2`` line), and ``admin_bindings`` must hold exactly the bindings the
journal's entries make, so that someone who can write the database can neither undo a rotation nor
install a key of their own while ``arvis journal verify`` passes, on SQLite and on PostgreSQL."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from journal.engine import open_engine
from kernel.identity import admin_verifier
from syscalls.boot import open_kernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

OPERATOR = "operator:local"
ATTACKER = admin_verifier(b"\x01" * 32)


class Journal:
    """A journal created with an admin key whose key was then rotated (one journaled binding), and a
    checkpoint signed after the rotation; ``tamper`` edits its database behind the kernel's back."""

    def __init__(self, target: str, here: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.target, self.capsys = target, capsys
        self.key = here / "admin.key"
        self.key.write_text(secrets.token_hex(32) + "\n", encoding="ascii")
        self.key.chmod(0o600)
        kernel = open_kernel(target, admin_key=bytes.fromhex(self.key.read_text()), create=True)
        try:  # an entry before the binding: a row inserted at seq 1 names an entry that is no binding call
            assert kernel.call("access.list", {"principal": "user:u"}, principal="user:u").ok
        finally:
            kernel.close()
        code, out, err = h.cli(
            capsys, "db", "rotate-admin-key", "--db", target, "--admin-key", self.key, "-o", "json"
        )
        assert code == 0, err
        self.binding_seq = int(json.loads(out)["seq"])
        assert h.cli(capsys, "journal", "keygen", "--name", "auditor", "--out", here / "signer")[0] == 0
        self.checkpoint, self.pub = here / "signed.cp", here / "signer.pub"
        code, _, err = h.cli(
            capsys,
            "journal",
            "checkpoint",
            "--db",
            target,
            "--sign",
            here / "signer",
            "--out",
            self.checkpoint,
        )
        assert code == 0, err

    def verify(self, *, signed: bool = True) -> tuple[int, dict[str, Any]]:
        extra = ("--checkpoint", self.checkpoint, "--key", self.pub) if signed else ()
        code, out, err = h.cli(self.capsys, "journal", "verify", "--db", self.target, *extra, "-o", "json")
        assert "unexpected error" not in err, err
        return code, json.loads(out)

    def tamper(self, table: str, statement: str, **values: object) -> None:
        engine = open_engine(self.target)
        try:
            with engine.begin() as connection:
                postgres = connection.dialect.name == "postgresql"
                if postgres:
                    connection.exec_driver_sql(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                else:
                    for (name,) in connection.exec_driver_sql(
                        f"SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '{table}'"
                    ).fetchall():
                        connection.exec_driver_sql(f"DROP TRIGGER {name}")
                assert connection.execute(text(statement), values).rowcount == 1
                if postgres:
                    connection.exec_driver_sql(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        finally:
            engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def journal(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Journal:
    for name in ("ARVIS_DB", "ARVIS_PRINCIPAL", "ARVIS_ADMIN_KEY"):
        monkeypatch.delenv(name, raising=False)
    target = str(tmp_path / "j.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))
    return Journal(target, tmp_path, capsys)


def _failed(journal: Journal, *, signed: bool = True) -> dict[str, Any]:
    code, report = journal.verify(signed=signed)
    assert (code, report["verified"]) == (1, False), report
    divergence: dict[str, Any] = report["divergence"]
    assert divergence["class"] == "invalid_history"
    return divergence


def test_the_untampered_journal_verifies(journal: Journal) -> None:
    assert journal.verify()[0] == 0
    assert journal.verify(signed=False)[0] == 0


def test_a_verifier_edited_in_the_header_fails_the_signed_checkpoint(journal: Journal) -> None:
    journal.tamper("journal_header", "UPDATE journal_header SET admin_verifier = :v", v=ATTACKER)
    divergence = _failed(journal)
    assert divergence["seq"] == 0
    assert divergence["reason"].startswith("journal header altered: its admin_verifier is not the one")
    assert divergence["labels"]["expected"] == "checkpoint's header digest"


def test_an_edited_binding_row_is_named_at_its_seq(journal: Journal) -> None:
    seq = journal.binding_seq
    journal.tamper(
        "admin_bindings", "UPDATE admin_bindings SET admin_verifier = :v WHERE seq = :s", v=ATTACKER, s=seq
    )
    for signed in (False, True):
        divergence = _failed(journal, signed=signed)
        assert divergence["seq"] == seq
        assert divergence["reason"].startswith(f"admin_bindings row at seq {seq} edited: its admin_verifier")
        assert divergence["found"] == ATTACKER and divergence["expected"] != ATTACKER


def test_a_deleted_binding_row_a_rotation_undone_is_named_at_its_seq(journal: Journal) -> None:
    seq = journal.binding_seq
    journal.tamper("admin_bindings", "DELETE FROM admin_bindings WHERE seq = :s", s=seq)
    for signed in (False, True):
        divergence = _failed(journal, signed=signed)
        assert divergence["seq"] == seq
        assert "has no admin_bindings row: the binding (or rotation) was deleted" in divergence["reason"]
        assert divergence["found"] is None and divergence["expected"] is not None


@pytest.mark.parametrize("at", [1, lambda journal: journal.binding_seq + 5])
def test_an_inserted_binding_row_with_another_key_is_named_at_its_seq(
    journal: Journal, at: int | Callable[[Journal], int]
) -> None:
    """At an entry that is no binding call (seq 1, the header's key in force), or past the head."""
    seq = at if isinstance(at, int) else at(journal)
    journal.tamper("admin_bindings", "INSERT INTO admin_bindings VALUES (:s, :v)", s=seq, v=ATTACKER)
    for signed in (False, True):
        divergence = _failed(journal, signed=signed)
        assert divergence["seq"] == seq
        assert divergence["reason"].startswith(f"admin_bindings row at seq {seq} binds an admin key, but")
        assert divergence["found"] == ATTACKER and divergence["expected"] is None


def test_a_checkpoint_signed_before_the_admin_line_still_checks(journal: Journal, tmp_path: Path) -> None:
    """A checkpoint of the previous release binds the header without its verifier (``arvis-header`` only):
    it still verifies the journal, its digest unchanged by the verifier the journal holds."""
    from journal import merkle
    from journal.reader import JournalReader
    from journal.signed_note import SignerKey, sign_note
    from journal.tree import journal_leaves, journal_size
    from journal.tree_checkpoint import HEADER_LINE, CheckpointBody, header_digest, origin_of

    reader = JournalReader.open(journal.target)
    try:
        header, size = reader.header(), journal_size(reader)
        assert header is not None and reader.admin_verifier() is not None
        root = merkle.root_of(journal_leaves(reader, size), size)
    finally:
        reader.close()
    line = HEADER_LINE + base64.b64encode(header_digest(header) or b"").decode()
    signer = SignerKey.parse((tmp_path / "signer").read_text())
    journal.checkpoint.write_text(
        sign_note(CheckpointBody(origin_of(header.journal_id), size, root, (line,)).text(), [signer])
    )
    Path(f"{journal.checkpoint}.tree").unlink()
    assert journal.verify()[0] == 0
