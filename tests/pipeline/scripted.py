"""Scripted observation streams for the tracker's tests: cards placed in columns, fed frame by frame."""

from __future__ import annotations

from scoring.cards import Card
from vision.table.observations import FrameObservations, Observation
from vision.track import HandTracker, ReconcileSettings

LENGTH = 87.0
"""A card's long side in the scripted frames, in pixels."""
UP = {"North": (0.0, 1.0), "South": (0.0, -1.0)}
COLUMN_STEP = 25.0


def card(side: str, c: Card, x: float, k: int = 0, *, sideways: bool = False, conf: float = 0.9,
         dx: float = 0.0, dy: float = 0.0, length: float = LENGTH) -> Observation:
    """The k-th card of a column at x: each later card lies one strip further towards the player.
    ``length``: its box's longest side (a whole card's by default)."""
    y0 = 300.0 if side == "North" else 500.0
    towards_player = -UP[side][1]
    return Observation(side, c, sideways, (x + dx, y0 + towards_player * COLUMN_STEP * k + dy), conf, length)


class Stream:
    """Feeds a tracker frame by frame at ``fps`` frames per second (10 unless told)."""

    def __init__(self, goal: int = 1000, settings: ReconcileSettings | None = None, fps: float = 10.0) -> None:
        self.tracker = HandTracker(("North", "South"), goal=goal, settings=settings or ReconcileSettings())
        self.index = 0
        self.fps = fps

    def show(self, *cards: Observation, times: int = 1, draw_pile: bool = True):
        state = None
        for _ in range(times):
            frame = FrameObservations(self.index, self.index / self.fps, tuple(cards), draw_pile, LENGTH,
                                      tuple(UP.items()))
            state = self.tracker.update(frame)
            self.index += 1
        return state


def distance(state, side: str) -> dict[int, int]:
    return {km: n for km, n in next(s for s in state.sides if s.side == side).distance.items() if n}
