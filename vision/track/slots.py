"""What the tracker keeps of each card: a card it knows lies on the table (a slot) and one seen lately
that has not yet won its vote (a candidate), with their snapshot form for a restart."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card


@dataclass
class Slot:
    """A card the tracker knows lies on the table (counted), or one it decided not to count."""

    side: str
    card: Card
    anchor: NDArray[np.float64] | None
    """``None`` for a card added by a person's correction (its place is not known)."""
    sideways: bool
    arrived: int
    last_seen: int
    counted: bool
    confidence: float
    longest: float = 0.0
    """The card's side seen whole, in pixels (0: not known): the longest box side it was seen with, each
    longer box taken a share of the way (:data:`~vision.track.settings.LONGEST_RISE`)."""
    votes: int = 0
    """Frames in which it was seen before it was counted."""
    seen: int = 0
    """Frames in which it was seen since it was counted."""
    doubted: bool = False
    """A :attr:`~vision.track.state.FlagReason.SELDOM_SEEN` flag was raised for it."""
    home: NDArray[np.float64] | None = None
    """Where it lay when last seen whole (or when counted): a box cut short by a hand over the card moves
    :attr:`anchor`, not this. ``None`` when its place is not known."""

    def to_state(self) -> dict[str, Any]:
        return {"side": self.side, "card": self.card.value,
                "anchor": [float(v) for v in self.anchor] if self.anchor is not None else None,
                "sideways": self.sideways, "arrived": self.arrived, "last_seen": self.last_seen,
                "counted": self.counted, "confidence": self.confidence, "longest": self.longest,
                "votes": self.votes, "seen": self.seen, "doubted": self.doubted,
                "home": [float(v) for v in self.home] if self.home is not None else None}

    @classmethod
    def from_state(cls, s: dict[str, Any]) -> Slot:
        return cls(s["side"], Card(s["card"]),
                   np.asarray(s["anchor"], dtype=np.float64) if s["anchor"] is not None else None,
                   bool(s["sideways"]), int(s["arrived"]), int(s["last_seen"]), bool(s["counted"]),
                   float(s["confidence"]), float(s.get("longest", 0.0)), int(s.get("votes", 0)),
                   int(s.get("seen", 0)), bool(s.get("doubted", False)),
                   np.asarray(s["home"], dtype=np.float64) if s.get("home") is not None else None)

    @property
    def where(self) -> tuple[float, float] | None:
        """Its place in the picture (the middle of its top edge), for a flag's picture."""
        return None if self.anchor is None else (float(self.anchor[0]), float(self.anchor[1]))


@dataclass
class Candidate:
    """A card seen lately that has not yet won its vote."""

    side: str
    card: Card
    anchor: NDArray[np.float64]
    first_frame: int
    first_time: float
    hits: list[int] = field(default_factory=list)
    sideways_votes: list[bool] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)
    extra_copies: int = 0
    """Frames in which this id showed on the side more often than it had been counted: evidence that
    the candidate is another copy, not a counted card seen at another place."""
    beside: set[int] = field(default_factory=set)
    """The counted cards of its id (``id()`` of their slots) seen in a frame together with it."""
    longest: float = 0.0
    """The longest box side it was seen with, in pixels (0: not known)."""
