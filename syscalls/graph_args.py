"""The arguments of the graph family's checkpoint calls (``syscalls.graph``, specs/langgraph.md §3), and
the scope a thread's grants name.

A thread id is any text LangGraph accepts (``SqliteSaver`` stores it as it comes), NUL aside (PostgreSQL
text cannot hold it), up to ``MAX_THREAD_ID_LENGTH`` characters; it is stored and compared exactly. Its
grant scope is ``graph:<thread_id>`` when that fits a grant's scope (``thread_scope_name``), else
``graph:#<SHA-256 hex>``. Journals of formats 1 to 4 decide under their own rule for life: a thread id
there is 1 to 122 characters without control characters (``Bounded*``, their argument types, which the
dispatcher decodes those journals' calls with: ``SyscallSpec.earlier_request_types``), so that their
refusals replay byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import msgspec

from arvis.canonical import sha256_hex
from syscalls.types import NO_NUL, PLAIN

THREAD_SCOPE_PREFIX = "graph:"
"""A thread's grant scope is ``graph:<thread_scope_name(thread_id)>``."""
MAX_SCOPE_NAME = 128 - len(THREAD_SCOPE_PREFIX)
"""The longest thread id a scope names literally (a grant's scope is at most 128 characters)."""
MAX_THREAD_ID_LENGTH = 1024
"""The longest thread id (the limit of the family's other names)."""
HASHED_SCOPE_MARK = "#"
"""How a scope name made of a hash begins; a thread id that begins so is always named by its hash, so a
literal name never collides with a hashed one."""
MAX_LIST = 100
"""The most checkpoints one ``graph.checkpoint.list`` returns (and its default ``limit``): a longer listing
is read in pages, each starting ``after`` the last one returned."""
MAX_IDS = 1000
"""The most run ids (``graph.runs.delete``) or thread ids (``graph.thread.prune``) one call names."""

_PLAIN_RE = re.compile(PLAIN)
ThreadId = Annotated[str, msgspec.Meta(max_length=MAX_THREAD_ID_LENGTH, pattern=NO_NUL)]
BoundedThreadId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_SCOPE_NAME, pattern=PLAIN)]
"""A thread id in journals of formats 1 to 4 (so that ``graph:<thread_id>`` fits a grant's scope)."""
Namespace = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
CheckpointId = Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=NO_NUL)]
Name = Annotated[str, msgspec.Meta(max_length=1024, pattern=NO_NUL)]
"""A channel, a task id or a task path."""
RunId = Annotated[str, msgspec.Meta(max_length=256, pattern=NO_NUL)]
Hash = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}\Z")]
TypeTag = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=PLAIN)]
Version = Annotated[str, msgspec.Meta(max_length=256, pattern=NO_NUL)] | int | float
"""A channel version: LangGraph's are strings, integers or numbers."""


def thread_scope_name(thread_id: str) -> str:
    """What follows ``graph:`` in the thread's scope: the id itself when it is 1 to 122 characters
    without control characters and does not begin with ``#``; else ``#`` and the lower-case hex SHA-256
    of its UTF-8 bytes (71 characters in all with the prefix)."""
    if (
        len(thread_id) <= MAX_SCOPE_NAME
        and not thread_id.startswith(HASHED_SCOPE_MARK)
        and _PLAIN_RE.match(thread_id) is not None
    ):
        return thread_id
    return HASHED_SCOPE_MARK + sha256_hex(thread_id.encode("utf-8"))


class Value(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A value: its type and its bytes (``data``, base64), which every live call carries; from format 8
    the hash that names it is theirs (``syscalls.graph.named``)."""

    type: TypeTag
    data: bytes | None = None


class Ref(Value, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A value before format 8: also the hash of its bytes."""

    hash: Hash


class NewValue(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A channel's value at a new version (left out: the channel's in ``channel_versions``, from format
    8): ``data`` null exactly when ``type`` is ``empty``."""

    channel: Name
    version: Version | msgspec.UnsetType = msgspec.UNSET
    type: TypeTag
    data: bytes | None = None


class HashedNewValue(NewValue, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Before format 8: its version always given, and its hash, null exactly when ``type`` is ``empty``."""

    version: Version
    hash: Hash | None = None


class PutArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_id: CheckpointId
    checkpoint: Value
    checkpoint_ns: Namespace = ""
    parent_checkpoint_id: CheckpointId | None = None
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    channel_versions: dict[Name, Version] = msgspec.field(default_factory=dict)
    new_values: Sequence[NewValue] = msgspec.field(default_factory=list)


class Write(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    channel: Name
    type: TypeTag
    data: bytes | None = None


class HashedWrite(Write, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Before format 8: also the hash of its bytes."""

    hash: Hash


class PutWritesArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_id: CheckpointId
    task_id: Name
    writes: Sequence[Write]
    checkpoint_ns: Namespace = ""
    task_path: Name = ""


class GetArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId
    checkpoint_ns: Namespace = ""
    checkpoint_id: CheckpointId | None = None


class Position(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A checkpoint's place in the listing order (``after``)."""

    thread_id: ThreadId
    checkpoint_ns: Namespace
    checkpoint_id: CheckpointId


class ListArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId | None = None
    checkpoint_ns: Namespace | None = None
    checkpoint_id: CheckpointId | None = None
    before: CheckpointId | None = None
    filter: dict[str, Any] | None = None
    limit: Annotated[int, msgspec.Meta(ge=0, le=MAX_LIST)] = MAX_LIST
    after: Position | None = None


class ThreadArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_id: ThreadId


class RunsArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    run_ids: Annotated[list[RunId], msgspec.Meta(max_length=MAX_IDS)]


class CopyArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source_thread_id: ThreadId
    target_thread_id: ThreadId


class PruneArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    thread_ids: Annotated[list[ThreadId], msgspec.Meta(max_length=MAX_IDS)]
    strategy: Literal["keep_latest", "delete"] = "keep_latest"


# --- formats 1 to 7: each value carried names its hash beside its bytes -----------------------------


class HashedPutArgs(PutArgs, frozen=True, forbid_unknown_fields=True):
    checkpoint: Ref
    new_values: Sequence[HashedNewValue] = msgspec.field(default_factory=list)


class HashedPutWritesArgs(PutWritesArgs, frozen=True, forbid_unknown_fields=True):
    writes: Sequence[HashedWrite]


# --- formats 1 to 4: the same fields, in the same order, thread ids bounded ------------------------


class BoundedPutArgs(HashedPutArgs, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId


class BoundedPutWritesArgs(HashedPutWritesArgs, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId


class BoundedGetArgs(GetArgs, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId


class BoundedPosition(Position, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId


class BoundedListArgs(ListArgs, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId | None = None
    after: BoundedPosition | None = None


class BoundedThreadArgs(ThreadArgs, frozen=True, forbid_unknown_fields=True):
    thread_id: BoundedThreadId


class BoundedCopyArgs(CopyArgs, frozen=True, forbid_unknown_fields=True):
    source_thread_id: BoundedThreadId
    target_thread_id: BoundedThreadId


class BoundedPruneArgs(PruneArgs, frozen=True, forbid_unknown_fields=True):
    thread_ids: Annotated[list[BoundedThreadId], msgspec.Meta(max_length=MAX_IDS)]
