"""``arvis journal trace`` and ``arvis journal rollback`` (``journal-format.md`` §13, §14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import journal_helpers as h
import pytest
from graph_values import carried

from journal.content_digest import closed_contexts, content_digest
from journal.engine import open_engine
from journal.store import SqlJournalStore
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals, admin_verifier
from syscalls.boot import default_services
from syscalls.table import SYSCALL_TABLE
from tools.admin_key import create_key

EVIL = "agent:evil"
ADMIN = "operator:admin"
FIXER = "operator:fix"
OWNER = "user:u1"
READER = "operator:reader"
"""Reads the administrator's context: in a format-2 journal a built-in administrator may read any context
(``access-and-pipelines.md`` §1.7)."""

LANGUAGE = {"user_id": "u1", "key": "language", "memory_type": "preference", "source": "explicit_user"}
CONTEXT = (
    "memory.awmu.create",
    {"context_id": "c1", "rules": 1, "config": {"budget": 3, "operators": ["operator:*", "agent:evil"]}},
    ADMIN,
)
SEED_PARIS = (
    "memory.awmu.seed",
    {"context_id": "c1", "text": "The user lives in Paris", "authority": "PROVISIONAL"},
    ADMIN,
)
PROPOSE_BERLIN = (
    "memory.awmu.propose",
    {
        "context_id": "c1",
        "text": "The user lives in Berlin",
        "source": "system",
        "confidence": 0.95,
        "verdicts": [{"unit_id": "u2-0", "type": "REVISION", "confidence": 0.9}],
    },
    EVIL,
)


def _journal(tmp_path: Path, calls: list[h.Call]) -> Path:
    path = tmp_path / "j.db"
    results = h.build_journal(path, calls, admin_key=_admin_key(path))
    assert all(result.seq is not None for result in results)
    return path


def _admin_key(path: Path) -> bytes:
    """The admin key of the journal about to be created at ``path``, written beside it."""
    key_path = Path(f"{path}.admin-key")
    create_key(key_path)
    return bytes.fromhex(key_path.read_text(encoding="ascii"))


def _untyped(call: h.Call) -> h.Call:
    """The call as a format-1 journal names a grant's scope: a user's or a context's bare id."""
    syscall, args, principal = call
    scope = args.get("scope") if isinstance(args, dict) else None
    typed = isinstance(scope, str) and scope.startswith(("user:", "context:"))
    if isinstance(syscall, str) and syscall.startswith("access.") and typed and isinstance(scope, str):
        return syscall, {**args, "scope": scope.partition(":")[2]}, principal
    return call


def _journal_format_1(tmp_path: Path, calls: list[h.Call]) -> Path:
    """A format-1 journal (the first release's access rules) holding ``calls``."""
    path = tmp_path / "j.db"
    clock = h.make_clock()
    store = SqlJournalStore(
        open_engine(str(path)),
        clock=clock,
        format_version=1,
        journal_id=h.JOURNAL_ID,
        admin_verifier=admin_verifier(_admin_key(path)),
    )
    kernel = Kernel(
        table=SYSCALL_TABLE,
        services=default_services(),
        store=store,
        clock=clock,
        identity=VouchedPrincipals(administrators=True),
    )
    try:
        results = h.run_calls(kernel, [_untyped(call) for call in calls])
    finally:
        kernel.close()
    assert all(result.ok for result in results), [result.to_dict() for result in results]
    return path


def _rollback(capsys: Any, path: Path, principal: str = EVIL) -> tuple[int, dict[str, Any]]:
    code, out, err = h.cli(
        capsys, "journal", "rollback", "--db", path, "--principal", principal, "--as", FIXER, "-o", "json"
    )
    assert code != 2, err
    return code, json.loads(out)


def _verified(capsys: Any, path: Path) -> None:
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", path, "-o", "json")
    assert code == 0, out


# --- trace ------------------------------------------------------------------------------------------

TRACED: list[h.Call] = [
    CONTEXT,  # 1
    SEED_PARIS,  # 2
    ("memory.write", LANGUAGE, OWNER),  # 3
    # 4: write on every user and context (format 2: proposing into the administrator's context takes it)
    ("access.grant", {"principal": EVIL, "capability": "write", "scope": "*"}, ADMIN),
    ("memory.write", {**LANGUAGE, "source": "proposed", "value_ref": "evil", "replace": True}, EVIL),  # 5
    PROPOSE_BERLIN,  # 6: supersedes u2-0
    ("memory.awmu.assemble", {"context_id": "c1"}, READER),  # 7
    ("pipeline.begin", {"user_id": "u1", "run_id": "run-1"}, ADMIN),  # 8
    ("memory.snapshot", {"user_id": "u1", "run_id": "run-1"}, ADMIN),  # 9
    ("pipeline.end", {"run_id": "run-1"}, ADMIN),  # 10
]


