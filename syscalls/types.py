"""Argument types shared by the syscall families."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

MAX_USER_ID_LENGTH = 128

PLAIN = r"^[^\x00-\x1f\x7f-\x9f]+\Z"
"""Text without control characters (C0, DEL, C1): a name that may appear in a scope or a message."""
UserId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_USER_ID_LENGTH, pattern=PLAIN)]
"""A user id: 1 to 128 characters, no control characters."""

AwareDatetime = Annotated[datetime, msgspec.Meta(tz=True)]
"""An RFC 3339 timestamp with an offset; naive times are refused."""
NO_NUL = r"^[^\x00]*\Z"
"""Free text that reaches a text column: any character but NUL (PostgreSQL text cannot hold U+0000)."""
