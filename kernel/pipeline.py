"""Pipeline runs over the kernel: one frozen snapshot for the whole run, the projection the IR expects,
no memory mutation for the run's user until it ends.

A run is three journaled steps: ``pipeline.begin`` (the user's memory is held still), ``memory.snapshot``
tagged with the run id, and ``pipeline.end`` when the ``with`` block is left, even by an exception.
Stages are plain functions of the context. The same code runs on a live ``Kernel`` and on a
``JournalReplayKernel``: a replayed run gets the recorded snapshot, so its stages compute the same outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, Protocol

from arvis.memory.memory_long_snapshot import MemoryLongSnapshot
from kernel.abi import SyscallResult


class SupportsCall(Protocol):
    def call(
        self, name: object, args: object = None, *, principal: object, credential: object = None
    ) -> SyscallResult: ...


class PipelineError(Exception):
    """The run could not begin or take its snapshot; carries the refusal."""

    def __init__(self, step: str, result: SyscallResult) -> None:
        code = result.error.code if result.error is not None else "unknown"
        detail = result.error.detail if result.error is not None else ""
        super().__init__(f"{step} refused: {code}: {detail}")
        self.step = step
        self.result = result


def _frozen(value: Any) -> Any:
    """A read-only copy: mappings become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


@dataclass(frozen=True)
class CognitiveContextIR:
    """What the IR may see of memory: constraints, preferences and flags, never raw entries."""

    long_memory_constraints: tuple[str, ...]
    long_memory_preferences: Mapping[str, Any]
    memory_present: bool
    memory_pressure: int
    memory_has_constraints: bool
    memory_constraint_count: int
    memory_has_language_pref: bool
    memory_has_timezone: bool

    @classmethod
    def from_projection(cls, projection: Mapping[str, Any]) -> CognitiveContextIR:
        constraints = tuple(str(key) for key in projection["constraints"])
        return cls(
            long_memory_constraints=constraints,
            long_memory_preferences=MappingProxyType(dict(projection["preferences"])),
            memory_present=int(projection["memory_pressure"]) > 0,
            memory_pressure=int(projection["memory_pressure"]),
            memory_has_constraints=bool(projection["has_constraints"]),
            memory_constraint_count=len(constraints),
            memory_has_language_pref=bool(projection["has_language_pref"]),
            memory_has_timezone=bool(projection["has_timezone"]),
        )


@dataclass(frozen=True)
class CognitivePipelineContext:
    """The context every stage gets: read-only, the same for the whole run."""

    user_id: str
    run_id: str
    """The id as the runner was given it; a journal under the owned access rules stores the run as
    ``<principal>/<run_id>``, and the calls the runner makes with this id resolve to it."""
    principal: str
    memory_snapshot: MemoryLongSnapshot
    long_memory: Mapping[str, Any]
    memory_projection: Mapping[str, Any]
    ir: CognitiveContextIR
    snapshot_hash: str
    snapshot_seq: int


@contextmanager
def pipeline(
    kernel: SupportsCall, *, user_id: str, run_id: str, principal: str, credential: str | None = None
) -> Iterator[CognitivePipelineContext]:
    """``credential``: what proves ``principal`` to the kernel's identity policy (``kernel.identity``),
    passed with each of the run's calls."""
    call = partial(kernel.call, principal=principal, credential=credential)
    begun = call("pipeline.begin", {"user_id": user_id, "run_id": run_id})
    if not begun.ok:
        raise PipelineError("pipeline.begin", begun)
    try:
        taken = call("memory.snapshot", {"user_id": user_id, "run_id": run_id})
        if not taken.ok or taken.seq is None:
            raise PipelineError("memory.snapshot", taken)
        value = taken.value
        projection = _frozen(value["projection"])
        yield CognitivePipelineContext(
            user_id=user_id,
            run_id=run_id,
            principal=principal,
            memory_snapshot=MemoryLongSnapshot.from_wire(value["snapshot"]),
            long_memory=projection,
            memory_projection=projection,
            ir=CognitiveContextIR.from_projection(value["projection"]),
            snapshot_hash=str(value["snapshot_hash"]),
            snapshot_seq=taken.seq,
        )
    except BaseException:
        call("pipeline.end", {"run_id": run_id})
        raise
    ended = call("pipeline.end", {"run_id": run_id})
    if not ended.ok:
        raise PipelineError("pipeline.end", ended)


Stage = Callable[[CognitivePipelineContext], Any]


def run_pipeline(
    kernel: SupportsCall,
    stages: Sequence[Stage],
    *,
    user_id: str,
    run_id: str,
    principal: str,
    credential: str | None = None,
) -> dict[str, Any]:
    """Run the stages in order on one context; returns each stage's output by the stage's name (two
    stages of one name are refused before the run begins: one output would hide the other)."""
    names = [getattr(stage, "__name__", repr(stage)) for stage in stages]
    if len(set(names)) != len(names):
        raise ValueError(f"stage names must be distinct: {names}")
    outputs: dict[str, Any] = {}
    with pipeline(
        kernel, user_id=user_id, run_id=run_id, principal=principal, credential=credential
    ) as context:
        for name, stage in zip(names, stages, strict=True):
            outputs[name] = stage(context)
    return outputs
