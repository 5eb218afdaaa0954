"""``make clean`` removes what ``make demo-kernel`` and scenario runs wrote, but never a journal someone made
calls on (``scripts/clean_journals.py``), nor a key: run on a copy of the Makefile in a scratch directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests import journal_helpers as h
    from tests.test_scenario_cli import TINY
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h
    from test_scenario_cli import TINY

ROOT = Path(__file__).resolve().parent.parent


def _add_a_call(capsys: pytest.CaptureFixture[str], journal: Path) -> bytes:
    args = '{"user_id": "bob", "key": "k", "memory_type": "preference", "source": "explicit_user"}'
    code, _, err = h.cli(
        capsys, "call", "memory.write", "--db", journal, "--principal", "user:bob", "--args", args
    )
    assert code == 0, err
    return journal.read_bytes()


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_clean_keeps_the_journals_someone_wrote_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "scripts" / "clean_journals.py", tmp_path / "scripts")
    demo = tmp_path / "demo-journal.db"
    assert h.cli(capsys, "demo", "--db", demo, "-o", "json")[0] == 0
    (tmp_path / "tiny.yml").write_text(TINY, encoding="utf-8")
    journals = tmp_path / "scenario-journals"
    run = [
        "scenario",
        "run",
        tmp_path / "tiny.yml",
        "--out",
        journals,
        "-c",
        "FULL_AWMU",
        "-c",
        "LATEST_WINS",
    ]
    assert h.cli(capsys, *run)[0] == 0
    own, added = sorted(journals.glob("*.db"))
    kept = {demo: _add_a_call(capsys, demo), added: _add_a_call(capsys, added)}
    key = journals / "audit.key"
    key.write_bytes(b"secret")
    (tmp_path / "demo-report").mkdir()
    (tmp_path / "demo-report" / "report.md").write_text("# report\n", encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    completed = subprocess.run(
        ["make", "-s", "clean", f"BIN={bin_dir}", "VENV=no-venv-here"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert {path: path.read_bytes() for path in kept} == kept  # as they were, byte for byte
    assert (
        f"kept {added.relative_to(tmp_path)}" in completed.stdout
        and "kept demo-journal.db" in completed.stdout
    )
    assert not own.exists() and key.read_bytes() == b"secret"
    assert not (tmp_path / "demo-report").exists()
    assert sorted(path.name for path in journals.iterdir() if not path.name.endswith(("-wal", "-shm"))) == [
        "audit.key",
        added.name,
    ]
