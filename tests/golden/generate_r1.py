"""Writes the r1 golden journals (``tests/golden/README.md``). Kept for the record: it ran once.

Runnable ONLY against release r1, commit ``758671f1dda3e5d747c22af3e31abc159e1eef58``, with that
checkout's packages first on the import path, into a directory of its own::

    git worktree add --detach /tmp/golden-src 758671f1dda3e5d747c22af3e31abc159e1eef58
    cp tests/golden/generate_r1.py /tmp/golden-src/tests/golden/
    cd /tmp/golden-src && PYTHONPATH=/tmp/golden-src python tests/golden/generate_r1.py --out /tmp/r1

It refuses to run on any other commit, or when the imported ``arvis``, ``kernel``, ``syscalls``,
``journal`` and ``tools`` are not that checkout's. Every call's outcome is checked as it is made, so a
run on changed code stops instead of writing a journal that says something else. The golden files in
the repository MUST NOT be regenerated: a later release adds ``r2-...`` files beside them.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# r1's module: the clock is in journal.store since, so ruff takes it for a third party
from journal.clock import ManualClock

import arvis
import journal
import kernel
import syscalls
import tools
from arvis.scenario.conditions import Condition
from journal.reader import JournalReader
from kernel.abi import SyscallResult
from kernel.dispatcher import Kernel
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal
from tools.scenario.load import load_scenario
from tools.scenario.runner import run_scenario

RELEASE = "r1"
RELEASE_COMMIT = "758671f1dda3e5d747c22af3e31abc159e1eef58"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=1)
SCENARIO = "scenarios/poisoned-source.yml"  # the smallest project scenario journal (propose and turn)

LONG_TERM = "r1-long-term.db"
WORKING_MEMORY = "r1-working-memory.db"
SCENARIO_JOURNAL = "r1-scenario.db"


TRACE: list[str] = []
"""The calls of the journal being written, for ``--verbose`` and for a failed run."""


class GenerationError(Exception):
    """The code did not behave as release r1 does: nothing may be written."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise GenerationError(message)


# --------------------------------------------------------------------------------------------------
# a kernel session whose every call states its expected outcome


