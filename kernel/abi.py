"""The kernel ABI: what a call returns, what a handler sees, and what a journal entry holds."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from arvis.access import AccessRules, Grant
from journal.entry import JournalEntry
from kernel.errors import ERROR_MESSAGES, ErrorCode

if TYPE_CHECKING:
    from kernel.protocols import Reader
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


_UNDECODED: Any = object()


class SyscallResult:
    """The outcome of ``Kernel.call``. ``seq`` is the journal entry's seq, or None when nothing was
    journaled (the call was not acknowledged: the storage itself failed).

    An accepted call's ``value`` is what its entry holds (expanded; ``graph.blobs.get``'s with the bytes it
    names), kept encoded, decoded on first access (``from_journaled``): a caller that only checks ``ok``
    (a bulk load, a benchmark) never pays for decoding a large value. Immutable."""

    __slots__ = ("_encoded", "_value", "error", "ok", "seq")
    ok: bool
    seq: int | None
    error: SyscallError | None
    _value: Any
    _encoded: bytes | None

    def __init__(
        self, *, ok: bool, seq: int | None, value: Any = None, error: SyscallError | None = None
    ) -> None:
        object.__setattr__(self, "ok", ok)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_encoded", None)

    @classmethod
    def from_journaled(cls, seq: int, encoded: bytes) -> SyscallResult:
        """An accepted call's result from its journaled bytes (``{"ok":true,"value":...}``)."""
        result = cls(ok=True, seq=seq, value=_UNDECODED)
        object.__setattr__(result, "_encoded", encoded)
        return result

    @property
    def value(self) -> Any:
        if self._value is _UNDECODED:
            assert self._encoded is not None
            object.__setattr__(self, "_value", msgspec.json.decode(self._encoded)["value"])
        return self._value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"SyscallResult is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"SyscallResult is immutable: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SyscallResult):
            return NotImplemented
        return (self.ok, self.seq, self.error, self.value) == (other.ok, other.seq, other.error, other.value)

    __hash__ = None  # type: ignore[assignment]  # the value may be a dict

    def __repr__(self) -> str:
        return f"SyscallResult(ok={self.ok!r}, seq={self.seq!r}, value={self.value!r}, error={self.error!r})"

    @property
    def success(self) -> bool:
        """Upstream's name for ``ok``."""
        return self.ok

    @property
    def result(self) -> Any:
        """Upstream's name for ``value``."""
        return self.value

    def journal_payload(self) -> dict[str, Any]:
        """The result without seq (the row's own), as the journal holds it; in a format that journals
        reads by reference, the whole form the stored one expands to (``kernel.result_pieces``)."""
        if self.ok:
            return {"ok": True, "value": self.value}
        assert self.error is not None
        return {"ok": False, "error": msgspec.to_builtins(self.error)}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form printed by the command line."""
        payload = self.journal_payload()
        payload["seq"] = self.seq
        return payload


class CallContext(msgspec.Struct, frozen=True):
    """What a handler may use: the call's one time, its principal, the services, and what it reads
    (``read``: never the transaction, which only the kernel appends to)."""

    seq: int
    now: datetime
    principal: str
    services: KernelServiceRegistry
    read: Reader
    access_rules: AccessRules
    """The journal's access rules: its format version (never defaulted: no call is decided under rules
    it did not ask for)."""
    format_version: int
    """The journal's format (``kernel.formats``), for what a format changed besides access."""
    recorded: bytes | None = None
    """Verification replay only: the journaled result of the entry being re-executed. A handler reads
    back from it what is not reproducible (a detector's output, the rule set a context was created
    under) instead of recomputing it; live calls get None."""

    def grants(self) -> list[Grant]:
        """The grants the call's principal holds."""
        return self.read.grants.grants_of(self.principal)
