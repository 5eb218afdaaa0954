"""Golden PostgreSQL dumps: a journal copied into PostgreSQL by one release verifies under every later one.

``tests/golden/pg-*.sql`` are the golden SQLite journals copied into PostgreSQL 15 by ``arvis journal copy``
and dumped by ``pg_dump`` as plain SQL (``tests/golden/generate_pg.py``, ``tests/golden/README.md``); like
the SQLite files they are never regenerated. On the session's PostgreSQL server each dump is restored into a
new, empty database (executed through psycopg as psql would: no psql binary needed, so an external server
named by ``$ARVIS_TEST_PG_URL`` does as well), then:

- it verifies by replay, through the library and through ``arvis journal verify URL``, with the entry
  count, head entry hash and state digest pinned for its SQLite source in ``test_golden_journals``;
- a restored copy with one entry's result changed (its append-only trigger disabled) fails verification
  at that entry, and one with a state row changed fails as well: the test can fail.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pg_cluster
import psycopg
import pytest
from sqlalchemy.engine import make_url
from test_golden_journals import ARVIS_BIN, GOLDEN_DIR, GOLDENS, Golden

from journal.entry import Pos
from journal.reader import JournalReader
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import ReplayReport, verify_journal


@dataclass(frozen=True)
class PgGolden:
    dump: str
    sha256: str  # of the dump's bytes: the fixture itself is never edited or rewritten
    source: Golden  # the SQLite golden journal it was copied from, with its pins

    def __str__(self) -> str:
        return self.dump


def _source(name: str) -> Golden:
    return next(golden for golden in GOLDENS if golden.name == name)


PG_GOLDENS = (
    PgGolden(
        "pg-r1-long-term.sql",
        "658a1e4247b02ca95a722e252a8c968972ce6be27581ba9731047a8bcf6ffdf8",
        _source("r1-long-term.db"),
    ),
    PgGolden(
        "pg-r1-working-memory.sql",
        "4cb4fabe79db3b507025945ffbcb09dad86114d188ca368ac005bed3ced7f089",
        _source("r1-working-memory.db"),
    ),
    PgGolden(
        "pg-r1-scenario.sql",
        "30380f944381a20827418a66e72ad898805b196f6ebf19cf1cf9628e2645f8e1",
        _source("r1-scenario.db"),
    ),
    PgGolden(
        "pg-r2-scenario.sql",
        "922d4ca58fbe441bdc4d341da331e1949a6f5172c7f3e9e0e38843de5b22e4ff",
        _source("r2-scenario.db"),
    ),
    PgGolden(
        "pg-r3-contract.sql",
        "f8f32fc714b243e88bb6bbd6f30d989f79a19e6a1be27bd2dc85fff83cb55af4",
        _source("r3-contract.db"),
    ),
)


@pytest.fixture(params=PG_GOLDENS, ids=str)
def pg_golden(request: pytest.FixtureRequest) -> PgGolden:
    chosen: PgGolden = request.param
    return chosen


def _conninfo(url: str) -> str:
    """The libpq form (``postgresql://``) of a SQLAlchemy URL of the session's server."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _is_sql(chunk: list[bytes]) -> bool:
    return any(line.strip() and not line.startswith(b"--") for line in chunk)


def restore(url: str, dump: bytes) -> None:
    """Execute a plain-format pg_dump file in the database ``url`` names, in one transaction, as
    ``psql --single-transaction -v ON_ERROR_STOP=1`` does: the SQL between COPY blocks as one simple query
    each (psycopg sends a query without parameters that way, several statements at once), each COPY block's
    rows through the COPY protocol. A psql meta-command (a line beginning with a backslash outside COPY
    data) is refused: the golden dumps hold none."""
    lines = iter(dump.split(b"\n"))  # lines end at LF only: COPY data may hold any other character raw
    with psycopg.connect(_conninfo(url)) as connection, connection.cursor() as cursor:
        pending: list[bytes] = []
        for line in lines:
            if line.startswith(b"COPY ") and line.endswith(b" FROM stdin;"):
                if _is_sql(pending):
                    cursor.execute(b"\n".join(pending))
                pending = []
                with cursor.copy(line.removesuffix(b";")) as copy:
                    for row in lines:
                        if row == b"\\.":
                            break
                        copy.write(row + b"\n")
                    else:
                        raise AssertionError(f"COPY data without its end marker: {line!r}")
            elif line.startswith(b"\\"):
                raise AssertionError(f"a psql meta-command in the dump: {line!r}")
            else:
                pending.append(line)
        if _is_sql(pending):
            cursor.execute(b"\n".join(pending))


@contextmanager
def restored(server: pg_cluster.Cluster, pg_golden: PgGolden) -> Iterator[str]:
    """The URL of a new database holding the dump, dropped afterwards."""
    with pg_cluster.fresh_database(server, migrated=False) as url:
        restore(url, (GOLDEN_DIR / pg_golden.dump).read_bytes())
        yield url


def _verify(url: str, *, replay: bool = True, checkpoint: Pos | None = None) -> ReplayReport:
    reader = JournalReader.open(url)
    try:
        return verify_journal(reader, table=SYSCALL_TABLE, replay=replay, checkpoint=checkpoint)
    finally:
        reader.close()


def _cli_verify(url: str) -> tuple[int, dict[str, object]]:
    completed = subprocess.run(
        [str(ARVIS_BIN), "journal", "verify", "--db", url, "-o", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ARVIS_DB": ""},
        check=False,
    )
    assert "unexpected error" not in completed.stderr, completed.stderr
    report: dict[str, object] = json.loads(completed.stdout)
    return completed.returncode, report


def _tamper(url: str, statement: str, *, table: str | None = None) -> None:
    """Run ``statement`` on the restored copy; ``table``: with its append-only triggers disabled (as the
    owner of the restored tables) for the statement, and enabled again."""
    with psycopg.connect(_conninfo(url)) as connection:
        if table is not None:
            connection.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER".encode())
        changed = connection.execute(statement.encode()).rowcount
        if table is not None:
            connection.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER".encode())
    assert changed == 1, f"{statement} changed {changed} rows"


def test_the_dump_is_pristine(pg_golden: PgGolden) -> None:
    path = GOLDEN_DIR / pg_golden.dump
    assert hashlib.sha256(path.read_bytes()).hexdigest() == pg_golden.sha256, (
        f"{path} was changed: golden dumps are never edited or regenerated (tests/golden/README.md)"
    )


def test_the_restored_dump_verifies_by_replay(pg_server: pg_cluster.Cluster, pg_golden: PgGolden) -> None:
    golden = pg_golden.source
    with restored(pg_server, pg_golden) as url:
        reader = JournalReader.open(url)
        try:
            header, head, count = reader.header(), reader.head(), reader.count()
        finally:
            reader.close()
        assert header is not None and header.journal_id == golden.journal_id
        assert head is not None and (head.seq, head.entry_hash) == (golden.entries, golden.head_hash)
        assert count == golden.entries

        report = _verify(url, checkpoint=Pos(golden.entries, golden.head_hash))
        assert report.verified, report.to_json()
        assert report.replayed
        assert (report.entries, report.head.seq) == (golden.entries, golden.entries)
        assert report.head.entry_hash == golden.head_hash
        assert report.state_digest == golden.state_digest  # the state copied, as the SQLite source's

        code, cli = _cli_verify(url)
        assert code == 0, cli
        assert cli["verified"] is True and cli["replayed"] is True
        assert (cli["entries"], cli["head_seq"], cli["head_hash"]) == (
            golden.entries,
            golden.entries,
            golden.head_hash,
        )
        assert cli["state_digest"] == golden.state_digest


def test_a_tampered_entry_fails_verification_at_that_entry(
    pg_server: pg_cluster.Cluster, pg_golden: PgGolden
) -> None:
    golden = pg_golden.source
    seq = golden.entries // 2
    with restored(pg_server, pg_golden) as url:
        # one byte more in the result of one entry in the middle of the journal
        _tamper(
            url, f"UPDATE journal SET result = result || '\\x20'::bytea WHERE seq = {seq}", table="journal"
        )
        report = _verify(url)
        assert not report.verified
        assert report.divergence is not None and report.divergence.seq == seq, report.to_json()
        chain_only = _verify(url, replay=False)
        assert not chain_only.verified
        assert chain_only.divergence is not None and chain_only.divergence.seq == seq, chain_only.to_json()
        code, cli = _cli_verify(url)
        assert code == 1, cli
        assert cli["verified"] is False and cli["first_bad_seq"] == seq


def test_a_tampered_state_row_fails_verification(pg_server: pg_cluster.Cluster) -> None:
    pg_golden = PG_GOLDENS[0]  # long-term memory: memory_entries holds its state
    with restored(pg_server, pg_golden) as url:
        _tamper(
            url,
            "UPDATE memory_entries SET value_ref = 'tampered' "
            "WHERE (user_id, key, version) = (SELECT user_id, key, version FROM memory_entries "
            "WHERE value_ref IS NOT NULL ORDER BY written_seq LIMIT 1)",
        )
        report = _verify(url)
        assert not report.verified, report.to_json()
        # the replayed state is the pinned one; the stored state, read from the copy, is not
        assert report.divergence is not None, report.to_json()
        assert report.divergence.expected == pg_golden.source.state_digest != report.divergence.found
        code, cli = _cli_verify(url)
        assert code == 1, cli
        assert cli["verified"] is False


def test_db_upgrade_rebuilds_the_past_of_a_restored_dump(pg_server: pg_cluster.Cluster) -> None:
    """On PostgreSQL as on SQLite (``tests/test_history.py``): ``arvis db upgrade`` migrates a journal of
    a release before the effects log and rebuilds its rows' past from its replay, once."""
    pg_golden = PG_GOLDENS[1]  # working memories turned: units replaced turn after turn
    with restored(pg_server, pg_golden) as url:
        upgrade = [str(ARVIS_BIN), "db", "upgrade", "--db", url, "-o", "json"]
        env = {**os.environ, "ARVIS_DB": ""}
        completed = subprocess.run(upgrade, capture_output=True, text=True, timeout=120, env=env, check=False)
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout)["rebuilt_past"] == pg_golden.source.entries
        with psycopg.connect(_conninfo(url)) as connection:
            assert connection.execute(b"SELECT count(*) FROM history_from").fetchone() == (0,)
            assert connection.execute(b"SELECT count(*) FROM graph_history").fetchone() != (0,)
            unknown = b"SELECT count(*) FROM awmu_units WHERE written_seq IS NULL"
            assert connection.execute(unknown).fetchone() == (0,)
        report = _verify(url)
        assert report.verified and report.state_digest == pg_golden.source.state_digest, report.to_json()
        completed = subprocess.run(upgrade, capture_output=True, text=True, timeout=120, env=env, check=False)
        assert json.loads(completed.stdout)["rebuilt_past"] is None