class Session:
    """Calls through one kernel; each call says what it must give (ok, an outcome, or an error code)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.log = TRACE
        TRACE.clear()

    def _note(self, syscall: str, principal: str, result: SyscallResult, what: str) -> None:
        self.log.append(f"{result.seq!s:>4} {syscall:<28} {principal:<24} {what}")

    def ok(self, syscall: str, args: object, principal: str, *, outcome: str | None = None) -> dict[str, Any]:
        result = self.kernel.call(syscall, args, principal=principal)
        _check(result.ok and result.seq is not None, f"{syscall} by {principal}: {result.to_dict()}")
        value: dict[str, Any] = result.value
        if outcome is not None:
            _check(value.get("outcome") == outcome, f"{syscall}: expected {outcome}, got {value}")
        self._note(syscall, principal, result, f"ok {value.get('outcome', '')}".rstrip())
        return value

    def refused(self, syscall: str, args: object, principal: str, code: str) -> SyscallResult:
        result = self.kernel.call(syscall, args, principal=principal)
        _check(
            not result.ok and result.error is not None and result.error.code == code,
            f"{syscall} by {principal}: expected {code}, got {result.to_dict()}",
        )
        _check(result.seq is not None, f"{syscall}: a refusal that was not journaled")
        self._note(syscall, principal, result, f"refused {code}")
        return result


@contextmanager
def _kernel(path: Path, journal_id: str, clock: ManualClock) -> Iterator[Kernel]:
    opened = open_kernel(str(path), clock=clock, journal_id=journal_id, create=True)
    try:
        yield opened
    finally:
        opened.close()


# --------------------------------------------------------------------------------------------------
# r1-long-term.db: memory.*, access.*, pipeline.*, kernel.record, call_many, refusals

USER = "alice"
OWNER = "user:alice"
ASSISTANT = "agent:assistant"
ONBOARDING = "service:onboarding"
GOVERNANCE = "service:governance"
ADMIN = "operator:golden"


def _write(key: str, memory_type: str, source: str, **extra: Any) -> dict[str, Any]:
    return {"user_id": USER, "key": key, "memory_type": memory_type, "source": source, **extra}


def long_term(path: Path) -> list[str]:
    clock = ManualClock(T0, step=STEP)
    with _kernel(path, f"golden:{RELEASE}-long-term", clock) as k:
        s = Session(k)
        # access: an administrator grants; nobody else may
        s.ok("access.grant", {"principal": ONBOARDING, "capability": "write", "scope": USER}, ADMIN)
        s.ok("access.grant", {"principal": GOVERNANCE, "capability": "write", "scope": USER}, ADMIN)
        granted = s.ok("access.grant", {"principal": ASSISTANT, "capability": "read", "scope": USER}, ADMIN)
        _check(granted["added"] is True, "first grant")
        again = s.ok("access.grant", {"principal": ASSISTANT, "capability": "read", "scope": USER}, ADMIN)
        _check(again["added"] is False, "a grant given twice is not added again")
        s.refused(
            "access.grant",
            {"principal": ASSISTANT, "capability": "write", "scope": USER},
            ASSISTANT,
            "memory_policy_denied",
        )
        s.ok("access.grant", {"principal": "agent:auditor", "capability": "read"}, ADMIN)  # scope "*"
        s.ok("access.list", {}, ADMIN)
        s.ok("access.list", {"principal": ASSISTANT}, ASSISTANT)
        s.refused("access.list", {}, ASSISTANT, "memory_policy_denied")
        s.ok("kernel.record", {"kind": "golden.note", "payload": {"release": RELEASE}, "run_id": ""}, ADMIN)

        # writes
        s.ok("memory.write", _write("language", "preference", "explicit_user", value_ref="vault:lang"), OWNER)
        s.ok("memory.write", _write("timezone", "context", "onboarding", value_ref="vault:tz"), ONBOARDING)
        s.ok("memory.write", _write("no_marketing_emails", "constraint", "explicit_user"), OWNER)
        s.ok("memory.write", _write("reply_format", "rule", "proposed", value_ref="plain:short"), OWNER)
        sealed = {"visibility": "sealed", "sharing": "never_share", "retention": "bounded"}
        s.ok("memory.write", _write("no_penicillin", "constraint", "explicit_user", governance=sealed), OWNER)
        s.ok(
            "memory.write",
            _write("tone_style", "style", "governance", value_ref="plain:formal", notes="governance_trace"),
            GOVERNANCE,
        )
        expires = (T0 + timedelta(days=1)).isoformat().replace("+00:00", "Z")
        s.ok(
            "memory.write",
            _write("session_topic", "context", "explicit_user", notes="ttl_default", expires_at=expires),
            OWNER,
        )
        # the rules refuse
        s.refused(
            "memory.write",
            _write("tone_style", "style", "governance", value_ref="plain:casual"),
            GOVERNANCE,
            "memory_conflict",
        )
        replaced = s.ok(
            "memory.write",
            _write("tone_style", "style", "explicit_user", value_ref="plain:casual", replace=True),
            OWNER,
        )
        _check(replaced["superseded"] is not None, "replace supersedes")
        s.refused("memory.write", _write("mood", "context", "inferred"), ASSISTANT, "memory_policy_denied")
        s.refused("memory.write", _write("mood", "context", "governance"), GOVERNANCE, "memory_policy_denied")
        s.refused("memory.write", _write("mood", "context", "inferred"), GOVERNANCE, "memory_policy_denied")
        s.refused("memory.write", _write("", "rule", "explicit_user"), OWNER, "memory_invalid_key")
        s.refused("memory.write", _write(" padded", "rule", "explicit_user"), OWNER, "memory_invalid_key")
        far = (T0 + timedelta(days=60)).isoformat()
        s.refused(
            "memory.write",
            _write("trip", "context", "explicit_user", expires_at=far),
            OWNER,
            "memory_policy_denied",
        )
        s.refused(
            "memory.write",
            _write("x", "rule", "explicit_user", notes="free text"),
            OWNER,
            "memory_policy_denied",
        )
        # the kernel refuses before any state
        s.refused("memory.write", _write("x", "mood", "explicit_user"), OWNER, "invalid_args")
        s.refused("memory.write", {**_write("x", "rule", "explicit_user"), "extra": 1}, OWNER, "invalid_args")
        s.refused(
            "memory.write",
            _write("x", "rule", "explicit_user", expires_at="2026-01-02T00:00:00"),
            OWNER,
            "invalid_args",
        )
        s.refused("memory.list", {"user_id": 7}, ASSISTANT, "invalid_args")
        s.refused("memory.list", {"user_id": USER, "include_inactive": 1}, ASSISTANT, "invalid_args")
        s.refused("memory.list", ["not", "an", "object"], ASSISTANT, "invalid_args")
        s.refused("kernel.record", {"kind": "big", "payload": "x" * 70_000}, ADMIN, "invalid_args")
        s.refused("memory.forget", {"user_id": USER}, ASSISTANT, "unknown_syscall")
        s.refused("memory.list", {"user_id": USER}, "", "invalid_principal")
        s.refused("memory.list", {"user_id": USER}, "agent:\x07bell", "invalid_principal")

        # revokes and reads
        s.ok("memory.revoke", {"user_id": USER, "key": "timezone"}, OWNER)
        s.refused("memory.revoke", {"user_id": USER, "key": "timezone"}, OWNER, "memory_entry_revoked")
        s.refused("memory.revoke", {"user_id": USER, "key": "hobby"}, OWNER, "memory_entry_not_found")
        s.refused("memory.revoke", {"user_id": USER, "key": "language"}, ASSISTANT, "memory_policy_denied")
        s.refused("memory.get", {"user_id": USER, "key": "timezone"}, ASSISTANT, "memory_entry_revoked")
        s.refused("memory.get", {"user_id": USER, "key": "hobby"}, ASSISTANT, "memory_entry_not_found")
        s.refused("memory.get", {"user_id": USER, "key": "bad\nkey"}, ASSISTANT, "memory_invalid_key")
        s.ok("memory.get", {"user_id": USER, "key": "language"}, ASSISTANT)
        s.ok("memory.get", {"user_id": USER, "key": "tone_style"}, "agent:auditor")
        s.ok("memory.list", {"user_id": USER}, ASSISTANT)
        listed = s.ok("memory.list", {"user_id": USER, "include_inactive": True}, ASSISTANT)
        _check(listed["count"] == 8, f"eight versions, got {listed['count']}")
        s.ok("memory.list", {"user_id": "bob"}, ADMIN)
        s.ok("memory.snapshot", {"user_id": USER}, ASSISTANT)
        s.refused("memory.snapshot", {"user_id": USER}, "agent:stranger", "memory_policy_denied")
        # a day and more later the session topic has expired; a new write supersedes it without replace
        clock.advance(timedelta(days=2))
        s.refused("memory.get", {"user_id": USER, "key": "session_topic"}, ASSISTANT, "memory_entry_expired")
        s.ok("memory.snapshot", {"user_id": USER}, OWNER)
        rewritten = s.ok("memory.write", _write("session_topic", "context", "explicit_user"), OWNER)
        _check(rewritten["superseded"] is not None, "an expired entry is superseded")
        s.ok("memory.write", _write("timezone", "context", "onboarding", value_ref="vault:tz2"), ONBOARDING)

        # a pipeline run through the runner: begin, tagged snapshot, the stages' calls, end
        with k.pipeline(user_id=USER, run_id="run-1", principal=ASSISTANT) as run:
            _check(run.ir.memory_has_constraints, "the run sees the constraints")
            s.ok("memory.get", {"user_id": USER, "key": "language"}, ASSISTANT)
            s.refused(
                "memory.write",
                _write("no_shellfish", "constraint", "explicit_user"),
                OWNER,
                "memory_policy_denied",
            )
            s.refused("memory.revoke", {"user_id": USER, "key": "language"}, ADMIN, "memory_policy_denied")
            s.ok(
                "kernel.record",
                {"kind": "pipeline.stage", "payload": {"stage": "plan"}, "run_id": "run-1"},
                ASSISTANT,
            )
        s.log.append("     (pipeline run-1: begin, snapshot and end through kernel.pipeline)")
        s.refused("pipeline.begin", {"user_id": USER, "run_id": "run-1"}, ASSISTANT, "pipeline_run_exists")
        s.refused("pipeline.end", {"run_id": "run-1"}, ASSISTANT, "pipeline_run_not_found")
        s.refused("pipeline.end", {"run_id": "run-9"}, ASSISTANT, "pipeline_run_not_found")
        s.refused(
            "memory.snapshot", {"user_id": USER, "run_id": "run-1"}, ASSISTANT, "pipeline_run_not_found"
        )
        s.refused(
            "pipeline.begin", {"user_id": USER, "run_id": "run-x"}, "agent:stranger", "memory_policy_denied"
        )
        # a run begun by hand, which another principal may not end but an administrator may
        s.ok("pipeline.begin", {"user_id": USER, "run_id": "run-2"}, ASSISTANT)
        s.ok("memory.snapshot", {"user_id": USER, "run_id": "run-2"}, ASSISTANT)
        s.refused("pipeline.end", {"run_id": "run-2"}, "agent:auditor", "memory_policy_denied")
        s.ok("pipeline.end", {"run_id": "run-2"}, ADMIN)
        s.ok("memory.write", _write("no_shellfish", "constraint", "explicit_user"), OWNER)

        # a batch: one transaction, one entry per call, the refusal leaves only its entry
        batch = k.call_many(
            [
                ("memory.write", _write("working_mode", "preference", "explicit_user"), OWNER),
                ("memory.write", _write("working_mode", "preference", "explicit_user"), OWNER),
                ("memory.get", {"user_id": USER, "key": "working_mode"}, ASSISTANT),
            ]
        )
        _check(
            [r.ok for r in batch] == [True, False, True] and all(r.seq is not None for r in batch),
            f"batch: {[r.to_dict() for r in batch]}",
        )
        s.log.append(f"{batch[0].seq!s:>4}..{batch[-1].seq} call_many: write, memory_conflict, get")

        # withdrawing a grant
        removed = s.ok("access.revoke", {"principal": ASSISTANT, "capability": "read", "scope": USER}, ADMIN)
        _check(removed["removed"] is True, "revoked")
        again = s.ok("access.revoke", {"principal": ASSISTANT, "capability": "read", "scope": USER}, ADMIN)
        _check(again["removed"] is False, "nothing left to revoke")
        s.refused("memory.get", {"user_id": USER, "key": "language"}, ASSISTANT, "memory_policy_denied")
        s.ok("memory.snapshot", {"user_id": USER}, ADMIN)
    return s.log


# --------------------------------------------------------------------------------------------------
# r1-working-memory.db: every memory.awmu.* syscall and its refusals

DM = "agent:dm"
OPERATOR = "operator:alice"
CURATOR = "agent:curator"
TAVERN = "tavern"
VAULT = "vault"
TINY = "tiny"

VAULT_CONFIG: dict[str, Any] = {
    "budget": 4,
    "trust_profile": "SECURE",
    "half_life_turns": 6.0,
    "archive_floor": 200,
    "chars_per_token": 3,
    "source_authorities": {"captain": 0.95, "rumour": 0.1},
    "default_source_authority": 0.4,
    "reliable_revisable": True,
    "canonizers": ["operator:*", "agent:curator"],
    "invariants": [
        {"id": "gate-stays", "type": "archive-prohibition", "unit_text_pattern": "gate"},
        {"id": "one-reliable-vault", "type": "min-authority-count", "unit_text_pattern": "vault"},
        {"id": "guard-floor", "type": "authority-floor", "strength": "SHOULD", "unit_text_pattern": "guard"},
        {"id": "guard-stays", "type": "eviction-immunity", "unit_text_pattern": "guard"},
    ],
}


def working_memory(path: Path) -> list[str]:
    clock = ManualClock(T0, step=STEP)
    with _kernel(path, f"golden:{RELEASE}-working-memory", clock) as k:
        s = Session(k)

        def wm(name: str, args: dict[str, Any], principal: str = DM, **expect: Any) -> dict[str, Any]:
            return s.ok(f"memory.awmu.{name}", args, principal, **expect)

        def no(name: str, args: object, code: str, principal: str = DM) -> None:
            s.refused(f"memory.awmu.{name}", args, principal, code)

        def turn(context: str, reinforce: list[str]) -> dict[str, Any]:
            return wm("turn", {"context_id": context, "reinforce": reinforce})

        # --- create: the default configuration, a custom one, and the refusals
        created = wm("create", {"context_id": TAVERN}, OPERATOR)
        _check(created["config"]["budget"] == 20, "default config")
        custom = wm("create", {"context_id": VAULT, "config": VAULT_CONFIG}, OPERATOR)
        _check(custom["config"]["trust_profile"] == "SECURE", "custom config")
        wm("create", {"context_id": TINY, "config": {"budget": 1}}, OPERATOR)
        no("create", {"context_id": TAVERN}, "awmu_context_exists", OPERATOR)
        no(
            "create",
            {"context_id": "bad", "config": {"min_rank": 500, "initial_rank": 400}},
            "awmu_invalid_config",
        )
        no("create", {"context_id": "bad", "config": {"budget": 0}}, "invalid_args")
        no("create", {"context_id": "bad", "config": {"colour": "blue"}}, "invalid_args")
        no("create", {"context_id": "bad\x01"}, "invalid_args")

        # --- propose on an empty context: nothing contradicts, the trust gate promotes
        storm = wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "A storm gathers over the sea.",
                "source": "system",
                "confidence": 1.0,
            },
            outcome="promoted",
        )["unit_id"]

        # --- seed
        king = wm(
            "seed",
            {"context_id": TAVERN, "text": "The old king is dead.", "rank": 700},
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        elara = wm(
            "seed",
            {"context_id": TAVERN, "text": "Elara keeps the Silver Stag tavern.", "pinned": True},
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        ferry = wm(
            "seed",
            {
                "context_id": TAVERN,
                "text": "The ferry crosses the river at dawn.",
                "authority": "UNRELIABLE",
                "rank": 300,
            },
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        well = wm(
            "seed",
            {
                "context_id": TAVERN,
                "text": "The village well is poisoned.",
                "authority": "UNRELIABLE",
                "rank": 450,
            },
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        mill = wm(
            "seed",
            {
                "context_id": TAVERN,
                "text": "The mill wheel turns again.",
                "authority": "RELIABLE",
                "source": "ledger",
            },
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        wm("seed", {"context_id": TAVERN, "text": "the OLD king is dead!"}, OPERATOR, outcome="duplicate")
        no("seed", {"context_id": TAVERN, "text": "A dragon is near."}, "memory_policy_denied", DM)
        no(
            "seed",
            {"context_id": TAVERN, "text": "A god walks.", "authority": "CANON"},
            "memory_policy_denied",
            OPERATOR,
        )
        no("seed", {"context_id": TAVERN, "text": "?!..."}, "awmu_invalid_text", OPERATOR)
        no("seed", {"context_id": TAVERN, "text": "A rank too high.", "rank": 901}, "invalid_args", OPERATOR)
        no("seed", {"context_id": "nowhere", "text": "No context."}, "awmu_context_not_found", OPERATOR)

        # --- propose: every outcome
        wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The blacksmith owes money.",
                "source": "player",
                "confidence": 0.4,
            },
            outcome="rejected_low_confidence",
        )
        wm(
            "propose",
            {"context_id": TAVERN, "text": "A STORM gathers over the sea", "source": "dm", "confidence": 0.9},
            outcome="duplicate",
        )
        wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The old king is not dead.",
                "source": "player",
                "confidence": 0.9,
            },
            outcome="rejected_conflict",
        )
        dragon = wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "A dragon sleeps beneath the mountain.",
                "source": "dm",
                "confidence": 0.9,
            },
            outcome="queued_for_review",
        )["review_id"]
        rumour = wm(
            "propose",
            {"context_id": TAVERN, "text": "The priest hides a key.", "source": "dm", "confidence": 0.9},
            outcome="queued_for_review",
        )["review_id"]
        wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The moon is made of cheese.",
                "source": "player",
                "confidence": 0.66,
            },
            outcome="archived",
        )
        # a caller verdict CONTRADICTION replaces the PROVISIONAL storm unit
        calm = wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The storm over the sea has calmed.",
                "source": "system",
                "confidence": 1.0,
                "verdicts": [
                    {"unit_id": storm, "type": "CONTRADICTION", "confidence": 0.9, "detector": "judge"}
                ],
            },
            outcome="promoted",
        )
        _check(calm["superseded"] == [storm], f"storm superseded: {calm}")
        # a caller verdict REVISION replaces the UNRELIABLE well unit
        revised = wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The village well is cleansed.",
                "source": "system",
                "confidence": 1.0,
                "verdicts": [{"unit_id": well, "type": "REVISION", "confidence": 0.8}],
            },
            outcome="promoted",
        )
        _check(revised["superseded"] == [well], f"well revised: {revised}")
        cleansed = revised["unit_id"]
        # a caller verdict WORLD_PROGRESSION coexists
        wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The mill wheel turns slower in winter.",
                "source": "system",
                "confidence": 1.0,
                "verdicts": [{"unit_id": mill, "type": "WORLD_PROGRESSION", "confidence": 0.9}],
            },
            outcome="promoted",
        )
        no(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The storm has passed.",
                "source": "system",
                "confidence": 1.0,
                "verdicts": [{"unit_id": storm, "type": "CONTRADICTION", "confidence": 0.9}],
            },
            "awmu_invalid_verdict",
        )
        no(
            "propose",
            {"context_id": TAVERN, "text": "...", "source": "dm", "confidence": 0.9},
            "awmu_invalid_text",
        )
        no(
            "propose",
            {"context_id": TAVERN, "text": "Too sure.", "source": "dm", "confidence": 1.5},
            "invalid_args",
        )
        no("propose", {"context_id": TAVERN, "text": "No source.", "confidence": 0.9}, "invalid_args")

        # --- review of queued proposals: approve one, reject one; the refusals
        approved = wm(
            "review", {"request_id": dragon, "decision": "approve", "note": "fits the module"}, OPERATOR
        )
        _check(approved["outcome"] == "promoted", f"approved proposal promoted: {approved}")
        dragon_unit = approved["unit_id"]
        wm(
            "review",
            {"request_id": rumour, "decision": "reject", "note": "no evidence"},
            OPERATOR,
            outcome="rejected",
        )
        no("review", {"request_id": rumour, "decision": "approve"}, "awmu_request_decided", OPERATOR)
        no("review", {"request_id": "r99999", "decision": "approve"}, "awmu_request_not_found", OPERATOR)
        no("review", {"request_id": "c99999", "decision": "approve"}, "awmu_request_not_found", OPERATOR)
        no("review", {"request_id": rumour, "decision": "maybe"}, "invalid_args", OPERATOR)

        # --- canonize and review: approved by an operator, rejected, by a canonize grant, the refusals
        request = wm("canonize", {"context_id": TAVERN, "unit_id": king, "reason": "central to the plot"})
        king_request = request["request"]["request_id"]
        no("canonize", {"context_id": TAVERN, "unit_id": king}, "awmu_request_pending")
        no("review", {"request_id": king_request, "decision": "approve"}, "memory_policy_denied", DM)
        decided = wm("review", {"request_id": king_request, "decision": "approve"}, OPERATOR)
        _check(
            decided["request"]["status"] == "APPROVED" and decided["unit"]["authority"] == "CANON",
            f"{decided}",
        )
        no("canonize", {"context_id": TAVERN, "unit_id": king}, "awmu_already_canon")
        no("review", {"request_id": king_request, "decision": "reject"}, "awmu_request_decided", OPERATOR)
        mill_request = wm("canonize", {"context_id": TAVERN, "unit_id": mill})["request"]["request_id"]
        rejected = wm(
            "review", {"request_id": mill_request, "decision": "reject", "note": "not yet"}, OPERATOR
        )
        _check(rejected["request"]["status"] == "REJECTED", f"{rejected}")
        s.ok("access.grant", {"principal": CURATOR, "capability": "canonize", "scope": TAVERN}, OPERATOR)
        elara_request = wm("canonize", {"context_id": TAVERN, "unit_id": elara, "reason": "the keeper"})
        by_grant = wm(
            "review", {"request_id": elara_request["request"]["request_id"], "decision": "approve"}, CURATOR
        )
        _check(by_grant["request"]["status"] == "APPROVED", f"{by_grant}")
        no("canonize", {"context_id": TAVERN, "unit_id": storm}, "awmu_unit_not_active")
        no("canonize", {"context_id": TAVERN, "unit_id": "u99999-0"}, "awmu_unit_not_found")

        # --- pin, unpin, archive
        no("pin", {"context_id": TAVERN, "unit_id": ferry}, "memory_policy_denied", DM)
        wm("pin", {"context_id": TAVERN, "unit_id": cleansed}, OPERATOR)
        wm("pin", {"context_id": TAVERN, "unit_id": cleansed}, OPERATOR)  # already pinned: the context only
        wm("unpin", {"context_id": TAVERN, "unit_id": cleansed}, OPERATOR)
        no("unpin", {"context_id": TAVERN, "unit_id": storm}, "awmu_unit_not_active", OPERATOR)
        no("pin", {"context_id": TAVERN, "unit_id": "u1-0"}, "awmu_unit_not_found", OPERATOR)
        winter = wm(
            "propose",
            {
                "context_id": TAVERN,
                "text": "The wolf pack crosses the river at dawn.",
                "source": "system",
                "confidence": 1.0,
            },
            outcome="promoted",
        )["unit_id"]
        wm("archive", {"context_id": TAVERN, "unit_id": winter, "reason": "the wolves left"}, OPERATOR)
        no("archive", {"context_id": TAVERN, "unit_id": winter}, "awmu_unit_not_active", OPERATOR)
        no("archive", {"context_id": TAVERN, "unit_id": mill}, "memory_policy_denied", DM)

        # --- turns: reinforcement and upgrades, decay, rank demotion, archive by decay
        no("turn", {"context_id": TAVERN, "reinforce": [storm]}, "awmu_unit_not_active")
        no("turn", {"context_id": TAVERN, "reinforce": ["u42-9"]}, "awmu_unit_not_found")
        no("turn", {"context_id": "nowhere"}, "awmu_context_not_found")
        for number in range(1, 41):
            reinforce = [dragon_unit]  # reinforced every turn: upgraded, held at the top
            if number % 5 == 0 and number <= 20:
                reinforce.append(cleansed)
            turn(TAVERN, reinforce)
            if number == 20:
                wm("pressure", {"context_id": TAVERN})
                wm("assemble", {"context_id": TAVERN})
        units = wm("list", {"context_id": TAVERN, "status": "all"})["units"]
        statuses = {u["unit_id"]: (u["status"], u["authority"]) for u in units}
        _check(statuses[ferry][0] == "ARCHIVED", f"ferry archived by decay: {statuses}")
        _check(statuses[mill][0] == "ARCHIVED", f"mill archived by decay: {statuses}")
        _check(statuses[king] == ("ACTIVE", "CANON"), f"the CANON king stays: {statuses}")
        _check(statuses[dragon_unit] == ("ACTIVE", "UNRELIABLE"), f"the dragon was upgraded: {statuses}")
        archived = wm("events", {"context_id": TAVERN, "kinds": ["archived"]})["events"]
        _check(
            {e["unit_id"] for e in archived if e["detail"]["reason"] == "decay"} >= {ferry, mill},
            f"archived by decay: {archived}",
        )
        changed = wm("events", {"context_id": TAVERN, "kinds": ["authority_changed"]})["events"]
        reasons = {(e["detail"]["direction"], e["detail"]["reason"]) for e in changed}
        _check({("up", "reinforcement"), ("down", "rank"), ("up", "canonization")} <= reasons, f"{reasons}")

        # --- the custom context: SECURE trust, budget 4, eviction, invariants
        gate = wm(
            "seed",
            {"context_id": VAULT, "text": "The north gate is sealed.", "rank": 800},
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        vault_unit = wm(
            "seed",
            {"context_id": VAULT, "text": "The vault holds the crown.", "rank": 600},
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        guard = wm(
            "seed",
            {
                "context_id": VAULT,
                "text": "A guard watches the stairs.",
                "authority": "UNRELIABLE",
                "rank": 150,
            },
            OPERATOR,
            outcome="seeded",
        )["unit_id"]
        wm(
            "seed",
            {"context_id": VAULT, "text": "The lamp is lit.", "authority": "PROVISIONAL", "rank": 300},
            OPERATOR,
            outcome="seeded",
        )
        evicting = wm(
            "seed",
            {"context_id": VAULT, "text": "The courtyard is empty.", "authority": "UNRELIABLE", "rank": 400},
            OPERATOR,
            outcome="seeded",
        )
        _check(
            len(evicting["evicted"]) == 1 and guard not in evicting["evicted"], f"budget eviction: {evicting}"
        )
        wm(  # SECURE: a trusted source alone does not reach auto-promotion (0.85)
            "propose",
            {
                "context_id": VAULT,
                "text": "The captain counts the coins.",
                "source": "captain",
                "confidence": 0.95,
            },
            outcome="queued_for_review",
        )
        wm(
            "propose",
            {"context_id": VAULT, "text": "The crown was stolen.", "source": "rumour", "confidence": 0.9},
            outcome="archived",
        )
        no("archive", {"context_id": VAULT, "unit_id": gate}, "awmu_invariant_violation", OPERATOR)
        no("archive", {"context_id": VAULT, "unit_id": vault_unit}, "awmu_invariant_violation", OPERATOR)
        for _ in range(8):
            turn(VAULT, [])
        wm("list", {"context_id": VAULT, "status": "all"})
        wm("events", {"context_id": VAULT, "kinds": ["invariant_blocked", "invariant_warning"], "limit": 100})

        # --- a budget of one, full of a pinned unit: nothing may be evicted
        wm(
            "seed",
            {"context_id": TINY, "text": "Only this fact fits.", "pinned": True},
            OPERATOR,
            outcome="seeded",
        )
        no("seed", {"context_id": TINY, "text": "One fact too many."}, "awmu_budget_exhausted", OPERATOR)
        no(
            "propose",
            {
                "context_id": TINY,
                "text": "Only this fact fits, again.",
                "source": "system",
                "confidence": 1.0,
            },
            "awmu_budget_exhausted",
        )

        # --- the reads: list, get, assemble, events, validate_summary, pressure
        wm("list", {"context_id": TAVERN})
        wm("list", {"context_id": TAVERN, "status": "archived"})
        wm("list", {"context_id": TAVERN, "status": "superseded", "authority": "UNRELIABLE"})
        wm("list", {"context_id": TAVERN, "tier": "COLD", "pinned": False})
        wm("list", {"context_id": VAULT, "status": "evicted"})
        no("list", {"context_id": TAVERN, "status": "gone"}, "invalid_args")
        wm("get", {"context_id": TAVERN, "unit_id": storm})
        no("get", {"context_id": TAVERN, "unit_id": "u77-0"}, "awmu_unit_not_found")
        no("get", {"context_id": VAULT, "unit_id": king}, "awmu_unit_not_found")
        block = wm("assemble", {"context_id": TAVERN})
        _check("CANON facts" in block["text"], f"{block}")
        tight = wm("assemble", {"context_id": TAVERN, "token_budget": 20})
        _check(tight["dropped"] != [], f"a tight budget drops units: {tight}")
        wm("assemble", {"context_id": VAULT, "token_budget": 5})
        page = wm("events", {"context_id": TAVERN, "limit": 5})["events"]
        last = page[-1]
        wm(
            "events",
            {"context_id": TAVERN, "after_seq": last["seq"], "after_index": last["index"], "limit": 5},
        )
        wm("events", {"context_id": TAVERN, "unit_id": king})
        wm("events", {"context_id": TAVERN, "kinds": ["no_such_kind"]})
        no("events", {"context_id": TAVERN, "limit": 0}, "invalid_args")
        loses = wm(
            "validate_summary", {"context_id": TAVERN, "summary": "A dragon sleeps beneath the mountain."}
        )
        _check(loses["ok"] is False, f"the summary loses units: {loses}")
        keeps = wm(
            "validate_summary",
            {
                "context_id": TAVERN,
                "summary": "The old king is dead; Elara keeps the Silver Stag tavern; the village well is "
                "cleansed; a dragon sleeps beneath the mountain.",
                "strict": True,
            },
        )
        s.log.append(f"     strict summary ok={keeps['ok']}")
        pressure = wm("pressure", {"context_id": TAVERN})
        _check(pressure["turn"] == 40, f"{pressure}")
        wm("pressure", {"context_id": VAULT})
        no("pressure", {"context_id": "nowhere"}, "awmu_context_not_found")
        s.refused("memory.awmu.forget", {"context_id": TAVERN}, DM, "unknown_syscall")
    return s.log


# --------------------------------------------------------------------------------------------------
# files


def _finish(path: Path) -> None:
    """Compact the file and fold its WAL back in; no -wal or -shm may remain. The file stays in WAL
    mode, as the release leaves its journals."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("VACUUM")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        _check(not side.exists(), f"{side} left behind")


