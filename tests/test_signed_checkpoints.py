"""Proofs an auditor carries away: ``journal root|prove|consistency``, keys, signed checkpoints.

A signed checkpoint is a C2SP signed note that Go's ``sumdb/note`` reads and writes alike; a journal passes
it while it still holds the signed tree; a journal rewritten and re-executed from one entry on (chain intact,
replay byte-identical) fails it, named at that entry; every bad input is exit 2 with one line, no traceback.
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from journal import merkle
from journal.entry import genesis_hash
from journal.header import JournalHeader
from journal.schema import FORMAT_VERSION
from journal.signed_note import (
    InvalidSignature,
    NoteError,
    SignerKey,
    UnverifiedNote,
    VerifierKey,
    open_note,
    parse_note,
    sign_note,
)
from journal.tree import journal_leaves
from journal.tree_checkpoint import (
    ADMIN_HEADER_LINE,
    HEADER_LINE,
    CheckpointBody,
    TreeFile,
    admin_header_digest,
    header_digest,
    origin_of,
    tree_file_of,
)

try:
    from tests import journal_helpers as h
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import journal_helpers as h

N = len(h.STANDARD_CALLS)
SPEC = Path(__file__).resolve().parent.parent / "specs" / "journal-format.md"
MORE: list[h.Call] = [("memory.list", {"user_id": h.USER}, h.AGENT)] * 3

# golang.org/x/mod/sumdb/note, note_test.go: a key pair and the signed note Go writes with it
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = (
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
)
GO_SIG = (
    "— PeterNeumann "
    "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
)
GO_ENOCH_SIG = (
    "— EnochRoot "
    "rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("signed") / "journal.db"
    h.build_journal(path)
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return h.copy_db(pristine, tmp_path / "journal.db")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A private key file and its KEYFILE.pub, as keygen writes them."""
    directory = tmp_path_factory.mktemp("keys")
    signer = SignerKey.generate("example.com/arvis-audit")
    (directory / "key").write_text(signer.text() + "\n", encoding="utf-8")
    (directory / "key").chmod(0o600)  # keygen's mode: a private key others may read is refused
    (directory / "key.pub").write_text(signer.verifier().text() + "\n", encoding="utf-8")
    return directory / "key", directory / "key.pub"


def _run(capsys: pytest.CaptureFixture[str], *argv: object, code: int = 0) -> str:
    got, out, err = h.cli(capsys, "journal", *argv)
    assert got == code, err
    return out


def _json(capsys: pytest.CaptureFixture[str], *argv: object, code: int = 0) -> Any:
    return json.loads(_run(capsys, *argv, code=code))


def _clean_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    code, out, err = h.cli(capsys, "journal", *argv)
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err and "unexpected error" not in err
    lines = h.error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("arvis: "), err
    return lines[0]


def _sign(capsys: pytest.CaptureFixture[str], db: Path, key: Path, target: Path) -> Path:
    _run(capsys, "checkpoint", "--db", db, "--sign", key, "--out", target)
    return target


def _sign_at(db: Path, size: int, key: Path, target: Path) -> Path:
    """A signed checkpoint of the first ``size`` entries (the command signs only the whole journal)."""
    signer = SignerKey.parse(key.read_text(encoding="utf-8"))
    with h.reader_of(db) as reader:
        header = reader.header()
        assert header is not None
        root = merkle.root_of(journal_leaves(reader, size), size)
        tree_file = tree_file_of(reader, size)
    target.write_text(sign_note(CheckpointBody(origin_of(header.journal_id), size, root).text(), [signer]))
    Path(f"{target}.tree").write_text(tree_file.text())
    return target


def _verify(
    capsys: pytest.CaptureFixture[str], db: Path, pub: Path, *checkpoints: object, code: int
) -> dict[str, Any]:
    argv: list[object] = ["verify", "--db", db, "--key", pub, "-o", "json"]
    for checkpoint in checkpoints:
        argv += ["--checkpoint", checkpoint]
    report: dict[str, Any] = _json(capsys, *argv, code=code)
    return report


def _forge(path: Path, seq: int) -> None:
    """Edit an entry's args and recompute the chain after it: the chain verifies again."""
    h.rewrite_history(path, seq, "args", b'{"key":"language","user_id":"forged"}')


