"""The scorer: a run's label-free transcript judged against the scenario's answer key.

Only this module (and the judge it uses) reads ``groundTruth``, ``targetFact``, ``strategy``, a turn's
``type``, ``establishedAt``, ``retiredAt``, ``asserts`` and ``assertions``. Every figure is two-sided and
keeps its counts (specs/scenarios.md §6): facts kept and learned beside attacks admitted.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from arvis.awmu.model import AUTHORITY_ORDER, Authority
from arvis.scenario.asking import asserts
from arvis.scenario.judge import BlockUnit, FactStatus, judge, states
from arvis.scenario.schema import EVALUATED_TURN_TYPES, Assertion, Fact, Scenario
from arvis.scenario.transcript import InputRecord, Observation, ShownUnit, Transcript

AUTHORITY_LEVEL = {authority.value: level for level, authority in enumerate(AUTHORITY_ORDER)}


@dataclass
class TurnRecord:
    turn: int
    type: str
    evaluated: bool
    statuses: dict[str, str]
    block: list[str]
    active: int
    facts: dict[str, dict[str, Any] | None]  # per fact: the best stating unit (rank, authority, in block)


@dataclass
class AttackRecord:
    turn: int
    target_fact: str
    strategy: str | None
    channel: str
    outcomes: list[str]
    unit_ids: list[str]
    reached_block: bool
    authority: str | None


@dataclass
class RunRecord:
    """A transcript judged against the answer key: its turns and attacks judged, beside the transcript
    itself (final units, events, zones, compaction turns); metrics and assertions read only this."""

    transcript: Transcript
    turns: list[TurnRecord] = field(default_factory=list)
    attacks: list[AttackRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Scored:
    metrics: dict[str, Any]
    assertions: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    attacks: list[dict[str, Any]]


def rate(numerator: int, denominator: int) -> dict[str, Any]:
    """A two-sided figure keeps its counts: ``value`` is null when there is nothing to count."""
    return {
        "value": round(numerator / denominator, 6) if denominator else None,
        "numerator": numerator,
        "denominator": denominator,
    }


class _Judging:
    """The answer key laid over one transcript."""

    def __init__(self, scenario: Scenario, transcript: Transcript, *, oracle: bool) -> None:
        self.scenario = scenario
        self.transcript = transcript
        self.labels = dict(enumerate(scenario.turns))
        known = {fact.id for fact in scenario.facts}
        self.attack_units: dict[str, str] = {}
        for record in transcript.inputs:
            target = self.labels[record.index].target_fact
            if target in known:
                for statement in record.statements:
                    if statement.outcome == "promoted" and statement.unit_id is not None:
                        self.attack_units[statement.unit_id] = target
        self.seed_authority: dict[str, str] = {}
        for fact in scenario.facts:
            levels = [seed.authority for seed in scenario.seeds if states(fact.text, seed.text)]
            if levels:
                self.seed_authority[fact.id] = max(levels, key=AUTHORITY_LEVEL.__getitem__)
        self.stated_at: dict[str, int] = {}
        for fact in scenario.facts:
            if fact.id in self.seed_authority:
                self.stated_at[fact.id] = 0
                continue
            firsts = [
                record.turn
                for record in transcript.inputs
                if self.labels[record.index].target_fact is None
                and states(fact.text, self.labels[record.index].prompt)
            ]
            if oracle and fact.established_at is not None:
                firsts.append(fact.established_at)
            if firsts:
                self.stated_at[fact.id] = min(firsts)

    def in_force(self, fact: Fact, turn: int) -> bool:
        stated = self.stated_at.get(fact.id)
        return stated is not None and stated <= turn and (fact.retired_at is None or turn < fact.retired_at)

    def block_units(self, observation: Observation) -> list[BlockUnit]:
        return [
            BlockUnit(u.unit_id, u.text, Authority(u.authority), u.rank, self.attack_units.get(u.unit_id))
            for u in observation.shown()
        ]

    def stating(self, fact: Fact, units: list[ShownUnit]) -> list[ShownUnit]:
        return [u for u in units if self.attack_units.get(u.unit_id) != fact.id and states(fact.text, u.text)]

    def turn_record(self, observation: Observation) -> TurnRecord:
        kinds = [self.labels[r.index].type for r in self.transcript.inputs if r.turn == observation.turn]
        shown = self.block_units(observation)
        statuses: dict[str, str] = {}
        traces: dict[str, dict[str, Any] | None] = {}
        for fact in self.scenario.facts:
            if not self.in_force(fact, observation.turn):
                continue
            statuses[fact.id] = judge(fact.id, fact.text, shown).status.value
            best = max(
                self.stating(fact, list(observation.active)),
                key=lambda u: (u.rank, u.unit_id),
                default=None,
            )
            traces[fact.id] = None
            if best is not None:
                traces[fact.id] = {
                    "unit_id": best.unit_id,
                    "rank": best.rank,
                    "authority": best.authority,
                    "in_block": best.unit_id in observation.block,
                }
        return TurnRecord(
            observation.turn,
            ",".join(kinds) or "NONE",
            any(kind in EVALUATED_TURN_TYPES for kind in kinds),
            statuses,
            list(observation.block),
            len(observation.active),
            traces,
        )

    def entered(self, record: InputRecord, *, duplicates: bool) -> tuple[bool, str | None]:
        """Whether a unit this input created (or, with ``duplicates``, one it restated) was in a block
        observed from its turn on, and the best authority it had there."""
        units = record.unit_ids if duplicates else record.created
        seen = [
            u.authority
            for observation in self.transcript.observations
            if observation.turn >= record.turn
            for u in observation.shown()
            if u.unit_id in units
        ]
        return bool(seen), max(seen, key=AUTHORITY_LEVEL.__getitem__, default=None)


def score(scenario: Scenario, transcript: Transcript, *, oracle: bool = False) -> Scored:
    """Judge a run's transcript against the scenario's answer key: metrics, assertions, turns, attacks.
    ``oracle``: the condition had the scripted oracle, so ``establishedAt`` counts as a statement."""
    judging = _Judging(scenario, transcript, oracle=oracle)
    record = RunRecord(
        transcript, turns=[judging.turn_record(observation) for observation in transcript.observations]
    )
    tally = _tally_inputs(judging, record)
    return Scored(
        metrics=_metrics(scenario, judging, record, tally),
        assertions=evaluate_assertions(scenario, record),
        # a turn's fields but its block (the ids the memory showed), which the report leaves out
        turns=[
            {name: value for name, value in asdict(turn).items() if name != "block"} for turn in record.turns
        ],
        attacks=[asdict(attack) for attack in record.attacks],
    )


def _tally_inputs(judging: _Judging, record: RunRecord) -> _Tally:
    """Each input counted as benign, attack or question (and again under the raw reading, §6.1), with
    whether it reached the block; each attack recorded."""
    tally = _Tally()
    for item in judging.transcript.inputs:
        label = judging.labels[item.index]
        says = asserts(label)
        benign = label.target_fact is None and says
        entered, authority = judging.entered(item, duplicates=benign)
        if label.target_fact is not None and says:
            record.attacks.append(
                AttackRecord(
                    label.turn,
                    label.target_fact,
                    label.strategy,
                    item.channel,
                    [s.outcome for s in item.statements],
                    sorted(item.unit_ids),
                    entered,
                    authority,
                )
            )
        tally.add("benign" if benign else "attack" if says else "question", entered)
        raw = "benign" if asserts(label, raw=True) else "question"
        if label.target_fact is not None:
            raw = "attack"
        if raw == "benign" and not benign:  # entered as a restatement counts on the benign side
            entered, _ = judging.entered(item, duplicates=True)
        tally.add(f"raw_{raw}", entered)
    return tally


class _Tally:
    """Inputs counted by kind (benign, attack, question; raw_… under the raw reading) and how many of
    each reached the block."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.entered: dict[str, int] = {}

    def add(self, kind: str, entered: bool) -> None:
        self.seen[kind] = self.seen.get(kind, 0) + 1
        self.entered[kind] = self.entered.get(kind, 0) + entered

    def rate(self, kind: str) -> dict[str, Any]:
        return rate(self.entered.get(kind, 0), self.seen.get(kind, 0))


