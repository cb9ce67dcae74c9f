"""Games: the sides, the rule set, the target, the hands, the totals and the outcome.

A :class:`Game` is an immutable value; a change (:meth:`Game.add_hand`, :meth:`Game.replace_hand`,
:meth:`Game.delete_hand`) returns a new game or raises before anything is changed.

>>> setup = GameSetup.for_players(["Ana", "Ben", "Cleo", "Dev"], teams=[["Ana", "Cleo"], ["Ben", "Dev"]])
>>> [s.name for s in setup.sides], setup.goal, setup.extension
(['Ana & Cleo', 'Ben & Dev'], 1000, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.errors import GameOverError, HandNotFoundError, IllegalHandError, MalformedHandError, SetupError
from scoring.hand import GOALS, MAX_SIDES, MIN_SIDES, HandRecord, parse_side_name
from scoring.rules import DEFAULT_RULES, Counting, RuleSet
from scoring.score import HandScore, score_hand

MAX_PLAYERS = 16
MAX_TARGET = 1_000_000


@dataclass(frozen=True)
class Side:
    """A side of the table: one player alone, or a team sharing one set of piles."""

    name: str
    """The name used in hand records ("Ana & Cleo")."""
    players: tuple[str, ...] = ()
    """The players of the side; empty when only the side's name is known."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players)}


