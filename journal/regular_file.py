"""Reading a small file that nothing can stall: a regular file only (a FIFO would block the open until a
writer comes, a device may never end), opened non-blocking and checked through its descriptor, read to a
bound. Used by the command line's file arguments (``tools/private_file.py``)."""

from __future__ import annotations

import os
import stat

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def read_bounded(descriptor: int, most: int) -> bytes:
    """Up to ``most`` bytes of an open file, to its end: a short read (which a file system may give) is
    followed by another, until the end or ``most``."""
    chunks: list[bytes] = []
    left = most
    while left > 0:
        chunk = os.read(descriptor, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``; ``OSError`` (its message naming the file)
    when it is missing, not a regular file, or larger."""
    descriptor = os.open(path, _FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(f"{os.fsdecode(path)} is not a regular file")
        data = read_bounded(descriptor, limit + 1)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise OSError(f"{os.fsdecode(path)} is larger than {limit} bytes")
    return data
