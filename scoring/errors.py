"""The failures of the scoring core, one class per kind, all ``ValueError``.

Malformed input (wrong types, unknown ids, missing fields) is not the same
failure as a hand that breaks a rule of the game; a game refusing a change is
a third kind.
"""

from __future__ import annotations


class BorneError(ValueError):
    """Base class of every error the scoring core raises on bad input."""


class UnknownCardError(BorneError):
    """A card id that is not one of the 19 of the catalogue."""


class UnknownRulesError(BorneError):
    """A rule set name that is not one of the presets."""


class HandError(BorneError):
    """A hand record that cannot be accepted; names the side and the field.

    :ivar side: the side's name, or ``None`` for a field of the whole hand.
    :ivar field: the offending field as a dotted path (``distance.200``); empty for the document as a whole.
    :ivar reason: what is wrong, in a player's words.
    """

    def __init__(self, reason: str, *, field: str, side: str | None = None) -> None:
        self.side = side
        self.field = field
        self.reason = reason
        where = ": ".join(part for part in (side, field) if part)
        super().__init__(f"{where}: {reason}" if where else reason)


class MalformedHandError(HandError):
    """The record is not a well-formed hand: wrong type, unknown key or id, missing field."""


class IllegalHandError(HandError):
    """The record is well formed but breaks a rule of the game (past the goal, three 200s, ...)."""


class GameError(BorneError):
    """A game refuses a set-up or a change."""


class SetupError(GameError):
    """A game set-up that cannot be played (too few sides, a name twice, a bad target, ...)."""


class GameOverError(GameError):
    """A hand added, or a correction made, after a side has already won the game."""


class HandNotFoundError(GameError):
    """A hand number that the game does not have."""


class GameNotFoundError(GameError):
    """A game id that storage does not have."""


class StaleRevisionError(GameError):
    """A change made on an out-of-date view of the game (someone else changed it first)."""

    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"the game changed since you loaded it (you had revision {expected}, it is now {actual}); reload and try again"
        )


class NothingToUndoError(GameError):
    """Undo asked for when there is no change left to undo."""