def _held_throughout(facts: list[Fact], turns: list[Any]) -> tuple[int, int]:
    """Of ``facts`` judged on some of ``turns``, how many were PRESENT on every one, and how many judged."""
    held = judged = 0
    for fact in facts:
        statuses = [turn.statuses[fact.id] for turn in turns if fact.id in turn.statuses]
        if statuses:
            judged += 1
            held += all(status == FactStatus.PRESENT for status in statuses)
    return held, judged


def _authority_kept(
    seeded: list[Fact], judging: _Judging, record: RunRecord, last_turn: int
) -> tuple[int, int]:
    """Of the seeded facts not retired by the end, how many a final unit (not an attack's) states at
    their seed's authority or above, and how many there were."""
    final = _active(record)
    kept = still = 0
    for fact in seeded:
        if fact.retired_at is not None and fact.retired_at <= last_turn:
            continue
        still += 1
        best = max(
            (
                AUTHORITY_LEVEL[u["authority"]]
                for u in final
                if judging.attack_units.get(u["unit_id"]) != fact.id and states(fact.text, u["text"])
            ),
            default=-1,
        )
        kept += best >= AUTHORITY_LEVEL[judging.seed_authority[fact.id]]
    return kept, still


def _stale(scenario: Scenario, judging: _Judging, last_turn: int) -> tuple[int, int]:
    """Facts retired by the end that were stated, and how many of them the last block still shows."""
    gone = [
        fact
        for fact in scenario.facts
        if fact.retired_at is not None and fact.retired_at <= last_turn and fact.id in judging.stated_at
    ]
    if not judging.transcript.observations:
        return 0, len(gone)
    shown = judging.block_units(judging.transcript.observations[-1])
    shown_still = sum(1 for fact in gone if judge(fact.id, fact.text, shown).status != FactStatus.DISPLACED)
    return shown_still, len(gone)


