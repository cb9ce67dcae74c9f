"""Scripted tables for the lifecycle's tests: the cards on the table frame by frame, turned into the views the
pipeline gives the lifecycle (each card that came, a landing read once; a bare table once every card went)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.cards import Card
from vision.landing.reading import Landing
from vision.landing.tracker import TableView
from vision.landing.watch import Change
from vision.read.recogniser import Reading
from vision.table.layout import TableLayout

W, H = 640, 800
LAYOUT = TableLayout.default(W, H)
"""North above y = 352, South below y = 448, the piles between."""
LENGTH, WIDTH = 87.0, 56.0
PILE = (560.0, 400.0)
"""Where the draw pile lies (the middle band)."""


@dataclass(frozen=True)
class Laid:
    """A card on the scripted table: its centre, and whether it lies across its side's up."""

    card: Card | None
    """``None``: a card that cannot be read."""
    x: float
    y: float
    sideways: bool = False


def column(side: str, c: Card, x: float, n: int) -> list[Laid]:
    """``n`` cards ``c`` in a column at ``x``, each a strip nearer its player than the one before."""
    y0, step = (300.0, -30.0) if side == "North" else (500.0, 30.0)
    return [Laid(c, x, y0 + step * k) for k in range(n)]


def outline(x: float, y: float, sideways: bool = False) -> np.ndarray:
    w, h = (LENGTH, WIDTH) if sideways else (WIDTH, LENGTH)
    return np.array([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]])


def landing(frame: int, card: Card | None, corners: np.ndarray, *, back: bool = False, confidence: float = 0.9) -> Landing:
    return Landing(frame, corners, Reading(card, confidence if card is not None or back else 0.1, back=back),
                   Change(frame, corners, np.eye(2, 3)))


class ScriptedTable:
    """Shows the lifecycle (or anything fed :class:`TableView` values) a table frame by frame."""

    def __init__(self, feed, fps: float = 10.0) -> None:
        self.feed = feed
        self.fps = fps
        self.index = 0
        self.events: list = []
        self._on_table: set[Laid] = set()
        self._pile = True

    def show(self, cards=(), *, times: int = 1, draw_pile: bool = True):
        """Show ``cards`` (all the cards on the table) ``times`` frames running; the cards not on the table before
        land in the first of them. No card at all: the table is bare (cleared). Returns the event kinds so far."""
        for _ in range(times):
            came = [c for c in dict.fromkeys(cards) if c not in self._on_table]
            landings = [landing(self.index, c.card, outline(c.x, c.y, c.sideways)) for c in came]
            if self.index == 0:
                landings.insert(0, landing(self.index, None, outline(*PILE), back=True))
            if self._pile and not draw_pile:
                landings.append(landing(self.index, None, outline(*PILE)))  # the pile's spot shows the table
            self._pile = draw_pile
            self._on_table = set(cards)
            view = TableView(self.index, self.index / self.fps, tuple(landings), table_empty=not cards)
            self.events += self.feed(view)
            self.index += 1
        return [e.kind for e in self.events]