# --- keys and notes, byte for byte as Go's sumdb/note ------------------------------------------


def test_go_keys_and_note_vectors() -> None:
    signer = SignerKey.parse(GO_SKEY)
    assert signer.text() == GO_SKEY
    assert signer.verifier() == VerifierKey.parse(GO_VKEY)
    assert signer.verifier().text() == GO_VKEY
    assert sign_note(GO_TEXT, [signer]) == GO_TEXT + "\n" + GO_SIG  # Ed25519 is deterministic
    note, verified = open_note(
        (GO_TEXT + "\n" + GO_SIG + GO_ENOCH_SIG).encode(), [VerifierKey.parse(GO_VKEY)]
    )
    assert note.text == GO_TEXT and [key.name for key in verified] == ["PeterNeumann"]
    assert [signature.name for signature in note.signatures] == ["PeterNeumann", "EnochRoot"]


def test_notes_that_do_not_open() -> None:
    peter = VerifierKey.parse(GO_VKEY)
    with pytest.raises(UnverifiedNote):
        open_note((GO_TEXT + "\n" + GO_ENOCH_SIG).encode(), [peter])
    broken = GO_SIG[:60] + "ABCD" + GO_SIG[60:]
    with pytest.raises(InvalidSignature):
        open_note((GO_TEXT + "\n" + broken).encode(), [peter])
    for bad in (  # note_test.go's malformed messages
        GO_TEXT,
        GO_TEXT + "\n",
        GO_TEXT + "\n" + GO_SIG[:-1],
        "\x01" + GO_TEXT + "\n" + GO_SIG,
        GO_TEXT + "\n" + GO_SIG.replace("PeterNeumann", "Bad Name"),
        GO_TEXT + "\n" + GO_SIG + "Unexpected line.\n",
        GO_TEXT + "\n" + GO_SIG * 101,
    ):
        with pytest.raises(NoteError):
            parse_note(bad.encode())
    with pytest.raises(NoteError):
        parse_note(b"\xff" + (GO_TEXT + "\n" + GO_SIG).encode())
    for bad_key in (GO_VKEY[:-2], GO_VKEY.replace("c74f20a3", "c74f20a4"), "a+b+c", GO_SKEY):
        with pytest.raises(NoteError):
            VerifierKey.parse(bad_key)


def test_keygen_writes_a_private_key_and_its_verifier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keyfile = tmp_path / "audit.key"
    printed = _run(capsys, "keygen", "--name", "example.com/audit", "--out", keyfile).strip()
    public = Path(f"{keyfile}.pub")
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600
    assert public.read_text().strip() == printed
    signer = SignerKey.parse(keyfile.read_text())
    assert signer.verifier() == VerifierKey.parse(printed)
    assert printed.startswith("example.com/audit+")
    assert "exists" in _clean_error(capsys, "keygen", "--name", "other", "--out", keyfile)
    assert SignerKey.parse(keyfile.read_text()) == signer  # not replaced
    _run(capsys, "keygen", "--name", "other", "--out", keyfile, "--force")
    assert SignerKey.parse(keyfile.read_text()).name == "other"
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600
    for name in ("a b", "a+b", ""):
        _clean_error(capsys, "keygen", "--name", name, "--out", tmp_path / "other.key")


# --- root, prove, consistency ----------------------------------------------------------------------