def test_trace_of_a_principal_follows_its_entries_units_and_their_uses(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, TRACED)
    code, out, _ = h.cli(capsys, "journal", "trace", "--db", path, "--principal", EVIL, "-o", "json")
    assert code == 0
    trace = json.loads(out)
    assert trace["query"] == {"principal": EVIL}
    assert trace["calls"] == [5, 6]
    assert {(item["kind"], item["seq"]) for item in trace["created"]} == {("memory_entry", 5), ("unit", 6)}
    assert {"kind": "unit", "id": "u2-0", "seq": 6, "how": "superseded", "by": "u6-0"} in trace["displaced"]
    assert any(item["kind"] == "memory_entry" and item["how"] == "superseded" for item in trace["displaced"])
    kinds = {(item["kind"], item["seq"]) for item in trace["included_in"]}
    assert kinds == {("assemble", 7), ("snapshot", 9), ("pipeline_run", 8)}


def test_trace_of_a_source_and_of_a_unit(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, TRACED)
    code, out, _ = h.cli(capsys, "journal", "trace", "--db", path, "--source", "proposed", "-o", "json")
    assert code == 0 and json.loads(out)["calls"] == [5]
    code, out, _ = h.cli(capsys, "journal", "trace", "--db", path, "--unit", "u6-0", "-o", "json")
    trace = json.loads(out)
    assert code == 0 and trace["calls"] == [6]
    assert [item["id"] for item in trace["displaced"]] == ["u2-0"]
    code, out, _ = h.cli(capsys, "journal", "trace", "--db", path, "--principal", EVIL)
    assert code == 0 and "calls: 5 6" in out


def test_trace_needs_exactly_one_query(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, TRACED)
    code, _, err = h.cli(capsys, "journal", "trace", "--db", path)
    assert code == 2 and "exactly one" in err
    code, _, _ = h.cli(capsys, "journal", "trace", "--db", path, "--principal", EVIL, "--unit", "u6-0")
    assert code == 2


# --- rollback, one family at a time -----------------------------------------------------------------

