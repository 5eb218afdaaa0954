"""The journal's administrators at the seams (issue 36, finding 4): a ``Kernel`` built directly and a
journal copied with ``arvis journal copy`` admit a built-in administrator only with the journal's admin
key, as ``open_kernel`` does (``journal.admin_binding``, ``kernel.identity``)."""

from __future__ import annotations

import secrets
import shutil
from pathlib import Path

import pytest

from journal.admin_binding import current_verifier
from journal.engine import open_engine
from journal.store import SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.identity import (
    AllowedPrincipals,
    IdentityPolicy,
    JournalAdministrators,
    SignedPrincipals,
    VouchedPrincipals,
    admin_credential,
    admin_verifier,
)
from syscalls.boot import default_services, open_kernel
from syscalls.table import SYSCALL_TABLE

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

OPERATOR = "operator:ops"
LIST = {"principal": None}
GOLDEN_R1 = Path(__file__).parent / "golden" / "r1-long-term.db"
POLICIES: list[IdentityPolicy | None] = [
    None,
    VouchedPrincipals(),
    AllowedPrincipals(["operator:*", "admin:*", "user:*"]),
    SignedPrincipals(bytes(range(32)), required_for=("agent:*",)),
]


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("ARVIS_DB", "ARVIS_PRINCIPAL", "ARVIS_ADMIN_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _refused(result: object) -> bool:
    error = getattr(result, "error", None)
    return error is not None and error.code == "principal_not_allowed"


def _verifier(target: str | Path) -> str | None:
    engine = open_engine(str(target))
    try:
        with engine.connect() as connection:
            return current_verifier(connection)
    finally:
        engine.dispose()


def _key_file(path: Path) -> bytes:
    key = secrets.token_bytes(32)
    path.write_text(key.hex() + "\n", encoding="ascii")
    path.chmod(0o600)
    return key


def _direct(path: Path, identity: IdentityPolicy | None, verifier: str | None = None) -> Kernel:
    clock = h.make_clock()
    store = SqlJournalStore(open_engine(str(path)), clock=clock, admin_verifier=verifier)
    return Kernel(
        table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock, identity=identity
    )


def _admits(kernel: Kernel, key: bytes) -> bool:
    return kernel.call("access.list", LIST, principal=OPERATOR, credential=admin_credential(key)).ok


# --- a Kernel built directly ----------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES, ids=["none", "vouched", "allowed", "signed"])
def test_a_kernel_built_directly_admits_no_administrator_without_a_key(
    tmp_path: Path, policy: IdentityPolicy | None
) -> None:
    db = tmp_path / "j.db"
    kernel = _direct(db, policy)
    try:
        for principal in ("admin:anyone", OPERATOR):
            result = kernel.call("access.list", LIST, principal=principal)
            assert _refused(result) and result.seq is not None  # journaled
        assert not _admits(kernel, secrets.token_bytes(32))  # a journal without a verifier: no administrator
        assert kernel.call("access.list", {"principal": "user:u"}, principal="user:u").ok
    finally:
        kernel.close()
    report = h.verify(db)  # the replay reproduces the refusals from the journal, asking no policy
    assert report.verified and report.replayed, report.to_json()


@pytest.mark.parametrize("policy", POLICIES, ids=["none", "vouched", "allowed", "signed"])
def test_a_kernel_built_directly_admits_the_journals_key_only(
    tmp_path: Path, policy: IdentityPolicy | None
) -> None:
    key, foreign = secrets.token_bytes(32), secrets.token_bytes(32)
    kernel = _direct(tmp_path / "j.db", policy, admin_verifier(key))
    try:
        assert _admits(kernel, key)
        assert not _admits(kernel, foreign)
    finally:
        kernel.close()


def test_an_application_that_vouches_for_administrators_is_not_asked_for_a_key(tmp_path: Path) -> None:
    kernel = _direct(tmp_path / "j.db", VouchedPrincipals(administrators=True))
    try:
        assert kernel.call("access.list", LIST, principal=OPERATOR).ok
    finally:
        kernel.close()


# --- arvis journal copy ---------------------------------------------------------------------------------


def _copy(capsys: pytest.CaptureFixture[str], source: str, target: str) -> None:
    code, _, err = h.cli(capsys, "journal", "copy", "--db", source, "--to", target)
    assert code == 0, err
    code, _, err = h.cli(capsys, "journal", "verify", "--db", target)
    assert code == 0, err


def _check_copy_admits(target: str, key: bytes) -> None:
    kernel = open_kernel(target)
    try:
        assert _admits(kernel, key)
        assert not _admits(kernel, secrets.token_bytes(32))
        assert _refused(kernel.call("access.list", LIST, principal=OPERATOR))
    finally:
        kernel.close()


def test_a_copy_keeps_the_administrator_of_its_header(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = secrets.token_bytes(32)
    source = open_kernel("src.db", admin_key=key, create=True)
    try:
        assert _admits(source, key)
    finally:
        source.close()
    _copy(capsys, "src.db", "copy.db")
    assert _verifier("copy.db") == _verifier("src.db") == admin_verifier(key)
    _check_copy_admits("copy.db", key)


def test_a_copy_keeps_a_journaled_binding(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(GOLDEN_R1, here / "old.db")  # an older journal: no verifier in its header
    key = _key_file(here / "old.db.admin-key")
    code, _, err = h.cli(capsys, "db", "bind-admin-key", "--db", "old.db")
    assert code == 0, err
    _copy(capsys, "old.db", "copy.db")
    assert _verifier("copy.db") == _verifier("old.db") == admin_verifier(key)
    _check_copy_admits("copy.db", key)


def test_a_policy_with_another_verifier_does_not_replace_the_journals(tmp_path: Path) -> None:
    key, mine = secrets.token_bytes(32), secrets.token_bytes(32)
    forged = JournalAdministrators(admin_verifier(mine), VouchedPrincipals())
    kernel = _direct(tmp_path / "j.db", forged, admin_verifier(key))
    try:
        assert not _admits(kernel, mine)
    finally:
        kernel.close()