def test_root_prove_and_consistency_agree(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _json(capsys, "root", "--db", db, "-o", "json")
    assert root["tree_size"] == N
    with h.reader_of(db) as reader:
        hashes = [bytes.fromhex(entry.entry_hash) for entry in reader.entries()]
    assert root["root"] == merkle.root_of(merkle.leaf_hashes(hashes), N).hex()
    assert _json(capsys, "root", "--db", db, "--at", 0, "-o", "json")["root"] == merkle.EMPTY_ROOT.hex()
    older = _json(capsys, "root", "--db", db, "--at", 5, "-o", "json")
    for seq in (1, 6, N):
        proof = _json(capsys, "prove", "--db", db, seq)
        assert proof["entry_hash"] == h.read_cell(db, seq, "entry_hash")
        assert (proof["seq"], proof["tree_size"], proof["root"]) == (seq, N, root["root"])
        assert len(proof["path"]) <= (N - 1).bit_length()
        path = [bytes.fromhex(item) for item in proof["path"]]
        leaf = bytes.fromhex(proof["leaf_hash"])
        assert merkle.verify_inclusion(leaf, seq - 1, N, path, bytes.fromhex(root["root"]))
    small = _json(capsys, "prove", "--db", db, 3, "--size", 5)
    assert (small["tree_size"], small["root"]) == (5, older["root"])
    consistency = _json(capsys, "consistency", "--db", db, 5)
    assert (consistency["old_root"], consistency["root"]) == (older["root"], root["root"])
    path = [bytes.fromhex(item) for item in consistency["path"]]
    assert merkle.verify_consistency(5, N, bytes.fromhex(older["root"]), bytes.fromhex(root["root"]), path)
    assert _json(capsys, "consistency", "--db", db, N)["path"] == []
    assert "root" in _run(capsys, "root", "--db", db)


@pytest.mark.parametrize(
    "argv",
    [
        ("prove", 0),
        ("prove", N + 1),
        ("prove", 3, "--size", N + 1),
        ("prove", 6, "--size", 5),
        ("consistency", N + 1),
        ("consistency", 6, "--size", 5),
        ("root", "--at", N + 1),
    ],
)
def test_out_of_range_is_a_clean_usage_error(
    db: Path, capsys: pytest.CaptureFixture[str], argv: tuple[object, ...]
) -> None:
    _clean_error(capsys, argv[0], "--db", db, *argv[1:])


def test_a_malformed_entry_hash_has_no_leaf(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h.write_cell(db, 4, "entry_hash", "zz" * 32)
    assert "entry 4" in _clean_error(capsys, "root", "--db", db)


# --- signed checkpoints ------------------------------------------------------------------------------


def test_a_signed_checkpoint_is_a_c2sp_note(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    before = db.read_bytes()
    target = _sign(capsys, db, key, tmp_path / "cp")
    note, _ = open_note(target.read_bytes(), [VerifierKey.parse(pub.read_text())])
    root = _json(capsys, "root", "--db", db, "-o", "json")["root"]
    origin, size, encoded, bound, admin_bound = note.text.splitlines()
    assert (origin, size) == ("arvis.journal/j-test", str(N))
    with h.reader_of(db) as reader:
        header, verifier = reader.header(), reader.admin_verifier()
    assert header is not None
    assert bound == HEADER_LINE + base64.b64encode(header_digest(header) or b"").decode()
    assert (
        admin_bound
        == ADMIN_HEADER_LINE + base64.b64encode(admin_header_digest(header, verifier) or b"").decode()
    )
    assert base64.b64decode(encoded).hex() == root
    tree_file = TreeFile.parse(Path(f"{target}.tree").read_text())
    assert tree_file.level == 0 and tree_file.proves(CheckpointBody.parse(note.text))
    assert _run(capsys, "checkpoint", "--db", db, "--sign", key).startswith(note.text + "\n— ")
    _clean_error(capsys, "checkpoint", "--db", db, "--sign", key, "--out", target)  # exists
    _run(capsys, "checkpoint", "--db", db, "--sign", key, "--out", target, "--force")
    assert db.read_bytes() == before


def test_the_unsigned_checkpoint_is_unchanged(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = h.read_cell(db, N, "entry_hash")
    assert _json(capsys, "checkpoint", "--db", db, "-o", "json")["checkpoint"] == f"{N}:{head}"
    assert _run(capsys, "checkpoint", "--db", db) == f"{N}:{head}\n"
    with pytest.raises(SystemExit) as refused:  # argparse's usage error: -o is a format choice
        h.cli(capsys, "journal", "checkpoint", "--db", db, "-o", "yaml")
    assert refused.value.code == 2 and "invalid choice: 'yaml'" in capsys.readouterr().err


def test_a_growing_journal_passes_its_checkpoints(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    early = _sign_at(db, 5, key, tmp_path / "cp5")
    now = _sign(capsys, db, key, tmp_path / "cp")
    head = f"{N}:{h.read_cell(db, N, 'entry_hash')}"
    assert _verify(capsys, db, pub, early, now, head, code=0)["verified"] is True
    h.build_journal(db, MORE, clock=h.make_clock(h.T0 + h.STEP * 100))
    report = _verify(capsys, db, pub, now, code=0)
    assert report["verified"] is True and report["entries"] == N + len(MORE)
    _run(capsys, "verify", "--db", db, "--checkpoint", now, "--key", pub, "--chain-only")


@pytest.mark.parametrize("seq", [1, 5, N])
def test_rewritten_history_is_named_at_its_first_entry(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str], seq: int
) -> None:
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    _forge(db, seq)
    assert _run(capsys, "verify", "--db", db, "--chain-only").startswith("verified")
    report = _verify(capsys, db, pub, kept, code=1)
    assert report["first_bad_seq"] == seq and report["replayed"] is False
    assert report["reason"] == (
        f"history rewritten: entry {seq} is not the leaf the signed checkpoint of size {N} holds"
    )
    divergence = report["divergence"]
    assert divergence["class"] == "invalid_history"
    assert divergence["labels"] == {"expected": "checkpoint's root", "found": "journal's root"}
    assert divergence["expected"] == base64.b64decode(kept.read_text().splitlines()[2]).hex()
    out = _run(capsys, "verify", "--db", db, "--checkpoint", kept, "--key", pub, code=1)
    assert out.startswith(f"NOT verified: seq {seq} ")


def test_a_re_executed_forgery_passes_replay_and_fails_the_checkpoint(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The forger re-runs every call from the edited one on, through the kernel: chain and replay pass."""
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    calls = list(h.STANDARD_CALLS)
    edited = h.SEQ_AGENT_GET
    calls[edited - 1] = ("memory.get", {"user_id": h.USER, "key": "timezone"}, h.AGENT)
    forged = tmp_path / "forged.db"
    h.build_journal(forged, calls)
    assert h.verify(forged).verified
    for seq in range(1, edited):  # the same history up to the edit
        assert h.read_cell(forged, seq, "entry_hash") == h.read_cell(db, seq, "entry_hash")
    assert h.read_cell(forged, edited, "entry_hash") != h.read_cell(db, edited, "entry_hash")
    report = _verify(capsys, forged, pub, kept, code=1)
    assert report["first_bad_seq"] == edited
    assert f"entry {edited} is not the leaf" in report["reason"]


def test_without_tree_files_passed_checkpoints_narrow_the_range(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    early = _sign_at(db, 8, key, tmp_path / "cp8")
    late = _sign(capsys, db, key, tmp_path / "cp")
    for kept in (early, late):
        Path(f"{kept}.tree").unlink()
    _forge(db, 12)
    alone = _verify(capsys, db, pub, late, code=1)
    assert alone["first_bad_seq"] == 1
    assert alone["reason"].endswith(f"the first that differs is among seq 1-{N}")
    narrowed = _verify(capsys, db, pub, late, early, code=1)
    assert narrowed["first_bad_seq"] == 9
    assert narrowed["reason"].endswith(f"the first that differs is among seq 9-{N}")


def test_a_tree_file_that_is_not_the_signed_trees_is_ignored(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    tree = Path(f"{kept}.tree")
    lines = tree.read_text().splitlines()
    lines[5] = "00" * 32  # points at entry 4, but no longer hashes to the signed root
    tree.write_text("\n".join(lines) + "\n")
    _forge(db, 10)
    report = _verify(capsys, db, pub, kept, code=1)
    assert report["first_bad_seq"] == 1 and report["reason"].endswith(f"among seq 1-{N}")
    tree.write_text("not a tree file")
    assert _verify(capsys, db, pub, kept, code=1)["first_bad_seq"] == 1


def test_a_truncated_journal_no_longer_extends_its_checkpoint(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    h.truncate_tail(db, N - 2)
    report = _verify(capsys, db, pub, kept, code=1)
    assert report["first_bad_seq"] == N - 1
    assert report["reason"] == (
        f"journal ends at seq {N - 2}: it no longer extends the signed checkpoint of size {N}"
    )


def _delete_and_renumber(path: Path, seq: int) -> None:
    """Delete one entry, renumber the ones after it and recompute the chain: the chain verifies again."""
    h.drop_trigger(path, "journal_no_delete")
    h.drop_trigger(path, "journal_no_update")
    with h.raw_db(path) as connection:
        connection.execute("DELETE FROM journal WHERE seq = ?", (seq,))
        later = connection.execute("SELECT seq FROM journal WHERE seq > ? ORDER BY seq", (seq,)).fetchall()
        for (each,) in later:
            connection.execute("UPDATE journal SET seq = ? WHERE seq = ?", (each - 1, each))
    h.rewrite_history(path, seq, "recorded_at", h.read_cell(path, seq, "recorded_at"))


@pytest.mark.parametrize("seq", [2, 9, N - 1])
@pytest.mark.parametrize("grown", [False, True])
def test_a_deletion_in_the_middle_is_named_at_its_first_rewritten_entry(
    db: Path,
    tmp_path: Path,
    keys: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    seq: int,
    grown: bool,
) -> None:
    """Not "the journal ends at seq N - 1": the tree file shows that entry ``seq`` is not the signed one."""
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    _delete_and_renumber(db, seq)
    if grown:  # the forger appends after the rewrite: the journal is as long as the signed tree again
        h.build_journal(db, MORE[:1], clock=h.make_clock(h.T0 + h.STEP * 100))
    assert _run(capsys, "verify", "--db", db, "--chain-only").startswith("verified")
    report = _verify(capsys, db, pub, kept, code=1)
    assert report["first_bad_seq"] == seq and report["replayed"] is False
    assert report["reason"] == (
        f"history rewritten: entry {seq} is not the leaf the signed checkpoint of size {N} holds"
    )
    Path(f"{kept}.tree").unlink()  # without the tree file only a pure truncation can be told
    report = _verify(capsys, db, pub, kept, code=1)
    assert report["first_bad_seq"] == (1 if grown else N)


def test_a_journal_whose_id_changed_is_not_verified(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A new id (its genesis and the whole chain recomputed) is a failed verification, exit 1, like any."""
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    h.drop_trigger(db, "journal_header_no_update")
    with h.raw_db(db) as connection:
        connection.execute(
            "UPDATE journal_header SET journal_id = 'j-renamed', genesis_hash = ?",
            (genesis_hash("j-renamed", FORMAT_VERSION),),
        )
    h.rewrite_history(db, 1, "recorded_at", h.read_cell(db, 1, "recorded_at"))
    assert _run(capsys, "verify", "--db", db, "--chain-only").startswith("verified")
    report = _verify(capsys, db, pub, kept, code=1)
    assert (report["first_bad_seq"], report["replayed"]) == (0, False)
    assert "arvis.journal/j-renamed" in report["reason"] and "arvis.journal/j-test" in report["reason"]
    assert report["divergence"]["labels"] == {"expected": "checkpoint's origin", "found": "journal's origin"}
    out = _run(capsys, "verify", "--db", db, "--checkpoint", kept, "--key", pub, code=1)
    assert out.startswith("NOT verified: seq 0 ")


@pytest.mark.parametrize(
    "created_at",
    ["2025-12-31T23:59:59.000000Z", "2026-01-01T00:00:00.000001Z", "2030-06-01T12:00:00.000000Z"],
)
def test_an_edited_header_field_fails_the_signed_checkpoint(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str], created_at: str
) -> None:
    """``created_at`` is in no hash of the chain: a checkpoint signed now binds it (and every header field)"""
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    legacy = _sign_at(db, N, key, tmp_path / "legacy")  # a checkpoint as signed before: no header line
    assert any(line.startswith(HEADER_LINE) for line in kept.read_text().splitlines())
    h.drop_trigger(db, "journal_header_no_update")
    with h.raw_db(db) as connection:
        assert connection.execute("SELECT created_at FROM journal_header").fetchone()[0] != created_at
        connection.execute("UPDATE journal_header SET created_at = ?", (created_at,))
    assert h.verify(db).verified  # nothing else covers it
    assert _verify(capsys, db, pub, legacy, code=0)["verified"] is True
    report = _verify(capsys, db, pub, kept, code=1)
    assert (report["first_bad_seq"], report["replayed"]) == (0, False)
    assert report["reason"].startswith("journal header altered: its fields (created_at, …) are not the ones")
    labels = {"expected": "checkpoint's header digest", "found": "journal's header digest"}
    assert report["divergence"]["labels"] == labels


def test_the_header_digest_is_over_every_field_a_header_has() -> None:
    """A field a later revision adds changes no older journal's digest while it is null there."""
    header = JournalHeader("j-test", 3, "2026-01-01T00:00:00.000000Z", "ab" * 32)
    digest = header_digest(header)
    assert digest is not None and len(digest) == 32
    header.admin_verifier = None  # type: ignore[attr-defined]
    assert header_digest(header) == digest
    header.admin_verifier = "cd" * 32  # type: ignore[attr-defined]
    assert header_digest(header) not in (digest, None)
    for field, value in (
        ("journal_id", "j-tesT"),
        ("format_version", 2),
        ("created_at", "x"),
        ("genesis_hash", ""),
    ):
        other = JournalHeader("j-test", 3, "2026-01-01T00:00:00.000000Z", "ab" * 32)
        setattr(other, field, value)
        assert header_digest(other) != digest, field
    assert header_digest(JournalHeader("j-\udcff", 3, "2026-01-01T00:00:00.000000Z", "ab" * 32)) is None


def test_bad_checkpoints_and_keys_are_usage_errors(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key, pub = keys
    kept = _sign(capsys, db, key, tmp_path / "cp")
    other_key = tmp_path / "other"
    _run(capsys, "keygen", "--name", "other", "--out", other_key)
    other_db = tmp_path / "other.db"
    h.build_journal(other_db, h.STANDARD_CALLS[:3], journal_id="j-other")
    foreign = _sign(capsys, other_db, key, tmp_path / "foreign")
    assert _verify(capsys, db, pub, foreign, code=1)["first_bad_seq"] == 0  # not a usage error: exit 1
    garbled = tmp_path / "garbled"
    garbled.write_text(kept.read_text().replace(f"\n{N}\n", f"\n{N - 1}\n"))
    junk = tmp_path / "junk"
    junk.write_bytes(b"\x00\xff not a note")
    verify = ("verify", "--db", db)
    for argv, says in (
        ((*verify, "--checkpoint", kept, "--key", f"{other_key}.pub"), "not by any key given"),
        ((*verify, "--checkpoint", garbled, "--key", pub), "invalid signature"),
        ((*verify, "--checkpoint", junk, "--key", pub), "junk"),
        ((*verify, "--checkpoint", kept), "needs the key"),
        ((*verify, "--key", pub), "--key"),
        ((*verify, "--checkpoint", kept, "--key", key), "not a verifier key"),
        ((*verify, "--checkpoint", kept, "--key", tmp_path / "absent.pub"), "no key file"),
        ((*verify, "--checkpoint", tmp_path / "absent"), "no checkpoint file"),
        (("checkpoint", "--db", db, "--sign", pub), "not a private key"),
        (("checkpoint", "--db", db, "--sign", tmp_path / "absent"), "no private key at"),
    ):
        assert says in _clean_error(capsys, *argv)


# --- the proof verifier of the spec ---------------------------------------------------------------


def _program() -> str:
    section = SPEC.read_text(encoding="utf-8").split("\n## 11. ", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, "§11 of journal-format.md holds one python block: the proof verifier"
    return str(blocks[0])


def _check(program: Path, proof: Path, *trusted: str) -> subprocess.CompletedProcess[str]:
    # -I -S: no site-packages at all, so the program can only use the standard library
    return subprocess.run(
        [sys.executable, "-I", "-S", str(program), str(proof), *trusted],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_proof_verifier_uses_only_the_standard_library() -> None:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(_program())):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported <= {"base64", "hashlib", "json", "sys"}


def test_the_spec_program_checks_real_proofs(
    db: Path, tmp_path: Path, keys: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line: trusted sizes and roots (a checkpoint's lines), the entry's hash; exit 0, 1, 2."""
    key, _ = keys
    program = tmp_path / "verify_proof.py"
    program.write_text(_program(), encoding="utf-8")
    signed_root = _sign(capsys, db, key, tmp_path / "cp").read_text().splitlines()[2]  # base64
    roots = {
        size: _json(capsys, "root", "--db", db, "--at", size, "-o", "json")["root"] for size in (0, 6, 8, N)
    }
    entry = h.read_cell(db, 6, "entry_hash")
    files: dict[str, Path] = {}
    for name, argv in (
        ("prove", ("prove", "--db", db, 6)),
        ("consistency", ("consistency", "--db", db, 6)),
        ("empty", ("consistency", "--db", db, 0)),
        ("same", ("consistency", "--db", db, N)),
        ("power", ("consistency", "--db", db, 8)),
    ):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(_run(capsys, *argv))
    done = _check(program, files["prove"], str(N), signed_root, entry)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    assert done.stdout.startswith(f"OK entry 6 ({entry}) is in the tree of size {N}")
    for name, old in (("consistency", 6), ("empty", 0), ("same", N), ("power", 8)):
        done = _check(program, files[name], str(old), roots[old], str(N), signed_root)
        assert done.returncode == 0, (name, done.stdout, done.stderr)
    for trusted, says in (
        ((str(N + 1), signed_root, entry), "BAD the proof is about a tree of another size\n"),
        ((str(N), roots[6], entry), "BAD the proof is not about the trusted root\n"),
        ((str(N), signed_root, h.read_cell(db, 5, "entry_hash")), "BAD the proof is about another entry\n"),
    ):
        done = _check(program, files["prove"], *trusted)
        assert (done.returncode, done.stdout) == (1, says)
    wrong = _check(program, files["consistency"], "5", roots[6], str(N), signed_root)
    assert (wrong.returncode, wrong.stdout) == (1, "BAD the proof is about trees of other sizes\n")
    for name in ("prove", "consistency"):
        proof = json.loads(files[name].read_text())
        proof["path"][0] = ("0" if proof["path"][0][0] != "0" else "1") + proof["path"][0][1:]
        files[name].write_text(json.dumps(proof))
        trusted = (str(N), signed_root, entry) if name == "prove" else ("6", roots[6], str(N), signed_root)
        done = _check(program, files[name], *trusted)
        assert done.returncode == 1 and done.stdout.startswith("BAD "), name
    assert _check(program, files["prove"], str(N), signed_root).returncode == 2  # no entry hash: usage
    assert _check(program, files["consistency"], str(N), signed_root, entry).returncode == 2  # wrong kind
    files["prove"].write_text("{}")
    assert _check(program, files["prove"], str(N), signed_root, entry).returncode == 2
    assert _check(program, tmp_path / "absent.json", str(N), signed_root, entry).returncode == 2


def test_several_seq_hash_checkpoints(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    third, tenth = (f"{seq}:{h.read_cell(db, seq, 'entry_hash')}" for seq in (3, 10))
    _run(capsys, "verify", "--db", db, "--checkpoint", third, "--checkpoint", tenth, "--chain-only")
    other = f"3:{'a' * 64}"
    assert "two checkpoints at seq 3" in _clean_error(
        capsys, "verify", "--db", db, "--checkpoint", third, "--checkpoint", other
    )
    _forge(db, 7)
    argv = ("verify", "--db", db, "--checkpoint", third, "--checkpoint", tenth, "--chain-only", "-o", "json")
    assert _json(capsys, *argv, code=1)["first_bad_seq"] == 10


def test_a_private_key_others_may_read_is_refused(
    capsys: pytest.CaptureFixture[str], db: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    private, _ = keys
    loose = tmp_path / "loose.key"
    loose.write_bytes(private.read_bytes())
    loose.chmod(0o644)
    code, _, err = h.cli(
        capsys, "journal", "checkpoint", "--db", db, "--sign", loose, "--out", tmp_path / "c"
    )
    assert code == 2
    assert "mode 0644" in err and "chmod 600" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_signing_key_is_refused_at_once(db: Path, tmp_path: Path) -> None:
    """The key is read once, through the descriptor checked as a regular file: a FIFO nobody writes to
    is refused (exit 2), not waited on. A subprocess, so a regression times out instead of hanging."""
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo, 0o600)
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli", "journal", "checkpoint", "--db", str(db), "--sign", str(fifo)],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "not a regular file" in done.stderr and "Traceback" not in done.stderr
