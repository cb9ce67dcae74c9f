"""A table of the club for the tests: its own SQLite store, and the events it publishes for each change."""

from __future__ import annotations

import psycopg

from scoring.club.events import EventKind, TableEvent
from scoring.game import GameSetup
from scoring.storage import GameStore, game_document
from tests.conftest import build_hand

H1 = build_hand(("Ana", {100: 3}), ("Ben", {25: 1}))
H2 = build_hand(("Ana", {50: 2}), ("Ben", {75: 2}))
H3 = build_hand(("Ana", {}), ("Ben", {200: 1}))
CLUB_TABLES = ("games", "hands", "changes", "club_tables", "applied_events", "table_games")


class Table:
    """A real table: its own SQLite store, and the events it would publish for each change."""

    def __init__(self, path, name="t1"):
        self.store = GameStore(path)
        self.name = name
        self.seq = 0

    def event(self, game_id, kind, hand=None, at="2026-12-06T20:00:00+00:00"):
        stored = self.store.load(game_id)
        self.seq += 1
        return TableEvent(table=self.name, origin=self.store.club_origin, seq=self.seq, kind=kind, game=game_id, revision=stored.revision,
                          hand=hand, at=at, document=game_document(stored))

    def start(self, players=("Ana", "Ben")):
        game_id = self.store.create_game(GameSetup.for_players(list(players), goal=1000, extension=False)).id
        return game_id, self.event(game_id, EventKind.GAME_STARTED)

    def score(self, game_id, record, at="2026-12-06T20:00:00+00:00"):
        number = len(self.store.add_hand(game_id, record).game.hands)
        return self.event(game_id, EventKind.HAND_SCORED, number, at=at)


def counts(url):
    """Rows per table, read by another connection: what a transaction left committed."""
    with psycopg.connect(url) as conn:
        return {name: conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in CLUB_TABLES}
