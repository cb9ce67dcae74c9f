"""SQLite storage of games: every change in one transaction, an audit trail, undo, export.

The database is a real file in WAL mode; a change is validated by the :class:`~scoring.game.Game`
value before anything is written, and committed whole or not at all, so a game survives the
program being killed at any moment. ``PRAGMA user_version`` holds the schema version; opening an
older file migrates it.

Over 500 lines on purpose: :class:`GameStore` is the one owner of the SQL schema and its migrations,
and every query beside it reads the same tables; split, the schema would be spelt in several places.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from scoring.errors import GameNotFoundError, NothingToUndoError, StaleRevisionError
from scoring.game import Game, GameSetup
from scoring.game_export import csv_text, game_csv, game_document
from scoring.hand import HandRecord

__all__ = ["Change", "GameStore", "OutboxEntry", "StoredGame", "csv_text", "default_db_path", "game_document"]

SCHEMA_VERSION = 4

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        setup TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (game_id, position)
    );
    CREATE TABLE changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        author TEXT NOT NULL,
        action TEXT NOT NULL,
        hand_number INTEGER,
        before TEXT,
        after TEXT,
        undoes INTEGER REFERENCES changes(id),
        undone INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX changes_by_game ON changes (game_id, id);
    """,
    2: """
    CREATE TABLE camera_documents (
        name TEXT PRIMARY KEY,
        document TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
    3: """
    CREATE TABLE requests (
        key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        at TEXT NOT NULL,
        status INTEGER,
        headers TEXT,
        body BLOB
    );
    CREATE INDEX requests_by_time ON requests (at);
    """,
    4: """
    CREATE TABLE club_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        revision INTEGER NOT NULL,
        hand_number INTEGER,
        at TEXT NOT NULL,
        document TEXT NOT NULL
    );
    CREATE TABLE club_origin (origin TEXT NOT NULL);
    INSERT INTO club_origin (origin) VALUES (lower(hex(randomblob(8))));
    """,
}
"""Schema migrations: version → SQL that brings version-1 to it."""


SYNCHRONOUS = "FULL"
"""SQLite syncs the log to disk at every commit, so a hand acknowledged survives the plug being pulled
(NORMAL, the WAL default, may lose the last commits then); it costs one fsync per change (see bench_hardening)."""

REQUEST_KEPT_DAYS = 2
"""How long an ``Idempotency-Key`` and its answer are kept for a client's retry."""


@dataclass(frozen=True)
class IdempotentRequest:
    """The write being served under an ``Idempotency-Key``: stored with the change, in its transaction."""

    key: str
    fingerprint: str
    """A digest of the method, path and body: the same key with another request is refused."""


@dataclass(frozen=True)
class StoredAnswer:
    """What a request under an ``Idempotency-Key`` did: its fingerprint and, once sent, its answer."""

    fingerprint: str
    status: int | None
    """``None`` when the change was committed but the answer never stored (the power went in between)."""
    headers: list[tuple[str, str]]
    body: bytes


CURRENT_REQUEST: ContextVar[IdempotentRequest | None] = ContextVar("borne_idempotent_request", default=None)
"""Set by the web server around a write carrying an ``Idempotency-Key``; every write transaction records it,
so a change and the key that made it are committed together or not at all."""


def default_db_path() -> Path:
    """The database in the user's data folder (``$XDG_DATA_HOME/borne`` or ``~/.local/share/borne``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "borne" / "borne.sqlite3"


@dataclass(frozen=True)
class OutboxEntry:
    """A change waiting for the club's hub: the game as it was right after it."""

    seq: int
    """The table's event number: 1, 2, 3 … without gaps."""
    game_id: int
    kind: str
    """The audit action (``create``, ``add``, ``replace``, ``delete``, ``undo``), or ``finished`` after the winning hand."""
    revision: int
    hand: int | None
    at: str
    document: dict[str, Any]


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its id, its value, and the revision that counts its changes."""

    id: int
    game: Game
    revision: int
    """Raised by one with every change; a write that names an older revision is refused."""
    created_at: str


@dataclass(frozen=True)
class Change:
    """One line of a game's audit trail."""

    id: int
    at: str
    author: str
    action: str
    """``create``, ``add``, ``replace``, ``delete`` or ``undo``."""
    hand_number: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    undoes: int | None
    undone: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at,
            "author": self.author,
            "action": self.action,
            "hand": self.hand_number,
            "before": self.before,
            "after": self.after,
            "undoes": self.undoes,
            "undone": self.undone,
        }


