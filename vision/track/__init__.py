"""Following the hand: what the hand's state says, the rules of play held to each play, and hands followed one
after another from a cleared table to a final record. The hand itself is its list of landings
(:mod:`vision.landing`).

- :mod:`vision.track.state` — the hand's state, plays and flags;
- :mod:`vision.track.rule_checks` — the rules of play as checks of a counted play against its side's piles;
- :mod:`vision.track.lifecycle` — :class:`HandLifecycle`.
"""

from vision.track.state import Flag, FlagReason, HandState, PlayEvent, SideState

__all__ = ["Flag", "FlagReason", "HandState", "PlayEvent", "SideState"]
