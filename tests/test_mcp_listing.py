"""``arvis mcp`` lists the tools its principal can use, says how contexts are named, and
``access_list`` without arguments answers the caller's own grants (issue 38 item 8). Driven in-process
through ``ToolServer``; the protocol itself is tests/test_mcp_server.py's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from strategies import VOUCHED

from syscalls.boot import open_kernel
from tools.cmd_mcp import ToolServer
from tools.mcp_tools import instructions


def _server(db: Path, principal: str, *, administrator: bool = False) -> ToolServer:
    return ToolServer(
        open_kernel(str(db), identity=VOUCHED, create=True), principal, None, administrator=administrator
    )


def _grant(db: Path, principal: str, capability: str, scope: str) -> None:
    kernel = open_kernel(str(db), identity=VOUCHED, create=True)
    try:
        args = {"principal": principal, "capability": capability, "scope": scope}
        assert kernel.call("access.grant", args, principal="admin:root").ok
    finally:
        kernel.close()


def _names(server: ToolServer) -> set[str]:
    return set(server.tools)


def test_a_user_is_listed_what_it_can_use(tmp_path: Path) -> None:
    server = _server(tmp_path / "j.db", "user:alice")
    try:
        names = _names(server)
        assert {"memory_write", "memory_awmu_create", "memory_awmu_propose", "access_list"} <= names
        assert not {"memory_awmu_review", "memory_awmu_reopen_request", "access_grant"} & names
    finally:
        server.kernel.close()


def test_a_canonize_grant_lists_review(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    _grant(db, "user:alice", "canonize", "context:user:alice/chat")
    server = _server(db, "user:alice")
    try:
        assert {"memory_awmu_review", "memory_awmu_reopen_request"} <= _names(server)
    finally:
        server.kernel.close()


def test_an_agent_without_grants_is_not_listed_users_memory(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    server = _server(db, "agent:helper")
    try:
        assert "memory_get" not in _names(server) and "memory_awmu_create" in _names(server)
    finally:
        server.kernel.close()
    _grant(db, "agent:helper", "read", "user:bob")
    server = _server(db, "agent:helper")
    try:
        assert "memory_get" in _names(server)
    finally:
        server.kernel.close()


def test_the_context_naming_is_told_and_works(tmp_path: Path) -> None:
    server = _server(tmp_path / "j.db", "user:alice")
    try:
        assert "user:alice/chat" in instructions("user:alice")
        for name, tool in server.tools.items():
            if name.startswith("memory_awmu_"):
                assert "user:alice/NAME" in tool.description, name
        assert "user_id 'alice'" in server.tools["memory_write"].description
        answer, failed = server.call("memory_awmu_create", {"context_id": "user:alice/chat"})
        assert not failed, answer
        answer, failed = server.call("memory_awmu_create", {"context_id": "alice/chat"})
        assert failed  # the name the instructions do not give is still refused, by the kernel
    finally:
        server.kernel.close()


def test_access_list_without_arguments_is_the_callers_own(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    _grant(db, "agent:helper", "read", "user:bob")
    server = _server(db, "agent:helper")
    try:
        answer, failed = server.call("access_list", None)
        assert not failed, answer
        grants: list[dict[str, Any]] = answer["value"]["grants"]
        assert [grant["principal"] for grant in grants] == ["agent:helper"]
        assert server.call("access_list", {})[1] is False
    finally:
        server.kernel.close()
