"""What the kernel needs to know about pipeline runs: which user's memory is held still, by which run."""

from __future__ import annotations

from dataclasses import dataclass


def qualified_run_id(principal: str, run_id: str) -> str:
    """The id a run is stored under when run ids are scoped to their principal (``AccessRules.OWNED``):
    the principal that begins it, a slash, the id it gave."""
    return f"{principal}/{run_id}"


@dataclass(frozen=True)
class PipelineRun:
    run_id: str
    """The stored id: the id given under the first rules, ``qualified_run_id`` under the owned ones."""
    user_id: str
    principal: str
    began_seq: int
    ended_seq: int | None = None

    @property
    def active(self) -> bool:
        return self.ended_seq is None
