"""``arvis mcp --db DB --as P``: the memory syscalls as the tools of a Model Context Protocol server
over stdio, with the official SDK (``pip install -e '.[mcp]'``).

One tool per syscall of the ``memory.*`` family (``memory.awmu.*`` included), ``pipeline.begin``,
``pipeline.end`` and ``access.list``, named with ``_`` for ``.`` (``memory_write``,
``memory_awmu_propose``); ``access.grant`` and ``access.revoke`` only for a built-in administrator;
``kernel.record`` never. A tool's input schema is its request type's (``msgspec.json.schema``), its
description the syscall's summary. Besides, for a built-in administrator only, ``journal_verify`` checks
the journal (the hash chain, and a replay unless ``replay`` is false) and returns the report: it replays
every principal's calls and tells the journal's size, which only an administrator may see.

The principal is the server's, not the model's: the kernel is opened with ``AllowedPrincipals([P])``
(and, for ``admin:…``/``operator:…``, the database's admin key as ``arvis call`` needs it), and every tool
call is one ``Kernel.call(syscall, arguments, principal=P)``. No request type has a principal field, and
unknown fields are refused ``invalid_args`` by the kernel, journaled like any refusal. A refused call is a
tool error (``isError``) carrying the kernel's ``code``, ``message``, ``detail`` and ``seq`` (and a ``hint``,
the field or value meant, for an unknown field or enum value).

The SDK is imported only when the command runs: ``arvis --help`` and the other commands never load it.
stdout is the protocol channel; nothing here writes to it (logs go to stderr).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tools.admin_key import add_admin_key_argument
from tools.cmd_call import DURABILITIES
from tools.common import EXIT_OK, CommandError, add_caller_argument, add_db_argument, writable_db

if TYPE_CHECKING:
    import mcp.types as mcp_types

    from kernel.abi import SyscallResult, SyscallSpec
    from kernel.dispatcher import Kernel
    from kernel.identity import IdentityPolicy


INSTALL_HINT = "pip install -e '.[mcp]'"
VERIFY_TOOL = "journal_verify"
ADMIN_ONLY = ("access.grant", "access.revoke")
"""Exposed only to a built-in administrator (for anyone else the kernel refuses them anyway, and a model
is better not offered a way to hand out rights)."""
ALWAYS = ("pipeline.begin", "pipeline.end", "access.list")

VERIFY_DESCRIPTION = "verify the journal: its hash chain and, unless replay is false, a byte-for-byte replay"
VERIFY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "replay": {
            "type": "boolean",
            "default": True,
            "description": "re-execute every entry and compare byte for byte (false: the hash chain only)",
        }
    },
    "additionalProperties": False,
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "mcp", help="serve the memory syscalls as tools of an MCP server over stdio, as one principal"
    )
    add_caller_argument(
        parser,
        "who every tool call runs as (default: $ARVIS_PRINCIPAL; one of them is required); "
        "admin:NAME and operator:NAME need the admin key",
    )
    add_admin_key_argument(parser)
    parser.add_argument(
        "--create",
        action="store_true",
        help="start a new journal if the database file does not exist, with its admin key beside it",
    )
    parser.add_argument("--durability", choices=DURABILITIES, default="NORMAL")
    add_db_argument(parser)
    parser.set_defaults(run=run)


def input_schema(request_type: type[Any]) -> dict[str, Any]:
    """The request type's JSON schema with the object at its root (``msgspec`` puts a ``$ref`` there):
    its definitions stay under ``$defs``, where the nested ``$ref``s point."""
    import msgspec

    schema: dict[str, Any] = msgspec.json.schema(request_type)
    definitions: dict[str, Any] = dict(schema.get("$defs", {}))
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        root: dict[str, Any] = dict(definitions[reference.removeprefix("#/$defs/")])
    else:
        root = {key: value for key, value in schema.items() if key != "$defs"}
    if root.get("type") != "object":
        raise ValueError(f"the request type {request_type.__name__} is not an object")
    return {**root, "$defs": definitions} if definitions else root


def _principal(given: str | None) -> str:
    """``--as`` (else ``$ARVIS_PRINCIPAL``), refused at start (exit 2) in a form the kernel would
    refuse at every call, or as a pattern (``agent:*``)."""
    from kernel.abi import check_principal, record_text
    from kernel.arguments import MAX_PRINCIPAL_LENGTH
    from kernel.errors import KernelError
    from tools.cmd_call import _principal as named_principal

    principal = named_principal(given)
    try:
        check_principal(record_text(principal, MAX_PRINCIPAL_LENGTH))  # "" (refused) when too long
    except KernelError:
        raise CommandError(
            f"--principal must be 1 to {MAX_PRINCIPAL_LENGTH} printable characters",
            hint="e.g. --principal user:alice",
        ) from None
    if principal.endswith("*"):
        raise CommandError(
            f"--principal {principal} is a pattern; the server acts as exactly one principal",
            hint="name it in full, e.g. agent:assistant",
        )
    return principal


def _check_sdk() -> None:
    """Exit 2 when the SDK is missing, or older than the API used here (2.x)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        import mcp.server.lowlevel  # noqa: F401
    except ImportError:
        raise CommandError(
            f"`arvis mcp` needs the MCP SDK: {INSTALL_HINT}", hint="it installs the `mcp` package"
        ) from None
    try:
        found = version("mcp")
    except PackageNotFoundError:
        return
    if not found.split(".")[0].isdigit() or int(found.split(".")[0]) < 2:
        raise CommandError(f"`arvis mcp` needs the MCP SDK 2 or later, found {found}", hint=INSTALL_HINT)


