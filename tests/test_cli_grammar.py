"""One grammar for the command line (issue 38 item 6, ``specs/cli.md``): a table-driven walk over every
command of the argparse tree, then the behaviour each rule promises (did-you-mean, ``--out``,
``--subject``, ``--db`` pairs, the position shape, empty results)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from tools.cli import build_parser

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

N = len(h.STANDARD_CALLS)
FORMATS = {"table", "json", "jsonl", "md", "html"}

NO_DATABASE = {
    "syscalls": "prints the syscall table: no database",
    "journal keygen": "writes a signing key file: no database",
    "scenario bench": "writes its journals under --out DIR",
    "scenario demo": "writes its journals under --out DIR",
}
"""The commands without ``--db``, each with the reason; every other command takes ``--db``."""

CALLERS = {"call", "mcp", "journal rollback"}
"""The commands that make calls: ``--as P`` names who calls, ``--principal P`` its synonym."""
RENAMED = {"journal ls": "--by", "journal trace": "--subject", "journal rollback": "--subject"}
"""Where ``--principal`` named a principal that is not the caller: the flag it is the deprecated old
spelling of (so ``journal rollback`` takes ``--as`` alone)."""


def _commands() -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not nested:
            found[" ".join(path)] = parser
            return
        for name, child in nested[0].choices.items():
            walk(child, [*path, name])

    walk(build_parser(), [])
    return found


COMMANDS = _commands()


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return parser._option_string_actions.get(flag)


def test_the_walk_finds_every_command() -> None:
    assert {"call", "journal ls", "journal diff", "journal copy", "db upgrade", "mcp"} <= set(COMMANDS)
    assert set(NO_DATABASE) <= set(COMMANDS), "an exemption names a command that no longer exists"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_is_always_a_format_choice(name: str) -> None:
    parser = COMMANDS[name]
    output = _option(parser, "-o")
    assert output is _option(parser, "--output"), f"{name}: -o and --output are one flag"
    if output is not None:
        assert output.choices is not None, f"{name}: -o is a format choice, not a file name"
        assert set(output.choices) <= FORMATS, f"{name}: -o choices {output.choices}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_that_names_a_database_takes_db(name: str) -> None:
    has_db = _option(COMMANDS[name], "--db") is not None
    assert has_db != (name in NO_DATABASE), f"{name}: --db {'missing' if not has_db else 'unexpected'}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_one_caller_flag_and_principal_is_its_synonym(name: str) -> None:
    parser = COMMANDS[name]
    caller, principal = _option(parser, "--as"), _option(parser, "--principal")
    assert (caller is not None) == (name in CALLERS), (
        f"{name}: --as is the caller of a command that makes calls"
    )
    assert caller is None or caller.dest == "caller", f"{name}: --as is read as options.caller"
    if name in RENAMED:
        renamed = _option(parser, RENAMED[name])
        assert renamed is not None and principal is not None and "deprecated" in (principal.help or "")
        assert principal.dest == renamed.dest and principal is not caller
    else:
        assert principal is caller, f"{name}: --principal is the caller's synonym, or absent"


@pytest.mark.parametrize("name", sorted(CALLERS - set(RENAMED)))
def test_as_and_principal_give_the_same_caller(name: str) -> None:
    parser = COMMANDS[name]
    positionals = ["memory.get"] if name == "call" else []
    for flag in ("--as", "--principal"):
        assert parser.parse_args([*positionals, flag, "user:bob"]).caller == "user:bob"


def test_call_as_a_user_end_to_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``arvis call --as user:bob`` (issue 52 point 5: it answered "did you mean --args?")."""
    db = tmp_path / "bob.db"
    write = '{"user_id": "bob", "key": "no_peanuts", "memory_type": "constraint", "source": "explicit_user"}'
    code, out, err = h.cli(
        capsys, "call", "memory.write", "--db", db, "--create", "--as", "user:bob", "--args", write
    )
    assert code == 0 and json.loads(out)["ok"], err
    code, out, _ = h.cli(capsys, "journal", "ls", "--db", db, "--by", "user:bob", "-o", "json")
    assert code == 0 and [entry["principal"] for entry in json.loads(out)] == ["user:bob"]


def test_ls_by_and_the_old_principal_warns(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, new, err = h.cli(capsys, "journal", "ls", "--db", db, "--by", h.AGENT, "-o", "json")
    assert code == 0 and err == "" and json.loads(new)
    code, old, err = h.cli(capsys, "journal", "ls", "--db", db, "--principal", h.AGENT, "-o", "json")
    assert code == 0 and old == new and "deprecated" in err and "--by" in err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_file_written_is_out(name: str) -> None:
    """No option but ``--out`` names a file the command writes: the options whose metavar is a file."""
    for action in COMMANDS[name]._actions:
        metavar = str(action.metavar or "")
        if metavar in ("FILE", "KEYFILE") and action.option_strings and "--out" not in action.option_strings:
            assert action.dest in ("admin_key", "sign"), f"{name}: {action.option_strings} writes a file?"


# --- the behaviour ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("grammar") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    with pytest.raises(SystemExit) as refused:
        h.cli(capsys, *argv)
    assert refused.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "usage", "meant"),
    [
        (["jurnal", "ls"], "usage: arvis [", "did you mean 'journal'?"),
        (["journal", "lss"], "usage: arvis journal [", "did you mean 'ls'?"),
        (["journal", "ls", "--db", "DB", "--lins", "3"], "usage: arvis journal ls", "did you mean --lines?"),
        (
            ["journal", "stats", "--db", "DB", "-o", "jsn"],
            "usage: arvis journal stats",
            "did you mean 'json'?",
        ),
        (["call", "memory.get", "--principl", "user:a"], "usage: arvis call", "did you mean --principal?"),
    ],
)
def test_a_typo_names_what_was_meant(
    capsys: pytest.CaptureFixture[str], db: Path, argv: list[str], usage: str, meant: str
) -> None:
    err = _usage_error(capsys, *(str(db) if arg == "DB" else arg for arg in argv))
    assert usage in err and meant in err


