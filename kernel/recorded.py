"""A call in the exact form the journal holds it (``RecordedCall``): what ``Kernel.call`` records and what
replay feeds back to ``Kernel.execute``. Its own module, so that what reads calls (telemetry, replay) needs
nothing of the dispatcher that runs them."""

from __future__ import annotations

import msgspec

__all__ = ["RecordedCall"]


class RecordedCall(msgspec.Struct, frozen=True):
    """A call in the exact form the journal holds it: what replay feeds back to ``Kernel.execute``."""

    syscall: str
    principal: str
    args: bytes
    recorded_at: str
    result: bytes | None = None
    """The journaled result when a recorded entry is re-executed (verification): ``CallContext.recorded``."""
    identity_refused: bool = False
    """The deployment's identity policy refused the principal (live), or the journal records that it
    did (replay): the call is refused ``principal_not_allowed`` (``kernel.identity``)."""
    unknown_when_recorded: bool = False
    """Replay only: the journal records the name as not in the table then. A later release may add a
    syscall of that name; the entry must still replay as the ``unknown_syscall`` it was."""
