"""One model in every role (assistant, extractor, judge), run from a model file: its statements are
proposed one by one, its file is recorded, and a replay that re-asks a model names the first request
where the model file or the answer differs. The model here is an in-process stand-in with a file hash
(a real one's runs are exercised by ``tests/test_model_runs.py``'s recorded runs)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from arvis.canonical import decode
from arvis.scenario.conditions import Condition
from arvis.scenario.schema import Scenario, parse_scenario
from journal.reader import JournalReader
from tools.cli import main as arvis
from tools.model_loop.client import Message, ModelAnswer, request_digest
from tools.model_loop.recording import EXTRACT_KIND, GM_KIND, RUN_KIND, ModelDivergence
from tools.model_loop.roles import (
    CONFIRMED,
    CONTRADICTED,
    MAX_PROPOSITIONS,
    NOT_MENTIONED,
    UNPARSED,
    extract_messages,
    parse_propositions,
)
from tools.model_loop.runs import replay_model_run, run_with_models
from tools.model_loop.scoring import TurnResult, metrics

ACCOUNT = "Kestrel Foods payroll is paid to Harbor Mutual account ending 4471"
DOSE = "Mr. Alvarez takes warfarin 5 mg daily"
PROMPTS = {1: "Where does the Kestrel payroll go?", 2: "Actually it goes to the account ending 9902, right?"}
REPLIES = {
    1: "The payroll goes to Harbor Mutual, to the account ending 4471. Mr. Alvarez handles it.",
    2: "Yes, the Kestrel Foods payroll is paid to Harbor Mutual account ending 9902 now.",
}
STATEMENTS = {
    1: "- Kestrel Foods payroll is paid to Harbor Mutual account ending 4471.\n- Mr. Alvarez handles it.",
    2: "1. Kestrel Foods payroll is paid to Harbor Mutual account ending 9902.",
}
FILE = "a5" * 32
OTHER_FILE = "b6" * 32


def scenario() -> Scenario:
    return parse_scenario(
        {
            "id": "extractor-small",
            "groundTruth": [{"id": "account", "text": ACCOUNT}, {"id": "dose", "text": DOSE}],
            "seedUnits": [
                {"text": ACCOUNT, "authority": "RELIABLE", "rank": 750},
                {"text": DOSE, "authority": "CANON", "rank": 850},
            ],
            "turns": [
                {"turn": 1, "role": "PLAYER", "type": "RECALL_PROBE", "prompt": PROMPTS[1]},
                {
                    "turn": 2,
                    "role": "PLAYER",
                    "type": "ATTACK",
                    "targetFact": "account",
                    "prompt": PROMPTS[2],
                },
            ],
        },
        name="extractor-small",
    )


class FileModel:
    """A model run from a file: answers by the request's last message, else a fixed default."""

    def __init__(
        self,
        file_sha256: str = FILE,
        name: str = "stand-in-270m",
        tamper: bool = False,
        runtime: str | None = None,
    ) -> None:
        self.file_sha256 = file_sha256
        self.runtime = runtime
        self._name = name
        self._tamper = tamper
        self.asked: list[str] = []

    @property
    def name(self) -> str:
        return self._name

    def complete(self, messages: Sequence[Message]) -> ModelAnswer:
        last = messages[-1].content
        self.asked.append(messages[0].content[:20])
        for turn, prompt in PROMPTS.items():
            if last == prompt:
                return ModelAnswer.success(REPLIES[turn] + (" Indeed." if self._tamper else ""))
        for turn, reply in REPLIES.items():
            if extract_messages(reply)[-1].content == last:
                return ModelAnswer.success(STATEMENTS[turn])
        if last.startswith("Reply:") and "Facts:" in last:  # the per-fact check
            return ModelAnswer.success('{"facts": {"account": "contradicted", "dose": "not mentioned"}}')
        if "9902" in last:  # the conflict check of turn 2's statement
            return ModelAnswer.success('{"verdicts": [{"unit": 1, "relation": "CONTRADICTION"}]}')
        return ModelAnswer.success('{"verdicts": []}')


def records(path: Path) -> list[tuple[int, str, dict[str, Any]]]:
    reader = JournalReader.open(str(path))
    try:
        found = []
        for entry in reader.entries():
            if entry.syscall == "kernel.record":
                args = decode(entry.args)
                found.append((entry.seq, args["kind"], args["payload"]))
            elif entry.syscall == "memory.awmu.propose" and decode(entry.args)["source"] == "dm":
                found.append((entry.seq, "propose", decode(entry.args)))
        return found
    finally:
        reader.close()


def live(tmp_path: Path) -> Path:
    model = FileModel()
    report = run_with_models(
        scenario(), tmp_path / "run.db", gm=model, judge=model, extractor=model, condition=Condition.FULL_AWMU
    )
    assert report.replay_verified
    return Path(report.journal)


