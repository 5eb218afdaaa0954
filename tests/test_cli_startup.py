"""Start-up: each command imports only what it runs on.

Every check runs ``tools.cli.main`` in a fresh interpreter (``python -c``) and looks at ``sys.modules``
afterwards: no timing is asserted (bench/bench_cli.py measures the wall times), only which modules a
command loaded. The migration machinery (alembic, mako), the scenario and report tools (yaml, jinja2,
pygal) and the semantic encoder's runtime (onnxruntime, tokenizers, numpy) stay out of a syscall call and
of a listing; ``--version`` and ``--help`` do not even load SQLAlchemy.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import msgspec
import pytest
from strategies import VOUCHED

from journal.engine import Durability
from journal.migrate import HEAD_REVISION, head_revision
from journal.reader import JournalReader
from journal.store import SqlJournalStore
from kernel.abi import JournalEntry
from kernel.dispatcher import Kernel
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from syscalls.boot import open_kernel
from tools.cli import DISTRIBUTION
from tools.cmd_call import DURABILITIES

ROOT = Path(__file__).resolve().parent.parent

MIGRATION = ("alembic", "mako")
REPORTS = ("yaml", "jinja2", "pygal")
ENCODER = ("onnxruntime", "tokenizers", "numpy")
NEVER_FOR_A_CALL = (*MIGRATION, *REPORTS, *ENCODER)
NEVER_FOR_A_LISTING = (*NEVER_FOR_A_CALL, "structlog", "rich")
NEVER_FOR_VERSION = (*NEVER_FOR_A_LISTING, "sqlalchemy", "kernel", "journal", "syscalls")

_SCRIPT = """
import contextlib, io, json, sys
from tools.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(json.loads(sys.argv[1]))
    except SystemExit as exc:
        code = exc.code
