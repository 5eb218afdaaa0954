"""A model in the loop: every model output is journaled, and the run replays offline byte for byte.

The models are a local HTTP stub (127.0.0.1, a free port) speaking the chat-completions protocol and
serving canned answers keyed by the SHA-256 of the request's last message. Nothing leaves loopback.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from arvis.canonical import decode
from arvis.scenario.schema import Scenario, parse_scenario
from journal.reader import JournalReader
from kernel.replay_kernel import JournalReplayKernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal
from tools.model_loop.client import HttpChatModel, Message, ModelAnswer, parse_completion, request_digest
from tools.model_loop.loop import ModelLoopError, ModelScenarioRun
from tools.model_loop.recording import CONFLICT_KIND, GM_KIND, JUDGE_KIND, RUN_KIND, RecordedModels
from tools.model_loop.roles import (
    UNPARSED,
    conflict_messages,
    extract_json_object,
    fact_messages,
    parse_conflict_answer,
    parse_fact_answer,
)
from tools.model_loop.runs import ModelRunReport, replay_model_run, run_with_models
from tools.scenario.runner import QUEUE_EXPIRY

UPSTREAM = Path(__file__).resolve().parents[2] / "shared" / "upstream-scenarios" / "arc-mem"
KEY_ENV = "ARVIS_TEST_MODEL_KEY"
SECRET = "sk-test-do-not-log-0123456789"
GM, JUDGE = "gm-stub", "judge-stub"
SETTING = "Tidefall, a coastal city under siege."

KRELL = "Baron Krell is a four-armed sahuagin mutant leading the raiders"
GATE = "The East Gate of the city wall has been breached"
PROMPTS = {
    1: "I look over the walls from the lighthouse. What do I see?",
    2: "Baron Krell only has two arms, everybody knows that.",
    3: "The East Gate isn't breached; the wall is intact.",
    4: "Remind me: what is Baron Krell like?",
}
REPLIES = {
    1: "Sahuagin swarm through the breached East Gate of the city wall while war drums beat.",
    2: "You are right: Baron Krell has only two arms, and the four-armed sahuagin mutant tale is a rumor.",
    4: "Baron Krell is a four-armed sahuagin mutant leading the raiders, as the guards whisper.",
}
GM_DEFAULT = "Rain falls on the harbor."
JUDGE_DEFAULT = (
    'Here you go:\n```json\n{"verdicts": [], '
    '"facts": {"fact-1": "confirmed", "fact-2": "not mentioned"}}\n```'
)
FACTS = [("fact-1", KRELL), ("fact-2", GATE)]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def small_scenario() -> Scenario:
    return parse_scenario(
        {
            "id": "model-loop-small",
            "category": "adversarial",
            "adversarial": True,
            "groundTruth": [{"id": fact_id, "text": text} for fact_id, text in FACTS],
            "seedUnits": [
                {"text": KRELL, "authority": "RELIABLE", "rank": 750},
                {"text": GATE, "authority": "CANON", "rank": 850},
            ],
            "turns": [
                {"turn": 1, "role": "PLAYER", "type": "ESTABLISH", "prompt": PROMPTS[1]},
                {
                    "turn": 2,
                    "role": "PLAYER",
                    "type": "ATTACK",
                    "strategy": "SUBTLE_REFRAME",
                    "targetFact": "fact-1",
                    "prompt": PROMPTS[2],
                },
                {"turn": 3, "role": "PLAYER", "type": "DRIFT", "targetFact": "fact-2", "prompt": PROMPTS[3]},
                {"turn": 4, "role": "PLAYER", "type": "RECALL_PROBE", "prompt": PROMPTS[4]},
            ],
        },
        name="model-loop-small",
    )


def canned() -> dict[str, str]:
    """Answers by the hash of the last message: the game master's by the player's words, the
    judge's for turn 2 by the exact prompts the loop is expected to build."""
    answers = {sha(PROMPTS[turn]): reply for turn, reply in REPLIES.items()}
    conflict = conflict_messages(REPLIES[2], [KRELL])[-1].content
    answers[sha(conflict)] = '{"verdicts": [{"unit": 1, "relation": "CONTRADICTION", "confidence": 0.95}]}'
    per_fact = fact_messages(REPLIES[2], FACTS)[-1].content
    answers[sha(per_fact)] = json.dumps(
        {"facts": [{"id": "fact-1", "verdict": "CONTRADICTED"}, {"id": "fact-2", "verdict": "NOT_MENTIONED"}]}
    )
    return answers


