"""``journal_only_replay``: a recorded run is served again from its journal, with no store at all."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from strategies import VOUCHED

from arvis.canonical import canonical_bytes
from kernel.errors import ErrorCode
from kernel.replay_kernel import JournalReplayKernel

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


def pipeline(kernel: Any, *, key: str = "language", principal: str = h.PRINCIPAL) -> dict[str, Any]:
    """A small pipeline stage: write, an administrator lets the agent read, the agent reads back and
    takes a snapshot, and one call is refused."""
    written = kernel.call("memory.write", {**h.WRITE, "key": key}, principal=principal)
    grant = {"principal": h.AGENT, "capability": "read", "scope": f"user:{h.USER}"}
    granted = kernel.call("access.grant", grant, principal=h.OPERATOR)
    read = kernel.call("memory.get", {"user_id": h.USER, "key": key}, principal=h.AGENT)
    snapshot = kernel.call("memory.snapshot", {"user_id": h.USER}, principal=h.AGENT)
    refused = kernel.call("memory.write", {**h.WRITE, "key": key}, principal=principal)
    return {
        "write": written.to_dict(),
        "grant": granted.to_dict(),
        "get": read.to_dict(),
        "snapshot": snapshot.to_dict(),
        "refused": refused.to_dict(),
        "projection": snapshot.value["projection"] if snapshot.ok else None,
    }


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "journal.db"
    from syscalls.boot import open_kernel

    kernel = open_kernel(
        str(path), clock=h.make_clock(), journal_id=h.JOURNAL_ID, identity=VOUCHED, create=True
    )
    try:
        outputs = pipeline(kernel)
    finally:
        kernel.close()
    return path, outputs


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    for suffix in ("", "-wal"):
        if Path(f"{path}{suffix}").exists():
            digest.update(Path(f"{path}{suffix}").read_bytes())
    return digest.hexdigest()


def _detail(result: Any) -> dict[str, Any]:
    assert result.error is not None
    assert result.error.code == ErrorCode.REPLAY_DIVERGENCE
    detail: dict[str, Any] = orjson.loads(result.error.detail)
    return detail


def test_live_run_is_what_was_expected(recorded: tuple[Path, dict[str, Any]]) -> None:
    _, outputs = recorded
    assert outputs["write"]["ok"] and outputs["grant"]["ok"]
    assert outputs["get"]["ok"] and outputs["snapshot"]["ok"]
    assert outputs["refused"]["error"]["code"] == "memory_conflict"
    names = ("write", "grant", "get", "snapshot", "refused")
    assert [outputs[name]["seq"] for name in names] == [1, 2, 3, 4, 5]


def test_replayed_pipeline_returns_identical_outputs(recorded: tuple[Path, dict[str, Any]]) -> None:
    path, outputs = recorded
    before = _file_digest(path)
    with h.reader_of(path) as reader:
        replay = JournalReplayKernel(reader.entries())
        replayed = pipeline(replay)
        assert replay.exhausted
        assert replay.served == 5
    assert replayed == outputs
    assert orjson.dumps(replayed, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        outputs, option=orjson.OPT_SORT_KEYS
    )
    assert _file_digest(path) == before


def test_replay_kernel_works_from_entries_alone(recorded: tuple[Path, dict[str, Any]]) -> None:
    """No database behind it: a plain list of entries is enough."""
    path, outputs = recorded
    with h.reader_of(path) as reader:
        entries = list(reader.entries())
    assert pipeline(JournalReplayKernel(entries)) == outputs


def test_changed_argument_is_a_divergence_and_touches_nothing(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    path, _ = recorded
    before = _file_digest(path)
    with h.reader_of(path) as reader:
        entries = list(reader.entries())
        count = reader.count()
    replay = JournalReplayKernel(entries)
    changed = replay.call("memory.write", {**h.WRITE, "key": "timezone"}, principal=h.PRINCIPAL)
    assert not changed.ok
    assert changed.seq is None
    detail = _detail(changed)
    assert detail["seq"] == 1
    assert detail["expected"]["syscall"] == detail["found"]["syscall"] == "memory.write"
    assert '"key":"language"' in detail["expected"]["args"]
    assert '"key":"timezone"' in detail["found"]["args"]
    assert detail["expected"] != detail["found"]
    assert replay.served == 0
    # the cursor did not move: the right call is still served
    again = replay.call("memory.write", dict(h.WRITE), principal=h.PRINCIPAL)
    assert again.ok and again.seq == 1
    assert _file_digest(path) == before
    with h.reader_of(path) as reader:
        assert reader.count() == count


@pytest.mark.parametrize(
    ("name", "args", "principal", "field"),
    [
        ("memory.get", h.WRITE, h.PRINCIPAL, "syscall"),
        ("memory.write", h.WRITE, "user:someone-else", "principal"),
        ("memory.write", {**h.WRITE, "replace": False}, h.PRINCIPAL, "args"),
    ],
)
def test_any_changed_part_of_the_call_diverges(
    recorded: tuple[Path, dict[str, Any]], name: str, args: dict[str, Any], principal: str, field: str
) -> None:
    path, _ = recorded
    with h.reader_of(path) as reader:
        replay = JournalReplayKernel(list(reader.entries()))
    detail = _detail(replay.call(name, args, principal=principal))
    assert detail["expected"][field] != detail["found"][field]


def test_argument_order_does_not_matter(recorded: tuple[Path, dict[str, Any]]) -> None:
    path, outputs = recorded
    with h.reader_of(path) as reader:
        replay = JournalReplayKernel(list(reader.entries()))
    reordered = dict(reversed(list(h.WRITE.items())))
    assert replay.call("memory.write", reordered, principal=h.PRINCIPAL).to_dict() == outputs["write"]


def test_calling_past_the_end_is_a_divergence(recorded: tuple[Path, dict[str, Any]]) -> None:
    path, _ = recorded
    with h.reader_of(path) as reader:
        replay = JournalReplayKernel(list(reader.entries()))
    pipeline(replay)
    assert replay.exhausted
    extra = replay.call("memory.get", {"user_id": h.USER, "key": "language"}, principal=h.AGENT)
    assert not extra.ok and extra.seq is None
    detail = _detail(extra)
    assert detail["expected"] == {"end_of_journal": True}
    assert detail["found"]["syscall"] == "memory.get"


def test_empty_journal_diverges_at_once() -> None:
    result = JournalReplayKernel([]).call("memory.snapshot", {"user_id": h.USER}, principal=h.AGENT)
    assert _detail(result)["expected"] == {"end_of_journal": True}


def test_refused_call_replays_as_the_same_refusal(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    calls: list[h.Call] = [
        ("memory.unknown", {}, h.AGENT),
        ("memory.list", {"user_id": 2**70}, h.AGENT),
        ("memory.list", {"user_id": h.USER}, ""),
        ("memory.list", {"user_id": h.USER}, h.AGENT),  # no grant
    ]
    live = [result.to_dict() for result in h.build_journal(path, calls)]
    with h.reader_of(path) as reader:
        replay = JournalReplayKernel(reader.entries())
        replayed = [result.to_dict() for result in h.run_calls(replay, calls)]
    assert replayed == live
    assert [r["error"]["code"] for r in replayed] == [
        "unknown_syscall",
        "invalid_args",
        "invalid_principal",
        "memory_policy_denied",
    ]


@settings(max_examples=25, deadline=None)
@given(calls=h.call_sequences)
def test_any_recorded_run_is_served_again_byte_for_byte(calls: list[h.Call]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.db"
        live = h.build_journal(path, calls)
        with h.reader_of(path) as reader:
            replay = JournalReplayKernel(reader.entries())
            replayed = h.run_calls(replay, calls)
            assert replay.exhausted
    assert [canonical_bytes(r.to_dict()) for r in replayed] == [canonical_bytes(r.to_dict()) for r in live]


def awmu_pipeline(kernel: Any) -> dict[str, Any]:
    """A working-memory stage: an operator sets up a context and a unit and lets the agent write it (a
    format-2 journal: the context is the operator's), the agent runs a turn, lists and assembles the
    prompt block."""
    operator = "operator:local"
    calls = {
        "grant": (
            "access.grant",
            {"principal": h.AGENT, "capability": "write", "scope": "context:c1"},
            operator,
        ),
        "grant_read": (
            "access.grant",
            {"principal": h.AGENT, "capability": "read", "scope": "context:c1"},
            operator,
        ),
        "create": ("memory.awmu.create", {"context_id": "c1"}, operator),
        "seed": ("memory.awmu.seed", {"context_id": "c1", "text": "Never share the user's data"}, operator),
        "turn": ("memory.awmu.turn", {"context_id": "c1"}, h.AGENT),
        "list": ("memory.awmu.list", {"context_id": "c1"}, h.AGENT),
        "assemble": ("memory.awmu.assemble", {"context_id": "c1"}, h.AGENT),
    }
    return {
        name: kernel.call(syscall, args, principal=principal).to_dict()
        for name, (syscall, args, principal) in calls.items()
    }


def test_replayed_working_memory_pipeline_returns_identical_outputs(tmp_path: Path) -> None:
    from syscalls.boot import open_kernel

    path = tmp_path / "journal.db"
    kernel = open_kernel(
        str(path), clock=h.make_clock(), journal_id=h.JOURNAL_ID, identity=VOUCHED, create=True
    )
    try:
        live = awmu_pipeline(kernel)
    finally:
        kernel.close()
    assert all(output["ok"] for output in live.values())
    with h.reader_of(path) as reader:
        replayed = awmu_pipeline(JournalReplayKernel(reader.entries()))
    assert canonical_bytes(replayed) == canonical_bytes(live)  # same bytes ...
    assert replayed == live  # ... and the same Python values
