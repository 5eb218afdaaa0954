"""The graph store's quota (issue 48, finding 6; ``specs/langgraph.md`` §8.3): the bytes each owner of a
namespace's first element may store are bounded by the quota the deployment gives a journal when it is
created (``open_kernel(store_quota_bytes=...)``, recorded in its header). A put past it is refused
``memory_limit_exceeded``, journaled, and changes nothing; a smaller overwrite and a delete always go
through; verification replays every decision (on SQLite and PostgreSQL); a journal without a quota decides
as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import journal_helpers as h
import pytest

from arvis.canonical import canonical_bytes
from journal.blob_store import hash_of
from kernel.dispatcher import Kernel

AGENT = "agent:archivist"
OTHER = "agent:clerk"
QUOTA = 1_000


def _put(kernel: Kernel, principal: str, prefix: str, key: str, value: dict[str, Any] | None) -> Any:
    args: dict[str, Any] = {"namespace": [prefix, "notes"], "key": key}
    if value is None:
        args["value_hash"] = None
    else:
        args |= {"value": value, "value_hash": hash_of(canonical_bytes(value))}
    return kernel.call("graph.store.put", args, principal=principal)


def _note(size: int) -> dict[str, Any]:
    """A value whose canonical JSON is ``size`` bytes."""
    return {"t": "x" * (size - len('{"t":""}'))}


def _own(kernel: Kernel, principal: str, prefix: str) -> None:
    """``principal`` creates the first element ``prefix``: the owner its items are charged to."""
    assert kernel.call("graph.namespace.create", {"prefix": prefix}, principal=principal).ok


def _code(result: Any) -> str:
    return "ok" if result.ok else result.error.code


@pytest.fixture(params=["sqlite", "postgresql"])
def kernel(request: pytest.FixtureRequest, kernel_factory: Callable[..., Kernel], tmp_path: Path) -> Kernel:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        return kernel_factory(url, store_quota_bytes=QUOTA)
    return kernel_factory(str(tmp_path / "quota.db"), store_quota_bytes=QUOTA)


def test_puts_up_to_the_quota_go_through_and_past_it_are_refused(kernel: Kernel) -> None:
    _own(kernel, AGENT, "ledger")
    _own(kernel, AGENT, "archive")
    assert [_code(_put(kernel, AGENT, "ledger", f"k{i}", _note(300))) for i in range(3)] == ["ok"] * 3
    refused = _put(kernel, AGENT, "archive", "k3", _note(101))  # 900 + 101 > 1000, under another prefix
    assert refused.error is not None and refused.error.code == "memory_limit_exceeded", refused
    assert "'agent:archivist' would store 1001 bytes" in refused.error.detail and refused.seq is not None
    found = kernel.call("graph.store.get", {"namespace": ["archive", "notes"], "key": "k3"}, principal=AGENT)
    assert found.value == {"item": None}  # nothing was written
    assert _code(_put(kernel, AGENT, "archive", "k3", _note(100))) == "ok"  # exactly the quota
    assert (
        _code(_put(kernel, AGENT, "ledger", "k0", _note(350))) == "memory_limit_exceeded"
    )  # a larger overwrite
    assert _code(_put(kernel, AGENT, "ledger", "k0", _note(50))) == "ok"  # a smaller one
    assert _code(_put(kernel, AGENT, "ledger", "k1", None)) == "ok"  # a delete frees its bytes
    assert _code(_put(kernel, AGENT, "ledger", "k4", _note(550))) == "ok"  # 50 + 300 + 100 + 550
    assert _code(_put(kernel, AGENT, "ledger", "k5", _note(20))) == "memory_limit_exceeded"


def test_each_owner_has_a_quota_of_its_own(kernel: Kernel) -> None:
    _own(kernel, AGENT, "ledger")
    _own(kernel, OTHER, "memo")
    assert _code(_put(kernel, AGENT, "ledger", "a", _note(900))) == "ok"
    assert _code(_put(kernel, OTHER, "memo", "b", _note(900))) == "ok"
    assert _code(_put(kernel, OTHER, "memo", "c", _note(200))) == "memory_limit_exceeded"


def test_the_decisions_replay(kernel_factory: Callable[..., Kernel], tmp_path: Path) -> None:
    path = tmp_path / "replayed.db"
    kernel = kernel_factory(str(path), store_quota_bytes=QUOTA)
    _own(kernel, AGENT, "ledger")
    results = [_code(_put(kernel, AGENT, "ledger", f"k{i}", _note(400))) for i in range(3)]
    results.append(_code(_put(kernel, AGENT, "ledger", "k0", None)))
    results.append(_code(_put(kernel, AGENT, "ledger", "k3", _note(400))))
    assert results == ["ok", "ok", "memory_limit_exceeded", "ok", "ok"]
    kernel.close()
    report = h.verify(path)
    assert report.verified and report.replayed, report.to_json()


def test_a_journal_without_a_quota_decides_as_before(
    kernel_factory: Callable[..., Kernel], tmp_path: Path
) -> None:
    kernel = kernel_factory(str(tmp_path / "free.db"), store_quota_bytes=None)
    _own(kernel, AGENT, "ledger")
    assert [_code(_put(kernel, AGENT, "ledger", f"k{i}", _note(600))) for i in range(3)] == ["ok"] * 3
    with kernel.store.engine.connect() as connection:  # type: ignore[attr-defined]
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM graph_store_sizes").scalar() == 0
