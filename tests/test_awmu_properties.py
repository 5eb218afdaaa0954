"""Stateful property test of the working memory through ``Kernel.call``.

A hypothesis state machine seeds, proposes (random texts with negations, random sources, confidences
and verdicts against existing units), runs turns, pins, unpins, archives, canonizes, reviews and
validates summaries; after every step the invariants below are checked against ``memory.awmu.list``
and the event stream, and at teardown the journal must pass verification replay.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import event as statistic
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import VOUCHED

from arvis.awmu.text import NEGATIONS as NEGATION_WORDS
from arvis.awmu.text import is_negated, words
from journal.reader import JournalReader
from journal.store import ManualClock
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

CTX = "ctx"
AGENT = "agent:dm"
OPERATOR = "operator:olga"
AUTHORITY_ORDER = ["PROVISIONAL", "UNRELIABLE", "RELIABLE", "CANON"]

SUBJECTS = ["the king", "the queen", "the bridge", "the dragon", "Elara"]
NEGATION_FORMS = ["", "", "", "not", "never", "isn't", "can't", "won't", "no"]
PREDICATES = ["is dead", "is alive", "sleeps", "knows nothing", "went north", "is normal", "rules"]
ENDINGS = [".", "!", "", " today."]

texts = st.builds(
    lambda subject, negation, predicate, ending, upper: (
        (" ".join(part for part in (subject, negation, predicate) if part) + ending).upper()
        if upper
        else (" ".join(part for part in (subject, negation, predicate) if part) + ending)
    ),
    st.sampled_from(SUBJECTS),
    st.sampled_from(NEGATION_FORMS),
    st.sampled_from(PREDICATES),
    st.sampled_from(ENDINGS),
    st.booleans(),
)
ranks = st.sampled_from([100, 150, 151, 199, 200, 349, 350, 399, 400, 599, 600, 850, 900]) | st.integers(
    100, 900
)
sources = st.sampled_from(["system", "dm", "player", "other"])
confidences = (
    st.sampled_from([0.5, 0.65, 0.7, 0.75, 0.8, 0.9, 1.0]) | st.floats(0.6, 1.0) | st.floats(0.0, 1.0)
)
operators = st.sampled_from([OPERATOR, OPERATOR, OPERATOR, "admin:root", AGENT])  # mostly allowed
# operator invariants a context may carry (all MUST)
RULES = {
    "keep-king": {"type": "archive-prohibition", "unit_text_pattern": "king"},
    "dragon-floor": {
        "type": "authority-floor",
        "unit_text_pattern": "dragon",
        "minimum_authority": "UNRELIABLE",
    },
    "queen-immune": {"type": "eviction-immunity", "unit_text_pattern": "queen"},
}
verdict_types = st.sampled_from(["CONTRADICTION", "REVISION", "WORLD_PROGRESSION"])


def _builtins(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


class WorkingMemoryMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))
        self.k = open_kernel(":memory:", clock=clock, identity=VOUCHED)
        self.budget = 0
        self.listing: dict[str, Any] = {}
        self.units: dict[str, dict[str, Any]] = {}
        self.cursor = (0, -1)  # (seq, index) of the last event seen
        self.step_events: list[dict[str, Any]] = []
        self.step_protected: set[str] = set()
        self.step_explicit_archive: str | None = None
        self.step_refused = False
        self.step_before: dict[str, Any] = {}
        self.authorities: dict[str, str] = {}
        self.ranks: dict[str, int] = {}
        self.approved_requests: dict[str, str] = {}  # request id -> unit id, from canon_decided events
        self.canonized_by_event: set[str] = set()
        self.rules: dict[str, dict[str, str]] = {}
        self.approved_by_me: set[str] = set()  # canonization requests this machine approved

    # --- plumbing ----------------------------------------------------------------------------------

    def _read(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = self.k.call(f"memory.awmu.{name}", args, principal=AGENT)
        assert result.ok, result.to_dict()
        return _builtins(result.value)

    def _new_events(self) -> list[dict[str, Any]]:
        seq, index = self.cursor
        query = {"context_id": CTX, "after_seq": seq, "after_index": index, "limit": 1000}
        events = self._read("events", query)["events"]
        assert len(events) < 1000
        if events:
            self.cursor = (events[-1]["seq"], events[-1]["index"])
        return events

    def _refresh(self) -> None:
        self.listing = self._read("list", {"context_id": CTX, "status": "all"})
        self.units = {unit["unit_id"]: unit for unit in self.listing["units"]}

    def _call(self, name: str, args: dict[str, Any], principal: str = AGENT, *, archive: str | None = None):
        self.step_before = self.listing
        self.step_protected = {
            unit_id
            for unit_id, unit in self.units.items()
            if unit["status"] == "ACTIVE" and (unit["pinned"] or unit["authority"] == "CANON")
        }
        full = args if name == "review" else {"context_id": CTX, **args}
        result = self.k.call(f"memory.awmu.{name}", full, principal=principal)
        self.step_refused = not result.ok
        self.step_explicit_archive = archive if result.ok else None
        self.step_events = self._new_events()
        outcome = result.value.get("outcome", "ok") if result.ok else result.error.code
        if result.ok and "request" in result.value:
            outcome = result.value["request"]["status"]
        statistic(f"{name}: {outcome}")
        for kind in sorted({e["kind"] for e in self.step_events}):
            statistic(f"event: {kind}")
        self._refresh()
        return result

    def _ids(self, *, active_only: bool) -> list[str]:
        return sorted(
            unit_id for unit_id, unit in self.units.items() if not active_only or unit["status"] == "ACTIVE"
        )

    def _pick(self, data: st.DataObject, *, active_only: bool = True) -> str:
        choices = self._ids(active_only=active_only)
        if not choices or data.draw(st.integers(0, 9), label="bogus") == 0:
            return data.draw(st.sampled_from([*self._ids(active_only=False), "u0-0"]), label="any id")
        return data.draw(st.sampled_from(choices), label="unit id")

    # --- rules ---------------------------------------------------------------------------------------

    @initialize(
        budget=st.integers(3, 6),
        trust=st.booleans(),
        profile=st.sampled_from(["BALANCED", "NARRATIVE"]),
        rules=st.lists(st.sampled_from(sorted(RULES)), unique=True, max_size=3),
        seeds=st.lists(
            st.tuples(texts, st.sampled_from(["PROVISIONAL", "UNRELIABLE", "RELIABLE"]), ranks),
            max_size=5,
        ),
    )
    def create(
        self, budget: int, trust: bool, profile: str, rules: list[str], seeds: list[tuple[str, str, int]]
    ) -> None:
        """A context with a random budget, trust setting and operator invariants, filled with a few
        seeds to start from."""
        self.budget = budget
        self.rules = {name: RULES[name] for name in rules}
        config = {
            "budget": budget,
            "trust_enabled": trust,
            "trust_profile": profile,
            "invariants": [{"id": name, **rule} for name, rule in self.rules.items()],
        }
        # format 2: the operator creates (and owns) the context; an administrator lets the agent read
        # and write it (access-and-pipelines.md §1.7)
        for capability in ("read", "write"):
            grant = {"principal": AGENT, "capability": capability, "scope": f"context:{CTX}"}
            assert self.k.call("access.grant", grant, principal=OPERATOR).ok
        result = self.k.call("memory.awmu.create", {"context_id": CTX, "config": config}, principal=OPERATOR)
        assert result.ok, result.to_dict()
        for text, authority, rank in seeds:
            args = {"context_id": CTX, "text": text, "authority": authority, "rank": rank}
            seeded = self.k.call("memory.awmu.seed", args, principal=OPERATOR)
            # a full budget whose units are all protected (pinned, CANON or a MUST invariant) refuses
            assert seeded.ok or (seeded.error is not None and seeded.error.code == "awmu_budget_exhausted")
        self.step_events = self._new_events()
        self._refresh()

    @rule(
        text=texts,
        authority=st.sampled_from(["PROVISIONAL", "UNRELIABLE", "RELIABLE"]),
        rank=st.none() | ranks,
        pinned=st.booleans(),
        by=operators,
    )
    def seed(self, text: str, authority: str, rank: int | None, pinned: bool, by: str) -> None:
        args: dict[str, Any] = {"text": text, "authority": authority, "pinned": pinned}
        if rank is not None:
            args["rank"] = rank
        self._call("seed", args, by)

    @rule(data=st.data(), text=texts, source=sources, confidence=confidences)
    def propose(self, data: st.DataObject, text: str, source: str, confidence: float) -> None:
        verdicts = []
        for _ in range(data.draw(st.integers(0, 2), label="verdict count")):
            if not self.units:
                break
            verdicts.append(
                {
                    "unit_id": self._pick(data),
                    "type": data.draw(verdict_types, label="verdict type"),
                    "confidence": data.draw(confidences, label="verdict confidence"),
                }
            )
        self._call(
            "propose", {"text": text, "source": source, "confidence": confidence, "verdicts": verdicts}
        )

    @rule(data=st.data())
    def turn(self, data: st.DataObject) -> None:
        active = self._ids(active_only=True)
        chosen = (
            data.draw(st.lists(st.sampled_from(active), unique=True), label="reinforce") if active else []
        )
        if data.draw(st.integers(0, 14), label="bogus reinforce") == 0:
            chosen.append(self._pick(data, active_only=False))
        self._call("turn", {"reinforce": chosen})

    @rule(count=st.integers(1, 2))
    def reinforce_top(self, count: int) -> None:
        """A turn that reinforces the highest-ranked active units: ranks reach the ceiling and
        reinforcement counts reach the upgrade thresholds."""
        active = sorted(
            (unit for unit in self.units.values() if unit["status"] == "ACTIVE"),
            key=lambda unit: (-unit["rank"], unit["unit_id"]),
        )
        self._call("turn", {"reinforce": [unit["unit_id"] for unit in active[:count]]})

    @rule()
    def quiet_turn(self) -> None:
        """A turn that reinforces nothing: everything unprotected decays."""
        self._call("turn", {})

    @rule(data=st.data(), source=sources, confidence=confidences, verdict=st.none() | verdict_types)
    def contradict(self, data: st.DataObject, source: str, confidence: float, verdict: str | None) -> None:
        """Propose the opposite of an active unit (negation added or removed): a lexical conflict."""
        active = self._ids(active_only=True)
        if not active:
            return
        unit_id = data.draw(st.sampled_from(active), label="contradicted")
        text = self.units[unit_id]["text"]
        if is_negated(text):
            opposite = " ".join(word for word in words(text) if word not in NEGATION_WORDS)
        else:
            opposite = f"{text} not"
        verdicts = (
            [] if verdict is None else [{"unit_id": unit_id, "type": verdict, "confidence": confidence}]
        )
        args = {"text": opposite, "source": source, "confidence": confidence, "verdicts": verdicts}
        self._call("propose", args)

    @rule(data=st.data(), by=operators)
    def pin(self, data: st.DataObject, by: str) -> None:
        self._call("pin", {"unit_id": self._pick(data)}, by)

    @rule(data=st.data(), by=operators)
    def unpin(self, data: st.DataObject, by: str) -> None:
        self._call("unpin", {"unit_id": self._pick(data)}, by)

    @rule(data=st.data(), by=operators)
    def archive(self, data: st.DataObject, by: str) -> None:
        unit_id = self._pick(data)
        self._call("archive", {"unit_id": unit_id, "reason": "test"}, by, archive=unit_id)

    @rule(data=st.data())
    def canonize(self, data: st.DataObject) -> None:
        self._call("canonize", {"unit_id": self._pick(data)})

    @rule(data=st.data(), approve=st.booleans(), by_operator=st.integers(0, 5))
    def review(self, data: st.DataObject, approve: bool, by_operator: int) -> None:
        pending = [item["review_id"] for item in self.listing["review_queue"]] + [
            item["request_id"] for item in self.listing["canon_requests"]
        ]
        if pending and data.draw(st.integers(0, 4), label="bogus request") != 0:
            request_id = data.draw(st.sampled_from(pending), label="request")
        else:
            request_id = data.draw(st.sampled_from(["c1", "r1", "x1"]), label="unknown request")
        principal = OPERATOR if by_operator else AGENT
        decision = "approve" if approve else "reject"
        result = self._call("review", {"request_id": request_id, "decision": decision}, principal)
        if result.ok and approve and request_id.startswith("c"):
            self.approved_by_me.add(request_id)

    @precondition(lambda self: bool(self.listing.get("canon_requests") or self.listing.get("review_queue")))
    @rule(data=st.data(), approve=st.booleans())
    def decide_pending(self, data: st.DataObject, approve: bool) -> None:
        """An operator decides one pending canonization request or queued proposal."""
        pending = [item["request_id"] for item in self.listing["canon_requests"]] + [
            item["review_id"] for item in self.listing["review_queue"]
        ]
        request_id = data.draw(st.sampled_from(pending), label="pending request")
        decision = "approve" if approve else "reject"
        result = self._call("review", {"request_id": request_id, "decision": decision}, OPERATOR)
        if result.ok and approve and request_id.startswith("c"):
            self.approved_by_me.add(request_id)

    @rule(data=st.data(), strict=st.booleans())
    def validate_summary(self, data: st.DataObject, strict: bool) -> None:
        summary = " ".join(data.draw(st.lists(texts, max_size=4), label="summary"))
        self._call("validate_summary", {"summary": summary, "strict": strict})

    # --- invariants ------------------------------------------------------------------------------

    @invariant()
    def refused_calls_change_nothing(self) -> None:
        """A refused call writes nothing: no event, and every unit and queue is as it was."""
        if self.step_refused:
            assert self.step_events == []
            assert self.listing == self.step_before

    @invariant()
    def canon_only_by_approved_request(self) -> None:
        """No unit is CANON without an APPROVED canonization request for it: a request is APPROVED
        only by an approving review this machine made, every authority change to CANON names an
        approved request of that unit, and every CANON unit had such a change."""
        for event in self.step_events:
            if event["kind"] == "canon_decided" and event["detail"]["status"] == "APPROVED":
                assert event["detail"]["request_id"] in self.approved_by_me, event
                self.approved_requests[event["detail"]["request_id"]] = event["unit_id"]
        for event in self.step_events:
            if event["kind"] == "authority_changed" and event["detail"]["after"] == "CANON":
                request_id = event["detail"].get("request_id")
                assert self.approved_requests.get(request_id) == event["unit_id"], event
                self.canonized_by_event.add(event["unit_id"])
            if event["kind"] == "created":
                assert event["detail"]["authority"] != "CANON", event
        for unit_id, unit in self.units.items():
            if unit["authority"] == "CANON":
                assert unit_id in self.canonized_by_event, unit
                assert unit_id in self.approved_requests.values(), unit

    @invariant()
    def protected_units_are_never_changed_automatically(self) -> None:
        """CANON and pinned units are never automatically demoted, decayed, archived, superseded or
        evicted: such an event on a unit that was CANON or pinned when the step began must be the
        explicit archive this step made."""
        for event in self.step_events:
            unit_id = event["unit_id"]
            if unit_id not in self.step_protected:
                continue
            kind = event["kind"]
            assert kind not in ("decayed", "evicted", "superseded"), event
            if kind == "authority_changed":
                assert event["detail"]["direction"] == "up", event
            if kind == "archived":
                assert unit_id == self.step_explicit_archive, event
            if kind == "reinforced":
                assert event["detail"]["before"] == event["detail"]["after"], event

    @invariant()
    def active_units_within_budget(self) -> None:
        """The number of ACTIVE units never exceeds the budget."""
        active = [unit for unit in self.units.values() if unit["status"] == "ACTIVE"]
        assert len(active) <= self.budget

    @invariant()
    def ranks_within_bounds(self) -> None:
        """Every unit's rank is within [100, 900] and its tier is the tier of its rank."""
        for unit in self.units.values():
            assert 100 <= unit["rank"] <= 900, unit
            expected = "HOT" if unit["rank"] >= 600 else "WARM" if unit["rank"] >= 350 else "COLD"
            assert unit["tier"] == expected, unit

    @invariant()
    def authority_changes_are_journaled(self) -> None:
        """Every authority change has an authority_changed event: replaying the step's created and
        authority_changed events over the authorities seen before the step gives today's authorities,
        each event starting from the authority the unit had."""
        running = dict(self.authorities)
        for event in self.step_events:
            unit_id = event["unit_id"]
            if event["kind"] == "created":
                assert unit_id not in running
                running[unit_id] = event["detail"]["authority"]
            elif event["kind"] == "authority_changed":
                before, after = event["detail"]["before"], event["detail"]["after"]
                assert running[unit_id] == before, event
                direction = "up" if AUTHORITY_ORDER.index(after) > AUTHORITY_ORDER.index(before) else "down"
                assert event["detail"]["direction"] == direction, event
                running[unit_id] = after
        assert running == {unit_id: unit["authority"] for unit_id, unit in self.units.items()}
        self.authorities = running

    @invariant()
    def rank_changes_are_journaled(self) -> None:
        """Every rank change has a reinforced or decayed event whose before is the rank the unit had."""
        running = dict(self.ranks)
        for event in self.step_events:
            unit_id = event["unit_id"]
            if event["kind"] == "created":
                running[unit_id] = event["detail"]["rank"]
            elif event["kind"] in ("reinforced", "decayed"):
                assert running[unit_id] == event["detail"]["before"], event
                running[unit_id] = event["detail"]["after"]
        assert running == {unit_id: unit["rank"] for unit_id, unit in self.units.items()}
        self.ranks = running

    @invariant()
    def must_invariants_hold(self) -> None:
        """The context's MUST operator rules are never broken, by an explicit call or an automatic step:
        a unit covered by keep-king never leaves the active set; one covered by dragon-floor never drops
        below UNRELIABLE while active; one covered by queen-immune is never evicted."""
        before = {unit["unit_id"]: unit for unit in self.step_before.get("units", [])}
        for unit_id, unit in self.units.items():
            covered = {
                name for name, rule in self.rules.items() if rule["unit_text_pattern"] in unit["text"].lower()
            }
            was = before.get(unit_id)
            if "keep-king" in covered and was is not None and was["status"] == "ACTIVE":
                assert unit["status"] == "ACTIVE", unit
            if "queen-immune" in covered:
                assert unit["status"] != "EVICTED", unit
        for event in self.step_events:
            if event["kind"] != "authority_changed" or event["detail"]["direction"] != "down":
                continue
            text = self.units[event["unit_id"]]["text"].lower()
            if "dragon-floor" in self.rules and "dragon" in text:
                assert AUTHORITY_ORDER.index(event["detail"]["after"]) >= 1, event

    @invariant()
    def superseded_units_link_to_their_successor(self) -> None:
        """A SUPERSEDED unit is kept, names its successor, and the successor lists it."""
        for unit_id, unit in self.units.items():
            if unit["status"] == "SUPERSEDED":
                successor = self.units[unit["superseded_by"]]
                assert unit_id in successor["supersedes"]

    def teardown(self) -> None:
        """The journal of the whole run passes verification replay."""
        try:
            report = verify_journal(JournalReader(self.k.store.engine), table=SYSCALL_TABLE)
            assert report.verified, report.to_json()
        finally:
            self.k.close()


WorkingMemoryMachine.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestWorkingMemory = WorkingMemoryMachine.TestCase
