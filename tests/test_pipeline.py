"""Pipeline runs: one frozen snapshot per run, the IR projection, no mutation mid-run, replayable."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from strategies import VOUCHED

from journal.reader import JournalFilter, JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from kernel.pipeline import CognitivePipelineContext, PipelineError, pipeline, run_pipeline
from kernel.replay_kernel import JournalReplayKernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

USER = "alice"
AGENT = "agent:planner"
OPERATOR = "operator:test"
SETUP_ENTRIES = 4
"""The journal of the ``journal`` fixture before any run: two writes by the user and the agent's grants."""


def _write(kernel: Any, key: str, memory_type: str = "constraint") -> Any:
    return kernel.call(
        "memory.write",
        {"user_id": USER, "key": key, "memory_type": memory_type, "source": "explicit_user"},
        principal=f"user:{USER}",
    )


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[tuple[Kernel, Path]]:
    path = tmp_path / "run.db"
    kernel = open_kernel(
        str(path),
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1)),
        identity=VOUCHED,
        create=True,
    )
    _write(kernel, "no_penicillin")
    _write(kernel, "language", "preference")
    for capability in ("read", "write"):  # a run needs write on the user (format 2), its snapshot read
        grant = {"principal": AGENT, "capability": capability, "scope": f"user:{USER}"}
        assert kernel.call("access.grant", grant, principal=OPERATOR).ok
    yield kernel, path
    kernel.close()


def _stages(kernel: Any) -> list[Any]:
    def plan(ctx: CognitivePipelineContext) -> dict[str, Any]:
        return {"avoid": list(ctx.ir.long_memory_constraints), "pressure": ctx.ir.memory_pressure}

    def mutate(ctx: CognitivePipelineContext) -> str:
        result = _write(kernel, "no_aspirin")
        return "written" if result.ok else str(result.error.code)

    def answer(ctx: CognitivePipelineContext) -> str:
        return (
            f"{ctx.snapshot_hash[:12]}:{ctx.ir.memory_has_language_pref}:{len(ctx.memory_snapshot.entries)}"
        )

    return [plan, mutate, answer]


def test_stages_see_the_projection_and_cannot_mutate_mid_run(journal: tuple[Kernel, Path]) -> None:
    kernel, _ = journal
    outputs = run_pipeline(kernel, _stages(kernel), user_id=USER, run_id="run-1", principal=AGENT)
    assert outputs["plan"] == {"avoid": ["no_penicillin"], "pressure": 2}
    assert outputs["mutate"] == "memory_policy_denied"
    assert outputs["answer"].endswith(":True:2")
    after = _write(kernel, "no_aspirin")
    assert after.ok, "after the run, writes proceed"


def test_the_refused_mutation_is_journaled_with_its_reason(journal: tuple[Kernel, Path]) -> None:
    kernel, path = journal
    run_pipeline(kernel, _stages(kernel), user_id=USER, run_id="run-1", principal=AGENT)
    reader = JournalReader.open(str(path))
    try:
        refused = list(reader.entries(JournalFilter(status="memory_policy_denied")))
        syscalls = [entry.syscall for entry in reader.entries()]
    finally:
        reader.close()
    assert len(refused) == 1 and b"in-flight mutation" in refused[0].result
    assert syscalls[:SETUP_ENTRIES] == ["memory.write", "memory.write", "access.grant", "access.grant"]
    assert syscalls[SETUP_ENTRIES:] == ["pipeline.begin", "memory.snapshot", "memory.write", "pipeline.end"]
    reader = JournalReader.open(str(path))
    try:
        snapshot_args = [e.args for e in reader.entries() if e.syscall == "memory.snapshot"]
    finally:
        reader.close()
    assert b'"run_id":"run-1"' in snapshot_args[0], "the snapshot is tagged with the run id"


def test_a_run_replays_byte_for_byte_with_journal_only_replay(journal: tuple[Kernel, Path]) -> None:
    kernel, path = journal
    live = run_pipeline(kernel, _stages(kernel), user_id=USER, run_id="run-1", principal=AGENT)
    reader = JournalReader.open(str(path))
    try:
        replay = JournalReplayKernel(reader.entries(JournalFilter(after_seq=SETUP_ENTRIES)))
        replayed = run_pipeline(replay, _stages(replay), user_id=USER, run_id="run-1", principal=AGENT)
        assert replay.exhausted
        assert replayed == live
        assert verify_journal(reader, table=SYSCALL_TABLE).verified
    finally:
        reader.close()


def test_context_is_read_only(journal: tuple[Kernel, Path]) -> None:
    kernel, _ = journal
    with pipeline(kernel, user_id=USER, run_id="run-ro", principal=AGENT) as ctx:
        with pytest.raises(TypeError):
            ctx.long_memory["constraints"] = ()  # type: ignore[index]
        with pytest.raises(TypeError):
            ctx.ir.long_memory_preferences["language"] = False  # type: ignore[index]
        with pytest.raises(AttributeError):
            ctx.memory_snapshot.active_entries.append(None)  # type: ignore[attr-defined]
        assert not hasattr(ctx.ir, "entries"), "the IR never exposes raw entries"


def test_the_run_ends_even_when_a_stage_fails(journal: tuple[Kernel, Path]) -> None:
    kernel, _ = journal

    def broken(ctx: CognitivePipelineContext) -> None:
        raise RuntimeError("stage failed")

    with pytest.raises(RuntimeError):
        run_pipeline(kernel, [broken], user_id=USER, run_id="run-x", principal=AGENT)
    assert _write(kernel, "no_ibuprofen").ok


def test_run_ids_are_single_use_and_unknown_runs_are_refused(journal: tuple[Kernel, Path]) -> None:
    kernel, _ = journal
    run_pipeline(kernel, [], user_id=USER, run_id="once", principal=AGENT)
    with pytest.raises(PipelineError) as refused:
        run_pipeline(kernel, [], user_id=USER, run_id="once", principal=AGENT)
    assert refused.value.result.error is not None
    assert refused.value.result.error.code == "pipeline_run_exists"
    ended = kernel.call("pipeline.end", {"run_id": "nope"}, principal=AGENT)
    assert ended.error is not None and ended.error.code == "pipeline_run_not_found"
    tagged = kernel.call("memory.snapshot", {"user_id": USER, "run_id": "once"}, principal=AGENT)
    assert tagged.error is not None and tagged.error.code == "pipeline_run_not_found"


def test_other_users_are_not_held(journal: tuple[Kernel, Path]) -> None:
    kernel, _ = journal
    with pipeline(kernel, user_id=USER, run_id="run-2", principal=AGENT):
        other = kernel.call(
            "memory.write",
            {"user_id": "bob", "key": "language", "memory_type": "preference", "source": "explicit_user"},
            principal="user:bob",
        )
        assert other.ok
        revoke = kernel.call("memory.revoke", {"user_id": USER, "key": "language"}, principal=f"user:{USER}")
        assert revoke.error is not None and revoke.error.code == "memory_policy_denied"
        assert revoke.error.detail.startswith("in-flight mutation"), "held by the run, not by the access rule"
