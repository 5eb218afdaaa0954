"""Identity bound by the deployment (``kernel/identity.py``): a kernel opened with an identity policy
refuses, journals and replays a call that claims a principal the policy does not admit."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from journal_helpers import make_clock, reader_of, rewrite_history, verify
from strategies import write_args

from arvis.access import AccessRules
from arvis.canonical import canonical_bytes_of_own
from journal.engine import open_engine
from journal.schema import FORMAT_VERSION
from journal.state import state_digest
from journal.store import SqlJournalStore
from kernel.abi import SyscallTable
from kernel.dispatcher import Kernel
from kernel.identity import (
    AllowedPrincipals,
    IdentityPolicy,
    SignedPrincipals,
    VouchedPrincipals,
    matches,
    principal_token,
    refusal_detail,
)
from kernel.pipeline import PipelineError
from kernel.protocols import StorageError
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE

KEY = bytes(range(32))


def _kernel(path: Path, identity: IdentityPolicy | None) -> Kernel:
    clock = make_clock()
    store = SqlJournalStore(open_engine(str(path)), clock=clock)
    return Kernel(
        table=SYSCALL_TABLE, services=default_services(), store=store, clock=clock, identity=identity
    )


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "j.db"


def _digest(kernel: Kernel) -> str:
    assert isinstance(kernel.store, SqlJournalStore)
    with kernel.store.engine.connect() as connection:
        return state_digest(connection)


def _write_args(user: str = "alice") -> dict[str, Any]:
    return write_args(user_id=user, replace=True)


def test_new_journals_are_in_the_latest_format_with_owned_access_rules(db: Path) -> None:
    kernel = _kernel(db, None)
    assert kernel.access_rules == AccessRules.NAMES
    kernel.close()
    with reader_of(db) as reader:
        header = reader.header()
    assert header is not None and header.format_version == FORMAT_VERSION == 8


def test_allowed_principals_admit_only_their_patterns_and_refusals_are_journaled(db: Path) -> None:
    kernel = _kernel(db, AllowedPrincipals(["agent:planner", "user:*"]))
    try:
        assert kernel.call("memory.write", _write_args(), principal="user:alice").ok
        before = _digest(kernel)
        for claimed in ("admin:root", "operator:local", "agent:other", "user:"):
            refused = kernel.call("memory.write", _write_args(), principal=claimed)
            assert not refused.ok and refused.error is not None
            assert refused.error.code == "principal_not_allowed"
            assert refused.error.detail == refusal_detail(claimed)
            assert refused.seq is not None  # journaled
        assert _digest(kernel) == before  # nothing changed
        listed = kernel.call("memory.list", {"user_id": "alice"}, principal="agent:planner")
        assert listed.error is not None and listed.error.code == "memory_policy_denied"  # admitted, no grant
    finally:
        kernel.close()
    report = verify(db)
    assert report.verified and report.replayed, report.to_json()


def test_an_invalid_principal_is_reported_before_identity(db: Path) -> None:
    kernel = _kernel(db, AllowedPrincipals(["user:*"]))
    try:
        result = kernel.call("memory.list", {"user_id": "a"}, principal="bad\nprincipal")
        assert result.error is not None and result.error.code == "invalid_principal"
    finally:
        kernel.close()


def test_signed_principals_need_the_token_of_their_own_principal(db: Path) -> None:
    kernel = _kernel(db, SignedPrincipals(KEY))
    token = principal_token(KEY, "user:alice")
    try:
        assert kernel.call("memory.write", _write_args(), principal="user:alice", credential=token).ok
        for credential in (None, "", token.upper(), principal_token(KEY, "user:other"), "é" * 64, 42):
            result = kernel.call(
                "memory.list", {"user_id": "alice"}, principal="user:alice", credential=credential
            )
            assert result.error is not None and result.error.code == "principal_not_allowed", credential
        # a token is bound to its principal: user:alice's token does not make its holder admin:root
        stolen = kernel.call("memory.list", {"user_id": "alice"}, principal="admin:root", credential=token)
        assert stolen.error is not None and stolen.error.code == "principal_not_allowed"
    finally:
        kernel.close()
    assert verify(db).verified


def test_required_for_limits_the_token_to_matching_principals(db: Path) -> None:
    kernel = _kernel(db, SignedPrincipals(KEY, required_for=("service:*",)))
    try:
        assert kernel.call("memory.write", _write_args(), principal="user:alice").ok
        refused = kernel.call("memory.list", {"user_id": "alice"}, principal="service:local")
        assert refused.error is not None and refused.error.code == "principal_not_allowed"
        token = principal_token(KEY, "service:local")
        own = {"principal": "service:local"}
        assert kernel.call("access.list", own, principal="service:local", credential=token).ok
    finally:
        kernel.close()


def test_the_credential_is_never_journaled(db: Path) -> None:
    kernel = _kernel(db, SignedPrincipals(KEY))
    token = principal_token(KEY, "user:alice")
    try:
        assert kernel.call("memory.write", _write_args(), principal="user:alice", credential=token).ok
        kernel.call("memory.write", _write_args(), principal="user:alice", credential="f" * 64)
    finally:
        kernel.close()
    raw = b"".join(
        Path(f"{db}{suffix}").read_bytes() for suffix in ("", "-wal") if Path(f"{db}{suffix}").exists()
    )
    assert token.encode() not in raw and b"f" * 64 not in raw


class _Raising:
    def admits(self, principal: str, credential: str | None) -> bool:
        raise RuntimeError("policy down")


class _Truthy:
    def admits(self, principal: str, credential: str | None) -> Any:
        return "yes"  # not True: a policy must answer True to admit


@pytest.mark.parametrize("policy", [_Raising(), _Truthy()])
def test_a_failing_or_sloppy_policy_refuses(db: Path, policy: IdentityPolicy) -> None:
    kernel = _kernel(db, policy)
    try:
        result = kernel.call("memory.list", {"user_id": "a"}, principal="user:a")
        assert result.error is not None and result.error.code == "principal_not_allowed"
        assert result.seq == 1
    finally:
        kernel.close()


def test_call_many_takes_credentials_per_call(db: Path) -> None:
    kernel = _kernel(db, SignedPrincipals(KEY))
    token = principal_token(KEY, "user:alice")
    try:
        results = kernel.call_many(
            [
                ("memory.write", _write_args(), "user:alice", token),
                ("memory.list", {"user_id": "alice"}, "user:alice"),
            ]
        )
        assert results[0].ok
        assert results[1].error is not None and results[1].error.code == "principal_not_allowed"
    finally:
        kernel.close()
    assert verify(db).verified


def test_replay_reproduces_identity_refusals_without_any_policy(db: Path) -> None:
    """Verification replays through a kernel that vouches for everyone; the recorded refusals are
    reproduced from the entries' status, and a refusal forged into an accepted call's place diverges."""
    kernel = _kernel(db, AllowedPrincipals(["user:*"]))
    try:
        kernel.call("memory.write", _write_args(), principal="user:alice")
        kernel.call("memory.write", _write_args("bob"), principal="admin:root")
        kernel.call("memory.list", {"user_id": "alice"}, principal="user:alice")
    finally:
        kernel.close()
    assert verify(db).verified
    # a replay under the vouching default would accept admin:root's write; it must not, since the
    # journal says the deployment refused it
    with reader_of(db) as reader:
        statuses = [entry.status for entry in reader.entries()]
    assert statuses == ["ok", "principal_not_allowed", "ok"]


def test_a_vouched_kernel_admits_any_valid_principal(db: Path) -> None:
    kernel = _kernel(db, VouchedPrincipals(administrators=True))
    try:
        assert kernel.call("memory.list", {"user_id": "a"}, principal="admin:anyone").ok
    finally:
        kernel.close()


def test_policies_refuse_bad_configuration() -> None:
    with pytest.raises(ValueError):
        SignedPrincipals(b"short")
    with pytest.raises(ValueError):
        AllowedPrincipals([])
    with pytest.raises(ValueError):
        AllowedPrincipals(["*"])


@given(st.text(min_size=1, max_size=12), st.text(max_size=12))
def test_a_star_pattern_never_matches_its_bare_prefix(stem: str, rest: str) -> None:
    pattern = stem + "*"
    assert matches(pattern, stem + rest) == (len(rest) > 0)
    assert not matches(pattern, stem)
    assert matches(stem, stem)
    assert matches(stem, stem + "x") == stem.endswith("*")  # a stem ending in * is itself a pattern


def test_a_refusal_forged_into_an_accepted_calls_place_diverges(db: Path) -> None:
    """Re-chaining does not help a forger: an accepted call edited into an identity refusal (its result,
    status and every later hash recomputed) chains, but the replay runs the call and its effects differ."""
    kernel = _kernel(db, AllowedPrincipals(["user:*"]))
    try:
        kernel.call("memory.write", _write_args(), principal="user:alice")
        kernel.call("memory.list", {"user_id": "alice"}, principal="user:alice")
    finally:
        kernel.close()
    refused = {"ok": False, "error": {"code": "principal_not_allowed", "message": "x", "detail": "y"}}
    rewrite_history(db, 1, "result", canonical_bytes_of_own(refused))
    rewrite_history(db, 1, "status", "principal_not_allowed")
    report = verify(db)
    assert not report.verified and report.divergence is not None and report.divergence.seq == 1


def test_a_single_pattern_string_is_refused_rather_than_read_as_characters() -> None:
    with pytest.raises(TypeError):
        AllowedPrincipals("agent:x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SignedPrincipals(KEY, required_for="operator:root")  # type: ignore[arg-type]


class _ShortLen(str):
    def __len__(self) -> int:
        return 1


def test_a_str_subclass_cannot_lie_about_its_length(db: Path) -> None:
    kernel = _kernel(db, None)
    try:
        result = kernel.call("memory.list", {"user_id": "a"}, principal=_ShortLen("user:" + "a" * 400))
        assert result.error is not None and result.error.code == "invalid_principal"
    finally:
        kernel.close()


def test_a_store_refuses_a_header_whose_format_was_edited(db: Path) -> None:
    """The format selects the access rules: a header edited to format 1 must not open under them."""
    _kernel(db, None).close()
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TRIGGER IF EXISTS journal_header_no_update")
        connection.execute("UPDATE journal_header SET format_version = 1")
    with pytest.raises(StorageError, match="genesis hash"):
        _kernel(db, None)


def test_a_header_edited_with_its_genesis_hash_recomputed_is_refused_too(db: Path) -> None:
    """Recomputing the genesis hash for the edited format is easy; entry 1 was chained on the original."""
    import hashlib

    kernel = _kernel(db, None)
    kernel.call("memory.list", {"user_id": "a"}, principal="user:a")
    kernel.close()
    with sqlite3.connect(db) as connection:
        (journal_id,) = connection.execute("SELECT journal_id FROM journal_header").fetchone()

        def frame(data: bytes) -> bytes:
            return len(data).to_bytes(8, "big") + data

        genesis = hashlib.sha256(b"arvis-journal" + frame(journal_id.encode()) + frame(b"1")).hexdigest()
        connection.execute("DROP TRIGGER IF EXISTS journal_header_no_update")
        connection.execute("UPDATE journal_header SET format_version = 1, genesis_hash = ?", (genesis,))
    with pytest.raises(StorageError, match="first entry"):
        _kernel(db, None)


def test_a_pipeline_run_passes_its_credential_to_every_call(db: Path) -> None:
    kernel = _kernel(db, SignedPrincipals(KEY))
    owner = principal_token(KEY, "user:alice")
    try:
        assert kernel.call("memory.write", _write_args(), principal="user:alice", credential=owner).ok
        with kernel.pipeline(
            user_id="alice", run_id="r1", principal="user:alice", credential=owner
        ) as context:
            assert context.memory_snapshot.active_entries
        unproved = kernel.pipeline(user_id="alice", run_id="r2", principal="user:alice")
        with pytest.raises(PipelineError, match="principal_not_allowed"), unproved:
            pass
    finally:
        kernel.close()
    assert verify(db).verified


def test_a_name_unknown_when_recorded_stays_unknown_on_replay(db: Path) -> None:
    """A release that adds a syscall must still replay an older journal's call to that name as the
    ``unknown_syscall`` it was (models do guess names)."""
    older = SyscallTable(spec for name, spec in SYSCALL_TABLE.items() if name != "memory.awmu.restore")
    clock = make_clock()
    store = SqlJournalStore(open_engine(str(db)), clock=clock)
    kernel = Kernel(table=older, services=default_services(), store=store, clock=clock)
    try:
        result = kernel.call(
            "memory.awmu.restore", {"context_id": "c", "unit_id": "u1-0"}, principal="user:a"
        )
        assert result.error is not None and result.error.code == "unknown_syscall"
    finally:
        kernel.close()
    report = verify(db)  # under today's table, which has the name
    assert report.verified and report.replayed, report.to_json()