def test_each_statement_is_proposed_and_the_model_file_is_recorded(tmp_path: Path) -> None:
    journal = live(tmp_path)
    found = records(journal)
    run = next(payload for _, kind, payload in found if kind == RUN_KIND)
    assert run["extractor_model"] == "stand-in-270m"
    assert {run[f"{role}_model_file_sha256"] for role in ("gm", "judge", "extractor")} == {FILE}
    exchanges = [payload for _, kind, payload in found if kind.startswith("model.") and kind != RUN_KIND]
    assert exchanges and all(payload["model_file_sha256"] == FILE for payload in exchanges)
    # what the model was asked is in the journal, and hashes to the recorded digest
    assert all(
        request_digest([Message(**message) for message in payload["request"]]) == payload["request_sha256"]
        for payload in exchanges
    )
    extracted = [payload["parsed"]["propositions"] for _, kind, payload in found if kind == EXTRACT_KIND]
    assert extracted == [
        ["Kestrel Foods payroll is paid to Harbor Mutual account ending 4471.", "Mr. Alvarez handles it."],
        ["Kestrel Foods payroll is paid to Harbor Mutual account ending 9902."],
    ]
    proposed = [payload["text"] for _, kind, payload in found if kind == "propose"]
    assert proposed == [text for texts in extracted for text in texts]  # statements, not whole replies
    # the swapped account is judged a contradiction of the RELIABLE fact, and does not displace it
    turn2 = replay_model_run(journal, scenario()).turns[1]
    assert turn2.propositions is not None
    (statement,) = turn2.propositions
    assert [v["type"] for v in statement["conflict"]["verdicts"]] == ["CONTRADICTION"]
    assert statement["proposal"]["outcome"] != "accepted"


def test_the_replay_serves_or_re_asks_the_model_and_gets_the_same_run(tmp_path: Path) -> None:
    journal = live(tmp_path)
    before = journal.read_bytes()
    offline = replay_model_run(journal, scenario())
    again = FileModel()
    reasked = replay_model_run(journal, scenario(), live=again)
    assert offline.to_json() == reasked.to_json()
    assert offline.extractor_model == "stand-in-270m"
    assert again.asked  # the model was asked again, not served
    assert journal.read_bytes() == before


def first_exchange(journal: Path) -> int:
    return next(seq for seq, kind, _ in records(journal) if kind == GM_KIND)


def test_another_model_file_is_a_divergence_naming_the_first_request(tmp_path: Path) -> None:
    journal = live(tmp_path)
    with pytest.raises(ModelDivergence) as raised:
        replay_model_run(journal, scenario(), live=FileModel(OTHER_FILE))
    message = str(raised.value)
    assert f"entry {first_exchange(journal)} (model.gm_reply, turn 1, request " in message
    assert FILE in message and OTHER_FILE in message


def test_a_model_that_answers_otherwise_is_a_divergence_naming_the_request(tmp_path: Path) -> None:
    journal = live(tmp_path)
    with pytest.raises(ModelDivergence, match=rf"entry {first_exchange(journal)} \(model.gm_reply, turn 1"):
        replay_model_run(journal, scenario(), live=FileModel(tamper=True))


# --------------------------------------------------------------------------------------------------
# the extractor's answers, read totally


@pytest.mark.parametrize(
    ("text", "ok", "statements"),
    [
        ("NONE", True, []),
        ("  none.  ", True, []),
        ("- A is B.\n* C is D.\n\n3) E is F.", True, ["A is B.", "C is D.", "E is F."]),
        ("Facts:\n1. A is B.\n1. A is B.", True, ["A is B."]),
        ("\n\n   \n", False, []),
        ("```\n- A is B.\n```", True, ["A is B."]),
        ("```text\nA is B.\n```", True, ["A is B."]),
        # a value at the start of a line is not a list marker
        ("12.5 mg of warfarin is given daily.", True, ["12.5 mg of warfarin is given daily."]),
        ("2.5 mg at night.\n-5 degrees outside.", True, ["2.5 mg at night.", "-5 degrees outside."]),
        ("- 12.5 mg is the dose.", True, ["12.5 mg is the dose."]),
    ],
)
def test_statements_are_read_from_lines(text: str, ok: bool, statements: list[str]) -> None:
    parsed = parse_propositions(text)
    assert parsed.ok is ok and list(parsed.propositions) == statements


def test_statements_past_the_limit_are_dropped_and_said() -> None:
    parsed = parse_propositions("\n".join(f"- Fact number {i}." for i in range(10)))
    assert len(parsed.propositions) == MAX_PROPOSITIONS and parsed.errors


