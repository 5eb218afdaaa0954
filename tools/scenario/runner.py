"""Runs a scenario through the kernel in offline, deterministic mode, one journal per condition.

The blind protocol (specs/scenarios.md §3): the kernel gets what a deployed agent would get, and nothing
else. The runner plays a :class:`~arvis.scenario.script.Script` (seeds, configuration, then each turn's
text on its channel), never the scenario itself, so no label can steer a syscall:
- each input's declarative sentences (``arvis.awmu.utterance.statements``: questions and requests assert
  nothing) are proposed one by one, with the channel's source and one fixed extraction confidence;
- every admission, conflict and resolution is the working memory's own; nothing is reviewed;
- each turn's text is given to ``memory.awmu.turn``: the working memory itself reinforces the units it
  talks about (by key terms or by meaning) and does not contradict.
What it observed goes into a label-free :class:`~arvis.scenario.transcript.Transcript`, which the scorer
(``arvis.scenario.outcome``) alone joins with the answer key.

SCRIPTED_ORACLE, and only it, adds a declared stand-in for a model that reads the answer key: it narrates
ground truth when the script establishes it, approves that narration, and flags each attack on its target.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arvis.awmu.utterance import statements
from arvis.scenario.conditions import CONDITIONS, Condition, ConditionPlan
from arvis.scenario.judge import states
from arvis.scenario.outcome import score
from arvis.scenario.schema import DEFAULT_PLAYER_CONFIDENCE, Scenario
from arvis.scenario.script import CHANNEL_SOURCES, Oracle, Script, ScriptTurn, blind_script, oracle_of
from arvis.scenario.transcript import InputRecord, Observation, ShownUnit, StatementRecord, Transcript
from journal.reader import JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from kernel.identity import VouchedPrincipals
from kernel.protocols import StorageError
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal
from tools.common import CommandError

START = datetime(2026, 1, 1, tzinfo=UTC)
AGENT = "agent:scenario"
OPERATOR = "operator:scenario"
REVIEWER = "admin:scenario-review"  # canonizes by the default ``canonizers`` pattern "admin:*"
AGENT_CAPABILITIES = ("read", "write")  # what an agent is granted on the context, and no more
SPEAKER_OF = {channel: f"{AGENT}-{channel}" for channel in CHANNEL_SOURCES}
"""Each input channel of a script is played by a principal of its own, which the context's ``channels``
bind to the channel's source (``arvis.awmu.origin``): the kernel, not the runner's word, says where a
statement comes from."""
SPEAKERS = {SPEAKER_OF[channel]: source for channel, source in CHANNEL_SOURCES.items()}
STATEMENT_CONFIDENCE = DEFAULT_PLAYER_CONFIDENCE
ORACLE_CONFIDENCE = 0.9
ORACLE_DETECTOR = "scripted-oracle"


class ScenarioError(Exception):
    """A syscall the runner depends on failed: the run cannot go on."""


@dataclass(frozen=True)
class RunResult:
    condition: str
    metrics: dict[str, Any]
    assertions: list[dict[str, Any]]
    journal: str
    replay_verified: bool
    entries: int
    turns: list[dict[str, Any]]
    attacks: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The fields by name, in their declared order."""
        return asdict(self)


