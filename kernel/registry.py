"""The frozen registry of services the syscalls may use. A missing service degrades, never raises."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arvis.awmu.service import WorkingMemoryService
from arvis.memory.memory_service import MemoryService

if TYPE_CHECKING:
    from kernel.judge import ConflictJudge
    from kernel.semantic import SemanticEncoder

BlobReader = Callable[[Iterable[str]], dict[str, bytes]]
"""Read-only access to the content-addressed blob store (``journal.blob_store.reader_for``): the bytes of
each key, every one checked against its key; ``LookupError`` names the first key not stored or whose bytes
hash to something else (``StorageError`` when the database cannot be read)."""


@dataclass(frozen=True)
class KernelServiceRegistry:
    """Services bound at boot. A missing service makes its syscalls answer ``no_memory_service``:
    ``memory_service`` serves ``memory.*`` (long-term), ``working_memory_service`` ``memory.awmu.*``;
    ``semantic_encoder`` is the working memory's semantic detector (without it, value and lexical
    detectors only; verification never needs it). ``semantic_loader`` binds an encoder that is loaded on
    its first use instead (``default_services``): a model load costs far more than most commands, and
    most calls never measure similarity; it returns None when no encoder can be had, caches what it
    loads (it is asked on every measure) and never raises. ``semantic_encoder``, when set, wins.
    ``blob_reader`` reads the blob store (``graph.store.search`` with a filter reads the values it
    filters): ``open_kernel`` binds the kernel's own database, verification the audited journal's."""

    memory_service: MemoryService | None = None
    working_memory_service: WorkingMemoryService | None = None
    semantic_encoder: SemanticEncoder | None = None
    semantic_loader: Callable[[], SemanticEncoder | None] | None = None
    blob_reader: BlobReader | None = None
    judge: ConflictJudge | None = None
    """The working memory's model judge (``kernel.judge``), asked only live; verification never needs it."""

    def semantic(self) -> SemanticEncoder | None:
        """The encoder the semantic detector asks: the bound one, else the loader's (None when its
        packages are absent, exactly as if none were bound, so the journal records the same run)."""
        if self.semantic_encoder is not None or self.semantic_loader is None:
            return self.semantic_encoder
        return self.semantic_loader()