class GameStore:
    """Games in one SQLite file. Safe to share between threads; other processes may open the same file."""

    def __init__(self, path: str | os.PathLike[str], *, club_outbox: bool = False) -> None:
        self.path = Path(path)
        self.club_outbox = club_outbox  # every change also goes to the club's outbox, in its own transaction
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def durability(self) -> str:
        """SQLite's ``synchronous`` setting in force: ``FULL`` syncs every commit to disk (see :data:`SYNCHRONOUS`)."""
        with self._lock:
            level: int = self._db.execute("PRAGMA synchronous").fetchone()[0]
        return ("OFF", "NORMAL", "FULL", "EXTRA")[level]

    @property
    def schema_version(self) -> int:
        version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
        return version

    def _migrate(self) -> None:
        with self._write():
            current = self.schema_version
            if current > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path} was written by a newer Borne (schema {current}, this one knows {SCHEMA_VERSION})"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {version}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken before reading so that check-then-write cannot interleave."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                request = CURRENT_REQUEST.get()
                if request is not None:
                    self._db.execute("INSERT OR IGNORE INTO requests (key, fingerprint, at) VALUES (?, ?, ?)",
                                     (request.key, request.fingerprint, _now()))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- answers to retried requests (Idempotency-Key) ----------------------------

    def stored_answer(self, *, key: str) -> StoredAnswer | None:
        """What the request with ``key`` did, or ``None`` when no request had that key."""
        with self._lock:
            row = self._db.execute("SELECT fingerprint, status, headers, body FROM requests WHERE key = ?",
                                   (key,)).fetchone()
        if row is None:
            return None
        headers = [(str(k), str(v)) for k, v in json.loads(row[2])] if row[2] else []
        return StoredAnswer(fingerprint=row[0], status=row[1], headers=headers, body=bytes(row[3] or b""))

    def store_answer(self, *, request: IdempotentRequest, status: int, headers: list[tuple[str, str]],
                     body: bytes) -> None:
        """Keep the answer to ``request`` for its retries; forgets answers older than REQUEST_KEPT_DAYS."""
        cutoff = (datetime.now(UTC) - timedelta(days=REQUEST_KEPT_DAYS)).isoformat(timespec="seconds")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO requests (key, fingerprint, at, status, headers, body) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET status = excluded.status, headers = excluded.headers, "
                    "body = excluded.body",
                    (request.key, request.fingerprint, _now(), status, json.dumps(headers), body),
                )
                self._db.execute("DELETE FROM requests WHERE at < ?", (cutoff,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- the camera's documents ---------------------------------------------------
    # ``borne run`` keeps here, as JSON the core does not interpret, what must survive a restart:
    # the hand the camera follows (``live_hand``) and the table's zones (``layout``).

    def save_camera_document(self, *, name: str, document: dict[str, Any]) -> None:
        """Store (or replace) the camera document ``name`` in one transaction."""
        text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
        with self._write() as db:
            db.execute(
                "INSERT INTO camera_documents (name, document, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at",
                (name, text, _now()),
            )

    def load_camera_document(self, *, name: str) -> dict[str, Any] | None:
        """The camera document ``name``, or ``None`` when none was saved."""
        with self._lock:
            row = self._db.execute("SELECT document FROM camera_documents WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        document: dict[str, Any] = json.loads(row[0])
        return document

    def delete_camera_document(self, *, name: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM camera_documents WHERE name = ?", (name,))

    # -- the club's outbox ---------------------------------------------------------
    # A table in a club keeps every change here until the hub says it has it (scoring/club/publisher.py);
    # ``seq`` numbers them without gaps, since a rolled-back change takes no number.

    @property
    def club_origin(self) -> str:
        """This games file's name in a club: random, made once, so that its seq and game ids are told apart
        from another file's published under the same table name."""
        with self._lock:
            origin: str = self._db.execute("SELECT origin FROM club_origin").fetchone()[0]
        return origin

    def outbox_pending(self, *, after: int, limit: int = 100) -> list[OutboxEntry]:
        """The changes after ``after`` that the hub has not acknowledged, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, game_id, kind, revision, hand_number, at, document FROM club_outbox WHERE seq > ? "
                "ORDER BY seq LIMIT ?", (after, limit)).fetchall()
        return [OutboxEntry(seq=r[0], game_id=r[1], kind=r[2], revision=r[3], hand=r[4], at=r[5],
                            document=json.loads(r[6])) for r in rows]

    def outbox_acknowledge(self, seq: int) -> None:
        """The hub holds every change up to ``seq``: they leave the outbox."""
        with self._write() as db:
            db.execute("DELETE FROM club_outbox WHERE seq <= ?", (seq,))

    # -- reading ------------------------------------------------------------------

    def load(self, game_id: int) -> StoredGame:
        """:raises GameNotFoundError: no game has that id."""
        with self._lock:
            return self._load(game_id)

    def _load(self, game_id: int) -> StoredGame:
        row = self._db.execute("SELECT setup, revision, created_at FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"there is no game {game_id}")
        setup = GameSetup.from_json(json.loads(row[0]))
        hands = tuple(
            _trusted_record(json.loads(r[0]))
            for r in self._db.execute("SELECT record FROM hands WHERE game_id = ? ORDER BY position", (game_id,))
        )
        return StoredGame(id=game_id, game=Game(setup=setup, hands=hands), revision=row[1], created_at=row[2])

    def game_ids(self) -> list[int]:
        """Every game's id, newest first."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY id DESC")]

    def history(self, game_id: int) -> list[Change]:
        """The audit trail of a game, oldest first."""
        with self._lock:
            self._load(game_id)
            rows = self._db.execute(
                "SELECT id, at, author, action, hand_number, before, after, undoes, undone "
                "FROM changes WHERE game_id = ? ORDER BY id",
                (game_id,),
            ).fetchall()
        return [
            Change(
                id=r[0],
                at=r[1],
                author=r[2],
                action=r[3],
                hand_number=r[4],
                before=json.loads(r[5]) if r[5] else None,
                after=json.loads(r[6]) if r[6] else None,
                undoes=r[7],
                undone=bool(r[8]),
            )
            for r in rows
        ]

    # -- changes ------------------------------------------------------------------

    def create_game(self, setup: GameSetup, *, author: str = "borne") -> StoredGame:
        with self._write() as db:
            now = _now()
            cur = db.execute(
                "INSERT INTO games (created_at, setup, revision) VALUES (?, ?, 0)",
                (now, json.dumps(setup.to_json())),
            )
            game_id = int(cur.lastrowid or 0)
            self._log(game_id, author, "create", None, None, setup.to_json())
            return self._changed(self._load(game_id), "create", None)

    def add_hand(
        self, game_id: int, record: HandRecord, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Append a hand. :raises GameOverError, IllegalHandError, StaleRevisionError, GameNotFoundError:"""
        with self._write():
            stored = self._current(game_id, expected_revision)
            changed = stored.game.add_hand(record)
            number = len(changed.hands)
            self._store_hands(game_id, changed)
            self._log(game_id, author, "add", number, None, record.to_json())
            return self._changed(self._bump(game_id), "add", number)

    def replace_hand(
        self,
        game_id: int,
        number: int,
        record: HandRecord,
        *,
        author: str = "borne",
        expected_revision: int | None = None,
    ) -> StoredGame:
        """Replace hand ``number`` (1-based). :raises HandNotFoundError, GameOverError, IllegalHandError:"""
        with self._write():
            stored = self._current(game_id, expected_revision)
            changed = stored.game.replace_hand(number, record)
            before = stored.game.hands[number - 1].to_json()
            self._store_hands(game_id, changed)
            self._log(game_id, author, "replace", number, before, record.to_json())
            return self._changed(self._bump(game_id), "replace", number)

    def delete_hand(
        self, game_id: int, number: int, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Delete hand ``number`` (1-based). :raises HandNotFoundError, GameOverError:"""
        with self._write():
            stored = self._current(game_id, expected_revision)
            changed = stored.game.delete_hand(number)
            before = stored.game.hands[number - 1].to_json()
            self._store_hands(game_id, changed)
            self._log(game_id, author, "delete", number, before, None)
            return self._changed(self._bump(game_id), "delete", number)

    def undo(self, game_id: int, *, author: str = "borne", expected_revision: int | None = None) -> StoredGame:
        """Take back the last change to the hands that is not already undone; the undo is logged too.

        :raises NothingToUndoError: when every change to the hands is undone.
        """
        with self._write() as db:
            stored = self._current(game_id, expected_revision)
            row = db.execute(
                "SELECT id, action, hand_number, before, after FROM changes WHERE game_id = ? "
                "AND action IN ('add', 'replace', 'delete') AND undone = 0 ORDER BY id DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                raise NothingToUndoError("there is no change left to undo")
            change_id, action, number, before, after = row
            game = stored.game
            if action == "add":
                changed = game.delete_hand(number)
            elif action == "replace":
                changed = game.replace_hand(number, _trusted_record(json.loads(before)))
            else:
                changed = game.insert_hand(number, _trusted_record(json.loads(before)))
            self._store_hands(game_id, changed)
            db.execute("UPDATE changes SET undone = 1 WHERE id = ?", (change_id,))
            self._log(game_id, author, "undo", number, json.loads(after) if after else None,
                      json.loads(before) if before else None, undoes=change_id)
            return self._changed(self._bump(game_id), "undo", number)

    def _current(self, game_id: int, expected_revision: int | None) -> StoredGame:
        stored = self._load(game_id)
        if expected_revision is not None and expected_revision != stored.revision:
            raise StaleRevisionError(expected_revision, stored.revision)
        return stored

    def _store_hands(self, game_id: int, game: Game) -> None:
        self._db.execute("DELETE FROM hands WHERE game_id = ?", (game_id,))
        self._db.executemany(
            "INSERT INTO hands (game_id, position, record) VALUES (?, ?, ?)",
            [(game_id, i, json.dumps(h.to_json())) for i, h in enumerate(game.hands, start=1)],
        )

    def _changed(self, stored: StoredGame, action: str, number: int | None) -> StoredGame:
        """In the change's transaction: the club's outbox gets the game as it now is (when the table is in a club)."""
        if self.club_outbox:
            outcome = stored.game.outcome()
            kinds = [action]
            if outcome.finished_after_hand is not None and action in ("add", "replace") \
                    and outcome.finished_after_hand == number:
                kinds.append("finished")
            text = json.dumps(game_document(stored), separators=(",", ":"), ensure_ascii=False)
            self._db.executemany(
                "INSERT INTO club_outbox (game_id, kind, revision, hand_number, at, document) VALUES (?, ?, ?, ?, ?, ?)",
                [(stored.id, kind, stored.revision, number, _now(), text) for kind in kinds])
        return stored

    def _bump(self, game_id: int) -> StoredGame:
        self._db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
        return self._load(game_id)

    def _log(
        self,
        game_id: int,
        author: str,
        action: str,
        number: int | None,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        *,
        undoes: int | None = None,
    ) -> None:
        self._db.execute(
            "INSERT INTO changes (game_id, at, author, action, hand_number, before, after, undoes) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                _now(),
                author,
                action,
                number,
                json.dumps(before) if before is not None else None,
                json.dumps(after) if after is not None else None,
                undoes,
            ),
        )

    # -- export -------------------------------------------------------------------

    def export_json(self, game_id: int) -> dict[str, Any]:
        """The whole game: set-up, every hand with its facts and items, totals, outcome and history."""
        stored = self.load(game_id)
        document = game_document(stored)
        document["history"] = [c.to_json() for c in self.history(game_id)]
        return document

    def export_csv(self, game_id: int, *, headings: Mapping[str, str] | None = None) -> str:
        """One row per hand and side (:func:`scoring.game_export.game_csv`)."""
        return game_csv(self.load(game_id).game, headings=headings)


def _trusted_record(data: dict[str, Any]) -> HandRecord:
    """A record read back from our own storage (validated when it was written)."""
    return HandRecord.from_json(data)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
