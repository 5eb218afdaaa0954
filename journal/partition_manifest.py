"""The manifest of a partitioned journal (``specs/scale-out.md`` §2): what it is, fixed at creation,
and where its databases are.

A JSON file (``partitions.json`` in the set's directory, or any file named ``*.json``)::

    {"arvis_partitions": 1,
     "identity": {"format": 1, "set_id": "ps-…", "key": "hash", "partition_count": 4,
                  "partitions": ["ps-…/p0", …], "global_log": "ps-…/global"},
     "manifest_hash": "<SHA-256 of the canonical JSON of identity>",
     "locations": {"partitions": ["p0.db", …], "global_log": "global.db"}}

``identity`` is fixed for life: its hash is the payload of the global log's first entry, and each journal
id is bound into its journal's genesis hash. ``locations`` are not hashed: a partition moved to another
server (a new URL) is still the same partition. A location that is not a URL is a file path, relative to
the manifest's directory unless absolute.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arvis.canonical import canonical_bytes, sha256_hex
from journal.engine import is_url
from journal.regular_file import read_regular
from kernel.partition_routing import MAX_PARTITIONS, PartitionKey

__all__ = [
    "MANIFEST_FORMAT",
    "MANIFEST_NAME",
    "ManifestError",
    "PartitionManifest",
    "make_private_directory",
    "manifest_path",
    "new_manifest",
    "read_manifest",
    "write_manifest",
]

MANIFEST_NAME = "partitions.json"
MANIFEST_FORMAT = 1
SET_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,47}\Z")
"""A set id: 1-48 characters, so that ``<set>/global`` and ``<set>/p<k>`` fit a journal id (64)."""
_HASH = re.compile(r"^[0-9a-f]{64}\Z")


class ManifestError(ValueError):
    """The manifest cannot be read, or is not a partitioned journal's manifest."""


@dataclass(frozen=True)
class PartitionManifest:
    """A partitioned journal: its identity (hashed, fixed for life) and its databases' locations."""

    path: Path
    set_id: str
    key: PartitionKey
    locations: tuple[str, ...]
    global_location: str
    recorded_hash: str = ""
    """The ``manifest_hash`` the file states (it should equal ``manifest_hash``, recomputed)."""

    @property
    def count(self) -> int:
        return len(self.locations)

    @property
    def partition_ids(self) -> tuple[str, ...]:
        return tuple(f"{self.set_id}/p{index}" for index in range(self.count))

    @property
    def global_id(self) -> str:
        return f"{self.set_id}/global"

    def identity(self) -> dict[str, Any]:
        """What is fixed for life and hashed."""
        return {
            "format": MANIFEST_FORMAT,
            "set_id": self.set_id,
            "key": self.key.value,
            "partition_count": self.count,
            "partitions": list(self.partition_ids),
            "global_log": self.global_id,
        }

    @property
    def manifest_hash(self) -> str:
        return sha256_hex(canonical_bytes(self.identity()))

    def database(self, index: int) -> str:
        """Partition ``index``'s database: a URL, or a file path resolved against the manifest's directory."""
        return self._resolved(self.locations[index])

    def global_database(self) -> str:
        return self._resolved(self.global_location)

    def _resolved(self, location: str) -> str:
        if is_url(location) or os.path.isabs(location):
            return location
        return str(self.path.parent / location)

    def to_json(self) -> dict[str, Any]:
        return {
            "arvis_partitions": MANIFEST_FORMAT,
            "identity": self.identity(),
            "manifest_hash": self.manifest_hash,
            "locations": {"partitions": list(self.locations), "global_log": self.global_location},
        }


def manifest_path(location: str | os.PathLike[str]) -> Path:
    """The manifest file a location names: ``DIR/partitions.json`` for a directory (or a path that does
    not end in ``.json``), else the file itself."""
    path = Path(location)
    return path if path.suffix == ".json" and not path.is_dir() else path / MANIFEST_NAME


