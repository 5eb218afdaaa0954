"""argparse types for the numbers commands pass on to the journal.

A value the journal can never hold is a usage error at the command line (exit 2, argparse's message), not
an ``OverflowError`` from the database driver deep inside a query, nor a poll loop that spins (interval 0)
or never sleeps (NaN).
"""

from __future__ import annotations

import argparse
import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a checkpoint is read: registering the arguments stays cheap
    from journal.entry import Pos


MAX_SEQ = 2**63 - 1
"""The largest seq: the journal's ``seq`` is a signed 64-bit integer (SQLite INTEGER, PostgreSQL BIGINT)."""

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def seq_number(text: str) -> int:
    """A seq as typed: a whole number from 0 to ``MAX_SEQ`` (0 is "before the first entry")."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEQ:
        raise argparse.ArgumentTypeError(f"{text} is out of range: a seq is from 0 to {MAX_SEQ}")
    return value


def checkpoint(text: str) -> Pos:
    """``SEQ:HASH`` as ``journal checkpoint`` prints it: a seq of at least 1 and 64 hex digits."""
    from journal.entry import Pos

    seq_text, colon, digest = text.partition(":")
    if not colon or not _HEX64.fullmatch(digest):
        raise argparse.ArgumentTypeError(f"{text!r}: a checkpoint is SEQ:HASH with a 64-hex-digit hash")
    seq = seq_number(seq_text)
    if seq < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a checkpoint's seq is at least 1")
    return Pos(seq, digest.lower())


MAX_SECONDS = 86_400.0
"""The longest ``--interval``/``--idle-exit`` taken: a day."""


def positive_seconds(text: str) -> float:
    """A duration in seconds: finite and above zero (``nan``, ``inf``, 0 and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a finite number of seconds above 0")
    if value > MAX_SECONDS:  # time.sleep refuses what the platform's time_t cannot hold
        raise argparse.ArgumentTypeError(f"{text} is more than a day ({MAX_SECONDS:g} s)")
    return value
