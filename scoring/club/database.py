"""The club hub's storage: every table's games in PostgreSQL, applied from the tables' events exactly once.

:class:`ClubStore` keeps games as a table's SQLite file does (:class:`scoring.store.GameStorage`: games,
hands, the audit trail with its authors, undo, the same errors) and, beside them, the club's own: its
tables, the events applied from each (``(table, seq)``, once), which hub game mirrors which table game,
and tournaments with their rounds. Every change is one transaction, committed whole or not at all.

The schema is numbered SQL files applied in order, one transaction each, the version kept in the
``schema_version`` table (:mod:`scoring.club.migrate`). One connection (psycopg 3, autocommit, each
call inside its own ``BEGIN … COMMIT``) is shared behind a lock, so the MQTT thread and the web
server's worker threads may call one store; a connection lost (the server restarted) fails the call
that meets it and is opened again by the next.

A table's game on the hub: the event's whole document is the truth for the table's game. When its
``revision`` is newer than the one the hub holds, the hub game's set-up and hands become the document's
(validated as a :class:`~scoring.game.Game` before anything is written) and one audit line records it,
by the table, with the event's kind as the action. An older revision that arrives late is recorded as
applied and changes nothing. Changes made this way are the table's to undo: the hub's :meth:`ClubStore.undo`
takes back only changes made on the hub itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from scoring.club.documents import read_document
from scoring.club.errors import (
    BadEventError,
    ClubDatabaseError,
    ClubError,
    ForeignOriginError,
    TableNotFoundError,
    TournamentNotFoundError,
)
from scoring.club.events import TableEvent
from scoring.club.migrate import migrate
from scoring.club.queries import (
    Connection,
    bump_revision,
    check_tournament,
    current_game,
    hand_json,
    iso,
    load_game,
    load_games,
    log_change,
    one,
    parse_time,
    store_hands,
)
from scoring.club.results import LatestHand, Round, Standing, TableSummary, Tournament, standings_of
from scoring.club.seating import check_seating
from scoring.errors import NothingToUndoError
from scoring.game import Game, GameSetup
from scoring.game_export import game_csv, game_document
from scoring.hand import HandRecord
from scoring.storage import Change, StoredGame

__all__ = ["BadEventError", "ClubDatabaseError", "ClubStore", "ForeignOriginError", "TableNotFoundError",
           "TournamentNotFoundError"]

class ClubStore:
    """The club's games, tables, events and tournaments in one PostgreSQL database. Safe to share between threads.

    :raises ClubDatabaseError: ``url`` is not ``postgresql://…``, the server cannot be reached, or its
        schema is newer than this Borne's.
    """

    def __init__(self, url: str) -> None:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ClubDatabaseError("the club's database is a postgresql://USER@HOST:PORT/NAME URL")
        self.url = url
        self._lock = threading.RLock()
        self._closed = False
        self._conn = self._connect()
        with self._lock:
            self.schema_version = migrate(self._conn)

    def _connect(self) -> Connection:
        try:
            conn = psycopg.connect(self.url, autocommit=True)
        except psycopg.OperationalError as error:
            raise ClubDatabaseError(f"cannot reach the club's database: {error}") from error
        conn.execute("SET TIME ZONE 'UTC'")
        return conn

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._conn.close()

    def __enter__(self) -> ClubStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """One transaction on the shared connection (opened again first if the last one was lost)."""
        with self._lock:
            if self._closed:
                raise ClubDatabaseError("this club store is closed")
            if self._conn.closed or self._conn.broken:
                self._conn = self._connect()
            with self._conn.transaction():
                yield self._conn

    # -- reading ------------------------------------------------------------------

    def load(self, game_id: int) -> StoredGame:
        """:raises GameNotFoundError: no game has that id."""
        with self._tx() as conn:
            return load_game(conn, game_id)

    def game_ids(self) -> list[int]:
        """Every game's id, newest first."""
        with self._tx() as conn:
            return [int(r[0]) for r in conn.execute("SELECT id FROM games ORDER BY id DESC")]

    def history(self, game_id: int) -> list[Change]:
        """The audit trail of a game, oldest first."""
        with self._tx() as conn:
            load_game(conn, game_id)
            rows = conn.execute(
                "SELECT id, at, author, action, hand_number, before, after, undoes, undone "
                "FROM changes WHERE game_id = %s ORDER BY id", (game_id,)).fetchall()
        return [Change(id=r[0], at=iso(r[1]), author=r[2], action=r[3], hand_number=r[4], before=r[5],
                       after=r[6], undoes=r[7], undone=bool(r[8])) for r in rows]

    # -- changes ------------------------------------------------------------------

    def create_game(self, setup: GameSetup, *, author: str = "borne") -> StoredGame:
        with self._tx() as conn:
            row = conn.execute("INSERT INTO games (created_at, setup, revision) VALUES (now(), %s, 0) RETURNING id",
                               (Jsonb(setup.to_json()),)).fetchone()
            game_id = int(one(row)[0])
            log_change(conn, game_id, author, "create", None, None, setup.to_json())
            return load_game(conn, game_id)

    def add_hand(
        self, game_id: int, record: HandRecord, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Append a hand. :raises GameOverError, IllegalHandError, StaleRevisionError, GameNotFoundError:"""
        with self._tx() as conn:
            stored = current_game(conn, game_id, expected_revision)
            changed = stored.game.add_hand(record)
            store_hands(conn, game_id, changed)
            log_change(conn, game_id, author, "add", len(changed.hands), None, record.to_json())
            return bump_revision(conn, game_id)

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
        with self._tx() as conn:
            stored = current_game(conn, game_id, expected_revision)
            changed = stored.game.replace_hand(number, record)
            before = stored.game.hands[number - 1].to_json()
            store_hands(conn, game_id, changed)
            log_change(conn, game_id, author, "replace", number, before, record.to_json())
            return bump_revision(conn, game_id)

    def delete_hand(
        self, game_id: int, number: int, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Delete hand ``number`` (1-based). :raises HandNotFoundError, GameOverError:"""
        with self._tx() as conn:
            stored = current_game(conn, game_id, expected_revision)
            changed = stored.game.delete_hand(number)
            before = stored.game.hands[number - 1].to_json()
            store_hands(conn, game_id, changed)
            log_change(conn, game_id, author, "delete", number, before, None)
            return bump_revision(conn, game_id)

    def undo(self, game_id: int, *, author: str = "borne", expected_revision: int | None = None) -> StoredGame:
        """Take back the last change to the hands made on the hub that is not already undone; logged too.

        :raises NothingToUndoError: when every such change is undone (a table's changes are the table's to undo).
        """
        with self._tx() as conn:
            stored = current_game(conn, game_id, expected_revision)
            row = conn.execute(
                "SELECT id, action, hand_number, before, after FROM changes WHERE game_id = %s "
                "AND action IN ('add', 'replace', 'delete') AND NOT undone ORDER BY id DESC LIMIT 1",
                (game_id,)).fetchone()
            if row is None:
                raise NothingToUndoError("there is no change left to undo")
            change_id, action, number, before, after = row
            game = stored.game
            if action == "add":
                changed = game.delete_hand(number)
            elif action == "replace":
                changed = game.replace_hand(number, HandRecord.from_json(before))
            else:
                changed = game.insert_hand(number, HandRecord.from_json(before))
            store_hands(conn, game_id, changed)
            conn.execute("UPDATE changes SET undone = true WHERE id = %s", (change_id,))
            log_change(conn, game_id, author, "undo", number, after, before, undoes=change_id)
            return bump_revision(conn, game_id)

    # -- export -------------------------------------------------------------------

    def export_json(self, game_id: int) -> dict[str, Any]:
        """The whole game: set-up, every hand with its facts and items, totals, outcome and history."""
        document = game_document(self.load(game_id))
        document["history"] = [c.to_json() for c in self.history(game_id)]
        return document

    def export_csv(self, game_id: int, *, headings: Mapping[str, str] | None = None) -> str:
        """One row per hand and side, as :meth:`scoring.storage.GameStore.export_csv` writes it."""
        return game_csv(self.load(game_id).game, headings=headings)

    # -- the tables' events -----------------------------------------------------------

    def apply(self, event: TableEvent) -> bool:
        """Apply a table's event once, in one transaction; ``True`` when it was new, ``False`` when already applied.

        The table is registered if new (online: it just spoke), its game mapped to a hub game (created from the document's set-up
        if new); a revision newer than the hub's makes the document's hands the game's, an older one
        (arriving late) changes nothing but is recorded as applied.

        :raises BadEventError: the document is not a game (nothing is written).
        :raises ForeignOriginError: the table publishes from another games file than before.
        """
        setup, game = read_document(event)
        at = parse_time(event.at)
        with self._tx() as conn:
            conn.execute("INSERT INTO club_tables (name, online, first_seen, last_seen, origin) "
                         "VALUES (%s, true, now(), now(), %s) ON CONFLICT (name) DO NOTHING", (event.table, event.origin))
            known = one(conn.execute("UPDATE club_tables SET origin = coalesce(origin, %s) WHERE name = %s "
                                     "RETURNING origin", (event.origin, event.table)).fetchone())[0]
            if known != event.origin:
                raise ForeignOriginError(
                    f"table {event.table!r} now publishes from another games file ({event.origin}, the club knows "
                    f"{known}): give that table a new name, or retire the old one from the club")
            new = conn.execute(
                "INSERT INTO applied_events (table_name, seq, kind, table_game, revision, at, applied_at, changed) "
                "VALUES (%s, %s, %s, %s, %s, %s, now(), false) ON CONFLICT DO NOTHING RETURNING seq",
                (event.table, event.seq, event.kind.value, event.game, event.revision, event.at)).fetchone()
            if new is None:
                return False
            conn.execute("UPDATE club_tables SET last_seen = now() WHERE name = %s", (event.table,))
            row = conn.execute("SELECT game_id, revision FROM table_games WHERE table_name = %s AND table_game = %s "
                               "FOR UPDATE", (event.table, event.game)).fetchone()
            if row is None:
                created = parse_time(str(event.document.get("created_at", ""))) or at
                game_id = int(one(conn.execute(
                    "INSERT INTO games (created_at, setup, revision) VALUES (%s, %s, %s) RETURNING id",
                    (created or datetime.now(UTC), Jsonb(setup.to_json()), event.revision)).fetchone())[0])
                conn.execute("INSERT INTO table_games (table_name, table_game, game_id, revision) VALUES (%s, %s, %s, -1)",
                             (event.table, event.game, game_id))
                held, before_game = -1, Game(setup=setup)
            else:
                game_id, held = int(row[0]), int(row[1])
                before_game = load_game(conn, game_id).game
            if event.revision <= held:
                return True
            conn.execute("UPDATE games SET setup = %s, revision = %s WHERE id = %s",
                         (Jsonb(setup.to_json()), event.revision, game_id))
            store_hands(conn, game_id, game, at=at)
            conn.execute("UPDATE table_games SET revision = %s WHERE table_name = %s AND table_game = %s",
                         (event.revision, event.table, event.game))
            conn.execute("UPDATE applied_events SET changed = true WHERE table_name = %s AND seq = %s",
                         (event.table, event.seq))
            before, after = hand_json(before_game, event.hand), hand_json(game, event.hand)
            if event.hand is None and held < 0:
                after = setup.to_json()
            log_change(conn, game_id, event.table, event.kind.value, event.hand, before, after, at=at)
            return True

    def refuse(self, event: TableEvent) -> None:
        """Keep ``event`` as heard but refused (its document broke the hub's rules): it changes nothing, and its
        seq counts as held, so the table stops sending it and the events after it are acknowledged."""
        with self._tx() as conn:
            conn.execute("INSERT INTO club_tables (name, online, first_seen, last_seen, origin) "
                         "VALUES (%s, true, now(), now(), %s) ON CONFLICT (name) DO NOTHING", (event.table, event.origin))
            conn.execute(
                "INSERT INTO applied_events (table_name, seq, kind, table_game, revision, at, applied_at, changed) "
                "VALUES (%s, %s, %s, %s, %s, %s, now(), false) ON CONFLICT DO NOTHING",
                (event.table, event.seq, event.kind.value, event.game, event.revision, event.at))

    def last_seq(self, table: str) -> int:
        """The highest event number applied from ``table`` with every one before it (what the hub acknowledges:
        the table sends again whatever comes after); 0 for a table never heard from."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT min(c) - 1 FROM (SELECT 1 AS c UNION ALL SELECT seq + 1 FROM applied_events "
                "WHERE table_name = %s) AS candidates WHERE NOT EXISTS (SELECT 1 FROM applied_events a "
                "WHERE a.table_name = %s AND a.seq = candidates.c)", (table, table)).fetchone()
        return int(one(row)[0])

    def set_online(self, table: str, online: bool) -> None:
        """Mark ``table`` online or offline (registering it if new)."""
        with self._tx() as conn:
            conn.execute("INSERT INTO club_tables (name, online, first_seen, last_seen) VALUES (%s, %s, now(), now()) "
                         "ON CONFLICT (name) DO UPDATE SET online = excluded.online, last_seen = now()", (table, online))

    def tables(self) -> list[TableSummary]:
        """Every table, by name, with its current game (its most recently started: the highest id at the table)."""
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT t.name, t.online, t.last_seen, cur.game_id, cur.table_game, "
                " (SELECT coalesce(max(seq), 0) FROM applied_events e WHERE e.table_name = t.name) "
                "FROM club_tables t LEFT JOIN LATERAL (SELECT game_id, table_game FROM table_games g "
                " WHERE g.table_name = t.name ORDER BY table_game DESC LIMIT 1) cur ON true ORDER BY t.name").fetchall()
            games = load_games(conn, [int(r[3]) for r in rows if r[3] is not None])
        return [TableSummary(name=r[0], online=bool(r[1]), game=r[3], table_game=r[4],
                             totals=games[r[3]].totals() if r[3] is not None else {}, last_seq=int(r[5]),
                             last_seen=iso(r[2]), hands=len(games[r[3]].hands) if r[3] is not None else 0,
                             winner=games[r[3]].outcome().winner if r[3] is not None else None) for r in rows]

    def table_games(self, name: str) -> list[dict[str, Any]]:
        """The table's games, oldest first, as ``GET /api/games/{id}`` documents (``id`` the hub's), each with
        ``table``, ``table_game`` (its id at the table) and ``totals_after_each_hand`` added.

        :raises TableNotFoundError: the club has never heard from ``name``.
        """
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM club_tables WHERE name = %s", (name,)).fetchone() is None:
                raise TableNotFoundError(f"there is no table {name!r} in the club")
            rows = conn.execute("SELECT table_game, game_id FROM table_games WHERE table_name = %s ORDER BY table_game",
                                (name,)).fetchall()
            stored = {int(r[1]): load_game(conn, int(r[1])) for r in rows}
        documents = []
        for table_game, game_id in rows:
            document = game_document(stored[game_id])
            document.update(table=name, table_game=table_game,
                            totals_after_each_hand=stored[game_id].game.totals_after_each_hand())
            documents.append(document)
        return documents

    def latest_hands(self, limit: int = 20) -> list[LatestHand]:
        """The hands most recently scored at the tables (by the tables' clocks), newest first."""
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT g.table_name, g.table_game, h.game_id, h.position, h.scored_at FROM hands h "
                "JOIN table_games g ON g.game_id = h.game_id "
                "ORDER BY h.scored_at DESC, h.game_id DESC, h.position DESC LIMIT %s", (max(0, limit),)).fetchall()
            games = load_games(conn, [int(r[2]) for r in rows])
        out = []
        for table, table_game, game_id, number, at in rows:
            game = games[game_id]
            points = game.hand_points(game.scores()[number - 1])
            out.append(LatestHand(table=table, game=game_id, table_game=table_game, hand=number, points=points,
                                  at=iso(at)))
        return out

    def standings(self) -> list[Standing]:
        """Every player across the club's games, best first (:func:`scoring.club.results.standings_of`)."""
        with self._tx() as conn:
            ids = [int(r[0]) for r in conn.execute("SELECT id FROM games ORDER BY id")]
            games = load_games(conn, ids)
        return standings_of(games[i] for i in ids)

    # -- tournaments ---------------------------------------------------------------

    def create_tournament(self, name: str) -> int:
        """A new tournament's id. :raises ClubError: an empty name."""
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise ClubError("a tournament needs a name of 1 to 100 characters")
        with self._tx() as conn:
            row = conn.execute("INSERT INTO tournaments (name, created_at) VALUES (%s, now()) RETURNING id",
                               (name.strip(),)).fetchone()
        return int(one(row)[0])

    def tournaments(self) -> list[Tournament]:
        """Every tournament, newest first."""
        with self._tx() as conn:
            rows = conn.execute("SELECT t.id, t.name, t.created_at, count(r.number) FROM tournaments t "
                                "LEFT JOIN rounds r ON r.tournament_id = t.id GROUP BY t.id ORDER BY t.id DESC").fetchall()
        return [Tournament(id=r[0], name=r[1], created_at=iso(r[2]), rounds=int(r[3])) for r in rows]

    def add_round(self, tournament_id: int, seating: Sequence[Sequence[str]], drawn: bool) -> int:
        """The next round of a tournament with this seating (tables of sides); returns its number (1, 2, …).

        :raises TournamentNotFoundError, SeatingError:
        """
        tables = check_seating(seating)
        with self._tx() as conn:
            check_tournament(conn, tournament_id, lock=True)
            row = conn.execute(
                "INSERT INTO rounds (tournament_id, number, seating, drawn, created_at) "
                "SELECT %s, coalesce(max(number), 0) + 1, %s, %s, now() FROM rounds WHERE tournament_id = %s "
                "RETURNING number", (tournament_id, Jsonb(tables), drawn, tournament_id)).fetchone()
        return int(one(row)[0])

    def rounds(self, tournament_id: int) -> list[Round]:
        """A tournament's rounds, first first. :raises TournamentNotFoundError:"""
        with self._tx() as conn:
            check_tournament(conn, tournament_id)
            rows = conn.execute("SELECT number, seating, drawn, created_at FROM rounds WHERE tournament_id = %s "
                                "ORDER BY number", (tournament_id,)).fetchall()
        return [Round(number=r[0], seating=r[1], drawn=bool(r[2]), created_at=iso(r[3])) for r in rows]
