"""Administration is bound to the journal (issue 36, finding 4): the journal holds the verifier of its
admin key (``journal.admin_binding``), and only the key's holder acts as a built-in administrator, in
Python as on the command line; ``Kernel.execute`` is no way around identity and clock."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from pathlib import Path

import pytest

from journal.admin_binding import BINDING_KIND, current_verifier
from journal.engine import open_engine
from kernel.abi import RecordedCall
from kernel.identity import VouchedPrincipals, admin_credential, admin_verifier
from syscalls.boot import open_kernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

OPERATOR = "operator:local"
LIST = {"principal": None}
GOLDEN_R1 = Path(__file__).parent / "golden" / "r1-long-term.db"


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("ARVIS_DB", "ARVIS_PRINCIPAL", "ARVIS_ADMIN_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _refused(result: object) -> bool:
    error = getattr(result, "error", None)
    return error is not None and error.code == "principal_not_allowed"


def _private_key_file(path: Path) -> Path:
    path.write_text(secrets.token_hex(32) + "\n", encoding="ascii")
    path.chmod(0o600)
    return path


def _verifier(path: Path) -> str | None:
    engine = open_engine(str(path))
    try:
        with engine.connect() as connection:
            return current_verifier(connection)
    finally:
        engine.dispose()


# --- Python ---------------------------------------------------------------------------------------------


def test_open_kernel_admits_no_administrator_without_the_key(tmp_path: Path) -> None:
    kernel = open_kernel(str(tmp_path / "j.db"), create=True)
    try:
        for principal in ("admin:anyone", "operator:anyone"):
            result = kernel.call("access.list", LIST, principal=principal)
            assert _refused(result) and result.seq is not None  # journaled, changing nothing
        assert kernel.call("access.list", {"principal": "user:u"}, principal="user:u").ok
    finally:
        kernel.close()


def test_only_the_journals_key_makes_an_administrator(tmp_path: Path) -> None:
    key, foreign = secrets.token_bytes(32), secrets.token_bytes(32)
    kernel = open_kernel(str(tmp_path / "j.db"), admin_key=key, create=True)
    try:
        assert kernel.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(key)).ok
        for credential in (admin_credential(foreign), "00" * 32, key.hex().upper()[:-1], None, "x"):
            assert _refused(kernel.call("access.list", LIST, principal=OPERATOR, credential=credential))
    finally:
        kernel.close()
    assert _verifier(tmp_path / "j.db") == admin_verifier(key)
    reopened = open_kernel(
        str(tmp_path / "j.db"), admin_key=foreign, create=True
    )  # an existing journal keeps its own
    try:
        assert _refused(
            reopened.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(foreign))
        )
        assert reopened.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(key)).ok
    finally:
        reopened.close()


def test_an_application_may_vouch_for_its_administrators(tmp_path: Path) -> None:
    kernel = open_kernel(str(tmp_path / "j.db"), identity=VouchedPrincipals(administrators=True), create=True)
    try:
        assert kernel.call("access.list", LIST, principal=OPERATOR).ok
    finally:
        kernel.close()


def test_arvis_store_refuses_an_administrator_without_the_key(tmp_path: Path) -> None:
    pytest.importorskip("langgraph")
    from integrations.langgraph import ArvisCheckpointError, ArvisStore

    db = str(tmp_path / "lg.db")
    open_kernel(db, create=True).close()  # a path names an existing journal (syscalls.boot.JournalNotFound)
    with ArvisStore(db, principal="agent:alice") as alice:
        alice.put(("alice",), "secret", {"value": 1})
    with ArvisStore(db, principal="operator:anyone") as intruder:
        with pytest.raises(ArvisCheckpointError) as refused:
            intruder.get(("alice",), "secret")
        assert refused.value.code == "principal_not_allowed"


def test_execute_is_no_way_around_identity_and_clock(tmp_path: Path) -> None:
    kernel = open_kernel(str(tmp_path / "j.db"), create=True)
    try:
        forged = RecordedCall(
            syscall="access.grant",
            principal="admin:anyone",
            args=b'{"capability":"admin","principal":"user:mallory","scope":"*"}',
            recorded_at="1999-01-01T00:00:00.000000Z",
        )
        result = kernel.execute(forged)
        assert _refused(result) and result.seq is None
        assert kernel.call("access.list", {"principal": "user:mallory"}, principal="user:mallory").value == {
            "grants": []
        }
    finally:
        kernel.close()
    with h.reader_of(tmp_path / "j.db") as reader:
        assert [entry.syscall for entry in reader.entries()] == ["access.list"]


# --- the command line -----------------------------------------------------------------------------------


def _call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return h.cli(capsys, "call", "access.list", "--args", json.dumps(LIST), *argv)


def test_a_foreign_key_file_makes_no_administrator(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "call", "access.list", "--db", "j.db", "--create", "--principal", "user:u",
                         "--args", json.dumps({"principal": "user:u"}))  # fmt: skip
    assert code == 0, err
    assert _call(capsys, "--db", "j.db", "--principal", OPERATOR)[0] == 0  # the key --create wrote
    _private_key_file(here / "mine.key")
    code, out, err = _call(capsys, "--db", "j.db", "--principal", OPERATOR, "--admin-key", "mine.key")
    assert code == 2 and out == ""
    assert "is not this journal's admin key" in err
    with h.reader_of(here / "j.db") as reader:
        assert reader.count() == 2  # nothing written for the refused key


def test_an_old_journal_says_how_to_bind_its_key(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal of an older release has no verifier: it keeps verifying, has no administrator, and the
    command line names the command that binds one; binding is a journaled call."""
    old = here / "old.db"
    shutil.copy(GOLDEN_R1, old)
    assert h.cli(capsys, "journal", "verify", "--db", "old.db")[0] == 0
    _private_key_file(here / "old.db.admin-key")  # what the older release accepted as its admin key
    code, _, err = _call(capsys, "--db", "old.db", "--principal", OPERATOR)
    assert code == 2
    assert "no admin key bound" in err and "arvis db bind-admin-key --db old.db" in err
    with h.reader_of(old) as reader:
        before = reader.count()
    code, out, err = h.cli(capsys, "db", "bind-admin-key", "--db", "old.db")
    assert code == 0, err
    with h.reader_of(old) as reader:
        entries = list(reader.entries())
    assert len(entries) == before + 1
    bound = entries[-1]
    assert (bound.syscall, bound.principal, bound.status) == ("kernel.record", "admin:key-holder", "ok")
    assert json.loads(bound.args)["kind"] == BINDING_KIND
    assert f"seq {bound.seq}" in out
    assert _call(capsys, "--db", "old.db", "--principal", OPERATOR)[0] == 0
    assert h.cli(capsys, "journal", "verify", "--db", "old.db")[0] == 0
    code, _, err = h.cli(capsys, "db", "bind-admin-key", "--db", "old.db")  # never a second time
    assert code == 2 and "binding never replaces it" in err