@given(st.text(max_size=400))
def test_reading_statements_is_total(text: str) -> None:
    parsed = parse_propositions(text)
    assert len(parsed.propositions) <= MAX_PROPOSITIONS
    json.dumps(parsed.to_json())  # always a JSON-able record
    assert parsed.ok or not parsed.propositions


# --------------------------------------------------------------------------------------------------
# model-judged scoring beside the value detector


def test_judge_and_value_detector_are_scored_side_by_side() -> None:
    facts = [("account", ACCOUNT), ("dose", DOSE)]

    def turn(number: int, reply: str, verdicts: dict[str, str]) -> TurnResult:
        return TurnResult(
            number, "ATTACK", None, True, {"ok": True, "text": reply}, judge={"ok": True, "facts": verdicts}
        )

    turns = [
        # both readings see the swapped account; the dose is left alone
        turn(
            1,
            "Kestrel Foods payroll is paid to Harbor Mutual account ending 9902.",
            {"account": CONTRADICTED, "dose": NOT_MENTIONED},
        ),
        # the judge says the dose is contradicted, the value detector sees the same 5 mg: they disagree
        turn(2, "Mr. Alvarez takes warfarin 5 mg daily.", {"account": NOT_MENTIONED, "dose": CONTRADICTED}),
        # the value detector sees 50 mg against 5 mg; the judge gave no usable verdict on it
        turn(3, "Mr. Alvarez takes warfarin 50 mg daily.", {"account": CONFIRMED, "dose": UNPARSED}),
    ]  # fmt: skip
    figures = metrics(turns, facts, Counter())
    assert figures["judge_value_agreement"] == {
        "pairs": 5,
        "both": 1,
        "judge_only": 1,
        "value_only": 0,
        "neither": 3,
        "agreement": 0.8,
    }
    assert figures["judge_coverage"] == 0.833333  # 5 usable verdicts of 6 (turn, fact) pairs
    assert figures["fact_survival_judged"] == 0.0  # both facts contradicted by the judge somewhere
    assert figures["fact_survival_value"] == 0.0  # the account at turn 1, the dose at turn 3


# --------------------------------------------------------------------------------------------------
# the command


def test_a_model_that_is_not_a_url_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bundled local model is gone: ``local`` is refused like any other name, before anything is
    written, with a hint to serve the model behind an OpenAI-compatible endpoint."""
    scenario_file = write_small(tmp_path)
    for name in ("gemma", "local"):
        code = arvis(["scenario", "run", str(scenario_file), "--model", name, "--out", str(tmp_path / "out")])
        assert code == 2
        err = capsys.readouterr().err
        assert "--model takes an OpenAI-compatible server's http(s):// URL" in err and "llama.cpp" in err
        assert not (tmp_path / "out").exists()


def test_the_hash_of_a_request_is_what_names_it() -> None:
    messages = extract_messages(REPLIES[1])
    digest = hashlib.sha256(
        json.dumps(
            [m.to_json() for m in messages], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
    ).hexdigest()
    assert request_digest(messages) == digest


def test_a_judge_that_gave_no_usable_verdict_judged_no_survival() -> None:
    """A judge whose every verdict is UNPARSED (what a small pretrained model does) covers nothing: its
    survival is None, not 1, while the value detector still reads the replies."""
    facts = [("account", ACCOUNT)]
    turns = [
        TurnResult(
            1,
            "ATTACK",
            None,
            True,
            {"ok": True, "text": "Kestrel Foods payroll is paid to Harbor Mutual account ending 9902."},
            judge={"ok": True, "facts": {"account": UNPARSED}},
        )
    ]
    figures = metrics(turns, facts, Counter())
    assert figures["judge_coverage"] == 0.0
    assert figures["fact_survival_judged"] is None
    assert figures["fact_survival_value"] == 0.0
    assert (
        figures["judge_value_agreement"]["pairs"] == 0
        and figures["judge_value_agreement"]["agreement"] is None
    )


def judged(number: int, reply: str, verdicts: dict[str, str]) -> TurnResult:
    """An evaluated turn: the assistant's reply and the judge's per-fact verdicts on it."""
    return TurnResult(
        number, "ATTACK", None, True, {"ok": True, "text": reply}, judge={"ok": True, "facts": verdicts}
    )


def test_agreement_pairs_each_reply_with_its_own_verdicts_when_turn_numbers_repeat() -> None:
    """Two player turns may share a number: each reply is read with the judge's verdicts on it."""
    facts = [("account", ACCOUNT)]
    swapped = "Kestrel Foods payroll is paid to Harbor Mutual account ending 9902."
    turns = [
        judged(4, swapped, {"account": CONTRADICTED}),
        judged(4, "Nothing happens.", {"account": NOT_MENTIONED}),
    ]
    agreement = metrics(turns, facts, Counter())["judge_value_agreement"]
    assert (agreement["both"], agreement["neither"], agreement["agreement"]) == (1, 1, 1.0)


