"""Writes ``pg-<journal>.sql``: each golden SQLite journal copied into PostgreSQL by ``arvis journal copy``,
then dumped by ``pg_dump`` as plain SQL.

Run it from the repository root, into an empty folder (it refuses to overwrite a dump: like the SQLite
journals beside them, these files are never regenerated once committed)::

    .venv/bin/python tests/golden/generate_pg.py /tmp/pg-golden

For each journal of ``SOURCES`` it:

1. copies the golden file into a temporary folder (a golden file is never opened in place);
2. uses one throwaway PostgreSQL 15 cluster for the whole run, started as the test suite starts it
   (``pg_cluster.Cluster.start``: ``scripts/pg-up`` in a temporary directory, unix socket only, ICU
   en-US collation) and removed at the end (``scripts/pg-down``);
3. creates an empty database and runs ``arvis journal copy COPY URL -o json`` into it (the command creates
   the schema: head migration of this release), checking the entries and head it reports against the pins
   of ``tests/test_golden_journals.py``;
4. verifies the copy there by replay (``arvis journal verify URL -o json``);
5. dumps it with ``pg_dump --format=plain --no-owner --no-privileges --restrict-key=golden`` and drops the
   two psql meta-commands that key adds (``\\restrict golden`` / ``\\unrestrict golden``, lines psql before
   15.14 rejects, and the only lines that are not SQL or COPY data); nothing else is changed;
6. restores the file with stock ``psql --single-transaction -v ON_ERROR_STOP=1`` into a new database and
   verifies that one too, so every dump written is known to restore.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent
TESTS = GOLDEN_DIR.parent
sys.path.insert(0, str(TESTS))  # pg_cluster and the pins of the SQLite golden journals

import pg_cluster  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from test_golden_journals import GOLDENS, Golden  # noqa: E402

SOURCES = (
    "r1-long-term.db",
    "r1-working-memory.db",
    "r1-scenario.db",
    "r2-scenario.db",
    "r3-contract.db",
)
RESTRICT_KEY = "golden"
META_COMMANDS = (f"\\restrict {RESTRICT_KEY}".encode(), f"\\unrestrict {RESTRICT_KEY}".encode())
ARVIS = Path(sys.executable).with_name("arvis")


def dump_name(source: str) -> str:
    return f"pg-{source.removesuffix('.db')}.sql"


def libpq_url(url: str) -> str:
    """The ``postgresql://`` form of a SQLAlchemy URL, for pg_dump and psql."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _run_bytes(*command: str) -> bytes:
    """The command's stdout, exactly as written (no newline translation)."""
    done = subprocess.run(
        command, capture_output=True, env={**os.environ, "ARVIS_DB": "", "PGTZ": "UTC"}, check=False
    )
    if done.returncode != 0:
        output = (done.stdout + done.stderr).decode("utf-8", "replace")
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{output}")
    return done.stdout


def _run(*command: str) -> str:
    return _run_bytes(*command).decode("utf-8")


def _verified(url: str, golden: Golden) -> None:
    report = json.loads(_run(str(ARVIS), "journal", "verify", url, "-o", "json"))
    found = (report["verified"], report["replayed"], report["head_seq"], report["head_hash"])
    if (
        found != (True, True, golden.entries, golden.head_hash)
        or report["state_digest"] != golden.state_digest
    ):
        raise SystemExit(f"{golden.name}: the PostgreSQL copy did not verify as pinned: {report}")


def _dump(url: str) -> bytes:
    text = _run_bytes(
        str(pg_cluster.PG_BIN / "pg_dump"),
        "--format=plain",
        "--no-owner",
        "--no-privileges",
        f"--restrict-key={RESTRICT_KEY}",
        f"--dbname={libpq_url(url)}",
    )
    kept: list[bytes] = []
    dropped: list[bytes] = []
    in_copy = False  # COPY data (a row may begin with a backslash; ``\\.`` ends the block)
    for line in text.split(b"\n"):  # lines end at LF only: data may hold any other character raw
        if in_copy:
            in_copy = line != b"\\."
        elif line.startswith(b"COPY ") and line.endswith(b" FROM stdin;"):
            in_copy = True
        elif line.startswith(b"\\"):
            dropped.append(line)
            continue
        kept.append(line)
    if dropped != list(META_COMMANDS) or in_copy:
        raise SystemExit(
            f"pg_dump wrote psql meta-commands other than \\restrict and \\unrestrict: {dropped}"
        )
    return b"\n".join(kept)


def main(target: Path) -> None:
    pins = {golden.name: golden for golden in GOLDENS}
    target.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        if (target / dump_name(source)).exists():
            raise SystemExit(f"{target / dump_name(source)} exists: golden dumps are never rewritten")
    cluster = pg_cluster.Cluster.start()
    work = Path(tempfile.mkdtemp(prefix="arvis-golden-pg-"))
    try:
        with cluster.admin.connect() as connection:
            server = connection.exec_driver_sql("SHOW server_version").scalar_one()
        print(f"server {server}; {_run(str(pg_cluster.PG_BIN / 'pg_dump'), '--version').strip()}")
        for source in SOURCES:
            golden = pins[source]
            private = work / source
            shutil.copyfile(GOLDEN_DIR / source, private)
            with pg_cluster.fresh_database(cluster, migrated=False) as url:
                copied = json.loads(_run(str(ARVIS), "journal", "copy", str(private), url, "-o", "json"))
                if (copied["entries"], copied["head_seq"], copied["head_hash"]) != (
                    golden.entries,
                    golden.entries,
                    golden.head_hash,
                ):
                    raise SystemExit(f"{source}: journal copy reported {copied}")
                _verified(url, golden)
                dump = _dump(url)
            written = target / dump_name(source)
            written.write_bytes(dump)
            with pg_cluster.fresh_database(cluster, migrated=False) as url:
                _run(
                    str(pg_cluster.PG_BIN / "psql"),
                    "--no-psqlrc",
                    "--quiet",
                    "--single-transaction",
                    "--set=ON_ERROR_STOP=1",
                    f"--dbname={libpq_url(url)}",
                    f"--file={written}",
                )
                _verified(url, golden)
            print(f"{written}: {golden.entries} entries, head {golden.entries}:{golden.head_hash}")
            digest = hashlib.sha256(dump).hexdigest()
            print(f"  from {source}, {len(dump)} bytes, sha256 {digest}, restored by psql and verified")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        cluster.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN_DIR)
