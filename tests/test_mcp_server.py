"""``arvis mcp`` (issue 18 item 2): the memory syscalls as MCP tools over stdio, as one principal fixed by
the server (``tools/cmd_mcp.py``, ``specs/access-and-pipelines.md`` §0.5).

The server runs as a subprocess, driven by the official SDK's own stdio client; the tests that need the
SDK skip when it is not installed (``pip install -e '.[mcp]'``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from strategies import VOUCHED

from journal.reader import JournalReader
from syscalls.boot import open_kernel
from tools.admin_key import KEY_SUFFIX, create_key

ROOT = Path(__file__).resolve().parent.parent
ARVIS = [sys.executable, "-m", "tools.cli"]
"""This checkout's command line (the installed ``arvis`` script may import another checkout)."""
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # what MCP clients and model APIs take
WRITE_A = {"user_id": "a", "key": "language", "memory_type": "preference", "source": "explicit_user"}


def _create(db: Path) -> None:
    """A journal with its admin key beside it, as ``arvis call --create`` makes one."""
    key = Path(f"{db}{KEY_SUFFIX}")
    create_key(key)
    kernel = open_kernel(
        str(db), identity=VOUCHED, admin_key=bytes.fromhex(key.read_text(encoding="ascii")), create=True
    )
    try:
        assert kernel.call("memory.list", {"user_id": "a"}, principal="user:a").ok
    finally:
        kernel.close()


def _session(db: Path, principal: str, work: Callable[[Any], Awaitable[None]], *extra: str) -> None:
    """Start ``arvis mcp`` on ``db`` as ``principal`` with the SDK's stdio client, initialize, and run
    ``work(session)``."""
    mcp = pytest.importorskip("mcp")
    import anyio
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(
        command=ARVIS[0],
        args=[*ARVIS[1:], "mcp", "--db", str(db), "--principal", principal, *extra],
        cwd=str(db.parent),
        env=ENV,
    )

    async def main() -> None:
        with (db.parent / "server.log").open("w") as errlog:
            async with (
                stdio_client(server, errlog=errlog) as (read, write),
                mcp.ClientSession(read, write) as session,
            ):
                await session.initialize()
                await work(session)

    anyio.run(main)


def _json(result: Any) -> dict[str, Any]:
    """A tool result's JSON: its text content, which its structured content repeats."""
    (content,) = result.content
    answer: dict[str, Any] = json.loads(content.text)
    assert result.structured_content == answer
    return answer


def _entries(db: Path) -> list[tuple[str, str, str]]:
    reader = JournalReader.open(str(db))
    try:
        return [(entry.syscall, entry.principal, entry.status) for entry in reader.entries()]
    finally:
        reader.close()


