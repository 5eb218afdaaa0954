"""Issue 52, point 6: ``arvis call`` hints for a misspelled or unknown argument field, a value given as
``value`` or as a ``value_ref`` without a scheme, and a forgotten ``--args`` (the kernel's refusal, and so
the journal, unchanged; ``specs/cli.md``, Mistakes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    h.build_journal(path)
    return path


def _count(db: Path) -> int:
    with h.reader_of(db) as reader:
        return reader.count()


def _call(capsys: pytest.CaptureFixture[str], db: Path, syscall: str, *argv: object) -> tuple[int, Any, str]:
    code, out, err = h.cli(capsys, "call", syscall, "--db", db, "--principal", h.PRINCIPAL, *argv)
    return code, json.loads(out) if out else None, err


@pytest.mark.parametrize(
    ("syscall", "args", "meant"),
    [
        ("memory.get", {"user_id": h.USER, "kee": "language"}, "did you mean key?"),
        ("memory.write", {**h.WRITE, "sorce": "x"}, "did you mean source?"),
        ("memory.write", {**h.WRITE, "governance": {"visibilty": "usable"}}, "did you mean visibility?"),
    ],
)
def test_an_unknown_field_names_the_field_meant(
    capsys: pytest.CaptureFixture[str], db: Path, syscall: str, args: dict[str, Any], meant: str
) -> None:
    code, answer, err = _call(capsys, db, syscall, "--args", json.dumps(args))
    assert code == 1 and answer["error"]["code"] == "invalid_args"  # the kernel's refusal, unchanged
    assert answer["error"]["detail"].startswith("Object contains unknown field")
    assert f"hint: {meant}" in err


def test_an_unknown_field_like_none_lists_the_fields(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, _, err = _call(capsys, db, "memory.get", "--args", json.dumps({"user_id": h.USER, "zzz": 1}))
    assert code == 1
    assert "hint: memory.get takes user_id, key" in err


def test_value_points_to_value_ref(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    args = {key: value for key, value in h.WRITE.items() if key != "value_ref"}
    code, _, err = _call(capsys, db, "memory.write", "--args", json.dumps({**args, "value": "fr"}))
    assert code == 1
    assert 'hint: a value goes in value_ref: "plain:VALUE" is the value itself' in err


def test_a_value_ref_without_a_scheme_is_said_to_be_a_reference(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, answer, err = _call(
        capsys, db, "memory.write", "--args", json.dumps({**h.WRITE, "key": "lang", "value_ref": "fr"})
    )
    assert code == 0 and answer["ok"] is True  # written as given: the spec makes it a reference
    assert "hint: value_ref 'fr' is a reference to a value kept elsewhere" in err
    assert '"plain:fr"' in err
    code, _, err = _call(
        capsys, db, "memory.write", "--args", json.dumps({**h.WRITE, "key": "l2", "value_ref": "plain:fr"})
    )
    assert code == 0 and "hint" not in err


def test_a_forgotten_args_names_args(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, answer, err = _call(capsys, db, "memory.get")
    assert code == 1 and answer["error"]["code"] == "invalid_args"
    assert "hint: no --args given" in err and "--args '{" in err


@pytest.mark.parametrize("given", ['{"user_id": "u1", "key": "language"}', "user_id=u1"])
def test_arguments_without_args_are_refused_with_args_named(
    capsys: pytest.CaptureFixture[str], db: Path, given: str
) -> None:
    before = _count(db)
    with pytest.raises(SystemExit) as refused:
        h.cli(capsys, "call", "memory.get", given, "--db", db, "--principal", h.PRINCIPAL)
    assert refused.value.code == 2
    assert "did you mean --args" in capsys.readouterr().err
    assert _count(db) == before


def test_an_mcp_client_is_given_the_hint_too(tmp_path: Path) -> None:
    from strategies import VOUCHED

    from syscalls.boot import open_kernel
    from tools.cmd_mcp import ToolServer

    kernel = open_kernel(str(tmp_path / "j.db"), identity=VOUCHED, create=True)
    try:
        server = ToolServer(kernel, "user:a", None, administrator=False)
        answer, failed = server.call("memory_get", {"user_id": "a", "kee": "k"})
        assert failed and answer["error"]["code"] == "invalid_args" and answer["seq"] == 1
        assert answer["hint"] == "did you mean key? memory.get takes user_id, key"
        answer, failed = server.call("memory_get", {"user_id": "a", "key": "k"})
        assert "hint" not in answer  # a refusal that is not of the arguments: none
    finally:
        kernel.close()
