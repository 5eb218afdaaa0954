"""The working memory's model judge (``kernel.judge``) against a real OpenAI-compatible server on loopback.

The server is the test's own (``http.server`` in a thread) and answers what each test scripts: verdicts,
a reply too slow for the judge's timeout, or nonsense. Every journal is verified after the server is shut
down, by a replay that binds no judge: the verdicts are read back from the journal, never asked again.
Sentences are the tests' own (a lab's freezers, a ferry timetable).
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import msgspec
import pytest
from strategies import VOUCHED

from journal.reader import JournalReader
from journal.store import ManualClock
from kernel.dispatcher import Kernel
from kernel.judge import HttpJudge, parse_answer
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

AGENT = "agent:assistant"
OPERATOR = "operator:alice"
CTX = "lab"
MODEL = "test-judge-1"

FREEZER = "The freezer in bay 3 holds samples at minus 80 degrees"
FREEZER_OTHER = "The freezer in bay 3 holds samples at minus 70 degrees"
FERRY = "The morning ferry to the island leaves at 7 am"
UNRELATED = "The seminar room projector needs an HDMI adapter"


@dataclass
class Script:
    """What the server answers: ``reply`` of the fact ids asked; what it was sent, in order."""

    reply: Callable[[list[str]], bytes] = field(default=lambda ids: b"")
    slow: bool = False
    bodies: list[bytes] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)


def _each(verdict: str, confidence: object) -> Callable[[list[str]], bytes]:
    """A reply of one verdict on every fact asked."""
    return lambda ids: _reply([{"id": i, "verdict": verdict, "confidence": confidence} for i in ids])


def _fixed(reply: bytes) -> Callable[[list[str]], bytes]:
    return lambda ids: reply


def _reply(answers: list[dict[str, Any]] | str) -> bytes:
    content = answers if isinstance(answers, str) else json.dumps({"answers": answers})
    return json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            script.bodies.append(body)
            if script.slow:
                script.release.wait(10)
            question = json.loads(json.loads(body)["messages"][1]["content"])
            reply = script.reply([fact["id"] for fact in question["facts"]])
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", script
    finally:
        script.release.set()
        httpd.shutdown()
        httpd.server_close()


def _open(path: Path, judge: HttpJudge | None) -> Kernel:
    services = default_services()
    bound = KernelServiceRegistry(
        memory_service=services.memory_service, working_memory_service=services.working_memory_service
    )
    kernel = open_kernel(
        str(path),
        clock=ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1)),
        services=bound,
        identity=VOUCHED,
        create=True,
        judge=judge,
    )
    for capability in ("read", "write"):
        granted = kernel.call(
            "access.grant", {"principal": AGENT, "capability": capability, "scope": "*"}, principal=OPERATOR
        )
        assert granted.ok, granted.to_dict()
    return kernel


def call(k: Kernel, name: str, args: dict[str, Any], principal: str = AGENT) -> dict[str, Any]:
    result = k.call(f"memory.awmu.{name}", {"context_id": CTX, **args}, principal=principal)
    assert result.ok, result.to_dict()
    return msgspec.json.decode(msgspec.json.encode(result.value))


def say(k: Kernel, text: str, source: str = "tool:monitor") -> dict[str, Any]:
    return call(k, "propose", {"text": text, "source": source, "confidence": 0.8})


def _judge_run(result: dict[str, Any]) -> dict[str, Any]:
    (run,) = [run for run in result["detectors"] if run["name"] == "judge"]
    return run


def _verified(path: Path) -> None:
    """Replay with no judge bound (and, where the test says so, no server running): byte for byte."""
    reopened = open_kernel(str(path), services=default_services(), identity=VOUCHED)
    try:
        report = verify_journal(JournalReader(reopened.store.engine), table=SYSCALL_TABLE)
        assert report.verified, report.to_json()
    finally:
        reopened.close()


def _two_values(tmp_path: Path, url: str, timeout_s: float = 5.0) -> tuple[Path, str, dict[str, Any]]:
    path = tmp_path / "judged.db"
    kernel = _open(path, HttpJudge(url, MODEL, timeout_s))
    try:
        call(kernel, "create", {"rules": 3}, OPERATOR)  # one agent speaks for several sources
        old = say(kernel, FREEZER)["unit_id"]
        result = say(kernel, FREEZER_OTHER)
    finally:
        kernel.close()
    return path, old, result


def test_without_a_judge_its_own_sources_changed_value_is_a_contradiction_that_waits(tmp_path: Path) -> None:
    path = tmp_path / "offline.db"
    kernel = _open(path, None)
    try:
        call(kernel, "create", {"rules": 3}, OPERATOR)  # one agent speaks for several sources
        say(kernel, FREEZER)
        result = say(kernel, FREEZER_OTHER)
    finally:
        kernel.close()
    assert result["outcome"] == "queued_for_review" and result["reasons"] == ["contradiction"]
    assert all(run["name"] != "judge" for run in result["detectors"])


def test_a_judged_revision_supersedes_and_the_journal_verifies_without_the_server(
    tmp_path: Path, server: tuple[str, Script]
) -> None:
    url, script = server
    script.reply = _each("REVISION", 0.9)
    path, old, result = _two_values(tmp_path, url)
    assert result["outcome"] == "promoted" and result["superseded"] == [old]
    (conflict,) = result["conflicts"]
    assert (
        conflict["type"] == "REVISION" and conflict["detector"] == "judge" and conflict["reason"] == "source"
    )
    assert conflict["confidence"] == 0.9
    run = _judge_run(result)
    assert run["status"] == "ok" and run["version"] == MODEL
    assert run["verdicts"] == [{"unit_id": old, "verdict": "REVISION", "confidence": 0.9}]
    (body,) = script.bodies  # asked once, about the one pair the value detector found
    assert run["request_hash"] == hashlib.sha256(body).hexdigest()
    sent = json.loads(body)
    assert sent["model"] == MODEL and FREEZER in sent["messages"][1]["content"]
    server_down = script.bodies.copy()
    _verified(path)
    assert script.bodies == server_down  # the replay asked nothing


def test_a_judge_that_says_none_on_a_learned_fact_lets_both_stand(
    tmp_path: Path, server: tuple[str, Script]
) -> None:
    url, script = server
    script.reply = _each("NONE", 0.7)
    path, _, result = _two_values(tmp_path, url)
    assert result["outcome"] == "promoted" and result["conflicts"] == []
    assert "superseded" not in result or result["superseded"] == []
    _verified(path)


def test_a_model_cannot_wave_off_a_conflict_on_a_trusted_fact(
    tmp_path: Path, server: tuple[str, Script]
) -> None:
    url, script = server
    script.reply = _each("NONE", 0.99)
    path = tmp_path / "trusted.db"
    kernel = _open(path, HttpJudge(url, MODEL))
    try:
        call(kernel, "create", {"rules": 3}, OPERATOR)  # one agent speaks for several sources
        call(kernel, "seed", {"text": FREEZER, "authority": "RELIABLE"}, OPERATOR)
        result = say(kernel, FREEZER_OTHER, source="user:dana")
    finally:
        kernel.close()
    assert result["outcome"] == "queued_for_review"
    assert result["conflicts"][0]["detector"] != "judge"
    assert _judge_run(result)["status"] == "ok"
    _verified(path)


def test_the_judge_is_not_asked_when_the_detectors_found_no_pair(
    tmp_path: Path, server: tuple[str, Script]
) -> None:
    url, script = server
    script.reply = _fixed(_reply("nothing"))
    path = tmp_path / "unasked.db"
    kernel = _open(path, HttpJudge(url, MODEL))
    try:
        call(kernel, "create", {"rules": 3}, OPERATOR)  # one agent speaks for several sources
        say(kernel, FERRY)
        result = say(kernel, UNRELATED)
    finally:
        kernel.close()
    assert result["outcome"] == "promoted" and script.bodies == []
    assert all(run["name"] != "judge" for run in result["detectors"])
    _verified(path)


@pytest.mark.parametrize(
    "reply",
    [
        _fixed(_reply("I think they disagree.")),
        _each("MAYBE", 0.5),
        _each("REVISION", 1.5),
        _each("REVISION", "high"),
        _fixed(_reply([{"id": "u9", "verdict": "REVISION", "confidence": 0.5}])),
        _fixed(b"not json at all"),
    ],
)
def test_a_garbage_answer_falls_back_to_the_detectors_and_is_recorded(
    tmp_path: Path, server: tuple[str, Script], reply: Callable[[list[str]], bytes]
) -> None:
    url, script = server
    script.reply = reply
    path, _, result = _two_values(tmp_path, url)
    assert result["outcome"] == "queued_for_review" and result["reasons"] == ["contradiction"]
    run = _judge_run(result)
    assert run["status"] == "garbage" and "verdicts" not in run and run["request_hash"]
    _verified(path)


def test_a_judge_slower_than_its_timeout_falls_back_and_is_recorded(
    tmp_path: Path, server: tuple[str, Script]
) -> None:
    url, script = server
    script.reply = _each("REVISION", 0.9)
    script.slow = True  # answers only once the test is over
    path, _, result = _two_values(tmp_path, url, timeout_s=0.2)
    script.release.set()
    assert result["outcome"] == "queued_for_review" and result["reasons"] == ["contradiction"]
    assert _judge_run(result)["status"] == "timeout"
    _verified(path)


def test_an_unreachable_judge_falls_back_and_is_recorded(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    path, _, result = _two_values(tmp_path, f"http://127.0.0.1:{port}/v1")
    assert result["outcome"] == "queued_for_review" and result["reasons"] == ["contradiction"]
    run = _judge_run(result)
    assert run["status"] == "failed" and run["version"] == MODEL and run["detail"] == "ConnectionRefusedError"
    _verified(path)


def test_parse_answer_wants_one_known_verdict_per_pair() -> None:
    good = _reply(
        [{"id": "b", "verdict": "NONE", "confidence": 0}, {"id": "a", "verdict": "REVISION", "confidence": 1}]
    )
    assert [(v.unit_id, v.verdict, v.confidence) for v in parse_answer(good, ["a", "b"])] == [
        ("a", "REVISION", 1.0),
        ("b", "NONE", 0.0),
    ]
    fenced = _reply(
        '```json\n{"answers": [{"id": "a", "verdict": "CONTRADICTION", "confidence": 0.25}]}\n```'
    )
    assert parse_answer(fenced, ["a"])[0].verdict == "CONTRADICTION"
    for bad in (
        _reply([{"id": "a", "verdict": "REVISION", "confidence": 0.5}]),  # b left out
        _reply(
            [
                {"id": "a", "verdict": "REVISION", "confidence": True},
                {"id": "b", "verdict": "NONE", "confidence": 0},
            ]
        ),
    ):
        with pytest.raises((ValueError, LookupError, TypeError)):
            parse_answer(bad, ["a", "b"])


def test_arvis_call_binds_the_judge_its_judge_url_names(
    tmp_path: Path, server: tuple[str, Script], capsys: pytest.CaptureFixture[str]
) -> None:
    url, script = server
    script.reply = _each("REVISION", 0.8)
    db = tmp_path / "cli.db"
    admin = ("--principal", "operator:local")  # --create writes the admin key it needs

    def arvis(syscall: str, args: dict[str, Any], *more: str) -> dict[str, Any]:
        code, out, err = h.cli(capsys, "call", syscall, "--db", db, *admin, "--args", json.dumps(args), *more)
        assert code == 0, err
        answer: dict[str, Any] = json.loads(out)["value"]
        return answer

    arvis("memory.awmu.create", {"context_id": CTX}, "--create")
    judged = ("--judge-url", url, "--judge-model", MODEL)
    first = {"context_id": CTX, "text": FREEZER, "confidence": 0.8}  # the operator's own channel
    old = arvis("memory.awmu.propose", first, *judged)["unit_id"]
    result = arvis("memory.awmu.propose", {**first, "text": FREEZER_OTHER}, *judged)
    assert result["superseded"] == [old] and _judge_run(result)["status"] == "ok"
    assert len(script.bodies) == 1
    _verified(db)
    code, _, err = h.cli(
        capsys, "call", "memory.awmu.list", "--db", db, *admin, "--judge-url", url, "--judge-timeout", "0"
    )
    assert code == 2 and "--judge-timeout" in err


@contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A loopback server of ``handler`` for the block: its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed_and_the_token_never_leaves_the_judges_origin(code: int) -> None:
    """Server A sends the judge to server B (another port, so another origin): B must never see the bearer
    token, and the run fails as any HTTP error does (the offline detectors decide)."""
    seen: list[str | None] = []

    class Elsewhere(_Quiet):
        def answer(self) -> None:
            seen.append(self.headers.get("Authorization"))
            reply = _each("REVISION", 0.9)(["u1"])
            self.send_response(200)
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        do_GET = do_POST = answer

    with _serving(Elsewhere) as other:

        class Redirecting(_Quiet):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(code)
                self.send_header("Location", f"{other}/v1/chat/completions")
                self.send_header("Content-Length", "0")
                self.end_headers()

        with _serving(Redirecting) as url:
            run = HttpJudge(f"{url}/v1", MODEL, 2.0, api_key="sk-secret").judge(FERRY, [("u1", FREEZER)])
    assert seen == [] and (run.status, run.detail) == ("failed", f"HTTP {code}")


def _sockets() -> int:
    """The process's open sockets."""
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if _link(fd).startswith("socket:"))