def test_a_user_calls_its_memory_and_every_call_is_journaled_as_it(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    _create(db)
    before = len(_entries(db))
    seen: dict[str, Any] = {}

    async def work(session: Any) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        seen["tools"] = tools
        seen["write"] = await session.call_tool("memory_write", WRITE_A)
        seen["list"] = await session.call_tool("memory_list", {"user_id": "a"})
        seen["other"] = await session.call_tool("memory_list", {"user_id": "b"})
        seen["principal"] = await session.call_tool("memory_list", {"user_id": "a", "principal": "user:b"})
        seen["verify"] = await session.call_tool("journal_verify", {})
        seen["unknown"] = await session.call_tool("memory_forget", {})

    _session(db, "user:a", work)

    tools = seen["tools"]
    for name in ("memory_write", "memory_list", "memory_get", "memory_revoke", "memory_snapshot",
                 "memory_awmu_propose", "memory_awmu_assemble", "pipeline_begin", "pipeline_end",
                 "access_list"):  # fmt: skip
        assert name in tools
    # not for a user: handing out rights, and replaying (and sizing) every principal's journal
    assert not {"access_grant", "access_revoke", "kernel_record", "journal_verify"} & set(tools)
    for tool in tools.values():
        assert TOOL_NAME.match(tool.name)
        assert tool.input_schema["type"] == "object" and tool.description
        assert "principal" not in tool.input_schema.get("properties", {}) or tool.name == "access_list"
    assert tools["memory_write"].input_schema["additionalProperties"] is False
    assert set(tools["memory_write"].input_schema["required"]) == {"user_id", "key", "memory_type", "source"}
    assert tools["memory_list"].annotations.read_only_hint is True
    assert tools["memory_write"].annotations.read_only_hint is False

    written = _json(seen["write"])
    assert seen["write"].is_error is False and written["ok"] is True
    assert written["value"]["entry"]["key"] == "language"
    listed = _json(seen["list"])
    assert seen["list"].is_error is False
    assert [item["entry"]["key"] for item in listed["value"]["entries"]] == ["language"]

    other = _json(seen["other"])
    assert seen["other"].is_error is True and other["ok"] is False
    assert other["error"]["code"] == "memory_policy_denied"
    assert other["error"]["message"] and "may not read 'b'" in other["error"]["detail"]
    assert other["seq"] == written["seq"] + 2

    named = _json(seen["principal"])
    assert seen["principal"].is_error is True
    assert named["error"]["code"] == "invalid_args" and "principal" in named["error"]["detail"]
    assert named["seq"] == other["seq"] + 1  # refused by the kernel, so journaled

    verify = _json(seen["verify"])  # no such tool for a user: nothing about the journal's size
    assert seen["verify"].is_error is True and verify["seq"] is None
    assert verify["error"]["code"] == "unknown_tool" and "head_seq" not in verify
    assert _entries(db)[-1][2] == "invalid_args"  # journal_verify journaled nothing

    unknown = _json(seen["unknown"])
    assert seen["unknown"].is_error is True
    assert unknown["error"]["code"] == "unknown_tool" and unknown["seq"] is None

    calls = _entries(db)[before:]  # the verifications and the unknown tool are not syscalls
    assert calls == [
        ("memory.write", "user:a", "ok"),
        ("memory.list", "user:a", "ok"),
        ("memory.list", "user:a", "memory_policy_denied"),
        ("memory.list", "user:a", "invalid_args"),
    ]


def test_an_administrator_with_the_key_is_served_the_grants_too(tmp_path: Path) -> None:
    """Also at ``--log-level info``: the per-call events go to stderr, never into the protocol."""
    db = tmp_path / "j.db"
    _create(db)  # writes j.db.admin-key
    seen: dict[str, Any] = {}

    async def work(session: Any) -> None:
        seen["tools"] = {tool.name for tool in (await session.list_tools()).tools}
        seen["grant"] = await session.call_tool(
            "access_grant", {"principal": "agent:x", "capability": "read", "scope": "user:a"}
        )
        seen["list"] = await session.call_tool("access_list", {})

    _session(db, "operator:me", work, "--log-level", "info")

    assert {"access_grant", "access_revoke", "access_list"} <= seen["tools"]
    assert _json(seen["grant"])["value"]["added"] is True
    assert _json(seen["list"])["value"]["grants"] == [
        {"capability": "read", "principal": "agent:x", "scope": "user:a"}
    ]
    assert _entries(db)[-2:] == [("access.grant", "operator:me", "ok"), ("access.list", "operator:me", "ok")]
    events = [json.loads(line) for line in (tmp_path / "server.log").read_text().splitlines() if line]
    assert [
        (event["syscall"], event["principal"]) for event in events if event.get("event") == "syscall"
    ] == [
        ("access.grant", "operator:me"),
        ("access.list", "operator:me"),
    ]


def _refused_start(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARVIS, "mcp", *args], cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120, check=False, env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("principal", "says"),
    [
        ("operator:me", "no admin key at"),
        ("admin:root", "no admin key at"),
        ("agent:*", "is a pattern"),
        ("user:\x7f", "printable"),
    ],
)
def test_the_server_does_not_start_for_a_principal_it_cannot_act_as(
    tmp_path: Path, principal: str, says: str
) -> None:
    pytest.importorskip("mcp")
    db = tmp_path / "j.db"
    _create(db)
    (tmp_path / "j.db.admin-key").unlink()
    count = len(_entries(db))
    done = _refused_start(tmp_path, "--db", str(db), "--principal", principal)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and done.stdout == ""
    assert len(_entries(db)) == count


