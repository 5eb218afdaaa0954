"""``arvis demo`` (``make demo-kernel``): every step does what its narration says, under the journal's access
rules, so that a change of the rules cannot silently turn a step meant to succeed into a refusal (or the
reverse)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

DENIED = "refused: memory_policy_denied"

# (the step's narration, how its outcome starts), in the demo's order: every step is listed
EXPECTED: list[tuple[str, str]] = [
    ("the operator lets onboarding write Alice's memory", "service:onboarding may write user:alice"),
    ("the operator lets governance write it too", "service:governance may write user:alice"),
    ("the operator lets the assistant read it", "agent:assistant may read user:alice"),
    ("an agent tries to grant itself write access",
     f"{DENIED} (principal 'agent:assistant' may not admin '*')"),
    ("Alice says she writes in French", "written: language"),
    ("onboarding records her timezone", "written: timezone"),
    ("she opts out of marketing email", "written: no_marketing_emails"),
    ("she has a penicillin allergy (a hard constraint)", "written: no_penicillin"),
    ("governance sets a formal tone", "written: tone_style"),
    ("the assistant, read-only, tries to store what it inferred",
     f"{DENIED} (principal 'agent:assistant' may not write 'alice')"),
    ("governance tries to store an unregistered key it inferred",
     f"{DENIED} (source 'inferred' may not write long-term memory)"),
    ("a write with an empty key", "refused: memory_invalid_key"),
    ("the tone is written again without replace", "refused: memory_conflict"),
    ("Alice asks for a casual tone: replace supersedes, history kept", "written; superseded the entry of "),
    ("she withdraws her timezone", "revoked: timezone"),
    ("the agent reads her timezone", "refused: memory_entry_revoked"),
    ("the agent reads an unknown key", "refused: memory_entry_not_found"),
    ("the agent reads her language", "active: language"),
    ("the agent lists everything, history included",
     "language=active, timezone=revoked, no_marketing_emails=active, no_penicillin=active, "
     "tone_style=superseded, tone_style=active"),
    ("the assistant, read-only, cannot hold her memory still for a run",
     f"{DENIED} (principal 'agent:assistant' may not write 'alice')"),
    ("the operator lets the planner read her memory", "service:planner may read user:alice"),
    ("and write it: a run holds her writes back, which takes write", "service:planner may write user:alice"),
    ("the planner begins a pipeline run", "run service:planner/run-1 begun"),
    ("the run takes its snapshot, tagged with the run",
     "4 active entries, constraints ['no_marketing_emails', 'no_penicillin']"),
    ("Alice's memory cannot change mid-run",
     f"{DENIED} (in-flight mutation: pipeline run 'service:planner/run-1' holds this user's memory"),
    ("the run ends", "run service:planner/run-1 ended"),
    ("now the write goes through", "written: no_shellfish"),
    ("a call to a syscall that does not exist", "refused: unknown_syscall"),
    ("a working-memory context, budget 6, owned by the operator", "context tavern created"),
    ("the game master may read the context", "agent:game-master may read context:tavern"),
    ("and write it (propose, turns), not seed, pin or review", "agent:game-master may write context:tavern"),
    ("the operator seeds a world fact", "seeded u"),
    ("the operator seeds and pins the tavern keeper", "seeded u"),
    ("the narrator states a fact with high confidence", "promoted u"),
    ("a player claims the king lives", "queued_for_review r"),
    ("the same fact again, reworded", "duplicate u"),
    ("an unsure rumour", "rejected_low_confidence"),
    ("the operator rejects the queued claim that the king lives", "rejected r"),
    ("a turn where the king's death is confirmed", "turn 1: 1 reinforced"),
    ("another turn", "turn 2: 1 reinforced"),
    ("the game master asks for CANON", "c"),
    ("the game master cannot approve it himself",
     f"{DENIED} (principal 'agent:game-master' may not canonize request 'c41')"),
    ("the operator approves: CANON by explicit review only", "c"),
    ("the block the agent is given", "3 units, about "),
    ("a compacted summary that forgets the tavern", "summary loses ['u"),
    ("the pressure gauge", "pressure "),
]  # fmt: skip


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo's JSON, from one real run of ``arvis demo`` (module-scoped: one run for the tests below)."""
    completed = h.arvis_subprocess("demo", "--db", tmp_path_factory.mktemp("demo") / "demo.db", "-o", "json")
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads(completed.stdout)
    return document


