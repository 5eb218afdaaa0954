"""``memory.awmu.restore``: an archived, superseded or evicted unit made active again, the same unit.

Format 2 journals (the default) through the fixture ``k`` of ``test_awmu_syscalls.py``'s kind: the operator
creates (and owns) the context; format 1 through ``first``. Every journal must pass verification replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arvis.access import AccessRules
from journal.engine import open_engine
from journal.reader import JournalReader
from journal.store import ManualClock, SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

OPERATOR = "operator:alice"
OPS = "agent:ops"
"""An operator by the context's ``operators`` pattern, no canonizer."""
CTX = "campaign"
DENIED = "memory_policy_denied"


def _clock() -> ManualClock:
    return ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))


def _verified(kernel: Kernel) -> None:
    report = verify_journal(JournalReader(kernel.store.engine), table=SYSCALL_TABLE)
    assert report.verified, report.to_json()
    assert report.replayed


@pytest.fixture
def k(tmp_path: Path) -> Iterator[Kernel]:
    """A format 3 journal: owned contexts with one scope namespace, the rules these tests pin (format 4's
    typed scopes: tests/test_typed_scopes.py)."""
    clock = _clock()
    store = SqlJournalStore(open_engine(str(tmp_path / "owned.db")), clock=clock, format_version=3)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    assert kernel.access_rules == AccessRules.OWNED
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


@pytest.fixture
def first(tmp_path: Path) -> Iterator[Kernel]:
    clock = _clock()
    store = SqlJournalStore(open_engine(str(tmp_path / "first.db")), clock=clock, format_version=1)
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    assert kernel.access_rules == AccessRules.FIRST
    try:
        yield kernel
        _verified(kernel)
    finally:
        kernel.close()


def grant(k: Kernel, principal: str, capability: str, scope: str = CTX) -> None:
    args = {"principal": principal, "capability": capability, "scope": scope}
    assert k.call("access.grant", args, principal=OPERATOR).ok


def ok(k: Kernel, name: str, args: dict[str, Any], principal: str = OPERATOR) -> dict[str, Any]:
    result = k.call(f"memory.awmu.{name}", args, principal=principal)
    assert result.ok, result.to_dict()
    return msgspec.json.decode(msgspec.json.encode(result.value))


def snapshot(k: Kernel, context_id: str = CTX) -> Any:
    listed = ok(k, "list", {"context_id": context_id, "status": "all"})
    return listed, ok(k, "events", {"context_id": context_id, "limit": 1000})


def refused(
    k: Kernel,
    name: str,
    args: dict[str, Any],
    code: str,
    principal: str = OPERATOR,
    detail: str | None = None,
    *,
    watch: str | None = None,
) -> None:
    """Refused with ``code``, journaled, and nothing of the context (``watch``: another one) changed."""
    watched = watch or args["context_id"]
    before = snapshot(k, watched)
    result = k.call(f"memory.awmu.{name}", args, principal=principal)
    assert result.error is not None, result.to_dict()
    assert result.error.code == code, result.to_dict()
    if detail is not None:
        assert result.error.detail == detail
    assert result.seq is not None
    assert snapshot(k, watched) == before


def create(k: Kernel, context_id: str = CTX, rules: int = 1, **config: Any) -> None:
    ok(k, "create", {"context_id": context_id, "config": config, "rules": rules})


def seed(k: Kernel, text: str, authority: str = "RELIABLE", context_id: str = CTX, **extra: Any) -> str:
    value = ok(k, "seed", {"context_id": context_id, "text": text, "authority": authority, **extra})
    assert value["outcome"] == "seeded", value
    return str(value["unit_id"])


def unit(k: Kernel, unit_id: str, context_id: str = CTX) -> dict[str, Any]:
    return ok(k, "get", {"context_id": context_id, "unit_id": unit_id})["unit"]


def restore(k: Kernel, unit_id: str, principal: str = OPERATOR, **extra: Any) -> dict[str, Any]:
    return ok(k, "restore", {"context_id": CTX, "unit_id": unit_id, **extra}, principal)


def archive(k: Kernel, unit_id: str, principal: str = OPERATOR) -> None:
    ok(k, "archive", {"context_id": CTX, "unit_id": unit_id}, principal)


def active_ids(k: Kernel) -> set[str]:
    return {u["unit_id"] for u in ok(k, "list", {"context_id": CTX})["units"]}


def events(k: Kernel, kind: str) -> list[dict[str, Any]]:
    found = ok(k, "events", {"context_id": CTX, "kinds": [kind]})["events"]
    return [{"unit_id": e["unit_id"], **e["detail"]} for e in found]


