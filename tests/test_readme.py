"""The README's Python example runs as written (in a scratch directory)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_python_example_runs(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README shows a Python example"
    script = tmp_path / "example.py"
    script.write_text(blocks[0], encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    assert "The patient is allergic to penicillin." in completed.stdout
    assert (tmp_path / "memory.db").exists()


def test_readme_keeps_the_two_setup_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text