def _link(fd: Path) -> str:
    try:
        return str(fd.readlink())
    except OSError:  # closed since it was listed (the listing's own descriptor)
        return ""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts sockets in /proc")
def test_a_trickling_judge_leaves_no_thread_or_socket_behind_its_timeouts() -> None:
    """A server answering a byte at a time, forever, within any socket timeout: each call times out at its
    one deadline, and once the server's handlers have seen the judge hang up, the process holds the threads
    and sockets it held before the 20 calls."""
    stop, open_handlers = threading.Event(), [0]
    lock = threading.Lock()

    class Trickling(_Quiet):
        def do_POST(self) -> None:
            with lock:
                open_handlers[0] += 1
            try:
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                while not stop.wait(0.01):
                    self.wfile.write(b" ")
                    self.wfile.flush()
            except OSError:
                pass  # the judge hung up
            finally:
                with lock:
                    open_handlers[0] -= 1

    with _serving(Trickling) as url:
        threads, sockets = threading.active_count(), _sockets()
        judge = HttpJudge(f"{url}/v1", MODEL, 0.1)
        try:
            statuses = {judge.judge(FERRY, [("u1", FREEZER)]).status for _ in range(20)}
            for _ in range(200):  # the handlers notice the hang-up at their next byte
                if open_handlers[0] == 0:
                    break
                stop.wait(0.01)
            left = (threading.active_count() - threads, _sockets() - sockets)
        finally:
            stop.set()
    assert statuses == {"timeout"}
    assert left[0] <= 0 and left[1] <= 0, f"{left[0]} threads and {left[1]} sockets left behind"