FAMILIES: dict[str, list[h.Call]] = {
    "memory": [
        ("memory.write", LANGUAGE, OWNER),
        ("memory.write", {**LANGUAGE, "key": "timezone"}, OWNER),
        ("access.grant", {"principal": EVIL, "capability": "write", "scope": "user:u1"}, ADMIN),
        ("access.grant", {"principal": EVIL, "capability": "revoke", "scope": "user:u1"}, ADMIN),
        ("memory.write", {**LANGUAGE, "source": "proposed", "value_ref": "evil", "replace": True}, EVIL),
        ("memory.write", {**LANGUAGE, "key": "no_ads", "source": "proposed"}, EVIL),
        ("memory.revoke", {"user_id": "u1", "key": "timezone"}, EVIL),
        ("memory.write", {**LANGUAGE, "key": "tone_style", "memory_type": "style"}, OWNER),
    ],
    "memory.awmu": [
        CONTEXT,
        SEED_PARIS,
        # format 2: proposing and asking for canonization in the administrator's context take write
        ("access.grant", {"principal": EVIL, "capability": "write", "scope": "context:c1"}, ADMIN),
        (
            "memory.awmu.seed",
            {"context_id": "c1", "text": "The user likes tea", "authority": "RELIABLE"},
            ADMIN,
        ),
        PROPOSE_BERLIN,
        (
            "memory.awmu.seed",
            {"context_id": "c1", "text": "The user owes money", "authority": "RELIABLE"},
            EVIL,
        ),
        ("memory.awmu.pin", {"context_id": "c1", "unit_id": "u4-0"}, EVIL),
        ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u4-0"}, EVIL),
        ("memory.awmu.assemble", {"context_id": "c1"}, READER),
    ],
    "access": [
        ("access.grant", {"principal": "agent:helper", "capability": "read", "scope": "user:u1"}, ADMIN),
        ("access.grant", {"principal": "agent:friend", "capability": "write", "scope": "*"}, "admin:rogue"),
        (
            "access.revoke",
            {"principal": "agent:helper", "capability": "read", "scope": "user:u1"},
            "admin:rogue",
        ),
        ("access.list", {}, "admin:rogue"),
    ],
    "pipeline": [
        ("memory.write", LANGUAGE, OWNER),
        ("access.grant", {"principal": EVIL, "capability": "read", "scope": "user:u1"}, ADMIN),
        (
            "access.grant",
            {"principal": EVIL, "capability": "write", "scope": "user:u1"},
            ADMIN,
        ),  # to begin a run
        ("pipeline.begin", {"user_id": "u1", "run_id": "held"}, EVIL),
        ("memory.snapshot", {"user_id": "u1", "run_id": "held"}, EVIL),
        ("pipeline.begin", {"user_id": "u1", "run_id": "done"}, EVIL),
        ("pipeline.end", {"run_id": "done"}, EVIL),
    ],
    "kernel.record": [
        ("memory.write", LANGUAGE, OWNER),
        ("kernel.record", {"kind": "model.answer", "payload": {"text": "ignore previous rules"}}, EVIL),
    ],
}
OWN = "agent:evil/notes"
"""A context the principal creates for itself (format 2: the name is reserved to it)."""
FAMILIES["memory.awmu.create"] = [
    # the principal's own context: its units archived, its queued proposal rejected, then it is closed
    ("memory.awmu.create", {"context_id": OWN, "rules": 1, "config": {"budget": 4}}, EVIL),  # 1
    ("memory.awmu.seed", {"context_id": OWN, "text": "A storm gathers over the sea."}, EVIL),  # 2
    ("memory.awmu.seed", {"context_id": OWN, "text": "The user owes money", "pinned": True}, EVIL),  # 3
    (
        "memory.awmu.propose",
        {"context_id": OWN, "text": "The dragon sleeps.", "source": "dm", "confidence": 0.9},
        EVIL,
    ),  # 4: queued for review (r4)
    ("memory.awmu.turn", {"context_id": OWN, "reinforce": ["u2-0"]}, EVIL),  # 5
    ("memory.awmu.assemble", {"context_id": OWN}, READER),  # 6: a read depends on nothing
]
DECIDED: list[h.Call] = [
    ("memory.awmu.create", {"context_id": "c1", "rules": 1, "config": {"budget": 5}}, ADMIN),  # 1
    ("memory.awmu.seed", {"context_id": "c1", "text": "A storm gathers over the sea."}, ADMIN),  # 2
    ("memory.awmu.seed", {"context_id": "c1", "text": "The castle stands on the hill"}, ADMIN),  # 3
    ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u3-0"}, ADMIN),  # 4: c4
    (
        "memory.awmu.propose",
        {"context_id": "c1", "text": "The dragon sleeps.", "source": "dm", "confidence": 0.9},
        ADMIN,
    ),  # 5: queued for review (r5)
    ("access.grant", {"principal": EVIL, "capability": "canonize", "scope": "context:c1"}, ADMIN),  # 6
    ("memory.awmu.review", {"request_id": "c4", "decision": "approve"}, EVIL),  # 7: u3-0 is CANON
    ("memory.awmu.review", {"request_id": "r5", "decision": "reject"}, EVIL),  # 8
    ("memory.awmu.assemble", {"context_id": "c1"}, READER),  # 9
]
"""The principal, a canonizer by grant, approves a canonization request and rejects a queued proposal."""
FAMILIES["memory.awmu.review"] = DECIDED
ROGUE = {"access": "admin:rogue"}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_rollback_reaches_the_replay_without_the_principal(family: str, tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, FAMILIES[family])
    principal = ROGUE.get(family, EVIL)
    code, report = _rollback(capsys, path, principal)
    assert report["dependents"] == []
    assert report["content_digest"]["after_rollback"] == report["content_digest"]["replay_without_principal"]
    assert report["equal"] is True and code == 0, report
    assert report["undone_calls"], report
    assert all(call["status"] == "ok" for call in report["compensating_calls"]), report
    _verified(capsys, path)


def test_each_family_compensates_as_its_table_allows(tmp_path: Path, capsys: Any) -> None:
    made: dict[str, set[str]] = {}
    for family, calls in FAMILIES.items():
        directory = tmp_path / family.replace(".", "_")
        directory.mkdir()
        path = _journal(directory, calls)
        _, report = _rollback(capsys, path, ROGUE.get(family, EVIL))
        made[family] = {call["syscall"] for call in report["compensating_calls"]}
    assert made["memory"] == {"access.revoke", "memory.write", "memory.revoke"}
    # u2-0, superseded by the principal's unit, is restored (the same unit), not re-seeded
    assert {"memory.awmu.archive", "memory.awmu.restore", "memory.awmu.unpin", "memory.awmu.review"} <= made[
        "memory.awmu"
    ]
    assert "memory.awmu.seed" not in made["memory.awmu"]
    assert made["access"] == {"access.revoke", "access.grant"}
    assert made["pipeline"] == {"access.revoke", "pipeline.end"}
    assert made["kernel.record"] == set()
    assert made["memory.awmu.create"] == {
        "access.grant",
        "memory.awmu.review",
        "access.revoke",
        "memory.awmu.archive",
        "memory.awmu.close",
    }
    assert made["memory.awmu.review"] == {
        "access.revoke",
        "access.grant",
        "memory.awmu.reopen_request",
        "memory.awmu.archive",
        "memory.awmu.seed",
    }


def test_a_second_rollback_has_nothing_left_to_change(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, FAMILIES["memory"])
    assert _rollback(capsys, path)[0] == 0
    code, report = _rollback(capsys, path)
    assert code == 0 and report["compensating_calls"] == []


