# ruff: noqa: E501
"""Every syscall, in one place: one line a row, built at import (a duplicate name fails here).

This file is the table (``specs/kernel-syscalls.md`` §2): each row is the syscall's full name (so that a
search for a name finds its row), its handler, its family's service (``Service``), its flags (``Flag``:
``READ`` changes no state, and the kernel refuses a read whose decision would) and a one-line summary. The
request type is read from the handler's signature (``kernel.abi.spec_of``); the handlers and request
types stay in their family's module. A name leaves the table only into ``RETIRED``, never to be registered
again. The rows are as wide as the table: the formatter leaves them as written."""

from __future__ import annotations

from typing import Any

from kernel.abi import Flag, Row, Service, SyscallTable
from syscalls import (
    access,
    graph,
    graph_args,
    graph_store,
    graph_threads,
    kernel_calls,
    memory_long,
    pipeline,
    working_memory,
)

RETIRED: tuple[str, ...] = ()
"""Names the table once served and serves no more; none so far. An old journal may hold a call to one: it is
refused as ``unknown_syscall``, like any name outside the table, and the name can never be registered again
(``SyscallTable`` refuses it). A retired call's journaled successes no longer replay, so a name is retired
only when no journal that must still verify holds an accepted call to it (``kernel-syscalls.md`` §2.2)."""

ALWAYS, MEMORY, WORKING = Service.ALWAYS, Service.MEMORY, Service.WORKING_MEMORY
READ, MUTATES, UPSTREAM, CARRIES_VALUES = Flag.READ, Flag.MUTATES, Flag.UPSTREAM, Flag.CARRIES_VALUES

