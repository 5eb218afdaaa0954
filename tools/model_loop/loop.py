"""The model loop: a scenario played on a kernel with a game master and a judge in the loop.

Each player turn, the game master gets the assembled block (``memory.awmu.assemble``) and the player's
message; its answer is journaled (``tools.model_loop.recording``) and, when it has text, proposed from
source ``dm``. The judge is asked whether the reply contradicts, revises or progresses each active unit it
overlaps (two shared key terms); the parsed answers are the ``verdicts`` argument of that proposal, so
they are journaled again, in the args the kernel acts on. On evaluated turns the judge's per-fact verdict
on the reply is journaled too. A model that cannot be reached is a recorded error, and the run goes on.

What stays scripted, as in the offline runner (``tools.scenario.runner``): seeds and the operator's
canonization of CANON seeds. Nothing of the answer key (``groundTruth``, ``establishedAt``, turn types)
enters memory: a fact the story establishes at a turn is in memory only if the game master says it, and
the judge's per-fact checks against ground truth are scoring, journaled but never proposed. Replies of the
game master are never approved by anyone: trust decides. Compaction and the scenario's
``sessions``/``adversaryMode`` are not exercised here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypedDict

from arvis.access import AccessRules, ScopeKind, scope_of
from arvis.awmu.utterance import mentions
from arvis.scenario.conditions import CONDITIONS, Condition
from arvis.scenario.judge import BlockUnit, judge
from arvis.scenario.schema import Scenario, Turn
from kernel.abi import SyscallResult
from kernel.errors import ErrorCode
from tools.model_loop import scoring
from tools.model_loop.client import ChatModel, Message, ModelAnswer
from tools.model_loop.recording import (
    CONFLICT_KIND,
    EXTRACT_KIND,
    GM_KIND,
    JUDGE_KIND,
    RUN_KIND,
    as_recorded,
    exchange_record,
    run_record,
)
from tools.model_loop.roles import (
    UNPARSED,
    ConflictParse,
    ExtractParse,
    FactParse,
    conflict_messages,
    extract_messages,
    fact_messages,
    gm_messages,
    parse_conflict_answer,
    parse_fact_answer,
    parse_propositions,
)
from tools.model_loop.scoring import ModelRunResult, TurnResult
from tools.scenario.runner import QUEUE_EXPIRY, set_up_context

AGENT = "agent:model-loop"
OPERATOR = "operator:scenario"
REVIEWER = "admin:scenario-review"
GM_CONFIDENCE = 0.9
MAX_PROPOSAL_CHARS = 2_000
MAX_CHECKED_UNITS = 20
HISTORY_TURNS = 3


class ModelLoopError(Exception):
    """A syscall the loop depends on failed (or diverged from the journal on replay): it cannot go on."""


class Play(TypedDict, total=False):
    """How a run plays its scenario, its models aside (``ModelScenarioRun``'s arguments of these names,
    whose defaults they keep when left out): the ``condition``, the ``setting`` the game master is told, and
    ``on_turn``, told (turns done, turns in all) after each turn."""

    condition: Condition
    setting: str
    on_turn: Callable[[int, int], None] | None


Parsed = ConflictParse | ExtractParse | FactParse


class KernelLike(Protocol):
    """What the loop needs of a kernel: ``Kernel`` and ``JournalReplayKernel`` both fit."""

    @property
    def access_rules(self) -> AccessRules: ...

    def call(self, name: object, args: object = None, *, principal: object) -> SyscallResult: ...


class ModelScenarioRun:
    """Plays ``scenario`` on ``kernel`` with a game-master and a judge model.

    The same code serves a live run (a ``Kernel`` and HTTP models) and its replay (a
    ``JournalReplayKernel`` and ``RecordedModels``): everything it decides follows from kernel
    results and model answers, both of which the journal holds."""

    def __init__(
        self,
        kernel: KernelLike,
        scenario: Scenario,
        *,
        gm: ChatModel,
        judge: ChatModel,
        condition: Condition = Condition.FULL_AWMU,
        setting: str = "",
        extractor: ChatModel | None = None,
        on_turn: Callable[[int, int], None] | None = None,
        channels: Mapping[str, str] | None = None,
        queue_expiry: int | None = QUEUE_EXPIRY,
    ) -> None:
        self.kernel = kernel
        self.queue_expiry = queue_expiry
        """The context's queue policy drops what waits this many turns, as the scenario runner's does; a
        replay passes what the run's record names (None: a run recorded before it declared one)."""
        self.channels = {AGENT: "dm"} if channels is None else channels
        """The context's ``channels``: the game master speaks on ``dm`` (``arvis.awmu.origin``); a replay
        of a run recorded before format 6 passes none, as that run created its context without."""
        self.scenario = scenario
        self.gm = gm
        self.judge_model = judge
        self.extractor = extractor
        """Lists a reply's statements, each proposed on its own (None: the reply is proposed whole)."""
        self.on_turn = on_turn
        """Told (turns done, turns in all) after each turn: a progress bar; it decides nothing."""
        self.condition = condition
        self.plan = CONDITIONS[condition]
        self.setting = setting
        self.context = scenario.id[:128] or "scenario"
        self.run_id = f"model:{scenario.id}:{condition.value}"[:128]
        self.detector = f"model:{judge.name}"[:64]
        self.turns: list[TurnResult] = []
        self.counts: Counter[str] = Counter()

    # kernel access ------------------------------------------------------------------------------

    def _checked(self, syscall: str, result: SyscallResult, *, fatal: bool) -> SyscallResult:
        if result.ok:
            return result
        assert result.error is not None
        if fatal or result.seq is None or result.error.code == ErrorCode.REPLAY_DIVERGENCE.value:
            raise ModelLoopError(f"{syscall} failed: {result.error.code}: {result.error.detail}")
        return result

    def _must(self, syscall: str, args: dict[str, Any], principal: str) -> dict[str, Any]:
        """The value of a call the loop cannot go on without (``ModelLoopError`` when it fails)."""
        result = self.kernel.call(syscall, args, principal=principal)
        value: dict[str, Any] = self._checked(syscall, result, fatal=True).value
        return value

    def call(self, syscall: str, args: dict[str, Any], principal: str = AGENT) -> dict[str, Any]:
        return self._must(syscall, {"context_id": self.context, **args}, principal)

    def review(self, review_id: str, note: str) -> None:
        args = {"request_id": review_id, "decision": "approve", "note": note}
        self._must("memory.awmu.review", args, REVIEWER)

    def grant(self, principal: str, capability: str) -> None:
        """The operator grants ``principal`` ``capability`` on the context (journaled ``access.grant``)."""
        scope = scope_of(self.kernel.access_rules, ScopeKind.CONTEXT, self.context)
        args = {"principal": principal, "capability": capability, "scope": scope}
        self._must("access.grant", args, OPERATOR)

    def record(self, kind: str, payload: dict[str, Any]) -> None:
        self._must("kernel.record", {"kind": kind, "payload": payload, "run_id": self.run_id}, AGENT)

    def active(self) -> list[dict[str, Any]]:
        units: list[dict[str, Any]] = self.call("memory.awmu.list", {})["units"]
        return units

    def ask(
        self,
        model: ChatModel,
        kind: str,
        turn: int,
        messages: list[Message],
        parse: Callable[[str], Parsed] | None = None,
        unanswered: Parsed | None = None,
    ) -> tuple[ModelAnswer, dict[str, Any]]:
        """One model exchange, journaled (answer and, with ``parse``, what was made of it: ``parse`` of
        its text, ``unanswered`` when the model gave none) before anything uses it. The answer is rebuilt
        from its recorded form, so the live run uses exactly what a replay will be served."""
        answer = as_recorded(model.complete(messages))
        parsed: dict[str, Any] = {}
        if parse is not None:
            parsed = (parse(answer.text) if answer.ok or unanswered is None else unanswered).to_json()
        self.counts["model_calls"] += 1
        if not answer.ok:
            self.counts["model_errors"] += 1
        elif parsed and not parsed.get("ok", True):
            self.counts["parse_failures"] += 1
        self.record(
            kind, exchange_record(turn, model, messages, answer, parsed if parse is not None else None)
        )
        return answer, parsed

    # the run ------------------------------------------------------------------------------------

    def setup(self) -> None:
        payload = run_record(
            self.scenario.id,
            self.condition.value,
            self.gm,
            self.judge_model,
            self.setting,
            self.extractor,
            self.queue_expiry,
        )
        self.record(RUN_KIND, payload)
        set_up_context(
            self.scenario,
            self.plan,
            self.call,
            self.review,
            self.grant,
            AGENT,
            self.channels,
            self.queue_expiry,
        )

    def play_turn(self, turn: Turn, history: list[tuple[str, str]]) -> TurnResult:
        block = self.call("memory.awmu.assemble", {})["text"] if self.plan.inject else ""
        messages = gm_messages(self.setting, block, history[-HISTORY_TURNS:], turn.prompt)
        answer, _ = self.ask(self.gm, GM_KIND, turn.turn, messages)
        result = TurnResult(turn.turn, turn.type, turn.target_fact, turn.evaluated, answer.to_json())
        reply = answer.text.strip()[:MAX_PROPOSAL_CHARS] if answer.ok else ""
        history.append((turn.prompt, reply))
        if not reply:
            return result
        if self.extractor is None:
            result.conflict, result.proposal = self.propose_checked(turn.turn, reply)
        else:
            result.propositions = []
            for text in self.statements(turn.turn, reply):
                conflict, proposal = self.propose_checked(turn.turn, text)
                result.propositions.append({"text": text, "conflict": conflict, "proposal": proposal})
        if turn.evaluated and self.scenario.facts:
            facts = [(fact.id, fact.text) for fact in self.scenario.facts]
            fact_ids = [fact_id for fact_id, _ in facts]
            judged, parsed_facts = self.ask(
                self.judge_model,
                JUDGE_KIND,
                turn.turn,
                fact_messages(reply, facts),
                lambda text: parse_fact_answer(text, fact_ids),
                FactParse(False, dict.fromkeys(fact_ids, UNPARSED), ("no answer",)),
            )
            result.judge = {"answer": judged.to_json(), **parsed_facts}
        return result

    def statements(self, turn: int, reply: str) -> list[str]:
        """The extractor's statements of the reply; the reply whole when its answer gave none usable."""
        assert self.extractor is not None
        failed = ExtractParse(False, (), ("no answer from the extractor",))
        _, parsed = self.ask(
            self.extractor, EXTRACT_KIND, turn, extract_messages(reply), parse_propositions, failed
        )
        return list(parsed["propositions"]) if parsed["ok"] else [reply]

    def propose_checked(self, turn: int, text: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """``text`` proposed from the game master's channel, with the judge's verdicts on the active
        units it overlaps; (the conflict check, or None when it overlaps none; the proposal's outcome)."""
        overlapping = [u for u in self.active() if mentions(text, u["text"])][:MAX_CHECKED_UNITS]
        verdicts: list[dict[str, Any]] = []
        conflict: dict[str, Any] | None = None
        if overlapping:
            unit_ids = [u["unit_id"] for u in overlapping]
            checked, parsed = self.ask(
                self.judge_model,
                CONFLICT_KIND,
                turn,
                conflict_messages(text, [u["text"] for u in overlapping]),
                lambda answer: parse_conflict_answer(answer, unit_ids, detector=self.detector),
                ConflictParse(False, (), ("no answer from the judge",)),
            )
            verdicts = list(parsed["verdicts"])
            conflict = {"units": unit_ids, "answer": checked.to_json(), **parsed}
        outcome = self.kernel.call(
            "memory.awmu.propose",
            {
                "context_id": self.context,
                "text": text,
                "source": "dm",
                "confidence": GM_CONFIDENCE,
                "verdicts": verdicts,
            },
            principal=AGENT,
        )
        self._checked("memory.awmu.propose", outcome, fatal=False)
        if outcome.ok:
            value = outcome.value
            proposal = {
                "outcome": value.get("outcome"),
                "unit_id": value.get("unit_id"),
                "conflicts": value.get("conflicts", []),
            }
        else:
            assert outcome.error is not None
            proposal = {"outcome": "refused", "error": outcome.error.code}
        self.counts[f"proposal:{proposal['outcome']}"] += 1
        return conflict, proposal

    def observe(self, number: int) -> dict[str, str]:
        """Governance-level statuses of the facts in the block after a turn (as the offline runner)."""
        block = self.call("memory.awmu.assemble", {})
        units = {u["unit_id"]: u for u in self.active()}
        included = block["included"] if self.plan.inject else []
        shown = [
            BlockUnit(u["unit_id"], u["text"], u["authority"], u["rank"])
            for u in (units[unit_id] for unit_id in included if unit_id in units)
        ]
        return {
            fact.id: judge(fact.id, fact.text, shown).status.value
            for fact in self.scenario.facts
            if fact.established_at is None or fact.established_at <= number or self.scenario.seeds
        }

    def run(self) -> ModelRunResult:
        self.setup()
        last_turn = max([turn.turn for turn in self.scenario.turns] + [0])
        history: list[tuple[str, str]] = []
        for number in range(1, last_turn + 1):
            played = [
                self.play_turn(turn, history)
                for turn in self.scenario.turns
                if turn.turn == number and turn.role == "PLAYER"
            ]
            contradicted = {
                verdict["unit_id"]
                for result in played
                for conflict in result.conflicts()
                for verdict in conflict["verdicts"]
                if verdict["type"] == "CONTRADICTION"
            }
            units = self.active()
            reinforce = {
                u["unit_id"]
                for result in played
                if result.gm.get("ok")
                for u in units
                if u["unit_id"] not in contradicted and mentions(result.gm["text"], u["text"])
            }
            self.call("memory.awmu.turn", {"reinforce": sorted(reinforce)})
            statuses = self.observe(number)
            for result in played:
                result.block = statuses
            self.turns.extend(played)
            if self.on_turn is not None:
                self.on_turn(number, last_turn)
        return ModelRunResult(
            scenario=self.scenario.id,
            condition=self.condition.value,
            run_id=self.run_id,
            gm_model=self.gm.name,
            judge_model=self.judge_model.name,
            extractor_model=None if self.extractor is None else self.extractor.name,
            turns=tuple(self.turns),
            metrics=self.metrics(),
        )

    def metrics(self) -> dict[str, Any]:
        return scoring.metrics(
            self.turns,
            [(fact.id, fact.text) for fact in self.scenario.facts],
            self.counts,
            block_shown=self.plan.inject,
        )