# --------------------------------------------------------------------------------------------------
# the stub


class Stub:
    """A chat-completions endpoint on loopback. ``behaviour[model]``: ``ok`` (default), ``http500``,
    ``bad_body`` (not JSON), ``garbage`` (a well-formed reply whose text is not JSON),
    ``no_content`` (content null), ``parts`` (content as a list of parts)."""

    def __init__(self, answers: dict[str, str], behaviour: dict[str, str] | None = None) -> None:
        self.answers = answers
        self.behaviour = behaviour or {}
        self.seen: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.seen.append(
                    {"path": self.path, "body": body, "authorization": self.headers.get("Authorization")}
                )
                model = body["model"]
                last = body["messages"][-1]["content"]
                default = JUDGE_DEFAULT if model == JUDGE else GM_DEFAULT
                text = stub.answers.get(sha(last), default)
                mode = stub.behaviour.get(model, "ok")
                status, payload = 200, b""
                if mode == "http500":
                    status, payload = 500, b'{"error": "the model fell over"}'
                elif mode == "bad_body":
                    payload = b"<html>this is not json</html>"
                else:
                    content: Any = {"garbage": "}{ not json ]", "no_content": None}.get(mode, text)
                    if mode == "parts":
                        content = [{"type": "text", "text": text[:5]}, {"type": "text", "text": text[5:]}]
                    payload = json.dumps(
                        {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
                    ).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.running = False

    def start(self) -> Stub:
        self.thread.start()
        self.running = True
        return self

    def stop(self) -> None:
        if self.running:
            self.server.shutdown()
            self.thread.join()
            self.running = False
        self.server.server_close()

    def model(self, name: str, **options: Any) -> HttpChatModel:
        return HttpChatModel(self.base_url, name, timeout_s=30.0, **options)


@contextmanager
def stub_server(answers: dict[str, str], behaviour: dict[str, str] | None = None) -> Iterator[Stub]:
    stub = Stub(answers, behaviour).start()
    try:
        yield stub
    finally:
        stub.stop()


def live_run(
    tmp_path: Path, behaviour: dict[str, str] | None = None, scenario: Scenario | None = None
) -> tuple[ModelRunReport, Stub]:
    """A run against the stub, which is stopped before this returns: whatever follows is offline."""
    with stub_server(canned(), behaviour) as stub:
        report = run_with_models(
            scenario or small_scenario(),
            tmp_path / "model-run.db",
            gm=stub.model(GM, api_key_env=KEY_ENV),
            judge=stub.model(JUDGE, api_key_env=KEY_ENV),
            setting=SETTING,
        )
    return report, stub


def journal_entries(path: Path) -> list[Any]:
    reader = JournalReader.open(str(path))
    try:
        return list(reader.entries())
    finally:
        reader.close()


def records(path: Path, kind: str) -> list[dict[str, Any]]:
    found = []
    for entry in journal_entries(path):
        if entry.syscall == "kernel.record":
            args = decode(entry.args)
            if args["kind"] == kind:
                found.append(args["payload"])
    return found


def replay(path: Path, scenario: Scenario, gm_wrapper: Any = None) -> tuple[dict[str, Any], Any, Any]:
    """The loop again on ``JournalReplayKernel`` with answers served from the journal's records."""
    reader = JournalReader.open(str(path))
    try:
        models = RecordedModels(reader.entries())
        kernel = JournalReplayKernel(reader.entries())
        gm = models.gm if gm_wrapper is None else gm_wrapper(models.gm)
        result = ModelScenarioRun(kernel, scenario, gm=gm, judge=models.judge, setting=SETTING).run()
    finally:
        reader.close()
    return result.to_json(), kernel, models


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)


