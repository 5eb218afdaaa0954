"""One structured log event per call, with no memory contents; JSON lines from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import structlog
from structlog.testing import capture_logs

from syscalls.boot import open_kernel

ROOT = Path(__file__).resolve().parent.parent


def test_one_event_per_call_without_contents() -> None:
    structlog.reset_defaults()  # another test may have configured the command line's logging
    kernel = open_kernel(":memory:", logger=structlog.get_logger("test"))
    try:
        with capture_logs() as events:
            kernel.call(
                "memory.write",
                {"user_id": "u1", "key": "secret_key", "memory_type": "rule", "source": "explicit_user",
                 "value_ref": "vault:very-private"},
                principal="user:u1",
            )  # fmt: skip
            kernel.call("memory.get", {"user_id": "u1", "key": "nope"}, principal="user:u1")
            kernel.call("no.such.call", {}, principal="user:u1")
    finally:
        kernel.close()
    assert [event["event"] for event in events] == ["syscall"] * 3
    assert [event["status"] for event in events] == ["ok", "memory_entry_not_found", "unknown_syscall"]
    assert [event["seq"] for event in events] == [1, 2, 3]
    assert all(event["principal"] == "user:u1" and event["duration_ms"] >= 0 for event in events)
    text = json.dumps(events)
    assert "secret_key" not in text and "very-private" not in text


def test_no_logger_no_events() -> None:
    structlog.reset_defaults()
    kernel = open_kernel(":memory:")
    try:
        with capture_logs() as events:
            kernel.call("memory.get", {"user_id": "u1", "key": "k"}, principal="user:u1")
    finally:
        kernel.close()
    assert events == []


class _BrokenLogger:
    """A logger whose stderr is gone: every event raises."""

    def __init__(self) -> None:
        self.tried = 0

    def info(self, event: str, **fields: object) -> None:
        self.tried += 1
        raise BrokenPipeError("stderr closed")


def test_a_logger_that_raises_is_ignored() -> None:
    """The call was journaled before its event: a logger failure must not turn it into an exception."""
    logger = _BrokenLogger()
    kernel = open_kernel(":memory:", logger=logger)
    try:
        one = kernel.call("kernel.record", {"kind": "note", "payload": {}}, principal="agent:a")
        many = kernel.call_many(
            [("kernel.record", {"kind": "note", "payload": {}}, "agent:a"), ("no.such.call", {}, "agent:a")]
        )
    finally:
        kernel.close()
    assert one.ok and one.seq == 1
    assert [result.seq for result in many] == [2, 3] and many[0].ok and not many[1].ok
    assert logger.tried == 3


def test_command_line_logs_json_lines_in_a_pipe(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tools.cli", "--log-level", "info", "call", "memory.get", "--create", "--db",
         str(tmp_path / "j.db"), "--principal", "user:u1", "--args", '{"user_id": "u1", "key": "language"}'],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert completed.returncode == 1
    lines = [json.loads(line) for line in completed.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0]["syscall"] == "memory.get" and lines[0]["status"] == "memory_entry_not_found"
    assert lines[0]["level"] == "info" and "timestamp" in lines[0]


def test_default_level_hides_call_events(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tools.cli", "call", "memory.get", "--create", "--db", str(tmp_path / "j.db"),
         "--principal", "user:u1", "--args", '{"user_id": "u1", "key": "language"}'],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
        env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert completed.returncode == 1
    assert completed.stderr.strip() == ""