def test_every_step_has_the_outcome_its_narration_says(demo: dict[str, Any]) -> None:
    got = [(call["what"], call["outcome"]) for call in demo["calls"]]
    assert [what for what, _ in got] == [what for what, _ in EXPECTED]
    wrong = [
        (what, outcome, expected)
        for (what, outcome), (_, expected) in zip(got, EXPECTED, strict=True)
        if not outcome.startswith(expected)
    ]
    assert wrong == []


def test_canon_needs_the_review_and_the_run_holds_the_memory(demo: dict[str, Any]) -> None:
    outcome = {call["what"]: call["outcome"] for call in demo["calls"]}
    request_id, status = outcome["the game master asks for CANON"].split()[:2]
    assert status == "PENDING"
    approved = outcome["the operator approves: CANON by explicit review only"]
    assert approved.split()[:2] == [request_id, "APPROVED"]
    assert "CANON facts" in demo["block"] and "The old king is dead." in demo["block"]
    assert "The old king is not dead." not in demo["block"]
    # the write is refused between the run's begin and end, and goes through after the end
    seq = {call["what"]: call["seq"] for call in demo["calls"]}
    order = [
        "the planner begins a pipeline run",
        "Alice's memory cannot change mid-run",
        "the run ends",
        "now the write goes through",
    ]
    assert [seq[what] for what in order] == sorted(seq[what] for what in order)


def test_the_demo_journal_verifies(demo: dict[str, Any]) -> None:
    assert demo["verification"]["verified"] is True
    assert demo["verification"]["entries"] == len(EXPECTED) == len(demo["calls"])


def test_the_table_output_shows_the_same_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = h.cli(capsys, "demo", "--db", tmp_path / "demo.db")
    assert code == 0, err
    assert "chain intact, every entry replayed byte for byte" in out
    assert "The old king is dead." in out


# --- --force replaces only the demo's own journal ---------------------------------------------------


def _user_journal(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal a user wrote into, as the README has them do: ``arvis call ... --create``."""
    args = '{"user_id": "bob", "key": "no_peanuts", "memory_type": "constraint", "source": "explicit_user"}'
    code, _, err = h.cli(
        capsys, "call", "memory.write", "--db", path, "--create", "--principal", "user:bob", "--args", args
    )
    assert code == 0, err


def _files(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def _refused(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    before = _files(path.parent)
    code, out, err = h.cli(capsys, "demo", "--db", path, "--force")
    assert (code, out) == (2, "")
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith(f"arvis: {path} is not the journal a demo run wrote"), err
    assert _files(path.parent) == before  # the file, its admin key and everything beside them untouched


def test_force_refuses_a_journal_a_user_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.db"
    _user_journal(mine, capsys)
    assert (tmp_path / "mine.db.admin-key").exists()
    _refused(capsys, mine)


def test_force_refuses_the_demo_journal_once_a_call_was_added(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's "Make a call yourself" once wrote into demo-journal.db, which make demo-kernel then
    replaced: the demo's journal with one more call is a journal the user wrote into."""
    path = tmp_path / "demo-journal.db"
    code, _, err = h.cli(capsys, "demo", "--db", path, "-o", "json")
    assert code == 0, err
    _user_journal(path, capsys)
    _refused(capsys, path)


def test_force_refuses_a_file_that_is_no_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.db"
    path.write_text("my notes\n", encoding="utf-8")
    _refused(capsys, path)


def test_force_replaces_the_demos_own_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "demo-journal.db"
    key = tmp_path / "demo-journal.db.admin-key"
    code, _, err = h.cli(capsys, "demo", "--db", path, "-o", "json")
    assert code == 0, err
    key.write_text("0" * 64, encoding="ascii")  # a stale key file beside it: no key of the new journal
    with h.reader_of(path) as reader:
        first = reader.header()
    for _ in range(2):  # and again: the replacement is the demo's own journal too
        code, out, err = h.cli(capsys, "demo", "--db", path, "--force", "-o", "json")
        assert code == 0, err
        assert json.loads(out)["verification"]["entries"] == len(EXPECTED)
    with h.reader_of(path) as reader:
        header = reader.header()
        assert reader.count() == len(EXPECTED)
    assert first is not None and header is not None and header.journal_id != first.journal_id  # a new journal
    assert not key.exists()  # the replaced journal's key goes with it (tools.cmd_demo)
