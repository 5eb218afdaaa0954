"""Format 4 (``AccessRules.TYPED``, issue 36 finding 8): typed scopes, graph names created by an explicit
call, and refusals that do not say whether an id exists; older journals keep their rules
(``access-and-pipelines.md`` §1.8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graph_values import hashed, stored
from test_context_access import _args, _clock, _create, _ok, _refused, _request, _review, _seed, _verified

from arvis.access import AccessRules
from journal.engine import open_engine
from journal.store import SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE

OPERATOR = "operator:o"
DENIED = "memory_policy_denied"
AGENT = "agent:a"
BLOB = b"a checkpoint"
PUT = {"checkpoint_id": "c1", "checkpoint": hashed(BLOB)}  # the value travels with the call (formats 3, 4)


def _kernel(path: Path, format_version: int) -> Kernel:
    clock = _clock()
    store = SqlJournalStore(open_engine(str(path)), clock=clock, format_version=format_version)
    return Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )


def _grant(kernel: Kernel, capability: str, scope: str, principal: str = AGENT) -> Any:
    args = {"principal": principal, "capability": capability, "scope": scope}
    return kernel.call("access.grant", args, principal=OPERATOR)


def test_a_grant_on_a_user_does_not_reach_the_context_of_that_name(tmp_path: Path) -> None:
    kernel = _kernel(tmp_path / "j.db", 4)
    assert kernel.access_rules == AccessRules.TYPED
    _create(kernel, "ward-7", OPERATOR)
    assert _grant(kernel, "write", "user:ward-7").ok
    _refused(kernel, "propose", _args("propose", "ward-7"), AGENT, DENIED)
    assert _ok(kernel, "memory.write", _write("ward-7"), AGENT)["entry"]["key"] == "language"
    assert _grant(kernel, "write", "context:ward-7").ok
    assert _ok(kernel, "propose", _args("propose", "ward-7"), AGENT)
    # a bare name is neither: refused, and so is an unknown kind
    for scope in ("ward-7", "ctx:ward-7", "user:"):
        refused = _grant(kernel, "read", scope)
        assert refused.error.code == "invalid_args" and f"scope '{scope}'" in refused.error.detail
    _verified(kernel)
    kernel.close()


def test_an_older_journal_keeps_one_namespace_for_users_and_contexts(tmp_path: Path) -> None:
    kernel = _kernel(tmp_path / "j.db", 3)
    assert kernel.access_rules == AccessRules.OWNED
    _create(kernel, "ward-7", OPERATOR)
    assert _grant(kernel, "write", "ward-7").ok  # as it always meant: user ward-7 and context ward-7
    assert _ok(kernel, "propose", _args("propose", "ward-7"), AGENT)
    assert _ok(kernel, "memory.write", _write("ward-7"), AGENT)
    _verified(kernel)
    kernel.close()


def _write(user_id: str) -> dict[str, Any]:
    return {"user_id": user_id, "key": "language", "memory_type": "preference", "source": "explicit_user"}


def test_a_thread_or_namespace_is_created_explicitly_and_cannot_be_squatted(tmp_path: Path) -> None:
    kernel = _kernel(tmp_path / "j.db", 4)
    owner, squatter = "user:bob", "agent:evil"
    # a write claims nothing: a free thread is refused, as another's is
    _refused(kernel, "graph.checkpoint.put", {"thread_id": "t1", **PUT}, owner, DENIED)
    store = {"namespace": ["docs"], "key": "k", **stored({"doc": 1})}
    _refused(kernel, "graph.store.put", store, owner, DENIED)
    # a name P/rest is reserved to P: nobody else may create it, whether or not it exists
    reserved = (
        f"principal '{squatter}' may not create graph thread 'user:bob/t': the name is reserved to 'user:bob'"
    )
    _refused(kernel, "graph.thread.create", {"thread_id": "user:bob/t"}, squatter, DENIED, reserved)
    created = _ok(kernel, "graph.thread.create", {"thread_id": "user:bob/t"}, owner)
    assert created == {"thread_id": "user:bob/t", "owner": owner, "created": True}
    _refused(kernel, "graph.thread.create", {"thread_id": "user:bob/t"}, squatter, DENIED, reserved)
    again = _ok(kernel, "graph.thread.create", {"thread_id": "user:bob/t"}, owner)
    assert again["created"] is False
    assert _ok(kernel, "graph.checkpoint.put", {"thread_id": "user:bob/t", **PUT}, owner)
    _refused(kernel, "graph.checkpoint.put", {"thread_id": "user:bob/t", **PUT}, squatter, DENIED)
    # a store namespace likewise
    assert _ok(kernel, "graph.namespace.create", {"prefix": "docs"}, owner)["created"] is True
    assert _ok(kernel, "graph.store.put", store, owner)
    _refused(kernel, "graph.store.put", store, squatter, DENIED)
    assert kernel.call("graph.namespace.create", {"prefix": "docs"}, principal=squatter).error.code == DENIED
    _verified(kernel)
    kernel.close()


def test_a_refusal_does_not_say_whether_the_id_exists(tmp_path: Path) -> None:
    kernel = _kernel(tmp_path / "j.db", 4)
    stranger = "agent:probe"
    # graph threads: another's and a free one answer alike
    assert _ok(kernel, "graph.thread.create", {"thread_id": "t1"}, "user:bob")
    details = {
        kernel.call("graph.checkpoint.get", {"thread_id": name}, principal=stranger).error.detail.replace(
            name, "T"
        )
        for name in ("t1", "t-none")
    }
    assert len(details) == 1
    # working-memory requests: an existing one and an unknown id answer alike
    _create(kernel, "user:bob/chat", "user:bob")
    unit_id = _seed(kernel, "user:bob/chat", "user:bob")
    request_id = _request(kernel, "user:bob/chat", unit_id, "user:bob")
    answers = set()
    for given in (request_id, "c999999"):
        refused = _refused(kernel, "review", _review(given), stranger, DENIED)
        answers.add(refused.error.detail.replace(given, "R"))
    assert answers == {f"principal '{stranger}' may not canonize request 'R'"}
    # pipeline runs: another's (active or not) and none answer alike
    assert _grant(kernel, "write", "user:u1", "agent:runner").ok
    _ok(kernel, "pipeline.begin", {"user_id": "u1", "run_id": "r1"}, "agent:runner")
    for given in ("agent:runner/r1", "agent:runner/r2"):
        refused = _refused(kernel, "pipeline.end", {"run_id": given}, stranger, DENIED)
        assert refused.error.detail == f"principal '{stranger}' may not admin '*'"
    own = kernel.call("pipeline.end", {"run_id": "r9"}, principal=stranger)  # its own id: plainly none
    assert own.error.code == "pipeline_run_not_found"
    _verified(kernel)
    kernel.close()