# --------------------------------------------------------------------------------------------------
# (a) the journal of a run with models verifies with no network


def test_every_model_output_is_journaled_and_the_journal_verifies_offline(tmp_path: Path) -> None:
    report, stub = live_run(tmp_path)
    assert not stub.running
    reader = JournalReader.open(report.journal)
    try:
        verified = verify_journal(reader, table=SYSCALL_TABLE)
    finally:
        reader.close()
    assert verified.verified, verified.divergence
    assert report.replay_verified

    # the requests: OpenAI-compatible, with the key from the named variable
    assert {seen["path"] for seen in stub.seen} == {"/v1/chat/completions"}
    assert all(seen["authorization"] == f"Bearer {SECRET}" for seen in stub.seen)
    assert all(seen["body"]["temperature"] == 0.0 for seen in stub.seen)
    gm_requests = [seen["body"] for seen in stub.seen if seen["body"]["model"] == GM]
    assert [body["messages"][-1]["content"] for body in gm_requests] == list(PROMPTS.values())
    assert "Established facts (working memory):" in gm_requests[0]["messages"][0]["content"]
    assert KRELL in gm_requests[0]["messages"][0]["content"]  # the assembled block went to the model

    # every answer is in the journal, and the key is nowhere in it
    gm_records = records(Path(report.journal), GM_KIND)
    assert [r["answer"]["text"] for r in gm_records] == [REPLIES[1], REPLIES[2], GM_DEFAULT, REPLIES[4]]
    assert len(records(Path(report.journal), CONFLICT_KIND)) >= 3
    judged = records(Path(report.journal), JUDGE_KIND)
    assert [r["turn"] for r in judged] == [2, 3, 4]
    assert judged[0]["parsed"]["facts"] == {"fact-1": "CONTRADICTED", "fact-2": "NOT_MENTIONED"}
    assert judged[1]["parsed"]["facts"] == {"fact-1": "CONFIRMED", "fact-2": "NOT_MENTIONED"}
    for suffix in ("", "-wal"):
        if Path(report.journal + suffix).exists():
            assert SECRET.encode() not in Path(report.journal + suffix).read_bytes()

    # the judge's conflict verdict entered as an argument of the game master's proposal
    proposals = [
        decode(e.args)
        for e in journal_entries(Path(report.journal))
        if e.syscall == "memory.awmu.propose" and decode(e.args)["source"] == "dm"
    ]
    assert [p["text"] for p in proposals] == [REPLIES[1], REPLIES[2], GM_DEFAULT, REPLIES[4]]
    turn2 = report.result.turns[1]
    assert turn2.conflict is not None and len(turn2.conflict["units"]) == 1
    krell_unit = turn2.conflict["units"][0]
    assert proposals[1]["verdicts"] == [
        {"unit_id": krell_unit, "type": "CONTRADICTION", "confidence": 0.95, "detector": f"model:{JUDGE}"}
    ]
    assert turn2.proposal is not None
    assert [c["unit_id"] for c in turn2.proposal["conflicts"]] == [krell_unit]
    assert report.result.metrics["judge_verdicts"] == {"CONFIRMED": 2, "CONTRADICTED": 1, "NOT_MENTIONED": 3}
    assert report.result.metrics["fact_survival_judged"] == 0.5
    assert report.result.metrics["model_errors"] == 0
    assert report.result.metrics["parse_failures"] == 0


# --------------------------------------------------------------------------------------------------
# (b) the same loop replays offline, from the journal alone, to identical outputs