def run(options: argparse.Namespace) -> int:
    from arvis.access import is_builtin_admin
    from kernel.identity import AllowedPrincipals
    from tools.kernel_open import opened_kernel

    _check_sdk()
    import anyio  # after the check: the SDK brings it

    principal = _principal(options.caller)
    target = writable_db(options.db, create=options.create)

    def policy(proved: IdentityPolicy) -> IdentityPolicy:
        return _AllOf((AllowedPrincipals([principal]), proved))

    with opened_kernel(options, principal, target, policy=policy) as (kernel, identity):
        admin = is_builtin_admin(principal)
        anyio.run(ToolServer(kernel, principal, identity.credential, administrator=admin).serve)
    return EXIT_OK


class _AllOf:
    """An identity policy that admits what every one of its policies admits: the server's one principal,
    proved by the admin key when it is an administrator."""

    def __init__(self, policies: tuple[IdentityPolicy, ...]) -> None:
        self.policies = policies

    def admits(self, principal: str, credential: str | None) -> bool:
        return all(policy.admits(principal, credential) is True for policy in self.policies)


@dataclass(frozen=True)
class _Tool:
    name: str
    syscall: str | None  # None: journal_verify
    description: str
    schema: dict[str, Any]
    read_only: bool


class ToolServer:
    """The tools of one kernel, as one principal; ``serve`` (a coroutine) is the MCP server over stdio."""

    def __init__(
        self, kernel: Kernel, principal: str, credential: str | None, *, administrator: bool
    ) -> None:
        self.kernel = kernel
        self.principal = principal
        self.credential = credential
        self.administrator = administrator
        self.tools = {tool.name: tool for tool in self._tools()}

    def _tools(self) -> list[_Tool]:
        from tools import mcp_tools

        table: Mapping[str, SyscallSpec] = self.kernel.table
        engine = getattr(self.kernel.store, "engine", None)  # a database's store; any other holds no grants
        grants = [] if engine is None else mcp_tools.held_grants(engine, self.principal)
        names = [  # the syscalls served as tools, in table order
            name
            for name in table
            if (name.startswith("memory.") or name in ALWAYS or (self.administrator and name in ADMIN_ONLY))
            and mcp_tools.usable(name, self.principal, grants, administrator=self.administrator)
        ]
        # memory.awmu.propose → memory_awmu_propose: MCP clients and model APIs take ^[a-zA-Z0-9_-]{1,64}$,
        # and not every one takes the dot the protocol itself allows
        tools = [
            _Tool(name.replace(".", "_"), name, mcp_tools.describe(name, table[name].summary, self.principal),
                  input_schema(table[name].request_type), not table[name].mutates)
            for name in names
        ]  # fmt: skip
        if self.administrator:  # the journal holds every principal's calls: not for anyone else
            tools.append(_Tool(VERIFY_TOOL, None, VERIFY_DESCRIPTION, VERIFY_SCHEMA, True))
        return tools

    # --- what a tool call does (blocking: run in a worker thread) ------------------------------------

    def call(self, name: str, arguments: dict[str, Any] | None) -> tuple[dict[str, Any], bool]:
        """The JSON answer of tool ``name`` and whether it is an error. Never raises."""
        try:
            tool = self.tools.get(name)
            if tool is None:
                return _refusal("unknown_tool", f"no tool named {name!r}"), True
            if tool.syscall is None:
                return self._verify(arguments or {})
            from tools.mcp_tools import default_arguments

            given = default_arguments(
                tool.syscall, arguments, self.principal, administrator=self.administrator
            )
            result = self.kernel.call(
                tool.syscall, given, principal=self.principal, credential=self.credential
            )
            return _answer(result, self.kernel.table[tool.syscall]), not result.ok
        except Exception as exc:  # a tool never raises: the model sees what went wrong
            return _refusal("internal_error", f"{type(exc).__name__}: {exc}"), True

    def _verify(self, arguments: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        from journal.reader import JournalReader
        from journal.store import SqlJournalStore
        from kernel.protocols import StorageError
        from tools.audit.replay import verify_journal

        unknown = sorted(set(arguments) - {"replay"})
        replay = arguments.get("replay", True)
        if unknown or not isinstance(replay, bool):
            detail = f"unknown field {unknown[0]!r}" if unknown else "replay must be a boolean"
            return _refusal("invalid_args", detail), True
        store = self.kernel.store
        if not isinstance(store, SqlJournalStore):
            return _refusal("internal_error", "this kernel's journal is not a database"), True
        try:  # the kernel's own engine: never closed here (the reader's close would dispose it)
            report = verify_journal(JournalReader(store.engine), table=self.kernel.table, replay=replay)
        except StorageError as exc:
            return _refusal("storage_error", str(exc)), True
        return report.to_json(), not report.verified

    # --- the protocol --------------------------------------------------------------------------------

    async def serve(self) -> None:
        import anyio
        import anyio.to_thread
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.server.stdio import stdio_server

        from tools.cli import installed_version
        from tools.mcp_tools import instructions

        limiter = anyio.CapacityLimiter(1)  # one call at a time: a verify never sees half a call
        listed = types.ListToolsResult(tools=[self._listed(tool) for tool in self.tools.values()])

        async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
            return listed

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            answer, failed = await anyio.to_thread.run_sync(
                self.call, params.name, params.arguments, limiter=limiter
            )
            return _tool_result(answer, failed)

        server: Server[Any] = Server(
            "arvis",
            version=installed_version() or "",
            instructions=instructions(self.principal),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
        )
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    def _listed(self, tool: _Tool) -> mcp_types.Tool:
        import mcp.types as types

        return types.Tool(
            name=tool.name,
            title=tool.syscall or "journal verify",
            description=tool.description,
            input_schema=tool.schema,
            annotations=types.ToolAnnotations(read_only_hint=tool.read_only, open_world_hint=False),
        )


def _answer(result: SyscallResult, spec: SyscallSpec) -> dict[str, Any]:
    """The result as ``arvis call`` prints it: ``{"ok", "value" | "error", "seq"}``, as plain JSON; a
    refusal of the arguments with ``hint``, the field or value meant (``tools.syscall_help.args_hint``)."""
    import msgspec

    from tools.syscall_help import args_hint

    answer: dict[str, Any] = msgspec.to_builtins(result.to_dict())
    error = answer.get("error") or {}
    hint = args_hint(spec, str(error.get("detail"))) if error.get("code") == "invalid_args" else None
    return answer | ({"hint": hint} if hint else {})


def _refusal(code: str, detail: str) -> dict[str, Any]:
    """A tool error that is not the kernel's (nothing was journaled: seq is null)."""
    messages = {
        "unknown_tool": "no such tool",
        "invalid_args": "arguments do not match the tool's schema",
        "storage_error": "the journal could not be read",
        "internal_error": "the server failed",
    }
    return {"ok": False, "error": {"code": code, "message": messages[code], "detail": detail}, "seq": None}


def _tool_result(answer: dict[str, Any], failed: bool) -> mcp_types.CallToolResult:
    """The answer as text (JSON) and as structured content; a refusal sets ``isError``. Text that is
    not valid UTF-8 is escaped, so that the reply always encodes."""
    import mcp.types as types
    import orjson

    from tools.output import json_bytes

    text = json_bytes(answer, lines=True).decode("utf-8")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=orjson.loads(text),
        is_error=failed,
    )
