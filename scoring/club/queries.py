"""The SQL of games on the club's PostgreSQL: a game's rows read and written inside the caller's transaction.

Every function takes the connection of a transaction that :class:`scoring.club.database.ClubStore` opened;
none commits. The tables are those of ``migrations/001_games.sql`` and ``003_tournaments.sql``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.rows import TupleRow
from psycopg.types.json import Jsonb

from scoring.club.errors import TournamentNotFoundError
from scoring.errors import GameNotFoundError, StaleRevisionError
from scoring.game import Game, GameSetup
from scoring.hand import HandRecord
from scoring.storage import StoredGame

Connection = psycopg.Connection[TupleRow]
MAX_ID = 2**63 - 1
"""PostgreSQL's ``bigint``: an id past it names no game."""


def one(row: TupleRow | None) -> TupleRow:
    if row is None:
        raise RuntimeError("the database returned no row where one was expected")
    return row


def load_game(conn: Connection, game_id: int, *, lock: bool = False) -> StoredGame:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 1 <= game_id <= MAX_ID:
        raise GameNotFoundError(f"there is no game {game_id}")
    query = "SELECT setup, revision, created_at FROM games WHERE id = %s" + (" FOR UPDATE" if lock else "")
    row = conn.execute(query, (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(f"there is no game {game_id}")
    hands = tuple(HandRecord.from_json(r[0]) for r in conn.execute(
        "SELECT record FROM hands WHERE game_id = %s ORDER BY position", (game_id,)))
    return StoredGame(id=game_id, game=Game(setup=GameSetup.from_json(row[0]), hands=hands), revision=row[1],
                      created_at=iso(row[2]))


def load_games(conn: Connection, ids: Sequence[int]) -> dict[int, Game]:
    """Several games at once (two queries), by id."""
    setups = {int(r[0]): GameSetup.from_json(r[1])
              for r in conn.execute("SELECT id, setup FROM games WHERE id = ANY(%s)", (list(set(ids)),))}
    hands: dict[int, list[HandRecord]] = {i: [] for i in setups}
    for game_id, record in conn.execute("SELECT game_id, record FROM hands WHERE game_id = ANY(%s) "
                                        "ORDER BY game_id, position", (list(setups),)):
        hands[int(game_id)].append(HandRecord.from_json(record))
    return {i: Game(setup=setup, hands=tuple(hands[i])) for i, setup in setups.items()}


def current_game(conn: Connection, game_id: int, expected_revision: int | None) -> StoredGame:
    """The game, its row locked until the transaction ends, so that check-then-write cannot interleave."""
    stored = load_game(conn, game_id, lock=True)
    if expected_revision is not None and expected_revision != stored.revision:
        raise StaleRevisionError(expected_revision, stored.revision)
    return stored


def store_hands(conn: Connection, game_id: int, game: Game, *, at: datetime | None = None) -> None:
    """The game's hands as rows; a hand whose record was already stored keeps when it was scored."""
    kept: dict[str, list[datetime]] = {}
    for record, scored_at in conn.execute("SELECT record, scored_at FROM hands WHERE game_id = %s ORDER BY position",
                                          (game_id,)):
        kept.setdefault(json.dumps(record, sort_keys=True), []).append(scored_at)
    conn.execute("DELETE FROM hands WHERE game_id = %s", (game_id,))
    now = at or datetime.now(UTC)
    rows = []
    for position, hand in enumerate(game.hands, start=1):
        record = hand.to_json()
        earlier = kept.get(json.dumps(record, sort_keys=True))
        rows.append((game_id, position, Jsonb(record), earlier.pop(0) if earlier else now))
    with conn.cursor() as cursor:
        cursor.executemany("INSERT INTO hands (game_id, position, record, scored_at) VALUES (%s, %s, %s, %s)", rows)


def bump_revision(conn: Connection, game_id: int) -> StoredGame:
    conn.execute("UPDATE games SET revision = revision + 1 WHERE id = %s", (game_id,))
    return load_game(conn, game_id)


def log_change(conn: Connection, game_id: int, author: str, action: str, number: int | None,
         before: dict[str, Any] | None, after: dict[str, Any] | None, *, undoes: int | None = None,
         at: datetime | None = None) -> None:
    conn.execute(
        "INSERT INTO changes (game_id, at, author, action, hand_number, before, after, undoes) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (game_id, at or datetime.now(UTC), author, action, number, None if before is None else Jsonb(before),
         None if after is None else Jsonb(after), undoes))


def hand_json(game: Game, number: int | None) -> dict[str, Any] | None:
    if number is None or not 1 <= number <= len(game.hands):
        return None
    return game.hands[number - 1].to_json()


def check_tournament(conn: Connection, tournament_id: int, *, lock: bool = False) -> None:
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int) or not 1 <= tournament_id <= MAX_ID:
        raise TournamentNotFoundError(f"there is no tournament {tournament_id}")
    query = "SELECT 1 FROM tournaments WHERE id = %s" + (" FOR UPDATE" if lock else "")
    if conn.execute(query, (tournament_id,)).fetchone() is None:
        raise TournamentNotFoundError(f"there is no tournament {tournament_id}")


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 time (UTC when it names no zone); ``None`` when it is not one."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")