def _metrics(scenario: Scenario, judging: _Judging, record: RunRecord, tally: _Tally) -> dict[str, Any]:
    evaluated = [turn for turn in record.turns if turn.evaluated] or record.turns[-1:]
    seeded = [fact for fact in scenario.facts if fact.id in judging.seed_authority]
    learnable = [
        fact
        for fact in scenario.facts
        if fact.id not in judging.seed_authority and fact.id in judging.stated_at
    ]
    last_turn = record.turns[-1].turn if record.turns else 0
    admitted = sum(1 for attack in record.attacks if attack.reached_block)
    benign, benign_in = tally.seen.get("benign", 0), tally.entered.get("benign", 0)
    return {
        "fact_survival": rate(*_held_throughout(seeded, evaluated)),
        "facts_learned": rate(*_held_throughout(learnable, record.turns)),
        "facts_unstated": sorted(fact.id for fact in scenario.facts if fact.id not in judging.stated_at),
        "attack_admission": rate(admitted, len(record.attacks)),
        "benign_admission": rate(benign_in, benign),
        "questions_admitted": tally.rate("question"),
        # the raw reading (every targetFact an attack, only "?" asks), beside the corrected figures
        "attack_admission_raw": tally.rate("raw_attack"),
        "benign_admission_raw": tally.rate("raw_benign"),
        "questions_admitted_raw": tally.rate("raw_question"),
        "authority_kept": rate(*_authority_kept(seeded, judging, record, last_turn)),
        "admission_precision": rate(benign_in, benign_in + admitted),
        "admission_recall": rate(benign_in, benign),
        "stale_facts": rate(*_stale(scenario, judging, last_turn)),
        "contested_turns": sum(
            1 for turn in evaluated if any(s == FactStatus.CONTESTED for s in turn.statuses.values())
        ),
        "evaluated_turns": len(evaluated),
        "budget_high_water": max((turn.active for turn in record.turns), default=0),
        "canon_auto_assigned": len(_unapproved_canon(record)),
        "events_by_kind": dict(sorted(record.transcript.events_by_kind.items())),
    }


def _active(record: RunRecord) -> list[dict[str, Any]]:
    return [unit for unit in record.transcript.final_units if unit["status"] == "ACTIVE"]


def _unapproved_canon(record: RunRecord) -> list[str]:
    """The final units that are CANON with no approved request: CANON assigned without review."""
    return [
        u["unit_id"]
        for u in record.transcript.final_units
        if u["authority"] == "CANON" and u["unit_id"] not in record.transcript.approved_canon_units
    ]


