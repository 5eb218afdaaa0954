"""The files one warm ``memory.write`` enters, from ``Kernel.call`` to its answer, are the ones
``specs/kernel-syscalls.md`` §4 lists, in the order it first enters each: a module added to (or taken off)
the path of a call shows in the spec. Traced with ``sys.setprofile``, through the public ``Kernel.call``."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from strategies import VOUCHED

from syscalls.boot import open_kernel

ROOT = Path(__file__).resolve().parent.parent
WRITE = {
    "user_id": "u1",
    "key": "language",
    "memory_type": "preference",
    "source": "explicit_user",
    "replace": True,
}


def _listed() -> list[str]:
    spec = (ROOT / "specs" / "kernel-syscalls.md").read_text(encoding="utf-8")
    section = spec.split("## 4. The path of one call", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| \d+ \| `([^`]+)` \|", section, flags=re.MULTILINE)


def _entered(path: Path) -> list[str]:
    kernel = open_kernel(str(path), identity=VOUCHED, create=True)
    try:
        for _ in range(3):  # warm: imports done, the key's rows there
            assert kernel.call("memory.write", WRITE, principal="user:u1").ok
        entered: list[str] = []

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            if event != "call":
                return
            file = Path(frame.f_code.co_filename)
            if not file.is_absolute() or ROOT not in file.resolve().parents:
                return
            name = file.resolve().relative_to(ROOT).as_posix()
            if not name.startswith(".") and name not in entered:
                entered.append(name)

        sys.setprofile(profile)
        try:
            result = kernel.call("memory.write", WRITE, principal="user:u1")
        finally:
            sys.setprofile(None)
        assert result.ok and result.seq == 4
        return entered
    finally:
        kernel.close()


def test_a_warm_write_enters_the_files_the_spec_lists(tmp_path: Path) -> None:
    listed = _listed()
    assert listed, "specs/kernel-syscalls.md §4 lists no file"
    assert _entered(tmp_path / "journal.db") == listed