@pytest.mark.parametrize("value", ["json", "audit.key"])
def test_keygen_writes_only_to_out(capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str) -> None:
    """The old ``-o KEYFILE`` is refused, pointing to --out; ``-o json`` never writes a file ``json``."""
    target = tmp_path / value
    err = _usage_error(capsys, "journal", "keygen", "--name", "example.com/a", "-o", str(target))
    assert "--out" in err and not target.exists() and list(tmp_path.iterdir()) == []
    code, out, _ = h.cli(
        capsys, "journal", "keygen", "--name", "example.com/a", "--out", target, "-o", "json"
    )
    assert code == 0 and target.exists() and json.loads(out)["verifier"].startswith("example.com/a+")


def test_a_signed_checkpoint_is_written_to_out(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    key = tmp_path / "k.key"
    assert h.cli(capsys, "journal", "keygen", "--name", "example.com/a", "--out", key)[0] == 0
    note = tmp_path / "cp.note"
    err = _usage_error(capsys, "journal", "checkpoint", "--db", db, "--sign", key, "-o", note)
    assert "--out" in err and not note.exists()
    code, out, _ = h.cli(
        capsys, "journal", "checkpoint", "--db", db, "--sign", key, "--out", note, "-o", "json"
    )
    assert code == 0 and note.exists() and json.loads(out)["size"] == N


def _positions(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> dict[str, Any]:
    def json_of(*argv: object) -> Any:
        code, out, err = h.cli(capsys, "journal", *argv, "-o", "json")
        assert code == 0, err
        return json.loads(out)

    return {
        "stats": json_of("stats", "--db", db)["position"],
        "verify": json_of("verify", "--db", db)["position"],
        "checkpoint": json_of("checkpoint", "--db", db)["position"],
        "copy": json_of("copy", "--db", db, "--to", tmp_path / "copy.db")["position"],
    }


def test_one_shape_for_a_position(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    head = {"seq": N, "hash": h.read_cell(db, N, "entry_hash")}
    assert _positions(capsys, db, tmp_path) == dict.fromkeys(("stats", "verify", "checkpoint", "copy"), head)
    code, out, _ = h.cli(capsys, "journal", "stats", "--db", db, "-o", "json")
    assert code == 0 and json.loads(out)["head"] == f"{N}:{head['hash']}"  # the old key, kept


def test_diff_and_copy_take_db_and_a_positional_database_is_refused(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    """The positional databases of earlier releases (deprecated one release) are gone: a usage error."""
    with pytest.raises(SystemExit) as stopped:
        h.cli(capsys, "journal", "copy", db, tmp_path / "old.db")
    assert stopped.value.code == 2 and not (tmp_path / "old.db").exists()
    code, _, err = h.cli(capsys, "journal", "copy", "--db", db, "--to", tmp_path / "old.db")
    assert code == 0 and err == ""
    code, out, err = h.cli(capsys, "journal", "diff", "--db", db, "--other", tmp_path / "old.db")
    assert code == 0 and "identical" in out and err == ""
    code, _, err = h.cli(capsys, "journal", "diff", "--db", db)
    assert code == 2 and "--other" in err
    with pytest.raises(SystemExit) as stopped:
        h.cli(capsys, "journal", "ls", db)
    assert stopped.value.code == 2


def test_trace_takes_subject_and_the_old_principal_warns(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, new, err = h.cli(capsys, "journal", "trace", "--db", db, "--subject", h.AGENT, "-o", "json")
    assert code == 0 and err == ""
    code, old, err = h.cli(capsys, "journal", "trace", "--db", db, "--principal", h.AGENT, "-o", "json")
    assert code == 0 and old == new and "deprecated" in err and "--subject" in err


def test_rollback_needs_a_subject(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, _, err = h.cli(capsys, "journal", "rollback", "--db", db, "--as", "operator:x")
    assert code == 2 and "--subject" in err


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["ls", "--by", "agent:nobody"], "agent:nobody made no call"),
        (["trace", "--subject", "agent:nobody"], "agent:nobody made no call"),
        (["snapshot", "--user", "nobody"], "no accepted memory.write names it (users with memory: "),
    ],
)
def test_an_empty_result_says_why(
    capsys: pytest.CaptureFixture[str], db: Path, argv: list[str], why: str
) -> None:
    code, _, err = h.cli(capsys, "journal", *argv, "--db", db)
    notes = [line for line in err.splitlines() if line.startswith("arvis: note:")]
    assert code == 0 and len(notes) == 1 and why in notes[0], err


def test_a_result_that_is_not_empty_says_nothing_more(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    for argv in (["ls", "--by", h.AGENT], ["snapshot", "--user", h.USER]):
        code, _, err = h.cli(capsys, "journal", *argv, "--db", db)
        assert code == 0 and err == ""