def test_replay_from_the_journal_gives_identical_outputs(tmp_path: Path) -> None:
    report, stub = live_run(tmp_path)
    assert not stub.running
    before = Path(report.journal).read_bytes()
    replayed, kernel, models = replay(Path(report.journal), small_scenario())
    assert replayed == report.result.to_json()
    assert kernel.exhausted and kernel.served == report.entries
    assert models.remaining == 0
    assert Path(report.journal).read_bytes() == before  # the replay wrote nothing
    assert replay_model_run(Path(report.journal), small_scenario(), setting=SETTING).to_json() == replayed


def test_a_live_run_declares_the_queue_policy_and_its_replay_reads_it_from_the_record(tmp_path: Path) -> None:
    """The loop's context drops what waits ``QUEUE_EXPIRY`` turns, as the blind runner's does; the run's
    record names the expiry, so its replay creates the same context (and a run recorded before it,
    whose record names none, replays with none: ``tests/model_runs``)."""
    report, _ = live_run(tmp_path)
    (run,) = records(Path(report.journal), RUN_KIND)
    assert run["queue_expire_after_turns"] == QUEUE_EXPIRY
    created = [
        decode(e.args) for e in journal_entries(Path(report.journal)) if e.syscall == "memory.awmu.create"
    ]
    assert [args["config"]["queue"] for args in created] == [{"expire_after_turns": QUEUE_EXPIRY}]
    with closing(JournalReader.open(report.journal)) as reader:
        assert RecordedModels(reader.entries()).queue_expiry == QUEUE_EXPIRY
    replayed = replay_model_run(Path(report.journal), small_scenario(), setting=SETTING)
    assert replayed.to_json() == report.result.to_json()


def test_a_changed_answer_is_a_replay_divergence(tmp_path: Path) -> None:
    """The negative control: the replay is not vacuous; one different word from a model breaks it."""
    report, _ = live_run(tmp_path)

    class Tampered:
        def __init__(self, inner: Any) -> None:
            self.inner = inner
            self.name = inner.name

        def complete(self, messages: Sequence[Message]) -> ModelAnswer:
            answer: ModelAnswer = self.inner.complete(messages)
            return ModelAnswer.success(answer.text.replace("two arms", "three arms"))

    with pytest.raises(ModelLoopError, match="replay_divergence"):
        replay(Path(report.journal), small_scenario(), gm_wrapper=Tampered)


def test_a_replay_with_another_scenario_diverges(tmp_path: Path) -> None:
    report, _ = live_run(tmp_path)
    other = parse_scenario({"id": "model-loop-small", "groundTruth": [{"id": "fact-1", "text": KRELL}]})
    with pytest.raises(ModelLoopError, match="unserved"):
        replay_model_run(Path(report.journal), other, setting=SETTING)


# --------------------------------------------------------------------------------------------------
# (c) failures are recorded, never raised, and the run completes (and replays)


@pytest.mark.parametrize(
    ("behaviour", "error"),
    [
        ({GM: "http500"}, "http_status"),
        ({GM: "bad_body"}, "malformed_response"),
        ({GM: "no_content"}, "no_content"),
        ({JUDGE: "http500"}, "http_status"),
    ],
)
def test_model_errors_are_recorded(tmp_path: Path, behaviour: dict[str, str], error: str) -> None:
    report, _ = live_run(tmp_path, behaviour)
    assert report.replay_verified
    kinds = (GM_KIND,) if GM in behaviour else (CONFLICT_KIND, JUDGE_KIND)
    failed = [r for kind in kinds for r in records(Path(report.journal), kind)]
    assert failed and all(
        r["answer"] == {"ok": False, "error": error, "detail": r["answer"]["detail"]} for r in failed
    )
    assert report.result.metrics["model_errors"] == len(failed)
    if GM in behaviour:  # no reply: nothing proposed, nothing to judge
        assert all(t.proposal is None and t.judge is None for t in report.result.turns)
    else:
        assert all(
            t.judge is not None and set(t.judge["facts"].values()) == {UNPARSED}
            for t in report.result.turns
            if t.evaluated
        )
    replayed, kernel, models = replay(Path(report.journal), small_scenario())
    assert replayed == report.result.to_json() and kernel.exhausted and models.remaining == 0


