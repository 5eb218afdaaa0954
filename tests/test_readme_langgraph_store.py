"""The README's "Semantic memory in a graph" (a LangGraph graph with the saver and the store with an
index, a semantic search, then ``arvis journal verify`` and ``journal trace``) runs as written, twice in
the same directory."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SECTION = "### Semantic memory in a graph"


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def _run(argv: list[str], directory: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    completed = subprocess.run(
        argv, cwd=directory, env=env, capture_output=True, text=True, check=False, timeout=300
    )
    assert completed.returncode == 0, (argv, completed.stderr[-2000:])
    return completed.stdout


def test_readme_semantic_store_example_runs_twice(tmp_path: Path) -> None:
    pytest.importorskip("langgraph.graph")
    from kernel.semantic import load_encoder

    if load_encoder() is None:
        pytest.skip("the semantic extra's model is not installed")
    section = _section()
    (program,) = re.findall(r"```python\n(.*?)```", section, re.S)
    (shell,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = [shlex.split(line.split("#")[0]) for line in shell.splitlines() if line.strip()]
    assert [command[:3] for command in commands][:2] == [
        [".venv/bin/arvis", "journal", "verify"],
        [".venv/bin/arvis", "journal", "trace"],
    ]
    (tmp_path / "example.py").write_text(program, encoding="utf-8")
    for _ in range(2):
        assert _run([sys.executable, "example.py"], tmp_path).splitlines() == [
            "Alice drinks green tea every morning"
        ]
        outputs = [_run([sys.executable, "-m", "tools.cli", *command[1:]], tmp_path) for command in commands]
        assert "replay byte-identical" in outputs[0]
        assert "trace of principal agent:assistant" in outputs[1]
        assert "graph.store.search" in outputs[2]
        errors = [
            ".venv/bin/arvis",
            "journal",
            "ls",
            "--db",
            "memory-graph.db",
            "--status",
            "error",
            "-o",
            "json",
        ]
        assert (
            _run([sys.executable, "-m", "tools.cli", *errors[1:]], tmp_path).strip() == "[]"
        )  # none refused