tops = sorted({name.split(".")[0] for name in sys.modules})
json.dump({"code": code, "out": out.getvalue(), "modules": tops}, sys.stderr)
"""


def _run(argv: Sequence[str]) -> dict[str, Any]:
    """``main(argv)`` in a fresh interpreter: its exit code, its stdout and the top-level packages it
    imported."""
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(list(argv))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stderr.strip().splitlines()[-1])
    return report


def _loaded(report: dict[str, Any], forbidden: Sequence[str]) -> list[str]:
    return [name for name in forbidden if name in report["modules"]]


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small journal at the head revision, written through the kernel (not the command line)."""
    path = tmp_path_factory.mktemp("startup") / "j.db"
    kernel = open_kernel(str(path), identity=VOUCHED, create=True)
    try:
        written = kernel.call(
            "memory.write",
            {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"},
            principal="user:u1",
        )
    finally:
        kernel.close()
    assert written.ok
    return path


def test_version_prints_the_installed_distribution_and_loads_nothing_heavy() -> None:
    report = _run(["--version"])
    assert report["code"] == 0
    assert report["out"] == f"arvis {version(DISTRIBUTION)}\n"
    assert _loaded(report, NEVER_FOR_VERSION) == []


def test_help_registers_every_command_without_loading_them() -> None:
    report = _run(["--help"])
    assert report["code"] == 0
    for command in ("call", "journal", "db", "demo", "scenario", "mcp"):
        assert command in report["out"]
    assert _loaded(report, NEVER_FOR_VERSION) == []


GET = ["call", "memory.get", "--args", '{"user_id": "u1", "key": "language"}', "--principal", "user:u1"]


def test_a_call_loads_neither_migrations_nor_reports_nor_the_encoder(journal: Path) -> None:
    report = _run([*GET, "--db", str(journal)])
    assert report["code"] == 0
    assert json.loads(report["out"])["ok"] is True
    assert _loaded(report, NEVER_FOR_A_CALL) == []
    assert _loaded(report, ["structlog"]) == []  # the default level hides the call events: no logger


def test_a_call_at_info_still_logs_its_event(journal: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli", "--log-level", "info", *GET, "--db", str(journal)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (event,) = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert event["event"] == "syscall" and event["syscall"] == "memory.get" and event["status"] == "ok"


@pytest.mark.parametrize("output", ["json", "jsonl", "table"])
def test_a_listing_loads_only_the_reader(journal: Path, output: str) -> None:
    report = _run(["journal", "ls", "--db", str(journal), "-o", output, "--syscall", "memory.*"])
    assert report["code"] == 0
    assert "memory.write" in report["out"]
    forbidden = NEVER_FOR_A_CALL if output == "table" else NEVER_FOR_A_LISTING  # a table may use rich
    assert _loaded(report, forbidden) == []


@pytest.mark.parametrize("command", [["state", "-o", "json"], ["snapshot", "--user", "u1"]])
def test_time_travel_by_query_loads_neither_the_kernel_nor_rich(journal: Path, command: list[str]) -> None:
    """``journal state`` and ``journal snapshot`` read the past by query: the kernel, the syscall table
    and the replayer are never loaded (time travel re-executes nothing), rich only to draw (issue 51:
    start-up is most of what a state costs beside a call)."""
    report = _run(["journal", *command, "--db", str(journal)])
    assert report["code"] == 0
    reader = JournalReader.open(str(journal))  # the module's journal: other tests add to it
    try:
        head = reader.head()
    finally:
        reader.close()
    assert head is not None and json.loads(report["out"])["seq"] == head.seq
    assert _loaded(report, (*NEVER_FOR_A_LISTING, "kernel", "syscalls")) == []


def test_the_head_revision_constant_is_alembics_head() -> None:
    """Opening a journal compares its stamp with ``HEAD_REVISION`` instead of asking Alembic."""
    assert head_revision() == HEAD_REVISION


def test_the_durability_choices_are_the_engines() -> None:
    assert tuple(durability.value for durability in Durability) == DURABILITIES


# --- the semantic encoder is bound lazily -----------------------------------------------------------


class _CountingLoader:
    """A semantic loader that binds no encoder (as when its packages are absent), counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1


def _kernel(loader: _CountingLoader | None) -> Kernel:
    services = default_services()
    return open_kernel(
        ":memory:",
        services=KernelServiceRegistry(
            memory_service=services.memory_service,
            working_memory_service=services.working_memory_service,
            semantic_loader=loader,
        ),
        identity=VOUCHED,
        create=True,
    )


DESK = "agent:assistant/desk"
"""The assistant's own context (format 2: a name ``P/…`` is reserved to ``P``, who owns it and writes it);
the operator, a built-in administrator, seeds it."""


def _proposal_detectors(kernel: Kernel) -> list[dict[str, Any]]:
    """The detector runs a proposal journals (the semantic one measures against a seeded unit)."""
    for name, args, principal in (
        ("create", {}, "agent:assistant"),
        ("seed", {"text": "Salaries are paid from the account ending 4471", "authority": "RELIABLE"},
         "operator:alice"),
    ):  # fmt: skip
        assert kernel.call(f"memory.awmu.{name}", {"context_id": DESK, **args}, principal=principal).ok
    proposed = kernel.call(
        "memory.awmu.propose",
        {"context_id": DESK, "text": "Claims are booked to cost centre 7710", "source": "player",
         "confidence": 0.8},
        principal="agent:assistant",
    )  # fmt: skip
    assert proposed.ok, proposed.to_dict()
    detectors: list[dict[str, Any]] = msgspec.to_builtins(proposed.value)["detectors"]
    return detectors


def test_the_encoder_is_loaded_on_the_first_call_that_measures_similarity() -> None:
    loader = _CountingLoader()
    kernel = _kernel(loader)
    try:
        got = kernel.call("memory.get", {"user_id": "u1", "key": "language"}, principal="user:u1")
        assert got.error is not None and got.error.code == "memory_entry_not_found"
        assert loader.calls == 0  # a long-term memory call never asks for it
        names = [run["name"] for run in _proposal_detectors(kernel)]
    finally:
        kernel.close()
    assert loader.calls >= 1
    assert names[-1] == "semantic"


def test_a_loader_that_finds_no_encoder_journals_what_no_encoder_does() -> None:
    """Which detectors ran is recorded the same whether the encoder is absent or lazily not found."""
    lazy, unbound = _kernel(_CountingLoader()), _kernel(None)
    try:
        lazy_runs, unbound_runs = _proposal_detectors(lazy), _proposal_detectors(unbound)
        lazy_entries = [(e.syscall, e.result) for e in _journal(lazy)]
        unbound_entries = [(e.syscall, e.result) for e in _journal(unbound)]
    finally:
        lazy.close()
        unbound.close()
    assert lazy_runs == unbound_runs
    assert lazy_runs[-1]["status"] == "absent"
    assert lazy_entries == unbound_entries  # the journaled results, byte for byte


def _journal(kernel: Kernel) -> list[JournalEntry]:
    store = kernel.store
    assert isinstance(store, SqlJournalStore)
    return list(JournalReader(store.engine).entries())


class _LockProbe:
    """A loader that, when it first loads (then it caches, as ``shared_encoder`` does), notes whether
    another connection could take the journal's write lock: a model load must not hold it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_was_free: list[bool] = []

    def __call__(self) -> None:
        if self.lock_was_free:
            return
        other = sqlite3.connect(self.path, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.rollback()
            self.lock_was_free.append(True)
        except sqlite3.OperationalError:  # database is locked
            self.lock_was_free.append(False)
        finally:
            other.close()


@pytest.mark.parametrize("batched", [False, True])
def test_the_encoder_is_loaded_before_the_write_lock_is_taken(tmp_path: Path, batched: bool) -> None:
    path = tmp_path / "j.db"
    probe = _LockProbe(path)
    services = default_services()
    kernel = open_kernel(
        str(path),
        services=KernelServiceRegistry(
            memory_service=services.memory_service,
            working_memory_service=services.working_memory_service,
            semantic_loader=probe,
        ),
        identity=VOUCHED,
        create=True,
    )
    calls: list[tuple[object, object, object]] = [
        ("memory.get", {"user_id": "u1", "key": "language"}, "user:u1"),
        ("memory.awmu.create", {"context_id": DESK}, "agent:assistant"),
        ("memory.awmu.seed", {"context_id": DESK, "text": "Salaries come from account 4471",
                              "authority": "RELIABLE"}, "operator:alice"),
        ("memory.awmu.propose", {"context_id": DESK, "text": "Claims go to cost centre 7710",
                                 "source": "player", "confidence": 0.8}, "agent:assistant"),
    ]  # fmt: skip
    try:
        if batched:
            results = kernel.call_many(calls)
        else:
            results = [kernel.call(name, args, principal=principal) for name, args, principal in calls]
    finally:
        kernel.close()
    assert [result.seq for result in results] == [1, 2, 3, 4]
    assert probe.lock_was_free == [True]


def test_open_kernel_binds_the_encoder_without_loading_it() -> None:
    script = (
        "import sys\n"
        "from syscalls.boot import open_kernel\n"
        "kernel = open_kernel(':memory:')\n"
        "assert kernel.services.semantic_loader is not None\n"
        "assert kernel.call('memory.get', {'user_id': 'u', 'key': 'k'}, principal='user:u').seq == 1\n"
        "kernel.close()\n"
        "print(sorted(name for name in ('onnxruntime', 'tokenizers', 'numpy') if name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
