"""Who ``arvis call`` acts as (issue 21 item 1): no default principal, and built-in administrators
(``admin:…``, ``operator:…``) only with the database's admin key, a private file beside it
(``tools/admin_key.py``, ``specs/access-and-pipelines.md`` §1.1)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

OPERATOR = "operator:local"
WRITE_B = json.dumps(
    {"user_id": "b", "key": "no_peanuts", "memory_type": "constraint", "source": "explicit_user"}
)
LIST_B = json.dumps({"user_id": "b"})
KEY_TEXT = re.compile(r"[0-9a-f]{64}\n")
PG_URL = "postgresql://arvis:hunter2@127.0.0.1:1/arvis?connect_timeout=2"


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own directory as the working directory, none of the ARVIS_ variables set."""
    monkeypatch.chdir(tmp_path)
    for name in ("ARVIS_DB", "ARVIS_PRINCIPAL", "ARVIS_ADMIN_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def db(here: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A journal made by ``arvis call --create`` (user b writes one constraint), with its key beside."""
    code, _, err = h.cli(capsys, "call", "memory.write", "--db", "j.db", "--create", "--principal", "user:b",
                         "--args", WRITE_B)  # fmt: skip
    assert code == 0, err
    return here / "j.db"


def _names(directory: Path) -> set[str]:
    return {entry.name for entry in directory.iterdir()}


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _count(path: Path) -> int:
    with h.reader_of(path) as reader:
        return reader.count()


def _error(err: str) -> str:
    """The one ``arvis:`` line of a usage error (exit 2), with its hint."""
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err
    return err


def _call(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, Any, str]:
    code, out, err = h.cli(capsys, "call", *argv)
    return code, json.loads(out) if out else None, err


# --- no default principal ----------------------------------------------------------------------------


def test_without_a_principal_the_call_is_refused_and_nothing_is_written(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, answer, err = _call(capsys, "memory.list", "--db", "new.db", "--create", "--args", LIST_B)
    assert code == 2 and answer is None
    message = _error(err)
    assert "--principal" in message and "ARVIS_PRINCIPAL" in message
    assert _names(here) == set()  # no database, no key


def test_without_a_principal_an_existing_journal_is_untouched(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = db.read_bytes()
    code, _, err = _call(capsys, "memory.list", "--db", db, "--args", LIST_B)
    assert code == 2
    _error(err)
    assert db.read_bytes() == before


def test_the_principal_may_come_from_the_environment(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARVIS_PRINCIPAL", "user:b")
    code, answer, err = _call(capsys, "memory.list", "--db", db, "--args", LIST_B)
    assert code == 0, err
    assert answer["value"]["count"] == 1
    code, answer, _ = _call(capsys, "memory.list", "--db", db, "--principal", "user:a", "--args", LIST_B)
    assert code == 1 and answer["error"]["code"] == "memory_policy_denied"  # --principal wins
    in_a_process = h.arvis_subprocess("call", "memory.list", "--db", db, "--args", LIST_B)
    assert in_a_process.returncode == 0, in_a_process.stderr
    with h.reader_of(db) as reader:
        assert [entry.principal for entry in reader.entries()] == ["user:b", "user:b", "user:a", "user:b"]


# --- the admin key -------------------------------------------------------------------------------------


def test_create_writes_a_private_key_beside_a_private_database(db: Path) -> None:
    key = db.with_name("j.db.admin-key")
    assert _mode(db) == 0o600 and _mode(key) == 0o600
    assert KEY_TEXT.fullmatch(key.read_text(encoding="ascii"))
    assert key.stat().st_uid == os.getuid()


def test_an_operator_with_the_key_reads_any_user(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for administrator in (OPERATOR, "admin:root"):
        code, answer, err = _call(
            capsys, "memory.list", "--db", db, "--principal", administrator, "--args", LIST_B
        )
        assert code == 0, err
        assert [item["entry"]["key"] for item in answer["value"]["entries"]] == ["no_peanuts"]
    assert h.verify(db).verified


def test_without_its_key_an_operator_is_refused_before_anything_is_opened(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = db.with_name("j.db.admin-key")
    key.unlink()
    before = db.read_bytes()
    code, answer, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2 and answer is None
    message = _error(err)
    assert str(key) in message and "arvis db keygen --db" in message
    assert db.read_bytes() == before and _count(db) == 1


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o700])
def test_a_key_others_may_read_or_write_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str], mode: int
) -> None:
    key = db.with_name("j.db.admin-key")
    key.chmod(mode)
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    if not mode & 0o077:
        assert code == 0, err  # 0700: still the owner's alone
        return
    assert code == 2
    message = _error(err)
    assert f"mode {mode:04o}" in message and "chmod 600" in message
    assert _count(db) == 1


@pytest.mark.parametrize(
    "content", [b"", b"\n", b"00" * 31 + b"\n", b"00" * 33 + b"\n", b"zz" * 32 + b"\n", b"00" * 32 + b"\n\n"]
)
def test_a_malformed_key_is_refused(db: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    key = db.with_name("j.db.admin-key")
    key.write_bytes(content)
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2
    assert "malformed" in _error(err)
    assert _count(db) == 1


def test_a_key_that_is_not_a_regular_file_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = db.with_name("j.db.admin-key")
    key.unlink()
    key.mkdir(mode=0o700)
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2
    assert "not a regular file" in _error(err)
    key.rmdir()
    os.mkfifo(key, 0o600)  # opened without blocking, then refused
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2
    assert "not a regular file" in _error(err)
    assert _count(db) == 1


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file away needs root")
def test_a_key_of_another_user_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = db.with_name("j.db.admin-key")
    os.chown(key, 1, -1)
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2
    assert "another user" in _error(err)


# --- principals that are not administrators ------------------------------------------------------------


def test_a_user_needs_no_key_and_reads_only_its_own_memory(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db.with_name("j.db.admin-key").unlink()
    code, answer, err = _call(
        capsys, "memory.list", "--db", db, "--principal", "user:a", "--args", '{"user_id": "a"}'
    )
    assert code == 0, err
    code, answer, err = _call(capsys, "memory.list", "--db", db, "--principal", "user:a", "--args", LIST_B)
    assert code == 1
    assert answer["error"]["code"] == "memory_policy_denied"
    code, answer, err = _call(capsys, "memory.list", "--db", db, "--principal", "agent:x", "--args", LIST_B)
    assert code == 1 and answer["error"]["code"] == "memory_policy_denied"  # no grant
    assert h.verify(db).verified


def test_a_user_never_reads_the_key(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever state the key file is in, a principal that does not need it is not refused for it."""
    key = db.with_name("j.db.admin-key")
    key.write_bytes(b"not a key")
    key.chmod(0o666)
    code, _, err = _call(capsys, "memory.list", "--db", db, "--principal", "user:b", "--args", LIST_B)
    assert code == 0, err


@pytest.mark.parametrize("principal", ["admin:", "operator:", "Operator:x", "user:operator:x"])
def test_names_that_only_look_like_administrators_need_no_key(
    db: Path, capsys: pytest.CaptureFixture[str], principal: str
) -> None:
    """``admin:`` and ``operator:`` alone are not administrators: they act by their grants (none)."""
    db.with_name("j.db.admin-key").unlink()
    code, answer, err = _call(capsys, "memory.list", "--db", db, "--principal", principal, "--args", LIST_B)
    assert code == 1, err
    assert answer["error"]["code"] == "memory_policy_denied"


def test_an_administrator_name_that_is_not_utf8_is_refused_for_its_form(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """argv bytes that are not UTF-8 have no token: the kernel refuses the principal's form, journaled."""
    code, answer, err = _call(
        capsys, "memory.list", "--db", db, "--principal", "operator:\udcff", "--args", LIST_B
    )
    assert code == 1, err
    assert answer["error"]["code"] == "invalid_principal"
    assert _count(db) == 2


# --- where the key is ------------------------------------------------------------------------------------


def test_the_key_may_live_elsewhere(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "keys").mkdir(mode=0o700)
    code, _, err = _call(capsys, "memory.write", "--db", "j.db", "--create", "--principal", "user:b",
                         "--admin-key", "keys/j.key", "--args", WRITE_B)  # fmt: skip
    assert code == 0, err
    assert _names(here) == {"j.db", "keys"} and _mode(here / "keys" / "j.key") == 0o600
    code, _, err = _call(capsys, "memory.list", "--db", "j.db", "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2 and "j.db.admin-key" in _error(err)  # not at the default place
    code, _, err = _call(capsys, "memory.list", "--db", "j.db", "--principal", OPERATOR, "--admin-key",
                         "keys/j.key", "--args", LIST_B)  # fmt: skip
    assert code == 0, err
    monkeypatch.setenv("ARVIS_ADMIN_KEY", "keys/j.key")
    code, _, err = _call(capsys, "memory.list", "--db", "j.db", "--principal", OPERATOR, "--args", LIST_B)
    assert code == 0, err


def test_create_keeps_a_key_that_exists(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = here / "j.db.admin-key"
    key.write_bytes(b"ab" * 32 + b"\n")
    key.chmod(0o600)
    code, _, err = _call(capsys, "memory.write", "--db", "j.db", "--create", "--principal", OPERATOR,
                         "--args", WRITE_B)  # fmt: skip
    assert code == 0, err
    assert key.read_bytes() == b"ab" * 32 + b"\n"


def test_create_on_an_existing_journal_writes_no_key(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db.with_name("j.db.admin-key").unlink()
    code, _, err = _call(
        capsys, "memory.list", "--db", db, "--create", "--principal", OPERATOR, "--args", LIST_B
    )
    assert code == 2 and "arvis db keygen" in _error(err)
    assert not db.with_name("j.db.admin-key").exists()


def test_a_database_that_could_not_be_created_leaves_no_key(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _call(capsys, "memory.list", "--db", "sqlite:///absent.db?mode=ro", "--create",
                       "--principal", "user:b", "--args", LIST_B)  # fmt: skip
    assert code == 2
    assert _names(here) == set()


# --- arvis db keygen ---------------------------------------------------------------------------------------


def test_keygen_writes_a_key_once(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.build_journal(here / "j.db", h.STANDARD_CALLS[:2])  # written in-process: no key
    code, _, err = _call(capsys, "memory.list", "--db", "j.db", "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2 and "arvis db keygen --db j.db" in err
    code, out, err = h.cli(capsys, "db", "keygen", "--db", "j.db")
    assert code == 0, err
    assert "j.db.admin-key" in out
    key = here / "j.db.admin-key"
    assert _mode(key) == 0o600 and KEY_TEXT.fullmatch(key.read_text(encoding="ascii"))
    code, _, err = _call(capsys, "memory.list", "--db", "j.db", "--principal", OPERATOR, "--args", LIST_B)
    assert code == 0, err
    before = key.read_bytes()
    code, out, err = h.cli(capsys, "db", "keygen", "--db", "j.db")
    assert code == 2 and out == ""
    assert "keygen never replaces it" in _error(err)
    assert key.read_bytes() == before and _mode(key) == 0o600


def test_keygen_never_replaces_a_moved_key(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The old release minted a new key once the old file was moved away; the journal now holds the
    verifier of its key, and keygen refuses to replace it, however the file is named."""
    h.build_journal(here / "j.db", h.STANDARD_CALLS[:2])
    assert h.cli(capsys, "db", "keygen", "--db", "j.db")[0] == 0
    (here / "j.db.admin-key").rename(here / "moved.key")
    code, out, err = h.cli(capsys, "db", "keygen", "--db", "j.db")
    assert code == 2 and out == "" and "keygen never replaces it" in _error(err)
    assert not (here / "j.db.admin-key").exists()
    code, _, err = h.cli(
        capsys, "db", "bind-admin-key", "--db", "j.db", "--admin-key", str(here / "moved.key")
    )
    assert code == 2 and "binding never replaces it" in _error(err)
    code, _, _ = _call(
        capsys,
        "memory.list",
        "--db",
        "j.db",
        "--principal",
        OPERATOR,
        "--admin-key",
        "moved.key",
        "--args",
        LIST_B,
    )
    assert code == 0


def test_keygen_needs_an_existing_journal(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = h.cli(capsys, "db", "keygen", "--db", "typo.db")
    assert code == 2
    assert "no journal at typo.db" in _error(err)
    assert _names(here) == set()


# --- PostgreSQL: no default place ------------------------------------------------------------------------


def test_an_administrator_on_postgresql_needs_admin_key(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before connecting (the URL names no server)."""
    code, _, err = _call(capsys, "memory.list", "--db", PG_URL, "--principal", OPERATOR, "--args", LIST_B)
    assert code == 2
    message = _error(err)
    assert "--admin-key" in message and "ARVIS_ADMIN_KEY" in message and "hunter2" not in message
    code, _, err = h.cli(capsys, "db", "keygen", "--db", PG_URL)
    assert code == 2
    assert "--admin-key" in _error(err)
    assert _names(here) == set()
    code, _, err = h.cli(capsys, "db", "keygen", "--db", PG_URL, "--admin-key", "pg.key")  # binds: connects
    assert code == 2 and "storage error" in err
    assert _names(here) == set()  # the key of a binding that failed is not left behind
    (here / "pg.key").write_text("ab" * 32 + "\n", encoding="ascii")
    (here / "pg.key").chmod(0o600)
    code, _, err = _call(capsys, "memory.list", "--db", PG_URL, "--principal", OPERATOR, "--admin-key",
                         "pg.key", "--args", LIST_B)  # fmt: skip
    assert code == 2 and "storage error" in err  # past the key: only the server is missing


def test_a_user_on_postgresql_needs_no_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _call(capsys, "memory.list", "--db", PG_URL, "--principal", "user:b", "--args", LIST_B)
    assert code == 2 and "storage error" in err and "admin key" not in err


# --- help ---------------------------------------------------------------------------------------------------


def test_the_help_names_no_default_principal(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        h.cli(capsys, "call", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "ARVIS_PRINCIPAL" in text and "--admin-key" in text and "operator:local" not in text


def test_the_patterns_that_need_the_key_are_the_built_in_administrators() -> None:
    from arvis.access import ADMIN_PREFIXES
    from tools.admin_key import ADMIN_PATTERNS

    assert tuple(prefix + "*" for prefix in ADMIN_PREFIXES) == ADMIN_PATTERNS