# fmt: off
ROWS: tuple[Row, ...] = (
    # access.*: grants of capabilities (access-and-pipelines.md §1.5)
    ("access.grant",                 access.access_grant,                  ALWAYS,  MUTATES,                  "give a principal a capability"),
    ("access.revoke",                access.access_revoke,                 ALWAYS,  MUTATES,                  "withdraw a capability"),
    ("access.list",                  access.access_list,                   ALWAYS,  READ,                     "list grants (one's own, or all)"),
    # kernel.*: the kernel's own calls (kernel-syscalls.md §1)
    ("kernel.record",                kernel_calls.kernel_record,           ALWAYS,  MUTATES,                  "journal an outside observation"),
    # memory.*: long-term memory, ARVIS-MEM-01 §11.1 (memory-syscalls.md)
    ("memory.list",                  memory_long.memory_list,              MEMORY,  UPSTREAM,                 "list a user's entries in spec order"),
    ("memory.get",                   memory_long.memory_get,               MEMORY,  UPSTREAM,                 "the active entry for a key"),
    ("memory.snapshot",              memory_long.memory_snapshot,          MEMORY,  UPSTREAM,                 "snapshot, projection and hash"),
    ("memory.write",                 memory_long.memory_write,             MEMORY,  MUTATES | UPSTREAM,       "create or supersede an entry"),
    ("memory.revoke",                memory_long.memory_revoke,            MEMORY,  MUTATES | UPSTREAM,       "revoke the current entry for a key"),
    # memory.awmu.*: the working memory of units (working-memory.md §3)
    ("memory.awmu.create",           working_memory.awmu_create,           WORKING, MUTATES,                  "create a context with its recorded config"),
    ("memory.awmu.propose",          working_memory.awmu_propose,          WORKING, MUTATES,                  "run a proposition through the gates"),
    ("memory.awmu.seed",             working_memory.awmu_seed,             WORKING, MUTATES,                  "an operator's unit at a given authority and rank"),
    ("memory.awmu.turn",             working_memory.awmu_turn,             WORKING, MUTATES,                  "advance one turn: reinforce named units, decay the rest"),
    ("memory.awmu.pin",              working_memory.awmu_pin,              WORKING, MUTATES,                  "pin a unit: immune to decay, demotion and eviction"),
    ("memory.awmu.unpin",            working_memory.awmu_unpin,            WORKING, MUTATES,                  "unpin a unit"),
    ("memory.awmu.archive",          working_memory.awmu_archive,          WORKING, MUTATES,                  "archive a unit explicitly"),
    ("memory.awmu.restore",          working_memory.awmu_restore,          WORKING, MUTATES,                  "make an inactive unit active again"),
    ("memory.awmu.canonize",         working_memory.awmu_canonize,         WORKING, MUTATES,                  "request CANON for a unit (PENDING)"),
    ("memory.awmu.review",           working_memory.awmu_review,           WORKING, MUTATES,                  "approve or reject a canonization or a queued proposal"),
    ("memory.awmu.reopen_request",   working_memory.awmu_reopen,           WORKING, MUTATES,                  "set a decided request or queued proposal back to PENDING"),
    ("memory.awmu.close",            working_memory.awmu_close,            WORKING, MUTATES,                  "close a context for good: later writes are refused"),
    ("memory.awmu.list",             working_memory.awmu_list,             WORKING, READ,                     "units, review queue and pending canonizations"),
    ("memory.awmu.get",              working_memory.awmu_get,              WORKING, READ,                     "one unit, whatever its status"),
    ("memory.awmu.assemble",         working_memory.awmu_assemble,         WORKING, READ,                     "the ranked prompt block within a token budget"),
    ("memory.awmu.events",           working_memory.awmu_events,           WORKING, READ,                     "the lifecycle event stream"),
    ("memory.awmu.validate_summary", working_memory.awmu_validate_summary, WORKING, MUTATES,                  "which protected units a summary loses"),
    ("memory.awmu.pressure",         working_memory.awmu_pressure,         WORKING, READ,                     "the memory pressure gauge and its parts"),
    # pipeline.*: pipeline runs (access-and-pipelines.md §2.1)
    ("pipeline.begin",               pipeline.pipeline_begin,              MEMORY,  MUTATES,                  "begin a run: hold the user's memory still"),
    ("pipeline.end",                 pipeline.pipeline_end,                MEMORY,  MUTATES,                  "end a run: its user's memory may change again"),
    # graph.checkpoint.*, graph.thread.*, graph.runs.*: LangGraph checkpoints (langgraph.md §3)
    ("graph.checkpoint.put",         graph.graph_put,                      ALWAYS,  MUTATES | CARRIES_VALUES, "store a LangGraph checkpoint"),
    ("graph.checkpoint.put_writes",  graph.graph_put_writes,               ALWAYS,  MUTATES | CARRIES_VALUES, "store a task's pending writes against a checkpoint"),
    ("graph.checkpoint.get",         graph.graph_get,                      ALWAYS,  READ,                     "a checkpoint (or a thread's latest) with its pending writes"),
    ("graph.checkpoint.list",        graph.graph_list,                     ALWAYS,  READ,                     "list checkpoints, newest first"),
    ("graph.blobs.get",              graph.graph_blobs_get,                ALWAYS,  READ,                     "the bytes of values a checkpoint or store item the caller may read references"),
    ("graph.thread.create",          graph.graph_thread_create,            ALWAYS,  MUTATES,                  "create a thread, owned by the caller"),
    ("graph.thread.delete",          graph_threads.graph_thread_delete,    ALWAYS,  MUTATES,                  "delete a thread's checkpoints and writes"),
    ("graph.thread.copy",            graph_threads.graph_thread_copy,      ALWAYS,  MUTATES,                  "copy a thread's checkpoints and writes to another"),
    ("graph.thread.prune",           graph_threads.graph_thread_prune,     ALWAYS,  MUTATES,                  "keep only each namespace's latest checkpoint (or delete all)"),
    ("graph.runs.delete",            graph_threads.graph_runs_delete,      ALWAYS,  MUTATES,                  "delete the checkpoints of some runs"),
    # graph.store.*: LangGraph's long-term store (langgraph.md §8)
    ("graph.namespace.create",       graph_store.namespace_create,         ALWAYS,  MUTATES,                  "create a store namespace (its first element), owned by the caller"),
    ("graph.store.put",              graph_store.store_put,                ALWAYS,  MUTATES | CARRIES_VALUES, "store (or, with a null value, delete) an item of the LangGraph store"),
    ("graph.store.get",              graph_store.store_get,                ALWAYS,  MUTATES,                  "an item of the LangGraph store (a read that refreshes moves its expiry)"),
    ("graph.store.search",           graph_store.store_search,             ALWAYS,  MUTATES,                  "the items under a namespace prefix, filtered (a read that refreshes moves their expiry)"),
    ("graph.store.list_namespaces",  graph_store.store_list_namespaces,    ALWAYS,  READ,                     "the namespaces of the LangGraph store"),
)
# fmt: on

EARLIER: dict[type[Any], tuple[tuple[int, type[Any]], ...]] = {
    graph_args.PutArgs: ((5, graph_args.BoundedPutArgs), (8, graph_args.HashedPutArgs)),
    graph_args.PutWritesArgs: ((5, graph_args.BoundedPutWritesArgs), (8, graph_args.HashedPutWritesArgs)),
    graph_args.GetArgs: ((5, graph_args.BoundedGetArgs),),
    graph_args.ListArgs: ((5, graph_args.BoundedListArgs),),
    graph_args.ThreadArgs: ((5, graph_args.BoundedThreadArgs),),
    graph_args.CopyArgs: ((5, graph_args.BoundedCopyArgs),),
    graph_args.PruneArgs: ((5, graph_args.BoundedPruneArgs),),
    working_memory.ProposeArgs: ((6, working_memory.SourcedProposeArgs),),
    working_memory.SeedArgs: ((6, working_memory.OperatorSeedArgs),),
}
"""Request types that changed, with each format from which a later type applies and the type of the
journals before it: graph thread ids of at most 122 characters before format 5 (``syscalls.graph_args``),
a working-memory statement's ``source`` required (a seed's ``operator`` by default) before format 6, a
checkpoint value's hash carried beside its bytes before format 8 (``kernel.formats.VALUES_ONCE``)."""

SYSCALL_TABLE = SyscallTable.of(ROWS, earlier=EARLIER, retired=RETIRED)