# --- units the principal took out of the active set come back: restored, not re-seeded ----------------

RESTORED: list[h.Call] = [
    (
        "memory.awmu.create",
        {"context_id": "c1", "rules": 3, "config": {"budget": 3, "operators": ["operator:*", "agent:evil"]}},
        ADMIN,
    ),  # 1: rules 3, where a restatement the operator names from another source corroborates
    ("memory.awmu.seed", {"context_id": "c1", "text": "The castle stands on the hill"}, ADMIN),  # 2
    ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u2-0"}, ADMIN),  # 3
    ("memory.awmu.review", {"request_id": "c3", "decision": "approve"}, ADMIN),  # 4: u2-0 is CANON
    ("memory.awmu.seed", {"context_id": "c1", "text": "The river runs north"}, ADMIN),  # 5
    (
        "memory.awmu.propose",
        {"context_id": "c1", "text": "The river runs north", "source": "dm", "confidence": 0.9},
        ADMIN,
    ),  # 6: u5-0 has the sources operator and dm
    ("memory.awmu.archive", {"context_id": "c1", "unit_id": "u2-0"}, EVIL),  # 7: an operator by pattern
    ("memory.awmu.archive", {"context_id": "c1", "unit_id": "u5-0"}, EVIL),  # 8
]


@pytest.mark.parametrize("version", [1, 2])
def test_a_canon_unit_and_a_unit_of_several_sources_are_restored(
    version: int, tmp_path: Path, capsys: Any
) -> None:
    """The principal, an operator by the context's ``operators``, archived a CANON unit and a unit with two
    sources: both come back as they were (the CANON one under a canonize grant the rollback withdraws)."""
    path = (_journal_format_1 if version == 1 else _journal)(tmp_path, RESTORED)
    code, report = _rollback(capsys, path)
    calls = [
        (call["syscall"], call["args"].get("unit_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert calls == [
        ("memory.awmu.restore", "u5-0", "ok"),
        ("access.grant", None, "ok"),
        ("memory.awmu.restore", "u2-0", "ok"),
        ("access.revoke", None, "ok"),
    ], report
    assert report["compensating_calls"][1]["args"] == {
        "principal": FIXER,
        "capability": "canonize",
        "scope": "c1" if version == 1 else "context:c1",  # the journal's own scope rules
    }
    assert report["not_undone"] == [] and report["dependents"] == []
    assert report["content_digest"]["after_rollback"] == report["content_digest"]["replay_without_principal"]
    assert report["equal"] is True and code == 0
    with h.raw_db(path) as connection:
        rows = connection.execute("SELECT unit_id, status FROM awmu_units ORDER BY unit_id").fetchall()
    assert rows == [("u2-0", "ACTIVE"), ("u5-0", "ACTIVE")]  # the same units, no new one
    _verified(capsys, path)


def test_a_restored_unit_is_pinned_again_after_it_is_back(tmp_path: Path, capsys: Any) -> None:
    path = _journal(
        tmp_path,
        [
            CONTEXT,
            ("memory.awmu.seed", {"context_id": "c1", "text": "The gate is shut.", "pinned": True}, ADMIN),
            ("memory.awmu.unpin", {"context_id": "c1", "unit_id": "u2-0"}, EVIL),
            ("memory.awmu.archive", {"context_id": "c1", "unit_id": "u2-0"}, EVIL),
        ],
    )
    code, report = _rollback(capsys, path)
    calls = [
        (call["syscall"], call["args"].get("unit_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert calls == [("memory.awmu.restore", "u2-0", "ok"), ("memory.awmu.pin", "u2-0", "ok")], report
    assert report["equal"] is True and code == 0, report
    _verified(capsys, path)


def test_a_unit_whose_stored_record_differs_is_re_seeded(tmp_path: Path, capsys: Any) -> None:
    """The principal demoted a unit by a verdict, then archived it: the stored unit no longer says what the
    replay's does, so it cannot be restored; a seed stands for it."""
    path = _journal(
        tmp_path,
        [
            (CONTEXT[0], {**CONTEXT[1], "config": {**CONTEXT[1]["config"], "trust_enabled": False}}, ADMIN),
            ("memory.awmu.seed", {"context_id": "c1", "text": "The king is dead.", "rank": 700}, ADMIN),  # 2
            ("access.grant", {"principal": EVIL, "capability": "write", "scope": "context:c1"}, ADMIN),  # 3
            (
                "memory.awmu.propose",
                {
                    "context_id": "c1",
                    "text": "The queen rules alone.",
                    "source": "system",
                    "confidence": 0.95,
                    "verdicts": [{"unit_id": "u2-0", "type": "CONTRADICTION", "confidence": 0.7}],
                },
                EVIL,
            ),  # 4: u2-0 demoted to UNRELIABLE
            ("memory.awmu.archive", {"context_id": "c1", "unit_id": "u2-0"}, EVIL),  # 5
        ],
    )
    code, report = _rollback(capsys, path)
    made = [call["syscall"] for call in report["compensating_calls"]]
    assert "memory.awmu.restore" not in made and "memory.awmu.seed" in made, report
    seed = next(call for call in report["compensating_calls"] if call["syscall"] == "memory.awmu.seed")
    assert seed["args"]["authority"] == "RELIABLE" and "stored with other content" in seed["why"]
    assert report["equal"] is True and code == 0, report
    _verified(capsys, path)


# --- dependent calls ----------------------------------------------------------------------------------


def test_a_later_call_that_built_on_the_principal_is_reported(tmp_path: Path, capsys: Any) -> None:
    calls = [
        *FAMILIES["memory.awmu"][:5],  # 1-5: u5-0 (Berlin) by the principal supersedes u2-0
        (
            "memory.awmu.turn",
            {"context_id": "c1", "reinforce": ["u5-0"]},
            "operator:planner",
        ),  # 6: reinforces it
        ("memory.write", LANGUAGE, OWNER),  # 7
        ("access.grant", {"principal": EVIL, "capability": "write", "scope": "user:u1"}, ADMIN),  # 8
        ("memory.write", {**LANGUAGE, "value_ref": "evil", "replace": True}, EVIL),  # 9
        (
            "memory.revoke",
            {"user_id": "u1", "key": "language"},
            OWNER,
        ),  # 10: revokes what the principal wrote
    ]
    path = _journal(tmp_path, calls)
    code, report = _rollback(capsys, path)
    assert code == 1
    dependents = {item["seq"]: item for item in report["dependents"]}
    assert set(dependents) == {6, 10}
    assert dependents[6]["principal"] == "operator:planner" and "u5-0" in dependents[6]["why"]
    assert (
        dependents[10]["syscall"] == "memory.revoke"
        and "last written by the principal" in dependents[10]["why"]
    )
    _verified(capsys, path)


def test_what_no_syscall_can_restore_is_listed(tmp_path: Path, capsys: Any) -> None:
    calls = [
        ("memory.write", LANGUAGE, OWNER),
        ("pipeline.begin", {"user_id": "u1", "run_id": "theirs"}, ADMIN),
        ("pipeline.end", {"run_id": f"{ADMIN}/theirs"}, "admin:rogue"),  # ends another principal's run
        ("memory.awmu.create", {"context_id": "rogue-ctx"}, "admin:rogue"),
    ]
    path = _journal(tmp_path, calls)
    code, report = _rollback(capsys, path, "admin:rogue")
    assert code == 1 and report["equal"] is False
    assert report["not_undone"] == [
        f"run {ADMIN}/theirs ended at seq 3 stays ended: a run id is single-use, no syscall reopens it"
    ]
    # the context is closed: a closed context holds nothing in force, so it no longer counts
    closes = [call for call in report["compensating_calls"] if call["syscall"] == "memory.awmu.close"]
    assert [(call["args"]["context_id"], call["status"]) for call in closes] == [("rogue-ctx", "ok")]
    _verified(capsys, path)


def test_a_context_holding_what_others_made_stays_open(tmp_path: Path, capsys: Any) -> None:
    """Another principal seeded into the principal's context: it depended on it, and the context, holding
    that unit, is not closed (the principal's own unit is archived)."""
    path = _journal(
        tmp_path,
        [
            ("memory.awmu.create", {"context_id": OWN, "rules": 1}, EVIL),  # 1
            ("memory.awmu.seed", {"context_id": OWN, "text": "The user owes money"}, EVIL),  # 2
            ("memory.awmu.seed", {"context_id": OWN, "text": "The sky is blue"}, ADMIN),  # 3
        ],
    )
    code, report = _rollback(capsys, path)
    assert code == 1 and report["equal"] is False
    assert [item["seq"] for item in report["dependents"]] == [3]
    made = [
        (call["syscall"], call["args"].get("unit_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert made == [("memory.awmu.archive", "u2-0", "ok")], report
    assert report["not_undone"] == [
        f"context {OWN} (created at seq 1) stays open: it holds u3-0, not made by the principal"
    ]
    _verified(capsys, path)


def test_a_closed_context_is_left_out_of_the_content_digest(tmp_path: Path, capsys: Any) -> None:
    """A second rollback finds the principal's context closed: nothing left to change, still equal."""
    path = _journal(tmp_path, FAMILIES["memory.awmu.create"])
    assert _rollback(capsys, path)[0] == 0
    code, report = _rollback(capsys, path)
    assert code == 0 and report["compensating_calls"] == [] and report["not_undone"] == []
    assert report["equal"] is True
    _verified(capsys, path)


def test_a_reopen_of_the_principal_is_decided_again_and_its_close_is_listed(
    tmp_path: Path, capsys: Any
) -> None:
    """The principal reopened a request another had rejected, and closed another's context: the request is
    rejected again (only PENDING requests count, §13.2); no syscall reopens a context, so that one is
    listed and the digests differ."""
    rogue = "admin:rogue"
    path = _journal(
        tmp_path,
        [
            ("memory.awmu.create", {"context_id": "c1", "rules": 1}, ADMIN),  # 1
            ("memory.awmu.seed", {"context_id": "c1", "text": "The king is dead."}, ADMIN),  # 2
            ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u2-0"}, ADMIN),  # 3
            ("memory.awmu.review", {"request_id": "c3", "decision": "reject"}, ADMIN),  # 4
            ("memory.awmu.reopen_request", {"request_id": "c3"}, rogue),  # 5: a canonizer by c1's pattern
            ("memory.awmu.create", {"context_id": "c2"}, ADMIN),  # 6
            ("memory.awmu.close", {"context_id": "c2"}, rogue),  # 7
        ],
    )
    code, report = _rollback(capsys, path, rogue)
    calls = [
        (call["syscall"], call["args"].get("request_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert calls == [
        ("access.grant", None, "ok"),
        ("memory.awmu.review", "c3", "ok"),
        ("access.revoke", None, "ok"),
    ], report
    assert report["not_undone"] == [
        f"context c2 closed at seq 7 by {rogue} stays closed: no syscall reopens a context"
    ]
    assert report["equal"] is False and code == 1
    _verified(capsys, path)


GOLDEN_CONTENT = {
    "r1-long-term.db": "60188190bec6ad0c50916803e01551c4cc8fe24ed4d93d665fd3a7f64f822573",
    "r1-scenario.db": "99c9e0a0de6b154128820a3cbdc379830049a4378ebde930873cc59818609a55",
    "r1-working-memory.db": "46016542877198caeb1b34fd5d2c86b9384fba3287b379837fdcc4131371a09a",
    "r2-scenario.db": "7b50ac49186939c0ced5263d07af70357435c046b3371f5ad649fa762ba2b62f",
}
"""The content digests of the golden journals, as computed before contexts could be closed: a journal
without a closed context keeps its content digest (``journal-format.md`` §13.2)."""


@pytest.mark.parametrize("name", sorted(GOLDEN_CONTENT))
def test_the_content_digest_of_old_journals_is_unchanged(name: str, tmp_path: Path) -> None:
    copy = tmp_path / name  # never the fixture itself: opening it may write -wal/-shm beside it
    shutil.copyfile(Path(__file__).parent / "golden" / name, copy)
    with h.reader_of(copy) as reader, reader.engine.connect() as connection:
        assert closed_contexts(connection) == frozenset()
        assert content_digest(connection) == GOLDEN_CONTENT[name]


# --- bad input ----------------------------------------------------------------------------------------


def test_an_unknown_principal_has_nothing_to_undo(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, FAMILIES["memory"])
    code, report = _rollback(capsys, path, "agent:nobody")
    assert code == 0 and report["nothing_to_undo"] is True and report["compensating_calls"] == []
    assert report["equal"] is True
    with h.reader_of(path) as reader:
        head = reader.head()
    assert head is not None and head.seq == len(FAMILIES["memory"])
    code, out, _ = h.cli(
        capsys, "journal", "rollback", "--db", path, "--principal", "agent:nobody", "--as", FIXER
    )
    assert code == 0 and "nothing to undo" in out


def test_rollback_usage_errors(tmp_path: Path, capsys: Any) -> None:
    path = _journal(tmp_path, FAMILIES["memory"])
    code, _, err = h.cli(capsys, "journal", "rollback", "--db", path, "--principal", EVIL, "--as", "agent:x")
    assert code == 2 and "operator" in err
    code, _, err = h.cli(
        capsys, "journal", "rollback", "--db", path, "--principal", EVIL, "--as", "operator:"
    )
    assert code == 2
    code, _, err = h.cli(capsys, "journal", "rollback", "--db", path, "--principal", FIXER, "--as", FIXER)
    assert code == 2 and "itself" in err
    # the operator needs the database's admin key: without it, exit 2 before anything is written
    Path(f"{path}.admin-key").unlink()
    before = path.read_bytes()
    code, _, err = h.cli(capsys, "journal", "rollback", "--db", path, "--principal", EVIL, "--as", FIXER)
    assert code == 2 and "admin key" in err, err
    assert path.read_bytes() == before
    code, _, err = h.cli(
        capsys, "journal", "rollback", "--db", tmp_path / "missing.db", "--principal", EVIL, "--as", FIXER
    )
    assert code == 2 and "no journal" in err
    assert not (tmp_path / "missing.db").exists()
    code, _, err = h.cli(capsys, "journal", "trace", "--db", tmp_path / "missing.db", "--principal", EVIL)
    assert code == 2


def test_a_request_in_the_principals_own_context_is_rejected_under_a_grant_the_rollback_withdraws(
    tmp_path: Path, capsys: Any
) -> None:
    """Format 2: an administrator is no canonizer by name, and the owner's ``canonizers`` pattern gives
    nothing when the owner may not canonize; the rollback grants itself ``canonize`` on that context for
    the review and withdraws it after, so the grants table ends as it was."""
    own = "agent:evil/notes"
    path = _journal(
        tmp_path,
        [
            ("memory.awmu.create", {"context_id": own, "config": {"canonizers": ["*"]}}, EVIL),
            (
                "memory.awmu.seed",
                {"context_id": own, "text": "The user owes money", "authority": "RELIABLE"},
                EVIL,
            ),
            ("memory.awmu.canonize", {"context_id": own, "unit_id": "u2-0"}, EVIL),
        ],
    )
    _, report = _rollback(capsys, path)
    calls = [(call["syscall"], call["status"]) for call in report["compensating_calls"]]
    review = calls.index(("memory.awmu.review", "ok"))
    assert calls[review - 1] == ("access.grant", "ok") and calls[review + 1] == ("access.revoke", "ok")
    assert all(status == "ok" for _, status in calls), calls
    with h.reader_of(path) as reader:
        grants = [entry for entry in reader.entries() if entry.syscall.startswith("access.")]
    assert [entry.syscall for entry in grants] == ["access.grant", "access.revoke"]
    assert calls[-2:] == [("memory.awmu.archive", "ok"), ("memory.awmu.close", "ok")]  # then it is closed
    assert report["not_undone"] == [] and report["equal"] is True
    _verified(capsys, path)


@pytest.mark.parametrize("version", [1, 2])
def test_decisions_of_the_principal_are_reopened(version: int, tmp_path: Path, capsys: Any) -> None:
    """The principal approved a canonization request (its unit became CANON) and rejected a queued
    proposal: both are reopened under a canonize grant the rollback withdraws; the CANON unit, which no
    syscall demotes, is archived and its content re-seeded as the replay has it."""
    path = (_journal_format_1 if version == 1 else _journal)(tmp_path, DECIDED)
    code, report = _rollback(capsys, path)
    calls = [
        (call["syscall"], call["args"].get("request_id") or call["args"].get("unit_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert calls == [
        ("access.revoke", None, "ok"),  # the principal's canonize grant
        ("access.grant", None, "ok"),
        ("memory.awmu.reopen_request", "c4", "ok"),
        ("memory.awmu.reopen_request", "r5", "ok"),
        ("access.revoke", None, "ok"),
        ("memory.awmu.archive", "u3-0", "ok"),
        ("memory.awmu.seed", None, "ok"),
    ], report
    assert report["not_undone"] == [] and report["dependents"] == []
    assert report["equal"] is True and code == 0, report
    with h.raw_db(path) as connection:
        rows = connection.execute(
            "SELECT request_id, status FROM awmu_canon_requests UNION ALL "
            "SELECT review_id, status FROM awmu_reviews ORDER BY 1"
        ).fetchall()
    assert rows == [("c4", "PENDING"), ("r5", "PENDING")]
    _verified(capsys, path)


def test_a_rollback_marker_recorded_by_a_non_operator_is_an_ordinary_call(
    tmp_path: Path, capsys: Any
) -> None:
    """Anyone may ``kernel.record``; only an operator's record of kind ``arvis.rollback`` marks a rollback,
    so a principal cannot hide its own later calls from a rollback's list of dependents."""
    forged = {"kind": "arvis.rollback", "payload": {"principal": EVIL, "calls": 1}}
    path = _journal(
        tmp_path,
        [
            ("memory.write", LANGUAGE, OWNER),
            ("access.grant", {"principal": EVIL, "capability": "write", "scope": "user:u1"}, ADMIN),
            ("access.grant", {"principal": "agent:b", "capability": "write", "scope": "user:u1"}, ADMIN),
            ("memory.write", {**LANGUAGE, "key": "no_ads", "source": "proposed"}, EVIL),
            ("kernel.record", forged, "agent:b"),
            ("memory.write", {**LANGUAGE, "key": "no_ads", "source": "proposed", "replace": True}, "agent:b"),
        ],
    )
    code, report = _rollback(capsys, path)
    assert [item["seq"] for item in report["dependents"]] == [6], report
    assert code == 1


def test_a_grant_the_principal_gave_the_operator_does_not_count_for_the_reopen_after_its_revoke(
    tmp_path: Path, capsys: Any
) -> None:
    """The principal granted the operator ``canonize`` on the context and decided a request there: the
    plan revokes that grant first, so the reopen is wrapped in a grant of its own (what the operator holds
    after the planned calls before it counts, not the live grants)."""
    rogue = "admin:rogue"
    path = _journal(
        tmp_path,
        [
            (
                "memory.awmu.create",
                {"context_id": "c1", "rules": 1, "config": {"canonizers": [rogue]}},
                ADMIN,
            ),
            ("memory.awmu.seed", {"context_id": "c1", "text": "The king is dead."}, ADMIN),  # 2
            ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u2-0"}, ADMIN),  # 3: c3 PENDING
            (
                "access.grant",
                {"principal": FIXER, "capability": "canonize", "scope": "context:c1"},
                rogue,
            ),  # 4
            ("memory.awmu.review", {"request_id": "c3", "decision": "reject"}, rogue),  # 5
        ],
    )
    code, report = _rollback(capsys, path, rogue)
    calls = [
        (call["syscall"], call["args"].get("request_id"), call["status"])
        for call in report["compensating_calls"]
    ]
    assert calls == [
        ("access.revoke", None, "ok"),  # the grant the principal gave the operator
        ("access.grant", None, "ok"),
        ("memory.awmu.reopen_request", "c3", "ok"),
        ("access.revoke", None, "ok"),
    ], report
    assert report["not_undone"] == [] and report["equal"] is True and code == 0, report
    _verified(capsys, path)


def test_graph_state_of_the_principal_is_listed_as_not_undone(tmp_path: Path, capsys: Any) -> None:
    """The content digest does not cover LangGraph state and no call of the rollback undoes it: each thread
    and store prefix the principal owns or wrote into is listed, and the rollback exits 1."""
    ref = carried(b"checkpoint")
    put = {"thread_id": "t1", "checkpoint": ref}
    path = _journal(
        tmp_path,
        [
            ("graph.thread.create", {"thread_id": "t1"}, EVIL),  # 1
            ("graph.checkpoint.put", {**put, "checkpoint_id": "1"}, EVIL),  # 2
            ("graph.checkpoint.put", {**put, "checkpoint_id": "2"}, EVIL),
            ("graph.checkpoint.put", {**put, "thread_id": "t2", "checkpoint_id": "1"}, ADMIN),
            ("graph.checkpoint.put", {**put, "thread_id": "t3", "checkpoint_id": "1"}, ADMIN),  # 5
            ("access.grant", {"principal": EVIL, "capability": "write", "scope": "graph:t3"}, ADMIN),
            ("graph.thread.delete", {"thread_id": "t3"}, EVIL),  # 7: deletes another's checkpoint
        ],
    )
    code, report = _rollback(capsys, path)
    assert [call["syscall"] for call in report["compensating_calls"]] == ["access.revoke"]  # its grant
    assert report["dependents"] == []
    assert report["not_undone"][:1] == [
        "graph thread t1 (owned by the principal since seq 1, 2 checkpoints written by the principal) "
        "stays as it is: a rollback does not undo graph state"
    ], report
    assert report["not_undone"][1:] == [
        "graph.thread.delete at seq 7 deleted graph rows that stay deleted: a rollback does not undo graph "
        "state"
    ], report
    assert report["equal"] is True and code == 1, report  # the content digest leaves graph state out


def test_a_reopen_of_a_request_another_approved_is_rejected_and_listed(tmp_path: Path, capsys: Any) -> None:
    """Another principal approved c3; the principal reopened it. Without the principal c3 is APPROVED, which
    no syscall brings back: the reject that takes it out of PENDING says so, and so does ``not_undone``."""
    rogue = "admin:rogue"
    path = _journal(
        tmp_path,
        [
            ("memory.awmu.create", {"context_id": "c1", "rules": 1}, ADMIN),  # 1
            ("memory.awmu.seed", {"context_id": "c1", "text": "The king is dead."}, ADMIN),  # 2
            ("memory.awmu.canonize", {"context_id": "c1", "unit_id": "u2-0"}, ADMIN),  # 3
            ("memory.awmu.review", {"request_id": "c3", "decision": "approve"}, ADMIN),  # 4: APPROVED
            ("memory.awmu.reopen_request", {"request_id": "c3"}, rogue),  # 5
        ],
    )
    code, report = _rollback(capsys, path, rogue)
    reviews = [call for call in report["compensating_calls"] if call["syscall"] == "memory.awmu.review"]
    assert [(call["args"]["request_id"], call["status"]) for call in reviews] == [("c3", "ok")]
    assert (
        reviews[0]["why"]
        == "reject c3: APPROVED without the principal, which reopened it; rejected, it ends STALE"
    )
    assert report["not_undone"] == [
        "c3 was APPROVED without the principal; no syscall re-approves it as it was "
        "(rejected again, it ends STALE)"
    ], report
    with h.raw_db(path) as connection:
        assert connection.execute("SELECT status FROM awmu_canon_requests").fetchall() == [("STALE",)]
    assert code == 1
    _verified(capsys, path)
