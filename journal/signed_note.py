"""Signed notes (C2SP ``signed-note``) with Ed25519 keys, byte for byte as Go's ``sumdb/note`` writes them.

A note is a text ending in a newline, a blank line, then signature lines ``— <key name> <base64(key ID ‖
signature)>``; the signature covers the text with its final newline. The key ID is the first four bytes of
SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ the 32-byte public key), read big-endian. Keys travel as text: the
verifier key ``<name>+<8 hex digits of the ID>+<base64(0x01 ‖ public key)>`` and the signer key
``PRIVATE+KEY+<name>+<ID>+<base64(0x01 ‖ 32-byte seed)>``, the forms Go's tools read and write, so a note
signed here opens there and the reverse. Only Ed25519 (signature type 0x01) is supported.

Errors: ``NoteError`` (malformed note or key), its subclasses ``UnverifiedNote`` (no signature by a key
given) and ``InvalidSignature`` (a signature by a key given that does not verify: the whole note is refused,
as the spec says a client SHOULD).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature as _BadSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

_ED25519 = 0x01
"""The signature type byte of Ed25519 in C2SP signed-note."""
MAX_SIGNATURES = 100
"""More signature lines than this make a note malformed (the spec asks to accept at least 16; Go: 100)."""
MAX_NOTE_BYTES = 1 << 20
"""A note larger than this is refused before it is parsed."""

_DASH = "\u2014 "
_PRIVATE = "PRIVATE+KEY+"


class NoteError(ValueError):
    """A note or key that does not follow the format."""


class UnverifiedNote(NoteError):
    """No signature of the note is by a key given."""


class InvalidSignature(NoteError):
    """A signature by a key given does not verify: the note is refused whole."""


def valid_key_name(name: str) -> bool:
    """Non-empty, without Unicode spaces or ``+`` (what ends a name in a key's text form)."""
    return bool(name) and "+" not in name and not any(char.isspace() for char in name)


def _key_id(name: str, public: bytes) -> int:
    digest = hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([_ED25519]) + public).digest()
    return int.from_bytes(digest[:4], "big")