def canon(k: Kernel, unit_id: str) -> None:
    request_id = ok(k, "canonize", {"context_id": CTX, "unit_id": unit_id})["request"]["request_id"]
    assert ok(k, "review", {"request_id": request_id, "decision": "approve"})["unit"]["authority"] == "CANON"


_KEPT = ("unit_id", "text", "authority", "authority_ceiling", "pinned", "source_ids", "rank", "tier")


# --- what a restore does ---------------------------------------------------------------------------------


def test_an_archived_unit_comes_back_as_it_was(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.", rank=700, pinned=True)
    before = unit(k, king)
    archive(k, king)
    value = restore(k, king, reason="archived by mistake")
    assert value["evicted"] == []
    back = value["unit"]
    assert back["status"] == "ACTIVE" and back == unit(k, king)
    assert {name: back[name] for name in _KEPT} == {name: before[name] for name in _KEPT}
    assert back["created_seq"] == before["created_seq"] and back["updated_seq"] > before["updated_seq"]
    assert active_ids(k) == {king}
    assert events(k, "restored") == [
        {"unit_id": king, "was": "ARCHIVED", "reason": "archived by mistake", "by": OPERATOR}
    ]
    assert ok(k, "assemble", {"context_id": CTX})["included"] == [king]


def test_the_reason_defaults_to_explicit(k: Kernel) -> None:
    create(k)
    king = seed(k, "The king is dead.")
    archive(k, king)
    restore(k, king)
    assert events(k, "restored")[0]["reason"] == "explicit"


def test_a_superseded_unit_loses_only_its_own_link(k: Kernel) -> None:
    create(k, trust_enabled=False)
    king = seed(k, "The king is dead.", rank=700)
    verdict = {"unit_id": king, "type": "CONTRADICTION", "confidence": 0.9, "detector": "judge"}
    args = {"context_id": CTX, "text": "The queen rules alone.", "source": "dm", "confidence": 0.9}
    queen = ok(k, "propose", {**args, "verdicts": [verdict]}, "operator:dm")["unit_id"]
    assert unit(k, king)["superseded_by"] == queen
    back = restore(k, king)["unit"]
    assert (back["status"], back["superseded_by"]) == ("ACTIVE", None)
    assert unit(k, queen)["supersedes"] == [king] and unit(k, queen)["status"] == "ACTIVE"
    assert active_ids(k) == {king, queen}  # no detector runs: a restore is an operator's act
    assert events(k, "restored") == [
        {"unit_id": king, "was": "SUPERSEDED", "superseded_by": queen, "reason": "explicit", "by": OPERATOR}
    ]


def test_an_evicted_unit_evicts_as_a_seed_would(k: Kernel) -> None:
    create(k, budget=2)
    low = seed(k, "A storm gathers.", "PROVISIONAL", rank=300)
    mid = seed(k, "Gold is scarce.", rank=600)
    high = seed(k, "The king is dead.", rank=800)
    assert unit(k, low)["status"] == "EVICTED"
    value = restore(k, low)
    assert value["evicted"] == [mid] and value["unit"]["rank"] == 300
    assert active_ids(k) == {low, high}
    assert unit(k, mid)["status"] == "EVICTED"
    found = ok(k, "events", {"context_id": CTX, "after_seq": 5})["events"]
    assert [(e["kind"], e["unit_id"]) for e in found] == [("evicted", mid), ("restored", low)]
    assert found[0]["detail"] == {"rank": 600, "reason": "budget"}
    assert found[1]["detail"]["was"] == "EVICTED"


def test_rules_2_restores_too(k: Kernel) -> None:
    create(k, rules=2, budget=1)
    first_unit = seed(k, "The gate is open.")
    archive(k, first_unit)
    second = seed(k, "The tavern is closed.")
    value = restore(k, first_unit)
    assert value["evicted"] == [second] and active_ids(k) == {first_unit}


# --- refusals --------------------------------------------------------------------------------------------


def test_unknown_foreign_and_active_units_are_refused(k: Kernel) -> None:
    create(k)
    create(k, "elsewhere")
    king = seed(k, "The king is dead.")
    foreign = seed(k, "The sea is calm.", context_id="elsewhere")
    ok(k, "archive", {"context_id": "elsewhere", "unit_id": foreign})
    refused(
        k,
        "restore",
        {"context_id": CTX, "unit_id": "u99-0"},
        "awmu_unit_not_found",
        detail=f"no unit 'u99-0' in context '{CTX}'",
    )
    refused(k, "restore", {"context_id": CTX, "unit_id": foreign}, "awmu_unit_not_found")
    refused(
        k,
        "restore",
        {"context_id": CTX, "unit_id": king},
        "awmu_unit_active",
        detail=f"unit '{king}' is ACTIVE already",
    )
    refused(k, "restore", {"context_id": "nowhere", "unit_id": king}, "awmu_context_not_found", watch=CTX)
    result = k.call("memory.awmu.restore", {"context_id": CTX, "unit_id": king}, principal=OPERATOR)
    assert result.error is not None and result.error.message == "the unit is active already"


def test_a_budget_with_nothing_to_evict_refuses(k: Kernel) -> None:
    create(k, budget=1)
    gone = seed(k, "A storm gathers.")
    archive(k, gone)
    seed(k, "The king is dead.", pinned=True)
    refused(k, "restore", {"context_id": CTX, "unit_id": gone}, "awmu_budget_exhausted")
    assert unit(k, gone)["status"] == "ARCHIVED"


# --- access, format 2 -------------------------------------------------------------------------------------


def test_format_2_restore_is_operate(k: Kernel) -> None:
    create(k, operators=["operator:*", OPS])
    king = seed(k, "The king is dead.")
    archive(k, king)
    grant(k, "agent:w", "write")
    for stranger in ("agent:w", "agent:nobody"):
        refused(
            k,
            "restore",
            {"context_id": CTX, "unit_id": king},
            DENIED,
            stranger,
            f"principal '{stranger}' may not operate context '{CTX}'",
        )
    assert restore(k, king, OPS)["unit"]["status"] == "ACTIVE"


def test_format_2_a_canon_unit_needs_the_canonize_right(k: Kernel) -> None:
    create(k, operators=["operator:*", OPS], canonizers=["operator:*"])
    king = seed(k, "The king is dead.")
    canon(k, king)
    archive(k, king)
    refused(
        k,
        "restore",
        {"context_id": CTX, "unit_id": king},
        DENIED,
        OPS,
        f"principal '{OPS}' may not restore the CANON unit '{king}': "
        "that needs the canonize right in this context",
    )
    grant(k, OPS, "canonize")
    back = restore(k, king, OPS)["unit"]
    assert (back["status"], back["authority"]) == ("ACTIVE", "CANON")


def test_format_2_the_owner_operates_but_is_no_canonizer_by_owning(k: Kernel) -> None:
    owner, notes = "user:b", "user:b/notes"
    ok(k, "create", {"context_id": notes, "config": {}, "rules": 1}, owner)
    plain = seed(k, "The vault is locked.", context_id=notes)  # an administrator operates anywhere
    king = seed(k, "The king is dead.", context_id=notes)
    request_id = ok(k, "canonize", {"context_id": notes, "unit_id": king}, owner)["request"]["request_id"]
    grant(k, OPERATOR, "canonize", notes)
    ok(k, "review", {"request_id": request_id, "decision": "approve"})
    for unit_id in (plain, king):
        ok(k, "archive", {"context_id": notes, "unit_id": unit_id}, owner)
    assert ok(k, "restore", {"context_id": notes, "unit_id": plain}, owner)["unit"]["status"] == "ACTIVE"
    refused(k, "restore", {"context_id": notes, "unit_id": king}, DENIED, owner)
    assert ok(k, "restore", {"context_id": notes, "unit_id": king})["unit"]["authority"] == "CANON"


# --- access, format 1 -------------------------------------------------------------------------------------


def test_format_1_restore_follows_the_operators_patterns(first: Kernel) -> None:
    create(first, operators=["operator:*", OPS])
    king = seed(first, "The king is dead.")
    archive(first, king)
    refused(
        first,
        "restore",
        {"context_id": CTX, "unit_id": king},
        DENIED,
        "agent:nobody",
        "principal 'agent:nobody' may not restore in this context",
    )
    assert restore(first, king, OPS)["unit"]["status"] == "ACTIVE"


def test_format_1_a_canon_unit_needs_a_canonizers_match_or_a_canonize_grant(first: Kernel) -> None:
    create(first, operators=["operator:*", OPS], canonizers=["operator:*"])
    king = seed(first, "The king is dead.")
    canon(first, king)
    archive(first, king)
    refused(first, "restore", {"context_id": CTX, "unit_id": king}, DENIED, OPS)
    grant(first, OPS, "canonize")
    assert restore(first, king, OPS)["unit"]["authority"] == "CANON"
    archive(first, king)
    assert restore(first, king, "operator:bob")["unit"]["status"] == "ACTIVE"  # a canonizers match
