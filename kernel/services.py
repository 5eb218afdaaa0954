"""The default services bound in the kernel registry."""

from __future__ import annotations

from functools import cache

from arvis.awmu.service import WorkingMemoryService
from arvis.memory.memory_service import MemoryService
from kernel.registry import KernelServiceRegistry
from kernel.semantic import SemanticEncoder, load_encoder


@cache
def shared_encoder() -> SemanticEncoder | None:
    """The process's semantic encoder, loaded once (a model load costs far more than a call), or None
    when its packages are not installed."""
    return load_encoder()


def default_services(*, semantic: bool = False) -> KernelServiceRegistry:
    """Long-term and working memory; with ``semantic``, the semantic encoder when it is installed,
    loaded on the first call that measures similarity (so ``arvis call memory.get`` never imports
    onnxruntime). Verification binds none: it reads the semantic detector's runs back from the journal."""
    return KernelServiceRegistry(
        memory_service=MemoryService(),
        working_memory_service=WorkingMemoryService(),
        semantic_loader=shared_encoder if semantic else None,
    )
