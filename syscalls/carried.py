"""The values a graph call carries (specs/langgraph.md §2): content enters with the call that stores it,
and leaves with the answer of a live read that names it (``values_answer``).

A ``graph.checkpoint.put``, ``graph.checkpoint.put_writes`` or ``graph.store.put`` names each value it
stores by its hash *and* carries its bytes; the handler recomputes the hash (so does every replay, from
the journaled arguments), refuses a mismatch, and stores the bytes in the call's own transaction. A call
never points at bytes it did not bring: whether anyone stored them, and whose they are, is never asked,
so no reference can make a journal unverifiable or tell one principal what another stored.

Calls recorded before this rule (the arguments named hashes alone, the bytes stored beforehand outside
any call) replay as they were recorded: a reference by hash alone is accepted only when re-executing an
entry that was accepted (``CallContext.recorded``) in a journal of a format before 4, the only journals
such calls were ever accepted in; a live call naming a hash alone is refused ``graph_value_not_carried``
in every format, whether or not the bytes are stored.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from typing import Any

from arvis.access import AccessRules
from arvis.canonical import sha256_hex
from kernel.abi import CallContext
from kernel.errors import ErrorCode, KernelError

Named = tuple[str, str | None, bytes | None]
"""A value a call names: what it is (for the detail), its hash (None: no bytes to take it from, from
format 8), and its bytes when the call carries them."""

_ACCEPTED = b'{"ok":true'
"""How an accepted entry's journaled result begins (canonical JSON: ``ok`` sorts before ``value``)."""


def carried(ctx: CallContext, named: Iterable[Named], *, derived: bool = False) -> dict[str, bytes]:
    """The blobs to store (hash -> bytes) for the values the call names, in order; called once every
    other check of the call has passed, so a refusal here comes last, as it would have come never in
    the calls recorded before it. Refused: bytes that do not hash to the hash named (``invalid_args``),
    a hash named without its bytes (``graph_value_not_carried``) unless re-executing an accepted entry
    recorded before the rule. ``derived``: each hash was taken from the bytes beside it (from format 8),
    so they are not hashed again to compare."""
    blobs: dict[str, bytes] = {}
    legacy = (
        ctx.access_rules < AccessRules.TYPED
        and ctx.recorded is not None
        and ctx.recorded.startswith(_ACCEPTED)
    )
    for what, key, data in named:
        if data is None:
            if legacy:
                continue
            value = "a value" if key is None else f"value {key}"  # None: from format 8, named by its bytes
            raise KernelError(
                ErrorCode.GRAPH_VALUE_NOT_CARRIED,
                f"{what}: {value} is named without its bytes; a call carries every value it stores",
            )
        actual = key if derived else sha256_hex(data)
        if actual != key or actual is None:
            raise KernelError(
                ErrorCode.INVALID_ARGS, f"{what}: the bytes carried hash to {actual}, not to {key}"
            )
        blobs[actual] = data
    return blobs


ANSWER_BYTES = 256 << 10
"""The most bytes of values a read's answer carries (``data``, never journaled)."""


def values_answer(ctx: CallContext, hashes: list[str]) -> dict[str, Any] | None:
    """What a live read (a search, a checkpoint's ``get``) gives its caller alone (a replay reads none): the
    bytes of the values it names (base64 by hash) in order, until they would pass ``ANSWER_BYTES`` or one is
    not stored intact (the rest the caller reads with ``graph.blobs.get``, which names why). One value is
    read at a time: a value may be 16 MiB, so reading a page's values at once could hold gigabytes."""
    data: dict[str, str] = {}
    total = 0
    for key in dict.fromkeys(hashes) if ctx.recorded is None else ():
        blob = ctx.read.graph_store.stored_values([key]).get(key)
        total += 0 if blob is None else len(blob)
        if blob is None or total > ANSWER_BYTES or sha256_hex(blob) != key:
            break
        data[key] = base64.b64encode(blob).decode("ascii")
    return {"data": data} if data else None
