"""The club database's schema: numbered SQL files, each applied once, in order, in one transaction.

``scoring/club/migrations/NNN_name.sql`` (``001_games.sql``, ``002_club.sql``, …) are applied in the
order of their number; each in one transaction together with its row in ``schema_version`` (``version``,
``name``, ``applied_at``), so a migration is in whole or not at all. The database's version is the
highest ``version`` there. A transaction-scoped advisory lock makes two hubs opening one database at
once apply each file once. A database of a newer Borne (a version this one does not know) is refused.
A migration is never edited once released: a change to the schema is a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from scoring.club.errors import ClubDatabaseError

MIGRATION_LOCK = 0x426F726E65
"""The advisory lock key ("Borne") held while the schema is checked and changed."""

_FILE_NAME = re.compile(r"(\d{3})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file of ``scoring/club/migrations``."""

    version: int
    """The file's number: 1 for ``001_games.sql``."""
    name: str
    """The file's name without its number and ``.sql``: ``games``, ``club``, …"""
    sql: str
    """The statements, run as one script inside the migration's transaction."""


def migrations() -> list[Migration]:
    """Every migration shipped, by version; numbers run 1, 2, 3 … without gaps.

    >>> [(m.version, m.name) for m in migrations()][:2]
    [(1, 'games'), (2, 'club')]
    """
    found = []
    for entry in resources.files("scoring.club.migrations").iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(version=int(match[1]), name=match[2], sql=entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"the club's migrations are not numbered 1 to {len(found)}: {[m.version for m in found]}")
    return found


LATEST_VERSION = len(migrations())
"""The schema version this Borne writes."""


def schema_version(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    """The database's schema version: 0 for an empty database."""
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    version = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(str(version[0])) if version is not None else 0


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    """Bring the database to :data:`LATEST_VERSION`, one transaction per migration; returns the version.

    Opening an up-to-date database changes nothing.

    :raises ClubDatabaseError: the database was written by a newer Borne.
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
    for migration in migrations():
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            current = schema_version(conn)
            if current > LATEST_VERSION:
                raise ClubDatabaseError(
                    f"the club's database was written by a newer Borne (schema {current}, this one knows "
                    f"{LATEST_VERSION}); upgrade Borne"
                )
            if migration.version <= current:
                continue
            conn.execute(migration.sql.encode())
            conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                         (migration.version, migration.name))
    with conn.transaction():
        return schema_version(conn)