def new_manifest(
    location: str | os.PathLike[str],
    *,
    partitions: int,
    key: PartitionKey,
    set_id: str,
    databases: list[str] | None = None,
    global_database: str | None = None,
) -> PartitionManifest:
    """A manifest for a new set (not written): ``databases`` default to ``p<k>.db`` and ``global.db``
    beside the manifest (one SQLite file each)."""
    if type(partitions) is not int or not 1 <= partitions <= MAX_PARTITIONS:
        raise ManifestError(f"the partition count must be 1 to {MAX_PARTITIONS}")
    if not SET_ID.match(set_id):
        raise ManifestError(
            "a set id is 1-48 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    if databases is None:
        databases = [f"p{index}.db" for index in range(partitions)]
    if len(databases) != partitions:
        raise ManifestError(f"{partitions} partitions need {partitions} databases, not {len(databases)}")
    if global_database is None:
        if any(is_url(each) for each in databases):
            raise ManifestError("partitions on a server need the global log's database too")
        global_database = "global.db"
    chosen = [*databases, global_database]
    if len(set(chosen)) != len(chosen):
        raise ManifestError("every partition and the global log need a database of their own")
    return PartitionManifest(manifest_path(location), set_id, key, tuple(databases), global_database)


def write_manifest(manifest: PartitionManifest) -> None:
    """Write the manifest, readable and writable by its owner only (its URLs may hold a password); an
    existing file is never replaced."""
    text = json.dumps(manifest.to_json(), indent=2, sort_keys=True) + "\n"
    try:
        descriptor = os.open(manifest.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ManifestError(f"{manifest.path} exists already: a manifest is written once") from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        stream.write(text)


MAX_MANIFEST_BYTES = 1 << 22
"""The largest manifest read: 4 MiB (1,024 partitions' URLs fit many times over)."""


def make_private_directory(path: Path) -> None:
    """Create the directory ``path`` and any missing parent, each readable by its owner only (0700 whatever
    the umask: the set's databases and manifest live there); an existing directory is left as it is."""
    missing: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            continue  # made meanwhile by another process
        os.chmod(directory, 0o700)  # a umask such as 0277 would leave even its owner unable to write
    if not path.is_dir():
        raise ManifestError(f"{path} is not a directory")


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ManifestError(f"the manifest's {name} is missing or not a {kind.__name__}")
    return value


def read_manifest(location: str | os.PathLike[str]) -> PartitionManifest:
    """The manifest at ``location`` (a directory or a ``*.json`` file). ``ManifestError`` when it is
    missing, not JSON, or not the shape above; a ``manifest_hash`` that does not match the identity is
    kept (``recorded_hash``) for verification to report."""
    path = manifest_path(location)
    try:
        data = json.loads(read_regular(path, MAX_MANIFEST_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"no partition manifest at {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"cannot read the partition manifest {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("arvis_partitions") != MANIFEST_FORMAT:
        raise ManifestError(f"{path} is not an arvis partition manifest (format {MANIFEST_FORMAT})")
    identity = _field(data, "identity", dict)
    places = _field(data, "locations", dict)
    set_id = _field(identity, "set_id", str)
    count = _field(identity, "partition_count", int)
    key = _field(identity, "key", str)
    if key not in PartitionKey.__members__.values():
        raise ManifestError(f"unknown partition key kind {key!r}")
    databases = _field(places, "partitions", list)
    global_location = _field(places, "global_log", str)
    recorded = _field(data, "manifest_hash", str)
    if not _HASH.match(recorded):
        raise ManifestError("the manifest's manifest_hash is not 64 lower-case hex digits")
    if not all(isinstance(each, str) for each in databases):
        raise ManifestError("the manifest's partition locations must be strings")
    try:
        manifest = new_manifest(
            path,
            partitions=count,
            key=PartitionKey(key),
            set_id=set_id,
            databases=list(databases),
            global_database=global_location,
        )
    except ManifestError as exc:
        raise ManifestError(f"{path}: {exc}") from None
    manifest = PartitionManifest(
        path, manifest.set_id, manifest.key, manifest.locations, manifest.global_location, recorded
    )
    if identity != manifest.identity():
        raise ManifestError(
            f"{path}: the identity's journal ids or format are not the ones its set id and count give"
        )
    return manifest
