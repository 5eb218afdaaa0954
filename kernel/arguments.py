"""Turn whatever a caller passes into the exact values that are journaled.

Everything after this step works from the recorded forms, so a replay, which only has the journal,
takes the same path and reaches the same result.
"""

from __future__ import annotations

from arvis.canonical import CanonicalEncodingError, canonical_bytes, decode
from kernel.errors import ErrorCode, KernelError

__all__ = [
    "MAX_ARGS_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_PRINCIPAL_LENGTH",
    "MAX_VALUE_ARGS_BYTES",
    "REFUSED_ARGS_MARKER",
    "check_principal",
    "check_refused",
    "record_args",
    "record_text",
]

MAX_ARGS_BYTES = 65_536
MAX_VALUE_ARGS_BYTES = 16 * 1024 * 1024
"""The limit of a call that carries the values it stores (a LangGraph checkpoint, a store item): its
table row says so (``SyscallSpec.max_args_bytes``)."""
MAX_NAME_LENGTH = 128
MAX_PRINCIPAL_LENGTH = 256
REFUSED_ARGS_MARKER = "$refused_args"


def record_args(args: object, limit: int = MAX_ARGS_BYTES) -> bytes:
    """The canonical bytes to journal for ``args``; arguments with no acceptable form (or longer than
    ``limit``, the syscall's own) are recorded as ``{"$refused_args": reason}`` so that the refusal replays
    identically."""
    try:
        data = canonical_bytes(args)
    except (CanonicalEncodingError, RecursionError) as exc:
        reason = str(exc) if isinstance(exc, CanonicalEncodingError) else "value nested too deeply"
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments have no JSON form: {reason}"})
    except Exception as exc:  # a caller's object that fails when read (a broken mapping, say)
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments could not be read: {type(exc).__name__}"})
    if len(data) > limit:
        return canonical_bytes({REFUSED_ARGS_MARKER: f"arguments exceed {limit} bytes ({len(data)})"})
    return data


_REFUSED_PREFIX = b'{"' + REFUSED_ARGS_MARKER.encode() + b'":'


def check_refused(data: bytes) -> None:
    """Refuse recorded arguments that carry the refusal marker (canonical order puts it first)."""
    if data.startswith(_REFUSED_PREFIX):
        reason = decode(data).get(REFUSED_ARGS_MARKER)
        raise KernelError(ErrorCode.INVALID_ARGS, str(reason))


def record_text(value: object, limit: int) -> str:
    """The form of a syscall name or principal that is journaled: the string itself when it is a
    UTF-8-encodable string of at most ``limit`` characters, else the empty string (always refused). A
    ``str`` subclass is copied to a plain ``str`` before any check, so none of its own methods (a ``__len__``
    that lies, one that raises) is ever run; a copy that fails is recorded as ``""``."""
    if not isinstance(value, str):
        return ""
    try:
        text = str.__str__(value)  # a plain copy first: every check below runs on str's own methods
        if len(text) > limit or "\x00" in text:
            return ""
        text.encode("utf-8")
    except Exception:  # UnicodeEncodeError, or whatever a hostile subclass raises
        return ""
    return text


def check_principal(principal: str) -> None:
    """Refuse an empty principal or one with control characters."""
    if not principal or not principal.isprintable():
        raise KernelError(
            ErrorCode.INVALID_PRINCIPAL,
            f"principal must be 1 to {MAX_PRINCIPAL_LENGTH} printable characters",
        )
