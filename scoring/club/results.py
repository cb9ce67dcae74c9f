"""What the club's board shows: each table and its current game, the latest hands, the standings, the rounds.

Values read from :class:`scoring.club.database.ClubStore`, and :func:`standings_of`, a pure function of games.

>>> from scoring.game import Game, GameSetup
>>> from scoring.hand import HandRecord
>>> setup = GameSetup.for_players(["Ana", "Ben"], goal=1000, extension=False, target=100)
>>> hand = HandRecord.from_json({"goal": 1000, "sides": [{"side": "Ana", "distance": {"100": 10}},
...                                                      {"side": "Ben", "distance": {"25": 1}}]})
>>> [s.to_json() for s in standings_of([Game(setup), Game(setup).add_hand(hand)])]
[{'name': 'Ana', 'games': 1, 'wins': 1, 'points': 1700}, {'name': 'Ben', 'games': 1, 'wins': 0, 'points': 25}]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.game import Game


@dataclass(frozen=True)
class Standing:
    """How one player (or a side named without its players) stands across the club's games."""

    name: str
    """The player's name (or the side's, when it was stored without its players)."""
    games: int
    """Games played: the club's games with at least one hand in which the name's side played."""
    wins: int
    """Games won: the game's winner was the name's side."""
    points: int
    """The name's side's totals summed over those games (hand wins, for a race rule set)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins, "points": self.points}


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """Best first: most wins, then most points, then by name (so that equal standings keep one order)."""
    return sorted(standings, key=lambda s: (-s.wins, -s.points, s.name))


def standings_of(games: Iterable[Game]) -> list[Standing]:
    """Per player across ``games``: games played, games won, points, best first (:func:`ranked`).

    A side's games, wins and points count for each of its players (a team's partners stand alike); a side
    stored without its players counts under its own name. A game with no hand yet is not counted.
    """
    played: dict[str, list[int]] = {}
    for game in games:
        if not game.hands:
            continue
        totals = game.totals()
        winner = game.outcome().winner
        for side in game.setup.sides:
            for name in side.players or (side.name,):
                line = played.setdefault(name, [0, 0, 0])
                line[0] += 1
                line[1] += int(side.name == winner)
                line[2] += totals[side.name]
    return ranked(Standing(name=n, games=g, wins=w, points=p) for n, (g, w, p) in played.items())


@dataclass(frozen=True)
class TableSummary:
    """One table of the club, as the board lists it."""

    name: str
    """The table's name, as it publishes under (``borne/<club>/<table>/…``)."""
    online: bool
    """The table's last word: ``online``, or ``offline`` (also when the broker said so for it)."""
    game: int | None
    """The hub's id of the table's current game (its most recently started one); ``None`` before any."""
    table_game: int | None
    """The same game's id at the table (in its own SQLite file)."""
    totals: dict[str, int] = field(default_factory=dict)
    """The current game's totals per side; empty before any game."""
    last_seq: int = 0
    """The highest event number applied from the table; 0 before any."""
    last_seen: str = ""
    """When the hub last heard from the table (ISO 8601, UTC)."""
    hands: int = 0
    """Hands of the current game so far."""
    winner: str | None = None
    """The current game's winner, once it is over."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "online": self.online, "game": self.game, "table_game": self.table_game,
                "totals": dict(self.totals), "last_seq": self.last_seq, "last_seen": self.last_seen,
                "hands": self.hands, "winner": self.winner}


@dataclass(frozen=True)
class LatestHand:
    """A hand scored at one of the tables, for the board's ticker."""

    table: str
    """The table that scored it."""
    game: int
    """The hub's id of the game."""
    table_game: int
    """The game's id at the table."""
    hand: int
    """The hand's number in its game (1-based)."""
    points: dict[str, int]
    """What the hand added to each side's total."""
    at: str
    """When the table scored it (the table's clock; ISO 8601, UTC)."""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "game": self.game, "table_game": self.table_game, "hand": self.hand,
                "points": dict(self.points), "at": self.at}


@dataclass(frozen=True)
class Tournament:
    """A tournament of the club: rounds of seating, played at the club's tables."""

    id: int
    """The tournament's id in the club's database."""
    name: str
    """Its title ("Friday cup")."""
    created_at: str
    """When it was created (ISO 8601, UTC)."""
    rounds: int
    """How many rounds it has so far."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at, "rounds": self.rounds}


@dataclass(frozen=True)
class Round:
    """One round of a tournament: who sits at which table."""

    number: int
    """1, 2, 3 … within its tournament."""
    seating: list[list[str]]
    """One list of side (or player) names per table, in table order."""
    drawn: bool
    """Drawn at random; ``False`` when seeded from the standings or set by hand."""
    created_at: str
    """When it was seated (ISO 8601, UTC)."""

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seating": [list(t) for t in self.seating], "drawn": self.drawn,
                "created_at": self.created_at}
