"""What the kernel needs to know about pipeline runs: which user's memory is held still, by which run."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

__all__ = ["PipelineRun", "PipelineRunRepository"]


@dataclass(frozen=True)
class PipelineRun:
    run_id: str
    user_id: str
    principal: str
    began_seq: int
    ended_seq: int | None = None

    @property
    def active(self) -> bool:
        return self.ended_seq is None


class PipelineRunRepository(ABC):
    @abstractmethod
    def get(self, run_id: str) -> PipelineRun | None: ...

    @abstractmethod
    def active_for(self, user_id: str) -> PipelineRun | None:
        """The run holding this user's memory still, if any (the oldest when several)."""

    @abstractmethod
    def begin(self, run: PipelineRun) -> None: ...

    @abstractmethod
    def end(self, run_id: str, ended_seq: int) -> None: ...