@dataclass(frozen=True)
class GameSetup:
    """How a game is played: its sides, rule set, target, goal and extension."""

    sides: tuple[Side, ...]
    rules: RuleSet
    target: int
    """Points to win (or hand wins, for a race rule set)."""
    goal: int | None = None
    """700 or 1000 for every hand; ``None`` takes each hand's own goal (``borne game`` without set-up)."""
    extension: bool = False
    """A 700-km game where the first side at 700 may call the extension to 1,000."""
    name: str = ""
    """An optional title ("Friday at Cleo's")."""

    def __post_init__(self) -> None:
        if not MIN_SIDES <= len(self.sides) <= MAX_SIDES:
            raise SetupError(f"a game has {MIN_SIDES} to {MAX_SIDES} sides, not {len(self.sides)}")
        names = [s.name for s in self.sides]
        for n in names:
            if names.count(n) > 1:
                raise SetupError(f"two sides are named {n!r}")
        players = [p for s in self.sides for p in s.players]
        for p in players:
            if players.count(p) > 1:
                raise SetupError(f"{p!r} plays on two sides")
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 1 <= self.target <= MAX_TARGET:
            raise SetupError(f"the target must be a whole number from 1 to {MAX_TARGET:,}, not {self.target!r}")
        if self.goal is not None and self.goal not in self.rules.goals:
            raise SetupError(f"{self.rules.name} plays to {' or '.join(map(str, self.rules.goals))} km, not {self.goal}")
        if self.extension and (self.goal != 700):
            raise SetupError("the extension exists only in 700-km games")

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides)

    @classmethod
    def for_players(
        cls,
        players: Sequence[str],
        *,
        rules: RuleSet | None = None,
        teams: Sequence[Sequence[str]] | None = None,
        team_size: int | None = None,
        draw_teams: bool = False,
        seed: int | None = None,
        target: int | None = None,
        goal: int | None = None,
        extension: bool | None = None,
        name: str = "",
    ) -> GameSetup:
        """A set-up from the players, with the sides, goal and extension RULES.md gives for their number.

        ``teams`` fixes the partners; otherwise players are grouped by ``team_size`` (by default teams
        of two for 4, 6 and 8 players, alone otherwise), in the order given or drawn at random
        (reproducibly for a ``seed``). ``goal`` and ``extension`` override the defaults.

        :raises SetupError: too few or too many players, a name twice, teams that do not cover the players.
        """
        rules = rules or RuleSet.from_name(DEFAULT_RULES)
        names = [parse_side_name(p, field=f"players[{i}]") for i, p in enumerate(players)]
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise SetupError(f"a game has 2 to {MAX_PLAYERS} players, not {len(names)}")
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise SetupError(f"{dup!r} is named twice; give each player a different name")
        if teams is not None:
            groups = [[parse_side_name(p, field="teams") for p in team] for team in teams]
            if sorted(p for g in groups for p in g) != sorted(names) or any(not g for g in groups):
                raise SetupError("the teams must hold every player exactly once")
        else:
            size = team_size if team_size is not None else (2 if len(names) in (4, 6, 8) else 1)
            if size < 1 or len(names) % size:
                raise SetupError(f"{len(names)} players cannot be split into teams of {size}")
            order = list(names)
            if draw_teams:
                random.Random(seed).shuffle(order)
            groups = [order[i : i + size] for i in range(0, len(order), size)]
        sides = tuple(Side(name=" & ".join(g), players=tuple(g)) for g in groups)
        default_goal, default_extension = default_goal_for(len(names), len(sides), rules)
        goal = default_goal if goal is None else goal
        if extension is None:
            extension = default_extension and goal == 700
        return cls(
            sides=sides,
            rules=rules,
            target=rules.default_target if target is None else target,
            goal=goal,
            extension=extension,
            name=name,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sides": [s.to_json() for s in self.sides],
            "rules": self.rules.name,
            "target": self.target,
            "goal": self.goal,
            "extension": self.extension,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        """A set-up as written by :meth:`to_json` (storage's own form; trusted)."""
        return cls(
            sides=tuple(Side(name=s["name"], players=tuple(s["players"])) for s in data["sides"]),
            rules=RuleSet.from_name(data["rules"]),
            target=data["target"],
            goal=data["goal"],
            extension=data["extension"],
            name=data.get("name", ""),
        )


def default_goal_for(players: int, sides: int, rules: RuleSet) -> tuple[int, bool]:
    """The goal and extension RULES.md gives for a number of players under a rule set.

    Classic: 700 with the extension for 2 or 3 players alone and for 6 players in three teams;
    1,000 without it otherwise. The other rule sets always play to 1,000.

    >>> default_goal_for(3, 3, RuleSet.from_name("classic")), default_goal_for(4, 2, RuleSet.from_name("classic"))
    ((700, True), (1000, False))
    """
    if rules.classic_setup and ((players in (2, 3) and sides == players) or (players == 6 and sides == 3)):
        return 700, True
    return max(rules.goals), False


@dataclass(frozen=True)
class Outcome:
    """How the game stands: won by a side after some hand, or still going."""

    winner: str | None
    finished_after_hand: int | None
    """The 1-based number of the hand that won the game."""

    @property
    def is_over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Game:
    """A game: its set-up and its hands, in order. Every method that changes it returns a new game."""

    setup: GameSetup
    hands: tuple[HandRecord, ...] = field(default=())

    # -- derived ----------------------------------------------------------------

    def scores(self) -> tuple[HandScore, ...]:
        return tuple(score_hand(h, self.setup.rules) for h in self.hands)

    def hand_points(self, score: HandScore) -> dict[str, int]:
        """What a hand adds to each side's total: its points, or 1 to the winner in a race."""
        if self.setup.rules.counting is Counting.HAND_WINS:
            return {n: int(score.winner == n) for n in self.setup.side_names}
        return {n: score.side(n).total for n in self.setup.side_names}

    def totals_after_each_hand(self) -> list[dict[str, int]]:
        running = {n: 0 for n in self.setup.side_names}
        out = []
        for score in self.scores():
            for n, pts in self.hand_points(score).items():
                running[n] += pts
            out.append(dict(running))
        return out

    def totals(self) -> dict[str, int]:
        after = self.totals_after_each_hand()
        return after[-1] if after else {n: 0 for n in self.setup.side_names}

    def outcome(self) -> Outcome:
        """The winner and the hand that decided it; ``Outcome(None, None)`` while nobody has won.

        The first hand after which some side has reached the target and one of those sides is
        strictly ahead of every other side wins it; equal highest totals play on.
        """
        for number, totals in enumerate(self.totals_after_each_hand(), start=1):
            winner = leader_at_target(totals, self.setup.target)
            if winner is not None:
                return Outcome(winner=winner, finished_after_hand=number)
        return Outcome(winner=None, finished_after_hand=None)

    # -- changes ----------------------------------------------------------------

    def check_hand(self, record: HandRecord) -> None:
        """Check that a valid hand record belongs to this game (its sides, goal, extension, rules).

        :raises IllegalHandError: naming the field.
        """
        expected = set(self.setup.side_names)
        given = set(record.side_names)
        if given != expected:
            missing = sorted(expected - given)
            extra = sorted(given - expected)
            detail = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"not in this game: {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise IllegalHandError(f"the sides must be this game's sides ({detail})", field="sides")
        goal = self.setup.goal
        if goal is not None:
            extended = record.extension_called_by is not None and goal == 700 and record.goal in GOALS
            if record.goal != goal and not (extended and record.goal == 1000):
                raise IllegalHandError(f"this game plays to {goal:,} km, not {record.goal:,}", field="goal")
            if record.extension_called_by is not None and not self.setup.extension:
                raise IllegalHandError("this game is played without the extension", field="extension_called_by")
        score_hand(record, self.setup.rules)

    def add_hand(self, record: HandRecord) -> Game:
        """This game with one more hand.

        :raises GameOverError: when a side has already won the game.
        :raises IllegalHandError: when the hand does not belong to this game.
        """
        done = self.outcome()
        if done.is_over:
            raise GameOverError(
                f"{done.winner} won the game after hand {done.finished_after_hand}; start a new game"
            )
        self.check_hand(record)
        return replace(self, hands=self.hands + (record,))

    def replace_hand(self, number: int, record: HandRecord) -> Game:
        """This game with hand ``number`` (1-based) replaced, re-totalled.

        :raises HandNotFoundError: no such hand.
        :raises GameOverError: the correction would end the game before later hands.
        """
        index = self._index(number)
        self.check_hand(record)
        changed = replace(self, hands=self.hands[:index] + (record,) + self.hands[index + 1 :])
        changed._check_no_hands_after_the_end()
        return changed

    def delete_hand(self, number: int) -> Game:
        """This game without hand ``number`` (1-based); later hands move up one.

        :raises HandNotFoundError: no such hand.
        :raises GameOverError: removing it would end the game before later hands.
        """
        index = self._index(number)
        changed = replace(self, hands=self.hands[:index] + self.hands[index + 1 :])
        changed._check_no_hands_after_the_end()
        return changed

    def insert_hand(self, number: int, record: HandRecord) -> Game:
        """This game with ``record`` put back as hand ``number`` (used by undo)."""
        if not 1 <= number <= len(self.hands) + 1:
            raise HandNotFoundError(f"cannot put a hand at position {number}")
        self.check_hand(record)
        index = number - 1
        changed = replace(self, hands=self.hands[:index] + (record,) + self.hands[index:])
        changed._check_no_hands_after_the_end()
        return changed

    def _index(self, number: int) -> int:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.hands):
            count = len(self.hands)
            raise HandNotFoundError(
                f"there is no hand {number} (the game has {count} hand{'s' if count != 1 else ''})"
            )
        return number - 1

    def _check_no_hands_after_the_end(self) -> None:
        done = self.outcome()
        if done.finished_after_hand is not None and done.finished_after_hand < len(self.hands):
            raise GameOverError(
                f"with this change {done.winner} wins the game after hand {done.finished_after_hand}, "
                f"but hands {done.finished_after_hand + 1}–{len(self.hands)} follow; delete them first"
            )