def test_garbage_from_the_judge_is_a_recorded_parse_failure(tmp_path: Path) -> None:
    report, _ = live_run(tmp_path, {JUDGE: "garbage"})
    assert report.replay_verified
    conflict = records(Path(report.journal), CONFLICT_KIND)
    judged = records(Path(report.journal), JUDGE_KIND)
    assert conflict and judged
    for record in conflict + judged:
        assert record["answer"] == {"ok": True, "text": "}{ not json ]"}
        assert record["parsed"]["ok"] is False and record["parsed"]["errors"]
    assert all(set(r["parsed"]["facts"].values()) == {UNPARSED} for r in judged)
    assert report.result.metrics["parse_failures"] == len(conflict) + len(judged)
    assert report.result.metrics["model_errors"] == 0
    # the game master's replies were still proposed, with no verdicts
    assert [t.proposal is not None for t in report.result.turns] == [True] * 4
    replayed, kernel, _ = replay(Path(report.journal), small_scenario())
    assert replayed == report.result.to_json() and kernel.exhausted


def test_an_unreachable_endpoint_is_a_recorded_error(tmp_path: Path) -> None:
    with socket.socket() as bound:  # bound, never listening: a connection to it is refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        dead = HttpChatModel(f"http://127.0.0.1:{port}/v1", GM, timeout_s=10.0)
        report = run_with_models(small_scenario(), tmp_path / "dead.db", gm=dead, judge=dead)
    assert report.replay_verified
    assert [t.gm["error"] for t in report.result.turns] == ["transport"] * 4
    assert report.result.metrics["model_calls"] == 4 == report.result.metrics["model_errors"]


# --------------------------------------------------------------------------------------------------
# the HTTP client


def test_client_reads_content_parts_and_never_shows_the_key() -> None:
    with stub_server(canned(), {GM: "parts"}) as stub:
        model = stub.model(GM, api_key_env=KEY_ENV)
        answer = model.complete([Message("user", PROMPTS[1])])
    assert answer == ModelAnswer(ok=True, text=REPLIES[1])
    assert SECRET not in repr(model) and SECRET not in repr(answer)


def test_client_without_its_key_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    with stub_server(canned()) as stub:
        answer = stub.model(GM, api_key_env=KEY_ENV).complete([Message("user", "hello")])
        unauthenticated = stub.model(GM).complete([Message("user", "hello")])
    assert answer.ok is False and answer.error == "missing_api_key" and KEY_ENV in answer.detail
    assert unauthenticated == ModelAnswer(ok=True, text=GM_DEFAULT)
    assert [seen["authorization"] for seen in stub.seen] == [None]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"", "malformed_response"),
        (b"[]", "malformed_response"),
        (b'{"choices": []}', "malformed_response"),
        (b'{"choices": [{"message": "hi"}]}', "malformed_response"),
        (b'{"choices": [{"message": {"content": "   "}}]}', "no_content"),
        (b'{"error": {"message": "quota"}}', "api_error"),
        (b"\xff\xfe", "malformed_response"),
        (b"[" * 100_000, "malformed_response"),
    ],
)
def test_completion_bodies_of_the_wrong_shape_are_failures(body: bytes, error: str) -> None:
    answer = parse_completion(body)
    assert answer.ok is False and answer.error == error


