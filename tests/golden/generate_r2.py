"""Writes ``r2-scenario.db``: a journal of the working memory's rules 2 (semantic runs recorded in it).

Kept for the record, like ``generate_r1.py``: run it only against the commit named in README.md, with the
``semantic`` extra installed (the encoder's scores are what the journal records), into an empty folder.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from arvis.scenario.conditions import Condition
from kernel.services import shared_encoder
from tools.scenario.load import load_scenario
from tools.scenario.runner import run_scenario

ROOT = Path(__file__).resolve().parents[2]


def main(target: Path) -> None:
    if shared_encoder() is None:
        raise SystemExit("the semantic extra is not installed: the journal would record no semantic run")
    journal = target / "r2-scenario.db"
    if journal.exists():
        raise SystemExit(f"{journal} exists: golden journals are never rewritten")
    result = run_scenario(
        load_scenario(ROOT / "scenarios" / "poisoned-source.yml"), Condition.FULL_AWMU, journal
    )
    if not result.replay_verified:
        raise SystemExit("the journal did not verify")
    connection = sqlite3.connect(journal)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
    finally:
        connection.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