def _verify(path: Path) -> tuple[int, int, str]:
    reader = JournalReader.open(str(path))
    try:
        report = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    _check(report.verified, f"{path.name} does not verify: {report.to_json()}")
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        side.unlink(missing_ok=True)  # left by the read-only open of a WAL-mode file; holds nothing
    return report.entries, report.head.seq, report.head.entry_hash


def _source_root() -> Path:
    """The checkout the packages were imported from, which must be release r1's, unmodified."""
    roots = {
        Path(module.__file__ or "").resolve().parents[1]
        for module in (arvis, kernel, syscalls, journal, tools)
    }
    _check(len(roots) == 1, f"the packages come from several places: {sorted(map(str, roots))}")
    root = roots.pop()
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    _check(head == RELEASE_COMMIT, f"{root} is at {head or 'no git commit'}, not {RELEASE_COMMIT}")
    changed = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    _check(not changed, f"{root} has local changes:\n{changed}")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True, help="an empty or new directory")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every call and its outcome")
    options = parser.parse_args(argv)
    try:
        root = _source_root()
        out: Path = options.out
        out.mkdir(parents=True, exist_ok=True)
        for name in (LONG_TERM, WORKING_MEMORY, SCENARIO_JOURNAL):
            _check(not (out / name).exists(), f"{out / name} exists: golden files are never rewritten")
        logs = {LONG_TERM: list(long_term(out / LONG_TERM))}
        logs[WORKING_MEMORY] = list(working_memory(out / WORKING_MEMORY))
        result = run_scenario(load_scenario(root / SCENARIO), Condition.FULL_AWMU, out / SCENARIO_JOURNAL)
        _check(result.replay_verified, "the scenario journal did not verify")
        logs[SCENARIO_JOURNAL] = [f"{SCENARIO} under FULL_AWMU: {result.entries} entries"]
        for name, log in logs.items():
            _finish(out / name)
            entries, head_seq, head_hash = _verify(out / name)
            if options.verbose:
                print("\n".join(log))
            print(
                f"{name}: {entries} entries, head {head_seq}:{head_hash}, {(out / name).stat().st_size} bytes"
            )
    except GenerationError as exc:
        if options.verbose:
            print("\n".join(TRACE))
        print(f"generate_r1: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
