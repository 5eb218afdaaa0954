"""Issue 52, point 7: ``journal verify --checkpoint`` names each checkpoint it checked and that it held
(text and JSON), and a signed checkpoint of another journal as such, not as an altered header
(``specs/journal-format.md`` §12.2 and ``verify``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from journal.signed_note import SignerKey

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "journal.db"
    h.build_journal(path)
    return path


def _keys(tmp_path: Path) -> tuple[Path, Path, str]:
    signer = SignerKey.generate("example.com/arvis-audit")
    (tmp_path / "key").write_text(signer.text() + "\n", encoding="utf-8")
    (tmp_path / "key").chmod(0o600)
    verifier = signer.verifier()
    (tmp_path / "key.pub").write_text(verifier.text() + "\n", encoding="utf-8")
    return tmp_path / "key", tmp_path / "key.pub", f"{verifier.name}+{verifier.key_id:08x}"


def test_verify_names_the_checkpoints_it_checked(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    kept = str(h.head_checkpoint(db))
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", kept)
    assert code == 0 and f"checkpoint {kept} held" in out
    code, out, _ = h.cli(capsys, "journal", "verify", "--db", db, "--checkpoint", kept, "-o", "json")
    seq, _, entry_hash = kept.partition(":")
    assert json.loads(out)["checkpoints"] == [
        {"checkpoint": kept, "seq": int(seq), "entry_hash": entry_hash, "held": True}
    ]
    key, pub, signer = _keys(tmp_path)
    note = tmp_path / "cp"
    assert h.cli(capsys, "journal", "checkpoint", "--db", db, "--sign", key, "--out", note)[0] == 0
    argv = ("journal", "verify", "--db", db, "--checkpoint", note, "--key", pub)
    code, out, _ = h.cli(capsys, *argv)
    assert code == 0 and f"signed checkpoint {note} held" in out and signer in out
    code, out, _ = h.cli(capsys, *argv, "-o", "json")
    (checked,) = json.loads(out)["checkpoints"]
    assert checked["file"] == str(note) and checked["signers"] == [signer] and checked["held"] is True
    assert checked["origin"] == "arvis.journal/j-test" and checked["tree_size"] == int(seq)


def test_another_journals_checkpoint_is_named_as_such(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.db"
    h.build_journal(other, journal_id="j-other")
    key, pub, _ = _keys(tmp_path)
    note = tmp_path / "cp"
    assert h.cli(capsys, "journal", "checkpoint", "--db", other, "--sign", key, "--out", note)[0] == 0
    argv = ("journal", "verify", "--db", db, "--checkpoint", note, "--key", pub)
    code, out, _ = h.cli(capsys, *argv, "-o", "json")
    report = json.loads(out)
    assert code == 1 and report["first_bad_seq"] == 0
    assert report["reason"].startswith(f"the signed checkpoint {note} is another journal's")
    assert "header altered" not in report["reason"]
    assert report["checkpoints"][0]["held"] is False