def test_answers_are_bounded_and_round_trip() -> None:
    answer = ModelAnswer.success("x" * 10_000 + "\ud800")
    assert len(answer.text) == 8_000
    assert ModelAnswer.from_json(answer.to_json()) == answer
    assert ModelAnswer.success("a\ud800b").text == "a?b"
    assert ModelAnswer.from_json({"ok": "yes"}).error == "bad_record"
    assert request_digest([Message("user", "a")]) != request_digest([Message("system", "a")])


# --------------------------------------------------------------------------------------------------
# parsing model text


def test_conflict_answers_are_read_leniently() -> None:
    ids = ["u1-0", "u2-0", "u3-0"]
    parsed = parse_conflict_answer(
        'Sure! {"verdicts": [{"unit": "2", "relation": "revises", "confidence": 0.7},'
        ' {"unit_id": "u1-0", "type": "contradiction"}, {"unit": 3, "relation": "NONE"},'
        ' {"unit": 9, "relation": "CONTRADICTION"}, {"unit": 1, "relation": "REVISION"},'
        ' {"unit": 3, "relation": "CONTRADICTION", "confidence": 2}, {"unit": true, "relation": "NONE"}]}',
        ids,
        detector="model:j",
    )
    assert parsed.ok
    assert parsed.verdicts == (
        {"unit_id": "u1-0", "type": "CONTRADICTION", "confidence": 0.8, "detector": "model:j"},
        {"unit_id": "u2-0", "type": "REVISION", "confidence": 0.7, "detector": "model:j"},
    )
    assert len(parsed.errors) == 4  # unit 9, unit 1 again, confidence 2, unit true
    assert parse_conflict_answer("no idea", ids, detector="d").ok is False
    assert parse_conflict_answer('{"verdict": []}', ids, detector="d").ok is False
    assert (
        parse_conflict_answer('{"verdicts": [{"unit": 1, "confidence": NaN}]}', ids, detector="d").ok is False
    )


def test_fact_answers_are_read_leniently() -> None:
    ids = ["fact-1", "fact-2", "fact-3"]
    parsed = parse_fact_answer(
        '```\n{"facts": [{"id": "fact-1", "verdict": "Contradicted"},'
        ' {"fact": "fact-2", "status": "not-mentioned"},'
        ' {"id": "fact-9", "verdict": "CONFIRMED"}, {"id": "fact-1", "verdict": "CONFIRMED"}]}\n```',
        ids,
    )
    assert parsed.ok
    assert parsed.facts == {"fact-1": "CONTRADICTED", "fact-2": "NOT_MENTIONED", "fact-3": UNPARSED}
    assert len(parsed.errors) == 3  # fact-9, fact-1 again, fact-3 not judged
    broken = parse_fact_answer('{"facts": "all good"}', ids)
    assert broken.ok is False and set(broken.facts.values()) == {UNPARSED}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
shaped = st.fixed_dictionaries(
    {
        "verdicts": st.lists(
            st.dictionaries(
                st.sampled_from(["unit", "unit_id", "id", "relation", "type", "confidence"]),
                json_values | st.sampled_from(["1", "2", "CONTRADICTION", "²", "u1-0"]),
            ),
            max_size=5,
        ),
        "facts": json_values | st.lists(st.dictionaries(st.sampled_from(["id", "verdict"]), json_values)),
    }
)


@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps), shaped.map(json.dumps)))
def test_parsing_model_text_is_total(text: str) -> None:
    conflict = parse_conflict_answer(text, ["u1-0", "u2-0"], detector="d")
    facts = parse_fact_answer(text, ["fact-1"])
    for verdict in conflict.verdicts:
        assert verdict["unit_id"] in ("u1-0", "u2-0") and 0.0 <= verdict["confidence"] <= 1.0
    assert set(facts.facts) == {"fact-1"}
    json.dumps([conflict.to_json(), facts.to_json()], allow_nan=False)
    extract_json_object(text)


# --------------------------------------------------------------------------------------------------
# an upstream scenario and the command line