def _b64decode(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise NoteError("not base64") from None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _parsed_key(text: str) -> tuple[str, int, bytes]:
    """``NAME+ID+KEY`` as (name, ID, the key's bytes): the name may not hold ``+``, the base64 may (its
    alphabet has it): split from the left."""
    pieces = text.strip().split("+", 2)
    if len(pieces) != 3:
        raise NoteError("a key is NAME+ID+KEY")
    name, id_text, key_text = pieces
    if not valid_key_name(name):
        raise NoteError(f"{name!r} is not a key name (non-empty, no spaces, no '+')")
    if len(id_text) != 8 or any(char not in "0123456789abcdefABCDEF" for char in id_text):
        raise NoteError("a key ID is 8 hex digits")
    data = _b64decode(key_text)
    if len(data) != 33 or data[0] != _ED25519:
        raise NoteError("only Ed25519 keys (type 0x01, 32 bytes) are supported")
    return name, int(id_text, 16), data[1:]


@dataclass(frozen=True)
class VerifierKey:
    """A public key with its name and ID."""

    name: str
    key_id: int
    public: bytes

    @classmethod
    def of(cls, name: str, public: bytes) -> VerifierKey:
        return cls(name, _key_id(name, public), public)

    @classmethod
    def parse(cls, text: str) -> VerifierKey:
        """``<name>+<id>+<base64(0x01 ‖ key)>``; the ID must be the key's own."""
        name, key_id, public = _parsed_key(text)
        if key_id != _key_id(name, public):
            raise NoteError("the key ID does not match the key and name")
        return cls(name, key_id, public)

    def text(self) -> str:
        return f"{self.name}+{self.key_id:08x}+{_b64(bytes([_ED25519]) + self.public)}"

    def verifies(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except (_BadSignature, ValueError):
            return False
        return True


@dataclass(frozen=True)
class SignerKey:
    """A private key (its 32-byte Ed25519 seed) with its name and the ID of its public key."""

    name: str
    key_id: int
    seed: bytes

    @classmethod
    def generate(cls, name: str) -> SignerKey:
        if not valid_key_name(name):
            raise NoteError(f"{name!r} is not a key name (non-empty, no spaces, no '+')")
        seed = Ed25519PrivateKey.generate().private_bytes_raw()
        return cls.of(name, seed)

    @classmethod
    def of(cls, name: str, seed: bytes) -> SignerKey:
        public = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()
        return cls(name, _key_id(name, public), seed)

    @classmethod
    def parse(cls, text: str) -> SignerKey:
        """``PRIVATE+KEY+<name>+<id>+<base64(0x01 ‖ seed)>``; the ID must be the public key's."""
        if not text.strip().startswith(_PRIVATE):
            raise NoteError("a private key starts with PRIVATE+KEY+")
        name, key_id, seed = _parsed_key(text.strip()[len(_PRIVATE) :])
        key = cls.of(name, seed)
        if key.key_id != key_id:
            raise NoteError("the key ID does not match the key and name")
        return key

    def text(self) -> str:
        return f"{_PRIVATE}{self.name}+{self.key_id:08x}+{_b64(bytes([_ED25519]) + self.seed)}"

    def verifier(self) -> VerifierKey:
        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key().public_bytes_raw()
        return VerifierKey(self.name, self.key_id, public)

    def sign(self, message: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(self.seed).sign(message)


@dataclass(frozen=True)
class NoteSignature:
    name: str
    key_id: int
    signature: bytes

    def line(self) -> str:
        return f"{_DASH}{self.name} {_b64(self.key_id.to_bytes(4, 'big') + self.signature)}\n"


@dataclass(frozen=True)
class SignedNote:
    text: str
    """With its final newline; what every signature covers."""
    signatures: tuple[NoteSignature, ...]


def _check_text(text: str) -> None:
    if not text.endswith("\n"):
        raise NoteError("a note's text ends with a newline")
    if any(char < " " and char != "\n" for char in text):
        raise NoteError("a note holds no control character but newline")


def sign_note(text: str, signers: Sequence[SignerKey]) -> str:
    """The signed note of ``text`` (which must end with a newline)."""
    _check_text(text)
    lines = [
        NoteSignature(signer.name, signer.key_id, signer.sign(text.encode("utf-8"))).line()
        for signer in signers
    ]
    return text + "\n" + "".join(lines)


def _signature(line: str) -> NoteSignature:
    if not line.startswith(_DASH):
        raise NoteError("a signature line starts with an em dash and a space")
    name, space, encoded = line[len(_DASH) :].partition(" ")
    if not space or not valid_key_name(name) or " " in encoded:
        raise NoteError("a signature line is '— NAME BASE64'")
    data = _b64decode(encoded)
    if len(data) < 5:
        raise NoteError("a signature is a 4-byte key ID and the signature itself")
    return NoteSignature(name, int.from_bytes(data[:4], "big"), data[4:])


def parse_note(message: bytes) -> SignedNote:
    """The text and signature lines of a signed note, checked for form only (no signature verified)."""
    if len(message) > MAX_NOTE_BYTES:
        raise NoteError(f"a note is at most {MAX_NOTE_BYTES} bytes")
    try:
        decoded = message.decode("utf-8")
    except UnicodeDecodeError:
        raise NoteError("a note is UTF-8 text") from None
    split = decoded.rfind("\n\n")
    if split < 0:
        raise NoteError("a note is its text, a blank line, then its signatures")
    text, lines = decoded[: split + 1], decoded[split + 2 :]
    _check_text(text)
    if not lines.endswith("\n") or any(char < " " and char != "\n" for char in lines):
        raise NoteError("every signature line ends with a newline")
    signature_lines = lines[:-1].split("\n")
    if len(signature_lines) > MAX_SIGNATURES:  # counted before any is decoded
        raise NoteError(f"a note has at most {MAX_SIGNATURES} signatures")
    return SignedNote(text, tuple(map(_signature, signature_lines)))


def open_note(message: bytes, known: Sequence[VerifierKey]) -> tuple[SignedNote, tuple[VerifierKey, ...]]:
    """The note and the keys of ``known`` whose signatures on it verify. A signature by an unknown key
    (another name or ID) is ignored; one by a known key that fails refuses the note
    (``InvalidSignature``); none by a known key at all is ``UnverifiedNote``."""
    note = parse_note(message)
    signed = note.text.encode("utf-8")
    verified: list[VerifierKey] = []
    for signature in note.signatures:
        key = next((k for k in known if (k.name, k.key_id) == (signature.name, signature.key_id)), None)
        if key is None:
            continue
        if not key.verifies(signed, signature.signature):
            raise InvalidSignature(f"invalid signature for key {key.name}+{key.key_id:08x}")
        if key not in verified:
            verified.append(key)
    if not verified:
        names = ", ".join(sorted({f"{s.name}+{s.key_id:08x}" for s in note.signatures}))
        raise UnverifiedNote(f"the note is signed by {names}, not by any key given")
    return note, tuple(verified)