def leader_at_target(totals: dict[str, int], target: int) -> str | None:
    """The side that has won with these totals: it reached the target and is strictly ahead.

    >>> leader_at_target({"A": 5100, "B": 5100}, 5000) is None
    True
    >>> leader_at_target({"A": 5300, "B": 5100, "C": 20}, 5000)
    'A'
    """
    if not totals or max(totals.values()) < target:
        return None
    best = max(totals.values())
    leaders = [n for n, t in totals.items() if t == best]
    return leaders[0] if len(leaders) == 1 else None


def parse_game_file(data: object) -> tuple[list[str], list[object]]:
    """The sides and raw hands of ``borne game``'s input ``{"sides": [...], "hands": [...]}``.

    :raises MalformedHandError: naming the field.
    """
    if not isinstance(data, dict):
        raise MalformedHandError("a game file is a JSON object with sides and hands", field="(game)")
    unknown = sorted(set(map(str, data)) - {"sides", "hands"})
    if unknown:
        raise MalformedHandError("unknown field (expected sides, hands)", field=unknown[0])
    sides = data.get("sides")
    if not isinstance(sides, list):
        raise MalformedHandError("missing or not a list of side names", field="sides")
    names = [parse_side_name(s, field=f"sides[{i}]") for i, s in enumerate(sides)]
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise MalformedHandError("must be a list of hand records", field="hands")
    return names, hands