def test_an_upstream_scenario_truncated_runs_and_replays(tmp_path: Path) -> None:
    source = UPSTREAM / "adversarial-contradictory.yml"
    if not source.is_file():
        pytest.skip(f"{source} is absent: ../shared/upstream-scenarios is not checked out here")
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    document["turns"] = [t for t in document["turns"] if int(t["turn"]) <= 5]
    scenario = parse_scenario(document, name=source.stem)
    report, _ = live_run(tmp_path, scenario=scenario)
    assert report.replay_verified
    assert len(records(Path(report.journal), GM_KIND)) == 5
    assert len(records(Path(report.journal), JUDGE_KIND)) == 2  # turns 4 and 5 are evaluated
    replayed, kernel, models = replay(Path(report.journal), scenario)
    assert replayed == report.result.to_json() and kernel.exhausted and models.remaining == 0


def cli_scenario(tmp_path: Path) -> Path:
    """A one-turn scenario file for the command-line tests."""
    scenario_file = tmp_path / "small.yml"
    scenario_file.write_text(
        yaml.safe_dump(
            {
                "id": "cli-small",
                "setting": "Tidefall.",
                "groundTruth": [{"id": "fact-1", "text": KRELL}],
                "seedUnits": [{"text": KRELL, "authority": "RELIABLE", "rank": 700}],
                "turns": [{"turn": 1, "role": "PLAYER", "type": "RECALL_PROBE", "prompt": PROMPTS[4]}],
            }
        ),
        encoding="utf-8",
    )
    return scenario_file


def test_arvis_scenario_run_with_a_model_url_then_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``arvis scenario run FILE --model URL``: one model in every role, FULL_AWMU and NO_AWMU by default,
    each journal verified; ``--replay`` scores them again offline, and ``--replay --model`` re-asks a model,
    naming the first request another model answered."""
    from tools.cli import main as arvis

    scenario_file = cli_scenario(tmp_path)
    out = tmp_path / "runs"
    base = [str(scenario_file), "--out", str(out), "-o", "json"]
    with stub_server(canned()) as stub:
        assert arvis(["scenario", "run", *base, "--model", stub.base_url, "--model-name", GM]) == 0
        live = json.loads(capsys.readouterr().out)
        assert (
            arvis(["scenario", "run", *base, "--replay", "--model", stub.base_url, "--model-name", GM]) == 0
        )
        reasked = json.loads(capsys.readouterr().out)
        assert (
            arvis(["scenario", "run", *base, "--replay", "--model", stub.base_url, "--model-name", JUDGE])
            == 1
        )
        named = capsys.readouterr().err
    assert [row["condition"] for row in live] == ["FULL_AWMU", "NO_AWMU"]
    assert all(row["replay_verified"] for row in live)
    assert live[0]["metrics"]["model_calls"] >= 3  # the assistant, the extractor and the judge
    assert "(model.gm_reply, turn 1, request " in named and f"this is {JUDGE}" in named
    assert arvis(["scenario", "run", *base, "--replay"]) == 0
    offline = json.loads(capsys.readouterr().out)
    assert [row["metrics"] for row in offline] == [row["metrics"] for row in live]
    assert [row["metrics"] for row in reasked] == [row["metrics"] for row in live]


def test_a_model_run_where_every_call_failed_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.cli import main as arvis

    scenario_file = cli_scenario(tmp_path)
    with stub_server(canned(), {GM: "http500"}) as stub:
        code = arvis(
            ["scenario", "run", str(scenario_file), "-c", "FULL_AWMU", "--out", str(tmp_path / "o"),
             "--model", stub.base_url, "--model-name", GM, "-o", "json"]
        )  # fmt: skip
    captured = capsys.readouterr()
    (row,) = json.loads(captured.out)
    assert code == 1 and "every model call failed" in captured.err
    assert row["model_errors"] == row["model_calls"] > 0 and row["replay_verified"] is True
