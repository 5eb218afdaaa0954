"""The entry hash is one function of the row, however it is fed: small rows are framed into one buffer,
large ones fed piece by piece (``journal/entry.py``); both must give the hash §6.1 defines."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from journal.entry import compute_entry_hash


def _by_the_spec(prev_hash: str, fields: list[bytes]) -> str:
    framed = b"".join(len(field).to_bytes(8, "big") + field for field in fields)
    return hashlib.sha256(bytes.fromhex(prev_hash) + framed).hexdigest()


@given(
    prev=st.binary(min_size=32, max_size=32),
    seq=st.integers(min_value=1, max_value=2**62),
    texts=st.lists(st.text(max_size=30), min_size=4, max_size=4),
    args=st.binary(max_size=300),
    result=st.one_of(st.binary(max_size=300), st.integers(60_000, 70_000).map(lambda n: b"r" * n)),
    effects=st.binary(min_size=32, max_size=32),
)
def test_small_and_large_rows_hash_as_the_spec_frames_them(
    prev: bytes, seq: int, texts: list[str], args: bytes, result: bytes, effects: bytes
) -> None:
    recorded_at, syscall, principal, status = texts
    found = compute_entry_hash(
        prev_hash=prev.hex(),
        seq=seq,
        recorded_at=recorded_at,
        syscall=syscall,
        principal=principal,
        args=args,
        status=status,
        result=result,
        effects_hash=effects.hex(),
    )
    fields = [
        str(seq).encode(),
        recorded_at.encode(),
        syscall.encode(),
        principal.encode(),
        args,
        status.encode(),
        result,
        effects.hex().encode(),
    ]
    assert found == _by_the_spec(prev.hex(), fields)
