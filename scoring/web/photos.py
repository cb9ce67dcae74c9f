"""One photo of the table, counted for the display (``POST /api/photos``, CONTRACT §9).

``scoring`` imports no vision code: ``borne serve`` and ``borne run`` hand the app a :class:`PhotoCounter`
(a function from the photo's bytes to CONTRACT §5's JSON) that refuses what it cannot count with a
:class:`PhotoRefusedError` carrying the HTTP status. Nothing is stored: the display shows the count as a
hand to confirm or correct, and only the confirmed hand goes into the game (``POST /api/games/{id}/hands``).

Given the game, the count is proposed as that game's hand: the sides found, in seat order, take the
game's sides in order (a person swaps them on the display: a photo does not say who sits where), the
goal is the game's, the draw pile's absence says it was empty, and the core scores it.

>>> from scoring.game import GameSetup, Side
>>> from scoring.rules import RuleSet
>>> setup = GameSetup(sides=(Side("Ana"), Side("Ben")), rules=RuleSet.from_name("classic"), target=5000, goal=1000)
>>> counted = {"sides": [{"side": "North", "distance": {"200": 2, "100": 6}, "safeties": {}},
...                      {"side": "South", "distance": {"50": 2}, "safeties": {"driving_ace": "coup_fourre"}}],
...            "draw_pile": False}
>>> proposal = propose_hand(counted, setup)
>>> proposal["seats"], proposal["record"]["draw_pile_empty_at_finish"], proposal["problem"]
({'North': 'Ana', 'South': 'Ben'}, True, None)
>>> [s["total"] for s in proposal["score"]["sides"]]
[1700, 500]
"""

from __future__ import annotations

from typing import Any, Protocol

from scoring.errors import BorneError
from scoring.game import GameSetup
from scoring.hand import HandRecord
from scoring.score import score_hand

MAX_PHOTO_BYTES = 30 * 1024 * 1024
"""Largest photo taken: a phone's 12-megapixel JPEG is 3-8 MB, a 48-megapixel one up to about 25 MB."""


class PhotoRefusedError(ValueError):
    """A photo that cannot be counted, with the HTTP status saying why (413, 415, 422)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class PhotoCounter(Protocol):
    """Counts one photo of the table: its bytes → CONTRACT §5's JSON, plus its ``width`` and ``height``.

    :raises PhotoRefusedError: too large (413), not a JPEG or PNG image (415), no card found (422).
    """

    def __call__(self, photo: bytes) -> dict[str, Any]: ...


def propose_hand(counted: dict[str, Any], setup: GameSetup) -> dict[str, Any]:
    """The hand a photo's count proposes in a game: the record, its score, which found side is which.

    ``problem`` says what keeps it from being scored as it is (more sides found than the game has, a
    count the rules refuse); the display then opens the hand for a correction.
    """
    found = counted["sides"]
    names = [s.name for s in setup.sides]
    seats = {f["side"]: name for f, name in zip(found, names, strict=False)}
    problem = None
    if len(found) > len(names):
        extra = ", ".join(f["side"] for f in found[len(names):])
        problem = f"{len(found)} sides found on the table, the game has {len(names)}: {extra} left out"
    by_name = {seats[f["side"]]: f for f in found if f["side"] in seats}
    empty: dict[str, Any] = {"distance": {}, "safeties": {}}
    sides = [{"side": name, "distance": dict(by_name.get(name, empty)["distance"]),
              "safeties": dict(by_name.get(name, empty)["safeties"])} for name in names]
    km = {name: sum(int(v) * n for v, n in by_name.get(name, empty)["distance"].items()) for name in names}
    goal = setup.goal or (700 if max(km.values()) == 700 else 1000)
    longest = max(km, key=lambda name: km[name])
    extension = longest if setup.extension and km[longest] > 700 else None
    record = {"goal": goal, "draw_pile_empty_at_finish": not counted["draw_pile"],
              "extension_called_by": extension, "sides": sides}
    score = None
    try:
        hand = HandRecord.from_json(record)
        hand.validate()
        record = hand.to_json()
        score = score_hand(hand, setup.rules).to_json()
    except BorneError as e:
        problem = problem or str(e)
    return {"record": record, "score": score, "seats": seats, "problem": problem}
