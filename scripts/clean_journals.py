#!/usr/bin/env python3
"""What ``make clean`` removes of what ``make demo``, ``make demo-kernel`` and ``arvis scenario run|bench``
wrote (``scripts/clean_journals.py PATH...``): every file under each PATH, but a journal only while it is
still the command's own, nothing added (``tools.scenario.runner.own_journal``,
``tools.cmd_demo.written_by_the_demo``): one someone made calls on, or any other ``*.db``, is kept with its
WAL, and named. Keys are kept wherever they are (an admin key ``DB.admin-key``, a signing key ``*.key`` and
its ``*.key.pub``: losing one locks an administrator out or orphans the checkpoints it signed). Directories
left empty are removed."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's tools

from tools.cmd_demo import written_by_the_demo
from tools.scenario.runner import own_journal

KEYS = (".admin-key", ".key", ".key.pub")
SIDECARS = ("-wal", "-shm", "-journal")


def _files(top: Path) -> list[Path]:
    if top.is_dir():
        return sorted(path for path in top.rglob("*") if path.is_file() or path.is_symlink())
    return [path for path in (top, *(Path(f"{top}{end}") for end in SIDECARS)) if path.is_file()]


def clean(paths: list[Path]) -> list[Path]:
    """Remove what ``paths`` hold that is the commands' own; the journals kept."""
    kept = [
        file
        for top in paths
        for file in _files(top)
        if file.suffix == ".db" and not (own_journal(file) or written_by_the_demo(file))
    ]
    keep = {Path(f"{journal}{end}") for journal in kept for end in ("", *SIDECARS)}
    for top in paths:  # listed again: reading a journal may have left a -shm beside it
        for file in _files(top):
            if file not in keep and not file.name.endswith(KEYS):
                file.unlink()
        if top.is_dir():
            for directory in sorted((top, *top.rglob("*")), key=lambda path: -len(path.parts)):
                if directory.is_dir() and not any(directory.iterdir()):
                    directory.rmdir()
    return kept


def main(argv: list[str]) -> int:
    for journal in clean([Path(arg) for arg in argv]):
        print(f"kept {journal}: not the journal arvis wrote (calls were added to it?); remove it yourself")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