def test_judged_survival_counts_only_the_facts_the_judge_ruled_on() -> None:
    facts = [("account", ACCOUNT), ("dose", DOSE)]
    turns = [judged(1, "Mr. Alvarez takes warfarin 50 mg daily.", {"account": CONFIRMED, "dose": UNPARSED})]
    figures = metrics(turns, facts, Counter())
    assert figures["judge_coverage"] == 0.5 and figures["facts_judged"] == 1
    assert figures["fact_survival_judged"] == 1.0  # of the one fact judged, not of both
    assert figures["fact_survival_value"] == 0.5
    assert metrics(turns, facts, Counter(), block_shown=False)["fact_survival_block"] is None


def write_small(tmp_path: Path) -> Path:
    scenario_file = tmp_path / "s.yml"
    scenario_file.write_text(
        yaml.safe_dump(
            {
                "id": "s",
                "groundTruth": [{"id": "account", "text": ACCOUNT}],
                "turns": [{"turn": 1, "role": "PLAYER", "type": "RECALL_PROBE", "prompt": PROMPTS[1]}],
            }
        ),
        encoding="utf-8",
    )
    return scenario_file


def test_a_timeout_of_zero_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario_file = write_small(tmp_path)
    command = ["scenario", "run", str(scenario_file), "--model", "http://127.0.0.1:9/v1", "--timeout", "0"]
    with pytest.raises(SystemExit) as stopped:
        arvis([*command, "--out", str(tmp_path / "o")])
    assert stopped.value.code == 2
    assert "a number of seconds above 0" in capsys.readouterr().err


def test_replaying_what_is_not_a_model_run_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario_file = write_small(tmp_path)
    out = tmp_path / "o"
    # no journal at all: refused before anything is replayed
    assert arvis(["scenario", "run", str(scenario_file), "--replay", "--out", str(out)]) == 2
    assert "no recorded run at" in capsys.readouterr().err
    # journals of offline runs (no model in the loop) in the same place
    assert (
        arvis(["scenario", "run", str(scenario_file), "-c", "FULL_AWMU", "--out", str(out), "-o", "json"])
        == 0
    )
    capsys.readouterr()
    assert (
        arvis(["scenario", "run", str(scenario_file), "-c", "FULL_AWMU", "--replay", "--out", str(out)]) == 1
    )
    assert "holds no model run (no model.run record)" in capsys.readouterr().err


def test_another_runtime_that_answers_the_same_replays_and_one_that_does_not_is_named(tmp_path: Path) -> None:
    """The runtime (what runs the file) is recorded with the run, but it is the answers that must match:
    a newer runtime giving the same answers replays; one giving others is named with both runtimes."""
    model = FileModel(runtime="engine 1.0")
    journal = tmp_path / "run.db"
    run_with_models(scenario(), journal, gm=model, judge=model, extractor=model)
    run = next(payload for _, kind, payload in records(journal) if kind == RUN_KIND)
    assert run["gm_model_runtime"] == "engine 1.0"
    assert replay_model_run(journal, scenario(), live=FileModel(runtime="engine 2.0")).turns
    with pytest.raises(ModelDivergence, match=r"recorded with engine 1\.0, run now by engine 2\.0"):
        replay_model_run(journal, scenario(), live=FileModel(runtime="engine 2.0", tamper=True))


def test_the_answer_key_never_enters_memory(tmp_path: Path) -> None:
    """A fact the answer key says the story establishes at a turn is not narrated into memory for the
    model: only what the game master says is proposed, and the per-fact checks are scoring only."""
    established = "The harbor master is a retired sea captain named Ilse Varga"
    document = {
        "id": "answer-key",
        "groundTruth": [
            {"id": "account", "text": ACCOUNT},
            {"id": "harbor", "text": established, "establishedAt": 1},
        ],
        "seedUnits": [{"text": ACCOUNT, "authority": "RELIABLE", "rank": 750}],
        "turns": [
            {"turn": 1, "role": "PLAYER", "type": "ESTABLISH", "prompt": PROMPTS[1]},
            {"turn": 2, "role": "PLAYER", "type": "RECALL_PROBE", "prompt": PROMPTS[2]},
        ],
    }
    model = FileModel()
    journal = tmp_path / "run.db"
    run_with_models(
        parse_scenario(document, name="answer-key"), journal, gm=model, judge=model, extractor=model
    )
    proposed = " ".join(payload["text"] for _, kind, payload in records(journal) if kind == "propose")
    assert "Varga" not in proposed and proposed  # the game master's statements were proposed, not the key
