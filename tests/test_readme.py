"""The README's Python example runs as written (in a scratch directory)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run_block(index: int, directory: Path) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) > index, "the README shows the Python examples"
    script = directory / f"example{index}.py"
    script.write_text(blocks[index], encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)], cwd=directory, capture_output=True, text=True, check=False, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_readme_python_example_runs(tmp_path: Path) -> None:
    """Run twice in the same directory: an example must not depend on a fresh file."""
    for _ in range(2):
        output = _run_block(0, tmp_path)
        assert "The patient is allergic to penicillin." in output
    assert (tmp_path / "memory.db").exists()
    arvis = str(Path(sys.executable).parent / "arvis")
    listed = subprocess.run(  # the key the example wrote is the one the CLI reads beside memory.db
        [arvis, "call", "access.list", "--db", "memory.db", "--principal", "operator:me", "-o", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert "agent:assistant" in listed.stdout


def test_readme_pipeline_example_runs(tmp_path: Path) -> None:
    for _ in range(2):
        output = _run_block(1, tmp_path)
        assert "{'avoid': ['no_penicillin']} memory_policy_denied" in output
        assert "{'ir': {'language': True, 'timezone': False}, 'value_ref': 'plain:fr'}" in output


def test_readme_keeps_the_two_setup_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text


def _shell_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Look inside a journal")
    return re.findall(r"```sh\n(.*?)```", text[start:], re.S)[:2]


def _commands(block: str) -> list[str]:
    """The block's commands (continuation lines joined), without those that never end (``tail -f``)
    or need a program the machine may lack (``sqlite3``)."""
    joined = block.replace("\\\n", " ")
    return [
        line.strip()
        for line in joined.splitlines()
        if line.strip()
        and not re.search(r"journal tail .*-f\b", line)
        and not line.lstrip().startswith("sqlite3")
    ]


def _make_recipe(target: str) -> str:
    """The one command of a Makefile target, as the README's reader gets it run."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"{target}:")))
    recipe = [line.strip() for line in lines[start + 1 :] if line.startswith("\t")][:1]
    assert recipe, f"make {target} runs a command"
    return recipe[0].replace("$(BIN)/arvis", ".venv/bin/arvis")


def test_readme_shell_commands_run_twice(tmp_path: Path) -> None:
    """Every command of "Look inside a journal" and "Make a call yourself", run in order as a newcomer
    reads them, from `make demo-kernel` (its Makefile recipe) on, twice over: each exits 0 both times,
    and each prints something the first time (a trace or a listing of nothing shows nothing)."""
    arvis = str(Path(sys.executable).parent / "arvis")
    commands = [command for block in _shell_blocks() for command in _commands(block)]
    assert commands[0].split("#")[0].strip() == "make demo-kernel"
    commands[0] = _make_recipe("demo-kernel")
    assert len(commands) >= 15
    for round_ in range(2):
        for command in commands:
            completed = subprocess.run(
                ["bash", "-c", command.replace(".venv/bin/arvis", arvis)],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=False,
                timeout=120,
            )
            assert completed.returncode == 0, (round_, command, completed.stderr[-2000:])
            shown = completed.stdout.strip()
            assert round_ == 1 or shown, (command, "prints nothing")
            assert '"calls": []' not in shown and ": 0 calls" not in shown, (command, shown[:500])


def test_readme_langgraph_example_runs(tmp_path: Path) -> None:
    """Twice, and the run journals no refused call: ``arvis journal ls --status error`` lists nothing (a
    thread or namespace is taken by its first write, in that call)."""
    pytest.importorskip("langgraph.graph")
    for _ in range(2):
        output = _run_block(2, tmp_path)
        assert output.splitlines() == ["{'count': 1}", "{'count': 1}"]
    errors = ["journal", "ls", "--db", "graph.db", "--status", "error", "-o", "json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tools.cli", *errors]
    listed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert listed.stdout.strip() == "[]", listed.stdout