class _Run:
    def __init__(self, kernel: Kernel, script: Script, plan: ConditionPlan, oracle: Oracle | None) -> None:
        self.kernel = kernel
        self.script = script
        self.plan = plan
        self.oracle = oracle
        self.context = script.id[:128] or "scenario"
        self.transcript = Transcript()
        self.oracle_narrated: set[str] = set()  # fact ids the oracle has narrated
        self.oracle_attacks: dict[str, str] = {}  # unit id -> fact id, units the oracle saw an attack create
        self.oracle_queued: list[str] = []  # review ids of the oracle's own narration waiting for approval

    def call(self, syscall: str, args: dict[str, Any], principal: str = AGENT) -> dict[str, Any]:
        return self.checked(syscall, {"context_id": self.context, **args}, principal)

    def checked(self, syscall: str, args: dict[str, Any], principal: str) -> dict[str, Any]:
        result = self.kernel.call(syscall, args, principal=principal)
        if not result.ok:
            assert result.error is not None
            raise ScenarioError(f"{syscall} failed: {result.error.code}: {result.error.detail}")
        value: dict[str, Any] = result.value
        return value

    def active(self) -> list[dict[str, Any]]:
        units: list[dict[str, Any]] = self.call("memory.awmu.list", {})["units"]
        return units

    def propose(self, args: dict[str, Any], speaker: str) -> dict[str, Any]:
        """A proposal, its trust zone counted in the transcript."""
        outcome = self.call("memory.awmu.propose", args, speaker)
        if "trust" in outcome:
            self.transcript.zones[outcome["trust"]["zone"]] += 1
        return outcome

    def setup(self) -> None:
        set_up_context(
            self.script, self.plan, self.call, self.review_seed, self.grant, AGENT, SPEAKERS, QUEUE_EXPIRY
        )
        if self.oracle is not None:  # facts a seed already states need no narration
            units = self.active()
            self.oracle_narrated = {
                fact.id for fact in self.oracle.facts if any(states(fact.text, u["text"]) for u in units)
            }

    def grant(self, principal: str, capability: str) -> None:
        args = {"principal": principal, "capability": capability, "scope": f"context:{self.context}"}
        self.checked("access.grant", args, OPERATOR)

    def review_seed(self, request_id: str, note: str) -> None:
        args = {"request_id": request_id, "decision": "approve", "note": note}
        self.checked("memory.awmu.review", args, REVIEWER)

    def play(self) -> None:
        by_number: dict[int, list[ScriptTurn]] = {}
        for turn in self.script.turns:
            by_number.setdefault(turn.turn, []).append(turn)
        recent: list[str] = []
        for number in range(1, self.script.last_turn + 1):
            if self.oracle is not None:
                self.oracle_narrate(lambda fact: fact.established_at == number)  # noqa: B023 (called at once)
            said: list[str] = []
            for turn in by_number.get(number, []):
                recent.append(turn.text)
                said.append(turn.text)
                self.take(turn)
            if self.oracle is not None:
                self.oracle_approve_narration()
            self.call("memory.awmu.turn", {"text": "\n".join(said)})
            if number in self.script.compaction_turns:
                self.transcript.compaction_turns.append(number)
                self.call("memory.awmu.validate_summary", {"summary": " ".join(recent)})
                recent = []
            self.observe(number)

    def take(self, turn: ScriptTurn) -> None:
        """Propose an input's statements, one by one, on the input's channel."""
        if self.oracle is not None and turn.index not in self.oracle.targets:
            self.oracle_narrate(lambda fact: fact.established_at is None and states(fact.text, turn.text))
        units = self.active() if self.oracle is not None else []
        record = InputRecord(turn.index, turn.turn, turn.channel)
        for statement in statements(turn.text):
            outcome = self.propose(
                {
                    "text": statement,
                    "confidence": STATEMENT_CONFIDENCE,
                    "verdicts": self.oracle_verdicts(turn, units),
                    "utterance": turn.text,
                },
                SPEAKER_OF[turn.channel],
            )
            unit_id = outcome.get("unit_id", outcome.get("duplicate_of"))
            record.statements.append(StatementRecord(statement, outcome["outcome"], unit_id))
            if self.oracle is not None and turn.index in self.oracle.targets and "unit_id" in outcome:
                self.oracle_attacks[outcome["unit_id"]] = self.oracle.targets[turn.index]
        self.transcript.inputs.append(record)

    def observe(self, number: int) -> None:
        block = self.call("memory.awmu.assemble", {})
        active = tuple(ShownUnit(u["unit_id"], u["text"], u["authority"], u["rank"]) for u in self.active())
        included = tuple(block["included"]) if self.plan.inject else ()
        self.transcript.observations.append(Observation(number, included, active))

    # the scripted oracle: reads the answer key, so only SCRIPTED_ORACLE has one

    def oracle_narrate(self, due: Callable[[Any], bool]) -> None:
        """Narrate each fact not narrated yet that is ``due``: established at this turn, or stated by a
        briefing input."""
        assert self.oracle is not None
        for fact in self.oracle.facts:
            if fact.id not in self.oracle_narrated and due(fact):
                self.oracle_narrated.add(fact.id)
                outcome = self.propose(
                    {"text": fact.text, "confidence": ORACLE_CONFIDENCE}, SPEAKER_OF["narration"]
                )
                if outcome["outcome"] == "queued_for_review":
                    self.oracle_queued.append(outcome["review_id"])

    def oracle_verdicts(self, turn: ScriptTurn, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.oracle is None or turn.index not in self.oracle.targets:
            return []
        target = self.oracle.targets[turn.index]
        fact = next(fact for fact in self.oracle.facts if fact.id == target)
        alive = {u["unit_id"] for u in self.active()}
        stating = sorted(
            u["unit_id"]
            for u in units
            if u["unit_id"] in alive
            and self.oracle_attacks.get(u["unit_id"]) != target
            and states(fact.text, u["text"])
        )
        return [
            {
                "unit_id": unit_id,
                "type": "CONTRADICTION",
                "confidence": ORACLE_CONFIDENCE,
                "detector": ORACLE_DETECTOR,
            }
            for unit_id in stating
        ]

    def oracle_approve_narration(self) -> None:
        """Approve the oracle's own queued narration, never an input that arrived on the narration channel."""
        for review_id in self.oracle_queued:
            self.kernel.call(
                "memory.awmu.review",
                {"request_id": review_id, "decision": "approve", "note": "oracle narration"},
                principal=REVIEWER,
            )
        self.oracle_queued = []

    def finish(self) -> None:
        listing = self.call("memory.awmu.list", {"status": "all"})
        self.transcript.final_units = listing["units"]
        after_seq, after_index = 0, None
        while True:
            page = self.call(
                "memory.awmu.events", {"after_seq": after_seq, "after_index": after_index, "limit": 1000}
            )
            for event in page["events"]:
                self.transcript.events_by_kind[event["kind"]] += 1
                if event["kind"] == "canon_decided" and event["detail"].get("status") == "APPROVED":
                    self.transcript.approved_canon_units.add(event["unit_id"])
            if len(page["events"]) < 1000:
                break
            after_seq, after_index = page["events"][-1]["seq"], page["events"][-1]["index"]


# invariant fields as a scenario file names them and as AwmuConfig does (the schema kept no other field)
INVARIANT_FIELDS = {
    "unitTextPattern": "unit_text_pattern",
    "minimumAuthority": "minimum_authority",
    "minimumCount": "minimum_count",
}
QUEUE_EXPIRY = 10
"""The scenario runner's queue policy (``AwmuConfig.queue``): a statement nobody corroborates, supersedes
or reviews within ten turns is dropped, so the queue is decided in every run, blind runs included. The
model loop declares none: its recorded runs replay the calls they were recorded with."""


def set_up_context(
    scenario: Scenario | Script,
    plan: ConditionPlan,
    call: Callable[[str, dict[str, Any], str], dict[str, Any]],
    review: Callable[[str, str], None],
    grant: Callable[[str, str], None],
    agent: str,
    channels: Mapping[str, str],
    expire_after_turns: int | None = None,
) -> None:
    """Create the scenario's context with the condition's config and ``channels`` (each principal that
    proposes and the channel it speaks on, ``arvis.awmu.origin``), have the operator grant ``agent``
    and each of them read and write on it (``grant(principal, capability)``: a journaled
    ``access.grant`` scoped to the context id), and seed it; CANON seeds become CANON through
    canonize plus ``review`` (an explicit, journaled approval), where the condition allows. A context
    given ``expire_after_turns`` declares the queue policy that drops what waits that many turns.

    In a format-2 journal the operator owns the context it creates, so an agent, which lists, assembles,
    proposes and turns there, needs exactly those two grants. The reviewer needs none: the context's
    default ``canonizers`` patterns name ``admin:*`` and the owner, a built-in administrator, may
    canonize."""
    config: dict[str, Any] = dict(plan.config)
    if scenario.trust_profile:
        config["trust_profile"] = scenario.trust_profile
    if scenario.invariants:
        config["invariants"] = [
            {INVARIANT_FIELDS.get(key, key): value for key, value in item.items()}
            for item in scenario.invariants
        ]
    if channels:
        config["channels"] = dict(channels)
    if expire_after_turns is not None:
        config["queue"] = {"expire_after_turns": expire_after_turns}
    call("memory.awmu.create", {"config": config}, OPERATOR)
    for principal in sorted({agent, *channels}):
        for capability in AGENT_CAPABILITIES:
            grant(principal, capability)
    for seed in scenario.seeds:
        authority = plan.seed_authority or ("RELIABLE" if seed.authority == "CANON" else seed.authority)
        value = call(
            "memory.awmu.seed",
            {"text": seed.text, "authority": authority, "rank": seed.rank, "pinned": seed.pinned},
            OPERATOR,
        )
        if seed.authority == "CANON" and plan.canonize_seeds and value["outcome"] == "seeded":
            request = call(
                "memory.awmu.canonize", {"unit_id": value["unit_id"], "reason": "seeded CANON"}, OPERATOR
            )
            review(request["request"]["request_id"], "scenario seed")


def fresh_kernel(journal: Path, journal_id: str) -> Kernel:
    """A kernel on a fresh journal at ``journal`` (replaced, with its WAL, if it exists and is a run's own:
    ``own_journal``; anything else there is a usage error, left as it is), on a manual clock from ``START``,
    that vouches for the principals a script names."""
    if journal.exists() and not own_journal(journal):
        raise CommandError(
            f"{journal} is not a journal a run wrote (or calls were added to it); it is left as it is",
            hint="choose another --out, or move the file away yourself",
        )
    for leftover in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        leftover.unlink(missing_ok=True)
    journal.parent.mkdir(parents=True, exist_ok=True)
    clock = ManualClock(START, step=timedelta(milliseconds=1))
    return open_kernel(
        str(journal),
        clock=clock,
        journal_id=journal_id,
        identity=VouchedPrincipals(administrators=True),  # the principals it scripts
        create=True,
    )


def own_journal(journal: Path) -> bool:
    """Whether ``journal`` is what a run wrote, nothing added: a run's id (``scenario:…``, ``model:…``), every
    call on a run's clock (from ``START``, a millisecond a call; a call added later gets the wall clock)."""
    try:
        with contextlib.closing(JournalReader.open(str(journal))) as reader:
            header, head = reader.header(), reader.head()
    except StorageError:
        return False
    if header is None or not header.journal_id.startswith(("scenario:", "model:")):
        return False
    return head is None or datetime.fromisoformat(head.recorded_at) < START + timedelta(days=1)


def verified(journal: Path) -> ReplayReport:
    """The journal at ``journal`` verified by replay against the shipped syscall table."""
    with contextlib.closing(JournalReader.open(str(journal))) as reader:
        return verify_journal(reader, table=SYSCALL_TABLE)


def play_script(
    script: Script, condition: Condition, journal: Path, oracle: Oracle | None = None
) -> Transcript:
    """Play ``script`` under ``condition`` on a fresh journal at ``journal`` (replaced if it exists).
    ``oracle`` is refused unless the condition declares one."""
    plan = CONDITIONS[condition]
    if (oracle is not None) != plan.oracle:
        raise ValueError(f"{condition.value} {'needs' if plan.oracle else 'takes no'} scripted oracle")
    kernel = fresh_kernel(journal, f"scenario:{script.id}:{condition.value}")
    run = _Run(kernel, script, plan, oracle)
    try:
        run.setup()
        run.play()
        run.finish()
    finally:
        kernel.close()
    return run.transcript


def run_scenario(scenario: Scenario, condition: Condition, journal: Path) -> RunResult:
    """One run: the blind script played on a fresh journal at ``journal``, verified by replay, then scored
    against the scenario's answer key."""
    plan = CONDITIONS[condition]
    oracle = oracle_of(scenario) if plan.oracle else None
    transcript = play_script(blind_script(scenario), condition, journal, oracle)
    report = verified(journal)
    scored = score(scenario, transcript, oracle=oracle is not None)
    return RunResult(
        condition=condition.value,
        metrics=scored.metrics,
        assertions=scored.assertions,
        journal=str(journal),
        replay_verified=report.verified,
        entries=report.entries,
        turns=scored.turns,
        attacks=scored.attacks,
    )
