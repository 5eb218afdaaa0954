"""Documented size limits: going over gives a clear error code and writes nothing but the refusal."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from strategies import VOUCHED

import arvis.awmu.engine as awmu_engine
import arvis.memory.memory_service as memory_service
from journal.store import ManualClock
from kernel.arguments import MAX_ARGS_BYTES
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel

OWNER = "user:u1"
OPERATOR = "operator:test"


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    k = open_kernel(
        ":memory:",
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1)),
        identity=VOUCHED,
        create=True,
    )
    yield k
    k.close()


def _write(kernel: Kernel, key: str, **extra: Any) -> Any:
    args = {"user_id": "u1", "key": key, "memory_type": "rule", "source": "explicit_user", **extra}
    return kernel.call("memory.write", args, principal=OWNER)


def _state(kernel: Kernel) -> Any:
    listing = kernel.call("memory.list", {"user_id": "u1", "include_inactive": True}, principal=OWNER)
    return listing.value["entries"]


@pytest.mark.parametrize(
    ("extra", "key", "code"),
    [
        ({}, "k" * 129, "memory_invalid_key"),
        ({"notes": "n" * 1025}, "ok", "invalid_args"),
        ({"value_ref": "v" * 1025}, "ok", "invalid_args"),
        ({"source": "s" * 65}, "ok", "invalid_args"),
    ],
)
def test_field_limits(kernel: Kernel, extra: dict[str, Any], key: str, code: str) -> None:
    before = _state(kernel)
    result = _write(kernel, key, **extra)
    assert result.error is not None and result.error.code == code
    assert result.seq is not None, "the refusal is journaled"
    assert _state(kernel) == before


def test_the_limits_themselves_are_accepted(kernel: Kernel) -> None:
    assert _write(kernel, "k" * 128, value_ref="v" * 1024).ok


def test_arguments_over_the_size_limit_are_refused(kernel: Kernel) -> None:
    result = _write(kernel, "big", value_ref="v" * 1000, padding="x" * MAX_ARGS_BYTES)
    assert result.error is not None and result.error.code == "invalid_args"
    assert "exceed" in result.error.detail
    assert _state(kernel) == []


def test_unit_text_limit(kernel: Kernel) -> None:
    kernel.call("memory.awmu.create", {"context_id": "c"}, principal=OPERATOR)
    result = kernel.call("memory.awmu.seed", {"context_id": "c", "text": "w " * 1001}, principal=OPERATOR)
    assert result.error is not None and result.error.code == "invalid_args"


def test_entries_per_user_limit(kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory_service, "MAX_ENTRIES_PER_USER", 3)
    for key in ("a", "b", "c"):
        assert _write(kernel, key).ok
    before = _state(kernel)
    refused = _write(kernel, "d")
    assert refused.error is not None and refused.error.code == "memory_limit_exceeded"
    assert refused.seq is not None
    assert _state(kernel) == before
    other = kernel.call(
        "memory.write",
        {"user_id": "u2", "key": "a", "memory_type": "rule", "source": "explicit_user"},
        principal="user:u2",
    )
    assert other.ok, "the limit is per user"


def test_units_per_context_limit(kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(awmu_engine, "MAX_UNITS_PER_CONTEXT", 2)
    kernel.call("memory.awmu.create", {"context_id": "c"}, principal=OPERATOR)
    for text in ("The king is dead.", "The queen rules."):
        assert kernel.call("memory.awmu.seed", {"context_id": "c", "text": text}, principal=OPERATOR).ok
    listing = kernel.call("memory.awmu.list", {"context_id": "c", "status": "all"}, principal=OPERATOR)
    refused = kernel.call(
        "memory.awmu.seed", {"context_id": "c", "text": "The bridge fell."}, principal=OPERATOR
    )
    assert refused.error is not None and refused.error.code == "memory_limit_exceeded"
    after = kernel.call("memory.awmu.list", {"context_id": "c", "status": "all"}, principal=OPERATOR)
    assert after.value["units"] == listing.value["units"]
