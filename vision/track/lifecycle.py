"""The hand lifecycle: from a cleared table to a hand record, pending, then final.

A hand starts on a cleared table (or with the first frame, when a source starts mid-hand). It
ends when a side completes the trip, or when the draw pile is gone and nobody has played for a
while. The finished hand is *pending*: its record waits for a person to confirm it, and becomes
final by itself when the table is cleared for the next hand — unless it has open flags: a hand with any
doubt is never made final by the cleared table alone. It is *held* for a person (confirm or correct)
while the next hand is followed, and the hands after it wait in line behind it, so that hands go into
the game in the order they were played. In a 700-km hand, a side that
reaches 700 and plays on has called the extension: the pending hand is taken back and play
goes on to 1,000.

Pure like the tracker: views of the table in (:class:`~vision.landing.tracker.TableView`), one a frame,
:class:`LifecycleEvent` values out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.hand import EXTENDED_GOAL, HandRecord
from vision.landing.hand import AGAIN_WITHIN
from vision.landing.tracker import LandingTracker, TableView
from vision.sources.frames import frames_for
from vision.table.layout import TableLayout
from vision.track.rule_checks import PlayRules
from vision.track.state import Flag, HandState, PlayEvent


class Phase(Enum):
    WAITING = "waiting"
    """No hand yet: waiting for a cleared table."""
    IN_PLAY = "in_play"
    FINISHED = "finished"
    """The hand is over and its record pending; waiting for the table to be cleared."""


class Termination(Enum):
    """How a hand ended."""

    TRIP_COMPLETED = "trip_completed"
    PLAY_STOPPED = "play_stopped"
    """The draw pile was gone and nobody played for :attr:`LifecycleSettings.play_stopped_after_s`."""
    TABLE_CLEARED = "table_cleared"
    """The table was cleared before the camera saw the hand end."""
    SOURCE_ENDED = "source_ended"


@dataclass(frozen=True)
class LifecycleSettings:
    rules: PlayRules = PlayRules()
    """The rules of play each play is held to (:mod:`vision.track.rule_checks`)."""
    again_within_frames: int = AGAIN_WITHIN
    """A card read where its side landed the same card this many frames before is that card seen again
    (:data:`vision.landing.hand.AGAIN_WITHIN`)."""
    cleared_table_frames: int = 5
    """A table counts as cleared after this many frames in a row with no face-up card in any side's
    zone. Raising it keeps a hand from ending when everything is briefly hidden; lowering it starts
    the next hand sooner."""
    play_stopped_after_s: float = 20.0
    """With the draw pile gone, the hand ends after this many seconds without a new card counted."""
    start_on_first_frame: bool = True
    """Start the first hand with the first frame instead of waiting for a cleared table (a source
    that starts mid-hand, a replay)."""

    def at_rate(self, fps: float) -> LifecycleSettings:
        """These settings for a camera filming ``fps`` frames a second: the cleared table's frames keep their time.

        :raises ValueError: ``fps`` is no rate (not above 0).
        """
        if not fps > 0:
            raise ValueError(f"a camera films more than 0 frames a second, not {fps}")
        return replace(self, cleared_table_frames=frames_for(self.cleared_table_frames, fps),
                       again_within_frames=frames_for(self.again_within_frames, fps))


@dataclass(frozen=True)
class PendingHand:
    """A finished hand waiting to be confirmed (or already final)."""

    number: int
    """1 for the first hand the camera followed, then 2, …"""
    record: HandRecord
    termination: Termination
    events: tuple[PlayEvent, ...]
    final: bool = False
    corrected: bool = False
    flags: tuple[Flag, ...] = ()
    """The flags open when the hand ended (a person's correction settles them)."""


class EventKind(StrEnum):
    """What a :class:`LifecycleEvent` tells."""

    HAND_STARTED = "hand_started"
    """Cards appeared on a cleared table: a new hand is followed."""
    CARD_PLAYED = "card_played"
    """The tracker counted one more card."""
    FLAGGED = "flagged"
    """Evidence broke a rule or disagreed with itself; a person should look."""
    HAND_PENDING = "hand_pending"
    """The hand ended; its score waits for a person's confirmation."""
    HAND_REOPENED = "hand_reopened"
    """Play went on after a hand seemed over: the pending hand is followed again."""
    HAND_FINAL = "hand_final"
    """The pending hand was confirmed (or the table cleared) and goes into the game."""
    HAND_HELD = "hand_held"
    """The table was cleared while the pending hand had open flags (or an earlier hand still waited): it
    waits for a person, not final."""


@dataclass(frozen=True)
class LifecycleEvent:
    """Something the display should hear about."""

    kind: EventKind
    frame: int
    hand: int
    play: PlayEvent | None = None
    pending: PendingHand | None = None
    message: str = ""


@dataclass
class HandLifecycle:
    """Follows hands one after another over the frames of a source."""

    layout: TableLayout
    goal: int
    settings: LifecycleSettings = field(default_factory=LifecycleSettings)

    def __post_init__(self) -> None:
        self.sides = tuple(s.side for s in self.layout.sides)
        self.draw_pile_spot: NDArray[np.float64] | None = None
        """Where the draw pile lies (first view's pixels), when the first view showed it: each hand's tracker
        starts knowing it."""
        self.found_layout = False
        """The zones were found from the table (:attr:`~vision.landing.tracker.LandingTracker.found_layout`)."""
        self.phase = Phase.WAITING
        self.tracker: LandingTracker | None = None
        self.hand_number = 0
        self.pending: PendingHand | None = None
        self.finished: list[PendingHand] = []
        """Hands made final, oldest first."""
        self.held: list[PendingHand] = []
        """Hands the table was cleared after while they had open flags (or waited behind one), oldest first:
        none is final until a person confirms or corrects the first (:meth:`confirm`, :meth:`release`)."""
        self._empty_streak = 0
        self._seen_events = 0
        self._seen_flags = 0
        self._frames = 0

    # -- snapshots (restart safety) ---------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The hand being followed (phase, tracker, pending hand) as JSON; hands already final are not kept."""
        return {
            "sides": list(self.sides), "goal": self.goal, "phase": self.phase.value, "hand_number": self.hand_number,
            "tracker": self.tracker.to_state() if self.tracker is not None else None,
            "pending": _hand_to_state(self.pending), "held": [_hand_to_state(h) for h in self.held],
            "seen_events": self._seen_events, "seen_flags": self._seen_flags, "frames": self._frames,
        }

    @classmethod
    def from_state(cls, d: dict[str, Any], fresh: HandLifecycle) -> HandLifecycle:
        """A lifecycle like ``fresh`` (same sides and settings) holding the snapshot's hand.

        :raises ValueError: the snapshot's sides are not ``fresh``'s.
        """
        if tuple(d["sides"]) != fresh.sides:
            raise ValueError(f"the saved hand is of sides {d['sides']}, this table has {list(fresh.sides)}")
        lc = cls(fresh.layout, int(d["goal"]), fresh.settings)
        lc.phase = Phase(d["phase"])
        lc.hand_number = int(d["hand_number"])
        tr = d["tracker"]
        lc.tracker = LandingTracker.from_state(tr, fresh.settings.rules, fresh.settings.again_within_frames) \
            if tr is not None else None
        lc.pending = _hand_from_state(d["pending"])
        lc.held = [h for h in (_hand_from_state(x) for x in d.get("held", ())) if h is not None]
        lc._seen_events, lc._seen_flags = int(d["seen_events"]), int(d["seen_flags"])
        lc._frames = max(1, int(d["frames"]))
        return lc

    # -- feeding ------------------------------------------------------------------------------

    def update(self, frame: TableView) -> list[LifecycleEvent]:
        out: list[LifecycleEvent] = []
        self._frames += 1
        self._empty_streak = self._empty_streak + 1 if frame.table_empty else 0
        cleared = self._empty_streak >= self.settings.cleared_table_frames
        if self.phase is Phase.WAITING:
            if cleared or (self._frames == 1 and self.settings.start_on_first_frame):
                self._start(frame, out)
            else:
                return out
        elif cleared and self.phase is Phase.FINISHED:
            self._make_final_or_hold(frame, out)
            self._start(frame, out)
        elif cleared and self.phase is Phase.IN_PLAY and self._has_a_hand():
            self._finish(frame, Termination.TABLE_CLEARED, out)
            self._make_final_or_hold(frame, out)
            self._start(frame, out)
        assert self.tracker is not None
        if self.phase is Phase.IN_PLAY or self._extension_may_come():
            state = self.tracker.update(frame)
            self._report(frame, state, out)
            if self.phase is Phase.FINISHED and state.extension_called_by is not None:
                self.phase, self.pending = Phase.IN_PLAY, None  # the side at 700 played on: the extension
                out.append(LifecycleEvent(EventKind.HAND_REOPENED, frame.index, self.hand_number,
                                          message=f"{state.extension_called_by} called the extension"))
            if self.phase is Phase.IN_PLAY:
                self._check_end(frame, state, out)
        return out

    def end_of_source(self, frame_index: int) -> list[LifecycleEvent]:
        """The source ended: a hand in play becomes pending as it stands (one with no card played yet is
        no hand to confirm, unless its cards were there but left unread: :meth:`_has_a_hand`)."""
        out: list[LifecycleEvent] = []
        if self.phase is Phase.IN_PLAY and self.tracker is not None and self._has_a_hand():
            state = self.tracker.state()  # each landing was decided as it came: nothing waits
            self._report_at(frame_index, state, out)
            self._finish_at(frame_index, Termination.TRIP_COMPLETED if state.completer else Termination.SOURCE_ENDED, out)
        return out

    # -- people -------------------------------------------------------------------------------

    def confirm(self) -> PendingHand | None:
        """A person confirmed the first hand held (else the pending hand): it is final. The hands held only
        because it waited are let go by :meth:`release`."""
        if self.held:
            done = replace(self.held.pop(0), final=True)
            self.finished.append(done)
            return done
        if self.pending is None:
            return None
        done = PendingHand(**{**self.pending.__dict__, "final": True})
        self.finished.append(done)
        self.pending = None
        return done

    def release(self) -> list[PendingHand]:
        """The hands held without a flag of their own, in line behind a hand a person has now settled: final."""
        out = []
        while self.held and not self.held[0].flags:
            out.append(replace(self.held.pop(0), final=True))
        self.finished.extend(out)
        return out

    def correct(self, record: HandRecord) -> None:
        """A person's record wins: of the first hand held, else of the pending hand, else of the hand in play
        (the tracker goes on from it)."""
        record.validate()
        if self.held:
            first = self.held[0]
            self.held[0] = PendingHand(first.number, record, first.termination, first.events, corrected=True)
        elif self.pending is not None:
            self.pending = PendingHand(self.pending.number, record, self.pending.termination, self.pending.events,
                                       corrected=True)
            if self.tracker is not None:
                self.tracker.correct(record)  # the display shows the person's counts, its flags settled
        elif self.tracker is not None:
            self.tracker.correct(record)
            self._seen_flags = 0

    # -- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> HandState | None:
        """The current hand's state (the pending one once finished)."""
        return self.tracker.state() if self.tracker is not None else None

    # -- internals ----------------------------------------------------------------------------

    def _start(self, frame: TableView, out: list[LifecycleEvent]) -> None:
        self.hand_number += 1
        self.tracker = LandingTracker(self.layout, self.goal, self.settings.rules, self.draw_pile_spot,
                                      self.found_layout, self.settings.again_within_frames)
        self.phase = Phase.IN_PLAY
        self._seen_events = self._seen_flags = 0
        out.append(LifecycleEvent(EventKind.HAND_STARTED, frame.index, self.hand_number))

    def _has_a_hand(self) -> bool:
        """Whether the hand in play is one to end as pending: a card was counted, or a card landed on a side unread
        (a deck Borne cannot read: all of them missed, which must not end in silence)."""
        if self.tracker is None:
            return False
        return self.tracker.state().any_played or self.tracker.has_unread

    def _extension_may_come(self) -> bool:
        return (self.phase is Phase.FINISHED and self.pending is not None and self.goal != EXTENDED_GOAL
                and self.tracker is not None and self.tracker.extension_called_by is None
                and self.pending.termination is Termination.TRIP_COMPLETED)

    def _report(self, frame: TableView, state: HandState, out: list[LifecycleEvent]) -> None:
        self._report_at(frame.index, state, out)

    def _report_at(self, index: int, state: HandState, out: list[LifecycleEvent]) -> None:
        for e in state.events[self._seen_events:]:
            out.append(LifecycleEvent(EventKind.CARD_PLAYED, index, self.hand_number, play=e))
        self._seen_events = len(state.events)
        for f in state.flags[self._seen_flags:]:
            out.append(LifecycleEvent(EventKind.FLAGGED, index, self.hand_number, message=f"{f.side}: {f.message}"))
        self._seen_flags = len(state.flags)

    def _check_end(self, frame: TableView, state: HandState, out: list[LifecycleEvent]) -> None:
        assert self.tracker is not None
        if state.completer is not None:
            self._finish(frame, Termination.TRIP_COMPLETED, out)
            return
        last = self.tracker.last_play_time
        if not state.draw_pile and last is not None and frame.time - last >= self.settings.play_stopped_after_s:
            self._finish(frame, Termination.PLAY_STOPPED, out)

    def _finish(self, frame: TableView, how: Termination, out: list[LifecycleEvent]) -> None:
        self._finish_at(frame.index, how, out)

    def _finish_at(self, frame_index: int, how: Termination, out: list[LifecycleEvent]) -> None:
        assert self.tracker is not None
        state = self.tracker.flag_hand_end(unfinished=how in (Termination.TABLE_CLEARED, Termination.SOURCE_ENDED))
        self._report_at(frame_index, state, out)
        # a trip completed after the pile ran out (the delayed action bonus) is asked of the pile as the last card
        # landed; a hand that stopped is over with the pile as it is now
        empty = self.tracker.draw_pile_empty_at_finish if how is Termination.TRIP_COMPLETED else not state.draw_pile
        record = state.record(draw_pile_empty_at_finish=empty)
        self.pending = PendingHand(self.hand_number, record, how, state.events, flags=state.flags)
        self.phase = Phase.FINISHED
        out.append(LifecycleEvent(EventKind.HAND_PENDING, frame_index, self.hand_number, pending=self.pending))

    def _make_final_or_hold(self, frame: TableView, out: list[LifecycleEvent]) -> None:
        """The table was cleared: the pending hand is final, unless it has open flags or an earlier hand waits
        (then it is held for a person)."""
        p = self.pending
        if p is None:
            return
        if self.held or (p.flags and not p.corrected):
            self.held.append(p)
            self.pending = None
            why = f"{len(p.flags)} flag(s) open" if p.flags else f"hand {self.held[0].number} waits before it"
            out.append(LifecycleEvent(EventKind.HAND_HELD, frame.index, p.number, pending=p,
                                      message=f"waits for a person: {why}"))
            return
        done = self.confirm()
        if done is not None:
            out.append(LifecycleEvent(EventKind.HAND_FINAL, frame.index, done.number, pending=done))


def _hand_to_state(p: PendingHand | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"number": p.number, "record": p.record.to_json(), "termination": p.termination.value,
            "events": [e.to_state() for e in p.events], "corrected": p.corrected, "flags": [f.to_state() for f in p.flags]}


def _hand_from_state(p: dict[str, Any] | None) -> PendingHand | None:
    if p is None:
        return None
    return PendingHand(int(p["number"]), HandRecord.from_json(p["record"]), Termination(p["termination"]),
                       tuple(PlayEvent.from_state(e) for e in p["events"]), corrected=bool(p["corrected"]),
                       flags=tuple(Flag.from_state(f) for f in p.get("flags", ())))