def test_there_is_no_default_principal(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    db = tmp_path / "j.db"
    _create(db)
    done = _refused_start(tmp_path, "--db", str(db))
    assert done.returncode == 2 and "no principal" in done.stderr


_WITHOUT_MCP = """
import importlib.abc, json, sys

class NoMcp(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mcp" or name.startswith("mcp."):
            raise ImportError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, NoMcp())
from tools.cli import main
sys.exit(main(json.loads(sys.argv[1])))
"""


def test_without_the_sdk_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_MCP, json.dumps(["mcp", "--db", str(db), "--principal", "user:a",
                                                          "--create"])],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "pip install -e '.[mcp]'" in done.stderr and done.stdout == ""
    assert not db.exists()  # refused before anything was created


_LOADED = """
import contextlib, io, json, sys
from tools.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit:
        pass
print(json.dumps(sorted(name for name in sys.modules if name == "mcp" or name.startswith("mcp."))))
"""


@pytest.mark.parametrize("argv", [["--help"], ["mcp", "--help"], ["syscalls"]])
def test_other_commands_never_import_the_sdk(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, json.dumps(argv)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


# --- the tool mapping itself, in process (no SDK needed: only serving imports it) ---------------------


def _server(db: Path, principal: str = "user:a", *, administrator: bool = False) -> Any:
    from tools.cmd_mcp import ToolServer

    return ToolServer(
        open_kernel(str(db), identity=VOUCHED, create=True), principal, None, administrator=administrator
    )


def test_a_tool_call_is_one_kernel_call_and_never_raises(tmp_path: Path) -> None:
    server = _server(tmp_path / "j.db")
    try:
        assert server.tools["memory_awmu_propose"].syscall == "memory.awmu.propose"
        answer, failed = server.call("memory_write", WRITE_A)
        assert not failed and answer["ok"] is True and answer["seq"] == 1
        for arguments in (["not", "an", "object"], {"user_id": "a", "key": 7}):
            answer, failed = server.call("memory_get", arguments)
            assert failed and answer["error"]["code"] == "invalid_args" and answer["seq"] is not None
        kernel, server.kernel = server.kernel, _Raising()
        answer, failed = server.call("memory_list", {"user_id": "a"})
        assert failed and answer["error"] == {
            "code": "internal_error", "message": "the server failed", "detail": "RuntimeError: boom"
        } and answer["seq"] is None  # fmt: skip
        server.kernel = kernel
        kernel.close()
        answer, failed = server.call("memory_list", {"user_id": "a"})  # a closed kernel: still an answer
        assert failed and answer["ok"] is False and answer["error"]["code"] == "internal_error"
    finally:
        server.kernel.close()


class _Raising:
    """A kernel whose call raises (the real one never does)."""

    def call(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")


def test_only_an_administrator_verifies_the_journal_and_sees_a_divergence(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "j.db"
    user = _server(db)
    try:
        assert user.call("memory_write", WRITE_A)[0]["ok"] is True
        answer, failed = user.call("journal_verify", {})  # every principal's calls: not for a user
        assert failed and answer["error"]["code"] == "unknown_tool" and answer["seq"] is None
        assert "head_seq" not in answer and "divergence" not in answer
    finally:
        user.kernel.close()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE memory_entries SET value_ref = 'forged' WHERE key = 'language'")
    connection.close()
    server = _server(db, "operator:me", administrator=True)
    try:
        answer, failed = server.call("journal_verify", {"replay": "yes"})
        assert failed and answer["error"]["code"] == "invalid_args" and answer["seq"] is None
        chain, failed = server.call("journal_verify", {"replay": False})
        assert not failed and chain["verified"] is True  # the chain alone does not see the state
        assert chain["replayed"] is False and chain["head_seq"] == 1
        report, failed = server.call("journal_verify", {})
    finally:
        server.kernel.close()
    assert failed and report["verified"] is False
    divergence = report["divergence"]
    assert divergence["class"] == "invalid_history" and divergence["seq"] == report["first_bad_seq"] == 1
    assert divergence["expected"] != divergence["found"] and "withheld" not in divergence
    assert "stored state differs" in report["reason"] and divergence["reason"] == report["reason"]
