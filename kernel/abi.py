"""The kernel ABI: what a call returns, what a handler sees, and what a journal entry holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from kernel.errors import ERROR_MESSAGES, ErrorCode

if TYPE_CHECKING:
    from kernel.protocols import Transaction
    from kernel.registry import KernelServiceRegistry

__all__ = ["CallContext", "JournalEntry", "SyscallError", "SyscallResult"]


class SyscallError(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A refusal: a stable code, its fixed message, and a deterministic detail."""

    code: str
    message: str
    detail: str = ""

    @classmethod
    def of(cls, code: ErrorCode, detail: str = "") -> SyscallError:
        return cls(code=code.value, message=ERROR_MESSAGES[code], detail=detail)


class SyscallResult(msgspec.Struct, frozen=True):
    """The outcome of ``Kernel.call``. ``seq`` is the journal entry's seq, or None when nothing was
    journaled (the call was not acknowledged: the storage itself failed)."""

    ok: bool
    seq: int | None
    value: Any = None
    error: SyscallError | None = None

    @property
    def success(self) -> bool:
        """Upstream's name for ``ok``."""
        return self.ok

    @property
    def result(self) -> Any:
        """Upstream's name for ``value``."""
        return self.value

    def journal_payload(self) -> dict[str, Any]:
        """The part of the result that is journaled (everything but seq, which is the row's own)."""
        if self.ok:
            return {"ok": True, "value": self.value}
        assert self.error is not None
        return {"ok": False, "error": msgspec.to_builtins(self.error)}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form printed by the command line."""
        payload = self.journal_payload()
        payload["seq"] = self.seq
        return payload


class JournalEntry(msgspec.Struct, frozen=True):
    """One journal row. ``args`` and ``result`` are canonical JSON bytes; hashes are lower-case hex."""

    seq: int
    recorded_at: str
    syscall: str
    principal: str
    args: bytes
    status: str
    result: bytes
    effects_hash: str
    prev_hash: str
    entry_hash: str


@dataclass(frozen=True)
class CallContext:
    """What a handler may use: the call's one time, its principal, the services, the transaction."""

    seq: int
    now: datetime
    principal: str
    services: KernelServiceRegistry
    tx: Transaction
