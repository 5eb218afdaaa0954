"""``arvis journal root|prove|consistency|keygen`` and ``checkpoint --sign``: proofs an auditor carries away.

The tree and its proofs are RFC 9162's (``journal.merkle``); keys and checkpoints are C2SP signed notes
(``journal.signed_note``, ``journal.tree_checkpoint``). Every bad input is a ``CommandError`` (exit 2):
a seq or size outside the tree, a key that is not one, a note that is malformed or not signed by a key
given. A journal that fails a good checkpoint, or whose origin is not the checkpoint's, is "not verified"
(exit 1, in ``journal verify``).
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from journal import merkle
from journal.entry import Pos
from journal.reader import JournalReader
from journal.signed_note import NoteError, SignerKey, VerifierKey, open_note, sign_note
from journal.tree import BadLeaf, TiledTree, journal_leaves, journal_size
from journal.tree_checkpoint import (
    ADMIN_HEADER_LINE,
    HEADER_LINE,
    CheckpointBody,
    TreeFile,
    TreeFinding,
    admin_header_digest,
    check_checkpoint,
    header_digest,
    origin_of,
    tree_file_of,
)
from tools.audit.replay import ReplayReport
from tools.audit.replayer import Divergence, DivergenceClass
from tools.common import EXIT_OK, CommandError
from tools.output import print_json, print_table, shown
from tools.private_file import read_private

TREE_SUFFIX = ".tree"
_MAX_KEY_BYTES = 4096


@contextmanager
def _tree_errors() -> Iterator[None]:
    """A bad leaf or a short tree met while building a tree: the usage error it is."""
    try:
        yield
    except BadLeaf as exc:
        raise CommandError(str(exc), hint="`journal verify --chain-only` names what is wrong there") from None
    except merkle.ShortTree as exc:  # the entry hashes stop at the first row out of place (JournalReader)
        raise CommandError(
            f"the journal's seqs are not 1 to {exc.wanted} without a gap: seq {exc.found + 1} is missing "
            "or out of place",
            hint="`arvis journal verify --chain-only` names the gap",
        ) from None


def _tree_size(reader: JournalReader, asked: int | None) -> int:
    size = journal_size(reader)
    if asked is not None and asked > size:
        raise CommandError(
            f"the journal has {size} entries: there is no tree of size {asked}",
            hint="a tree size is at most the journal's number of entries",
        )
    return size if asked is None else asked


def _emit(options: argparse.Namespace, title: str, value: dict[str, Any]) -> int:
    if options.output != "table":
        print_json(value, lines=options.output == "jsonl")
        return EXIT_OK
    rows: list[tuple[str, object]] = []
    for name, item in value.items():
        if isinstance(item, list):
            rows.extend((f"{name}[{index}]", hash_hex) for index, hash_hex in enumerate(item))
        else:
            rows.append((name, item))
    print_table(title, ("field", "value"), rows)
    return EXIT_OK


def run_root(reader: JournalReader, options: argparse.Namespace) -> int:
    size = _tree_size(reader, options.at)
    with _tree_errors():
        root = merkle.root_of(journal_leaves(reader, size), size)
    return _emit(options, f"root of the first {size} entries", {"tree_size": size, "root": root.hex()})


def run_prove(reader: JournalReader, options: argparse.Namespace) -> int:
    size = _tree_size(reader, options.size)
    if not 1 <= options.seq <= size:
        raise CommandError(
            f"no entry {options.seq} in the tree of size {size}",
            hint=f"a seq is from 1 to the tree size ({size})",
        )
    with _tree_errors():
        proof = TiledTree(reader, size).prove_inclusion(options.seq - 1)
    entry = reader.get(options.seq)
    value = {
        "seq": options.seq,
        "tree_size": size,
        "entry_hash": None if entry is None else entry.entry_hash,
        "leaf_hash": proof.leaf_hash.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }
    return _emit(options, f"inclusion of entry {options.seq} in the tree of size {size}", value)


def run_consistency(reader: JournalReader, options: argparse.Namespace) -> int:
    size = _tree_size(reader, options.size)
    if options.old_size > size:
        raise CommandError(
            f"old size {options.old_size} is larger than the tree of size {size}",
            hint="OLD_SIZE is at most --size (default: the journal's number of entries)",
        )
    with _tree_errors():
        proof = merkle.prove_consistency(journal_leaves(reader, size), options.old_size, size)
    value = {
        "old_size": proof.old_size,
        "tree_size": proof.tree_size,
        "old_root": proof.old_root.hex(),
        "root": proof.root.hex(),
        "path": [node.hex() for node in proof.path],
    }
    return _emit(options, f"consistency of size {options.old_size} with size {size}", value)


# --- keys and signed checkpoints -----------------------------------------------------------------


def _write_new(path: Path, text: str, *, force: bool, mode: int) -> None:
    """Write ``text`` to ``path`` with ``mode``; an existing file is kept unless ``force``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | (0 if force else os.O_EXCL)
    try:
        descriptor = os.open(path, flags, mode)
    except FileExistsError:
        raise CommandError(f"{shown(str(path))} exists", hint="pass --force to replace it") from None
    except OSError as exc:
        raise CommandError(f"cannot write {shown(str(path))}: {exc.strerror}") from None
    with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
        os.fchmod(handle.fileno(), mode)  # a replaced file keeps its old mode otherwise
        handle.write(text)


