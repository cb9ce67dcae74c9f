"""The draw pile as the tracker watches it: there, or run out — and whether it ran out before the hand's last card.

A pile seen or missed in a frame or two is an arm or a misreading; the belief changes after
:attr:`~vision.track.settings.ReconcileSettings.draw_pile_frames` frames in a row that say so. The frame the pile
first went from sight is kept: a trip completed after the pile ran out scores the delayed action bonus, and a pile
covered only as the hand ends (by the discard pile, the arm laying the last card) was still there.

>>> pile = DrawPileWatch(frames_to_change=3)
>>> for index, seen in enumerate([True] * 5 + [False] * 20):
...     pile.see(seen, index)
>>> pile.seen, pile.gone_from
(False, 5)
>>> pile.empty_before(40), pile.empty_before(10)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GONE_BEFORE_FRAMES = 10
"""The draw pile ran out before the hand's last card (the delayed action bonus) only when it went from sight at
least this many frames before that card was first seen: the arm laying the last card, or the discard pile beside
the draw pile, covers it as the hand ends (held-out 2-D hand 70042: gone 3 frames before), where drawing the
pile's last card and then laying one takes a player a second or more."""


@dataclass
class DrawPileWatch:
    """Whether the draw pile is there, changed after ``frames_to_change`` frames in a row that say otherwise."""

    frames_to_change: int
    seen: bool = True
    gone_from: int | None = None
    """The first frame of the run of frames without the pile that made it gone (``None`` while it is there)."""
    _streak: int = 0
    gone_before: int = GONE_BEFORE_FRAMES
    """:data:`GONE_BEFORE_FRAMES` at the camera's rate (:attr:`~vision.track.settings.ReconcileSettings.draw_pile_gone_before_frames`)."""

    def see(self, seen: bool, index: int) -> None:
        """Whether the pile was seen in frame ``index``."""
        self._streak = 0 if seen == self.seen else self._streak + 1
        if self._streak >= self.frames_to_change:
            self.gone_from = None if seen else index - self._streak + 1
            self.seen, self._streak = seen, 0

    def empty_before(self, frame: int | None) -> bool:
        """Whether the pile had run out when the card first seen in ``frame`` landed (``None``: no card yet)."""
        if self.seen or self.gone_from is None:
            return False
        return frame is None or self.gone_from + self.gone_before <= frame

    def to_state(self) -> dict[str, Any]:
        return {"pile_seen": self.seen, "pile_gone_from": self.gone_from}

    @classmethod
    def from_state(cls, d: dict[str, Any], frames_to_change: int, gone_before: int = GONE_BEFORE_FRAMES) -> DrawPileWatch:
        return cls(frames_to_change, bool(d["pile_seen"]), d.get("pile_gone_from"), gone_before=gone_before)
