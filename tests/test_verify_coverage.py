"""Verification covers every byte that means something: canonical ``args``, the header's fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.audit.replayer import DivergenceClass

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("coverage") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


def _spaced(args: bytes) -> bytes:
    return args.replace(b",", b", ").replace(b":", b": ")


def _duplicated(args: bytes) -> bytes:
    return b'{"user_id":"nobody",' + args[1:]  # the same value to a last-wins reader


def _escaped(args: bytes) -> bytes:
    return args.replace(b'"user_id"', b'"\\u0075ser_id"')


@pytest.mark.parametrize("encode", [_spaced, _duplicated, _escaped])
@pytest.mark.parametrize("seq", [h.SEQ_AGENT_GET, len(h.STANDARD_CALLS)])
def test_a_non_canonical_encoding_of_args_is_named_at_its_seq(db: Path, encode: object, seq: int) -> None:
    """The call reads the same, the chain is recomputed: only the bytes tell, and they must be canonical."""
    assert callable(encode)
    args = h.read_cell(db, seq, "args")
    assert isinstance(args, bytes)
    edited = encode(args)
    assert edited != args
    h.rewrite_history(db, seq, "args", edited)
    assert h.verify(db, replay=False).verified  # the chain alone is intact
    report = h.verify(db)
    assert report.divergence is not None
    assert (report.divergence.seq, report.divergence.kind) == (seq, DivergenceClass.INVALID_HISTORY)
    assert report.divergence.reason == "args are not the canonical JSON the kernel records"