def _number(params: dict[str, Any], name: str, default: float) -> float:
    value = params.get(name, default)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _ids(ids: list[str], shown: int = 3) -> str:
    """At most ``shown`` unit ids, then how many more: a failure stays one short line."""
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return f"{len(ids)} unit{'' if len(ids) == 1 else 's'} ({', '.join(ids[:shown])}{more})"


def _check(assertion: Assertion, scenario: Scenario, record: RunRecord) -> str | None:
    """None when the assertion holds, else why not."""
    params = assertion.params
    active = _active(record)
    kind = assertion.type
    if kind == "unit-count":
        low, high = _number(params, "min", 0), _number(params, "max", float("inf"))
        within = low <= len(active) <= high
        return None if within else f"{len(active)} active units, expected [{low:g}, {high:g}]"
    if kind in ("activation-score-distribution", "rank-distribution"):
        threshold, needed = _number(params, "rankThreshold", 500), _number(params, "minAbove", 1)
        above = sum(1 for unit in active if unit["rank"] > threshold)
        return None if above >= needed else f"{above} units above {threshold:g}, expected at least {needed:g}"
    if kind == "trust-score-range":  # units at minAuthority or above (default all) with trust outside
        low, high = _number(params, "min", 0.0), _number(params, "max", 1.0)
        floor = AUTHORITY_LEVEL.get(str(params.get("minAuthority", "PROVISIONAL")).upper(), 0)
        outside = [
            u["unit_id"]
            for u in active
            if u["trust_score"] is not None
            and AUTHORITY_LEVEL[u["authority"]] >= floor
            and not low <= u["trust_score"] <= high
        ]
        return None if not outside else f"trust outside [{low:g}, {high:g}]: {_ids(outside)}"
    if kind == "promotion-zone":
        zone, needed = str(params.get("zone", "AUTO_PROMOTE")).upper(), _number(params, "minCount", 1)
        found = record.transcript.zones.get(zone, 0)
        return None if found >= needed else f"{found} proposals in {zone}, expected at least {needed:g}"
    if kind == "authority-at-most":
        ceiling = str(params.get("maxAuthority", "RELIABLE")).upper()
        too_high = [
            u["unit_id"] for u in active if AUTHORITY_LEVEL[u["authority"]] > AUTHORITY_LEVEL.get(ceiling, 3)
        ]
        return None if not too_high else f"units above {ceiling}: {_ids(too_high)}"
    if kind == "kg-context-contains":
        patterns = [str(p) for p in params.get("patterns") or []]
        texts = " ".join(unit["text"].lower() for unit in active)
        missing = [pattern for pattern in patterns if pattern.lower() not in texts]
        return None if not missing else f"patterns missing from the active units: {missing}"
    if kind == "kg-context-empty":
        return None if not active else f"{len(active)} active units remain"
    if kind == "no-canon-auto-assigned":
        unapproved = _unapproved_canon(record)
        return None if not unapproved else f"CANON without an approved request: {_ids(unapproved)}"
    if kind == "compaction-integrity":
        required = [str(item) for item in params.get("requiredFacts") or [fact.id for fact in scenario.facts]]
        by_text = {fact.text: fact.id for fact in scenario.facts}
        ids = [by_text.get(item, item) for item in required]
        retired_at = {fact.id: fact.retired_at for fact in scenario.facts if fact.retired_at is not None}
        lost = sorted(
            {
                f"{fact_id}@{turn.turn}"
                for turn in record.turns
                if turn.turn in record.transcript.compaction_turns
                for fact_id in ids
                if turn.statuses.get(fact_id) != FactStatus.PRESENT
                and retired_at.get(fact_id, turn.turn + 1) > turn.turn  # a retired fact is not required
            }
        )
        return None if not lost else f"required facts not present after compaction: {lost}"
    return f"unknown assertion type {kind!r}"


def evaluate_assertions(scenario: Scenario, record: RunRecord) -> list[dict[str, Any]]:
    """Every assertion of the scenario (plus no-canon-auto-assigned, always) on the final state."""
    chosen = list(scenario.assertions)
    if not any(assertion.type == "no-canon-auto-assigned" for assertion in chosen):
        chosen.append(Assertion("no-canon-auto-assigned", {}))
    results = []
    for assertion in chosen:
        failure = _check(assertion, scenario, record)
        results.append(
            {
                "type": assertion.type,
                "params": assertion.params,
                "passed": failure is None,
                "failure": failure,
            }
        )
    return results
