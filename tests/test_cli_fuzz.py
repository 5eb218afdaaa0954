"""Hostile input at the command line: whatever the arguments, no traceback, exit 0, 1 or 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.cli import main

COMMANDS = [
    ["call"],
    ["call", "memory.write", "--args"],
    ["call", "memory.get", "--principal"],
    ["journal", "ls"],
    ["journal", "show"],
    ["journal", "verify"],
    ["journal", "snapshot", "--user"],
    ["journal", "state", "--at"],
    ["db", "upgrade", "--db"],
    ["scenario", "run"],
]
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["{}", "[]", "null", "NaN", "Infinity", '{"user_id": "u1", "key": "\\u0000"}',
                     "'; DROP TABLE journal; --", "\ud800", "9" * 40, '{"a":' * 50, "-1", "--db"]),
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), rest=st.lists(hostile_text, max_size=4))
def test_the_command_line_never_prints_a_traceback(
    command: list[str], rest: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARVIS_DB", raising=False)
    argv = [*command, *rest]
    if command[0] == "call":
        argv += ["--db", str(tmp_path / "fuzz.db"), "--create"]
    argv = [arg.replace("\x00", "") for arg in argv]  # the OS cannot pass NUL in an argument
    before = set(os.listdir(tmp_path))
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    if command[0] == "journal":  # reading never creates a database
        assert {name for name in set(os.listdir(tmp_path)) - before if name.endswith(".db")} == set()