def _read_small(path: str, what: str, limit: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {what} {shown(path)}: {exc.strerror}") from None
    if len(data) > limit:
        raise CommandError(f"{shown(path)} is not {what}: larger than {limit} bytes")
    return data


def run_keygen(options: argparse.Namespace) -> int:
    """A new Ed25519 key: the private key (``PRIVATE+KEY+…``) in KEYFILE, mode 0600, and the verifier
    key in KEYFILE.pub, printed too. Neither file is replaced without --force."""
    try:
        key = SignerKey.generate(options.name)
    except NoteError as exc:
        raise CommandError(str(exc), hint="a key name is e.g. example.com/arvis-audit") from None
    public = Path(f"{options.keyfile}.pub")
    if public.exists() and not options.force:
        raise CommandError(f"{shown(str(public))} exists", hint="pass --force to replace it")
    _write_new(Path(options.keyfile), key.text() + "\n", force=options.force, mode=0o600)
    _write_new(public, key.verifier().text() + "\n", force=True, mode=0o644)
    if options.output == "json":
        print_json(
            {"key": shown(options.keyfile), "verifier": key.verifier().text(), "pub": shown(str(public))}
        )
    else:
        print(key.verifier().text())
    return EXIT_OK


def _signer(path: str) -> SignerKey:
    """The signing key in ``path``, read once through the checked descriptor (``tools.private_file``: a
    regular file, so a FIFO is refused rather than waited on): first whether it is one at all (a .pub
    given by mistake is named as such), then whether its file is private (0600, the caller's own)."""
    parsed: list[SignerKey] = []

    def parse(data: bytes) -> None:
        text = data.decode("utf-8", "replace")
        try:
            parsed.append(SignerKey.parse(text))
        except NoteError as exc:
            hint = (
                "sign with the private key file, not its .pub"
                if "+" in text and "PRIVATE" not in text
                else None
            )
            raise CommandError(f"{shown(path)} is not a private key: {exc}", hint=hint) from None

    read_private(Path(path), "the private key", _MAX_KEY_BYTES, validate=parse)
    return parsed[0]


def run_signed_checkpoint(reader: JournalReader, options: argparse.Namespace) -> int:
    """The current tree as a signed checkpoint note, to ``--out FILE`` (with the tree file FILE.tree
    beside it) or to stdout."""
    signer = _signer(options.sign)
    header = reader.header()
    assert header is not None
    origin = origin_of(header.journal_id)
    if any(char < " " for char in origin):
        raise CommandError("the journal's id holds a control character: it cannot be a checkpoint origin")
    digests = (header_digest(header), admin_header_digest(header, reader.admin_verifier()))
    if None in digests:
        raise CommandError("the journal's header holds bytes that are not valid text: verify names it")
    bound = tuple(  # the header's fields, signed too: without its admin verifier, then with it
        line + base64.b64encode(digest or b"").decode("ascii")
        for line, digest in zip((HEADER_LINE, ADMIN_HEADER_LINE), digests, strict=True)
    )
    size = journal_size(reader)
    with _tree_errors():
        tree_file = tree_file_of(reader, size) if options.out not in (None, "-") else None
        if tree_file is None:
            root = merkle.root_of(journal_leaves(reader, size), size)
        else:  # the nodes of any level hash to the root: one pass over the journal, not two
            root = merkle.root_of(tree_file.nodes, len(tree_file.nodes))
    note = sign_note(CheckpointBody(origin, size, root, bound).text(), [signer])
    if tree_file is None:
        sys.stdout.write(note)
        return EXIT_OK
    target = Path(options.out)
    tree_path = Path(f"{options.out}{TREE_SUFFIX}")
    if tree_path.exists() and not options.force:
        raise CommandError(f"{shown(str(tree_path))} exists", hint="pass --force to replace it")
    _write_new(target, note, force=options.force, mode=0o644)
    _write_new(tree_path, tree_file.text(), force=True, mode=0o644)
    if options.output == "table":
        print(
            f"signed checkpoint of {size} entries, root {root.hex()}: {shown(str(target))} (+{TREE_SUFFIX})"
        )
    else:
        report = {
            "file": shown(str(target)),
            "tree_file": shown(str(tree_path)),
            "size": size,
            "root": root.hex(),
        }
        print_json(report, lines=options.output == "jsonl")
    return EXIT_OK


# --- verifying against signed checkpoints --------------------------------------------------------


@dataclass(frozen=True)
class SignedCheckpoint:
    """A checkpoint note whose signature verified, and its tree file when one lies beside it."""

    path: str
    body: CheckpointBody
    tree_file: TreeFile | None
    signers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As ``verify`` names it: the file, what it signs and who signed it (``NAME+ID``)."""
        body = self.body
        named = dict(file=self.path, origin=body.origin, tree_size=body.tree_size, root=body.root.hex())
        return named | {"signers": list(self.signers)}


def load_keys(paths: list[str]) -> list[VerifierKey]:
    """Verifier keys, each given as a file holding ``NAME+ID+KEY`` or as that text itself."""
    keys: list[VerifierKey] = []
    for given in paths:
        is_file = Path(given).is_file()
        text = _read_small(given, "a key", _MAX_KEY_BYTES).decode("utf-8", "replace") if is_file else given
        try:
            keys.append(VerifierKey.parse(text))
        except NoteError as exc:
            missing = not is_file and "+" not in given
            message = (
                f"no key file {shown(given)}" if missing else f"{shown(given)} is not a verifier key: {exc}"
            )
            raise CommandError(message, hint="pass the KEYFILE.pub of keygen") from None
    return keys


def load_signed_checkpoint(path: str, keys: list[VerifierKey]) -> SignedCheckpoint:
    """The checkpoint note at ``path``, its signature verified with one of ``keys``."""
    message = _read_small(path, "a checkpoint", 1 << 20)
    try:
        note, signers = open_note(message, keys)
        body = CheckpointBody.parse(note.text)
    except (NoteError, ValueError) as exc:
        raise CommandError(f"{shown(path)}: {exc}", hint="is this the checkpoint and its key?") from None
    tree_file: TreeFile | None = None
    tree_path = f"{path}{TREE_SUFFIX}"
    if Path(tree_path).is_file():
        try:
            tree_file = TreeFile.parse(Path(tree_path).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            tree_file = None  # only a locator: the verdict does not depend on it
    return SignedCheckpoint(path, body, tree_file, tuple(f"{key.name}+{key.key_id:08x}" for key in signers))


def other_header(reader: JournalReader, checkpoints: list[SignedCheckpoint]) -> Divergence | None:
    """The failure of a journal whose header is not the one a checkpoint signed: another origin (another
    journal's checkpoint, or its id edited), or other header fields (``created_at``..., then the admin
    verifier: a field is named by the first line that binds it) than a checkpoint that binds them holds.
    Bad seq 0."""
    header = reader.header()
    assert header is not None
    verifier = reader.admin_verifier()
    origin = origin_of(header.journal_id)
    kind = DivergenceClass.INVALID_HISTORY
    for checkpoint in checkpoints:
        if checkpoint.body.origin != origin:
            reason = (
                f"the signed checkpoint {shown(checkpoint.path)} is another journal's: it is of "
                f"{shown(checkpoint.body.origin)}, this journal {shown(origin)} (or its id was changed)"
            )
            labels = ("checkpoint's origin", "journal's origin")
            return Divergence(0, "", kind, reason, checkpoint.body.origin, origin, labels=labels)
        for line, digest, what in (
            (HEADER_LINE, header_digest(header), "its fields (created_at, …) are not the ones"),
            (ADMIN_HEADER_LINE, admin_header_digest(header, verifier), "its admin_verifier is not the one"),
        ):
            signed = checkpoint.body.header(line)
            if signed is not None and signed != digest:
                reason = (
                    f"journal header altered: {what} the signed checkpoint {shown(checkpoint.path)} holds"
                )
                found_hex = "" if digest is None else digest.hex()
                labels = ("checkpoint's header digest", "journal's header digest")
                return Divergence(0, "", kind, reason, signed.hex(), found_hex, labels=labels)
    return None


def first_departure(reader: JournalReader, checkpoints: list[SignedCheckpoint]) -> TreeFinding | None:
    """The earliest place the journal departs from any checkpoint, narrowed by the ones it passes (a
    passed checkpoint of size P proves the first P entries unchanged)."""
    size = journal_size(reader)
    findings: list[TreeFinding] = []
    passed: list[int] = []
    for checkpoint in checkpoints:
        found = check_checkpoint(reader, checkpoint.body, size, checkpoint.tree_file)
        if found is None:
            passed.append(checkpoint.body.tree_size)
        else:
            findings.append(found)
    if not findings:
        return None
    worst = min(findings, key=lambda found: (found.last, found.first))
    floor = max((kept for kept in passed if kept < worst.last), default=0) + 1
    return worst if worst.truncated or floor <= worst.first else replace(worst, first=floor)


def signed_report(reader: JournalReader, checkpoints: list[SignedCheckpoint]) -> ReplayReport | None:
    """None when the journal passes every signed checkpoint; else its "not verified" report, named at
    the first entry that departs (checked before the chain and the replay: one pass over the hashes)."""
    other = other_header(reader, checkpoints)
    if other is not None:
        return _failed(reader, other)
    try:
        found = first_departure(reader, checkpoints)
    except BadLeaf as exc:
        return _failed(reader, Divergence(exc.seq, "", DivergenceClass.INVALID_HISTORY, str(exc)))
    except merkle.ShortTree as exc:
        reason = f"seq gap: seq {exc.found + 1} is missing or out of place (the tree needs 1 to {exc.wanted})"
        return _failed(reader, Divergence(exc.found + 1, "", DivergenceClass.INVALID_HISTORY, reason))
    if found is None:
        return None
    entry = reader.get(found.first)
    divergence = Divergence(
        found.first,
        "" if entry is None else entry.syscall,
        DivergenceClass.INVALID_HISTORY,
        found.reason,
        found.expected,
        found.found,
        labels=("checkpoint's root", "journal's root"),
    )
    return _failed(reader, divergence)


def _failed(reader: JournalReader, divergence: Divergence) -> ReplayReport:
    entry = reader.get(divergence.seq - 1) if divergence.seq > 1 else None
    header = reader.header()
    assert header is not None
    head = Pos(0, header.genesis_hash) if entry is None else entry.pos
    return ReplayReport(
        verified=False,
        replayed=False,
        entries=head.seq,
        seconds=0.0,
        head=head,
        state_digest=None,
        divergence=divergence,
    )
