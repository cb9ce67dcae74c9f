"""Following the hand: observations of each frame fused into the hand's state (the tracker), and hands
followed one after another from a cleared table to a final record (the lifecycle).

- :mod:`vision.track.settings` — the tracker's settings and the named numbers of its decisions;
- :mod:`vision.track.state` — what it says: the hand's state, plays and flags;
- :mod:`vision.track.matching` — matching cards seen to cards known, the camera's shift, a column's steps;
- :mod:`vision.track.slots` — the cards the tracker keeps (counted or refused) and the ones still voted on;
- :mod:`vision.track.piles` — each side's battle and speed piles: the cards that came on top, and when;
- :mod:`vision.track.rule_checks` — the rules of play as checks of a counted play against its side's piles;
- :mod:`vision.track.doubts` — the flags raised about counted cards (mixed columns, rules of play, unfinished);
- :mod:`vision.track.correction` — a person's record laid over the tracker's cards;
- :mod:`vision.track.tracker` — :class:`HandTracker`;
- :mod:`vision.track.lifecycle` — :class:`HandLifecycle`.
"""

from vision.track.settings import ReconcileSettings
from vision.track.state import Flag, FlagReason, HandState, PlayEvent, SideState
from vision.track.tracker import HandTracker

__all__ = ["Flag", "FlagReason", "HandState", "HandTracker", "PlayEvent", "ReconcileSettings", "SideState"]
