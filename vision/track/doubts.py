"""Flags the tracker raises about cards it counted: a column that reads as two values, a play that breaks a
rule of play by its side's piles, a hand that ended unfinished (pure functions: the flags so far in, the new ones
out), and a side whose whole cards could not be read (:class:`UnreadCards`)."""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Sequence

from scoring.cards import Card
from vision.table.observations import FrameObservations
from vision.track.piles import TablePiles
from vision.track.rule_checks import PileCard, PlayRules, TablePlay, check_play_on_piles
from vision.track.state import Flag, FlagReason, HandState, PlayEvent

MixedRuns = dict[tuple[str, tuple[Card, ...]], int]
"""Frames running in which a side showed a column of these values."""


def mixed_column_flags(runs: MixedRuns, frame: FrameObservations, flags: Sequence[Flag],
                       frames_needed: int) -> tuple[MixedRuns, list[Flag]]:
    """The runs after ``frame``, and a flag for each side's column that read as different distance values in
    ``frames_needed`` frames running (once a hand: ``flags`` holds those raised before)."""
    after = {key: runs.get(key, 0) + 1 for key in set(frame.mixed_columns)}
    flagged = [f.message for f in flags if f.reason is FlagReason.MIXED_COLUMN]
    new: list[Flag] = []
    for (side, values), run in sorted(after.items(), key=lambda kv: (kv[0][0], [c.value for c in kv[0][1]])):
        what = f"a column of {side}'s distance cards reads as " + " and ".join(str(c.km) for c in values)
        if run >= frames_needed and not any(m.startswith(what + " ") for m in flagged):
            message = f"{what} in {run} frames running: one card is probably misread"
            new.append(Flag(frame.index, frame.time, side, None, FlagReason.MIXED_COLUMN, message))
            flagged.append(message)
    return after, new


def pile_flags(due: Sequence[tuple[PlayEvent, tuple[float, float] | None]], events: Sequence[PlayEvent],
               piles: TablePiles, rules: PlayRules, frame: FrameObservations, taken_away_frames: int) -> list[Flag]:
    """A flag, in ``frame``, for each play of ``due`` (with its place) that breaks a rule of play by its side's
    piles (:func:`~vision.track.rule_checks.check_play_on_piles`); ``events``: every play counted so far."""
    table = [TablePlay(e.side, e.card, e.sideways, e.frame) for e in events]
    out: list[Flag] = []
    for play, where in due:
        safeties = tuple(PileCard(e.frame, e.card) for e in events if e.side == play.side and e.card.is_safety)
        breach = check_play_on_piles(TablePlay(play.side, play.card, play.sideways, play.frame),
                                     piles.of(play.side, safeties), rules, table, taken_away_frames)
        if breach is not None:
            out.append(Flag(frame.index, frame.time, play.side, play.card, FlagReason(breach.breach.value),
                            breach.message, where))
    return out


def unfinished_flag(state: HandState, last: FrameObservations | None) -> Flag | None:
    """The flag of a hand over though no side reached the goal and the draw pile is still there (see
    :attr:`FlagReason.UNFINISHED`); ``None`` when a side is at the goal, the draw pile is gone, or no scoring
    card was counted (a table cleared before anyone played)."""
    if state.completer is not None or not state.draw_pile or not state.any_played:
        return None
    leader = max(state.sides, key=lambda s: s.km)
    return Flag(last.index if last is not None else 0, last.time if last is not None else 0.0, None, None,
                FlagReason.UNFINISHED,
                f"the hand ended with cards left to draw and no side at {state.effective_goal} km "
                f"({leader.side} has {leader.km}): was a distance card missed?")


class UnreadCards:
    """Each side's whole face-up cards that could not be read, over the last frames it showed cards in (a frame
    with none in its zone, the table cleared, adds nothing: the hand's end is still in view)."""

    def __init__(self, frames: int) -> None:
        self._recent: dict[str, deque[tuple[int, float, tuple[tuple[float, float], ...]]]] = {}
        self._frames = frames

    def see(self, frame: FrameObservations) -> None:
        for side, where in frame.unread:
            self._recent.setdefault(side, deque(maxlen=self._frames)).append((frame.index, frame.time, where))

    def flags(self) -> list[Flag]:
        """A flag for each side that showed unread whole cards in most of its last frames (:attr:`FlagReason.UNREAD`),
        naming the last of those frames and where one of them lay."""
        out: list[Flag] = []
        for side, recent in self._recent.items():
            counts = [len(where) for _, _, where in recent]
            if not counts or statistics.median(counts) < 1:
                continue
            index, time, where = next(r for r in reversed(recent) if r[2])
            n = round(statistics.median(counts))
            out.append(Flag(index, time, side, None, FlagReason.UNREAD,
                            f"{side} had {n} card{'s' if n > 1 else ''} on the table that could not be read "
                            f"(frame {index}): count {'them' if n > 1 else 'it'} by hand", where[0]))
        return out