def test_rotation_needs_the_current_key(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "call", "access.list", "--db", "j.db", "--create", "--principal", OPERATOR,
                         "--args", json.dumps(LIST))  # fmt: skip
    assert code == 0, err
    key = here / "j.db.admin-key"
    old = key.read_text(encoding="ascii")
    shutil.copy(key, here / "old.key")
    _private_key_file(here / "mine.key")
    code, _, err = h.cli(capsys, "db", "rotate-admin-key", "--db", "j.db", "--admin-key", "mine.key")
    assert code == 2 and "is not this journal's admin key" in err
    assert key.read_text(encoding="ascii") == old
    code, _, err = h.cli(capsys, "db", "rotate-admin-key", "--db", "j.db")
    assert code == 0, err
    assert key.read_text(encoding="ascii") != old and not (here / "j.db.admin-key.rotating").exists()
    assert _call(capsys, "--db", "j.db", "--principal", OPERATOR)[0] == 0
    (here / "old.key").chmod(0o600)
    code, _, err = _call(capsys, "--db", "j.db", "--principal", OPERATOR, "--admin-key", "old.key")
    assert code == 2 and "is not this journal's admin key" in err
    assert h.cli(capsys, "journal", "verify", "--db", "j.db")[0] == 0


def test_a_binding_row_counts_only_with_its_journaled_call(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row of ``admin_bindings`` added by hand, naming an entry that is not an accepted binding call,
    binds nothing: the header's verifier stays the journal's."""
    code, _, err = h.cli(capsys, "call", "access.list", "--db", "j.db", "--create", "--principal", OPERATOR,
                         "--args", json.dumps(LIST))  # fmt: skip
    assert code == 0, err
    verifier = _verifier(here / "j.db")
    assert verifier is not None
    with sqlite3.connect(here / "j.db") as connection:
        connection.execute("INSERT INTO admin_bindings VALUES (1, ?)", (admin_verifier(b"\0" * 32),))
    assert _verifier(here / "j.db") == verifier
    assert _call(capsys, "--db", "j.db", "--principal", OPERATOR)[0] == 0


def test_postgresql_holds_the_verifier_in_the_journal(pg_url: str) -> None:
    key = secrets.token_bytes(32)
    kernel = open_kernel(pg_url, admin_key=key, create=True)
    try:
        assert kernel.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(key)).ok
        assert _refused(
            kernel.call(
                "access.list", LIST, principal=OPERATOR, credential=admin_credential(secrets.token_bytes(32))
            )
        )
    finally:
        kernel.close()


def test_a_binding_call_writes_its_row_with_it(tmp_path: Path) -> None:
    """From format 6 a binding is one call: an administrator's ``kernel.record`` of kind
    ``admin_key.bound`` inserts its ``admin_bindings`` row in the entry's own transaction (an effect), so
    a binding made by hand, or cut off after its entry, can never leave a journal that fails
    verification; a kernel opened afterwards admits the new key and not the old; any other record writes
    nothing."""
    from journal.admin_binding import binding_args

    path = tmp_path / "j.db"
    old, new = secrets.token_bytes(32), secrets.token_bytes(32)
    kernel = open_kernel(str(path), create=True, admin_key=old)
    try:
        rotated = binding_args(admin_verifier(new))
        bound = kernel.call("kernel.record", rotated, principal=OPERATOR, credential=admin_credential(old))
        assert bound.ok and bound.seq == 1, bound
    finally:
        kernel.close()
    kernel = open_kernel(str(path))
    try:
        for run_id in ("r", ""):  # with a run_id, even an empty one, a record binds nothing (as always)
            other = {**binding_args(admin_verifier(old)), "run_id": run_id}
            assert kernel.call(
                "kernel.record", other, principal=OPERATOR, credential=admin_credential(new)
            ).ok
        refused = kernel.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(old))
        assert refused.error is not None and refused.error.code == "principal_not_allowed", refused
    finally:
        kernel.close()
    assert _verifier(path) == admin_verifier(new)
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT seq FROM admin_bindings").fetchall() == [(1,)]
        effects = [row[0] for row in connection.execute("SELECT effects_hash FROM journal ORDER BY seq")]
    assert effects[0] != effects[1] == effects[2]  # the binding's entry has an effect, the records none
    assert h.verify(path).verified
