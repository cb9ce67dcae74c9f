"""Reconciliation: per-frame observations of the table fused into the state of the hand.

One frame can be wrong; a hand must not be. A card counts once it has been seen consistently
(a vote over the last few frames), and from then on it stays counted whether or not it is seen:
a hand reaching over a column hides cards, it does not take them back. Cards are told apart by
where they lie (the middle of a card's top edge, which stays visible in an overlapping column),
so a card laid at the bottom of a column whose upper cards are hidden is still a new card.

Evidence that would break a rule of the game (past the goal, a third 200, more copies than the
deck has, a safety on two sides) is not applied: it is collected in :attr:`HandTracker.flags`
for a person to look at, as a PGN reader collects its errors. A person's correction always wins
and the tracker goes on counting from it.

The tracker is pure: frames in (:class:`FrameObservations`), state out; no I/O, no clock.

A counted play is also held to its side's battle and speed piles (:mod:`vision.track.piles`,
:mod:`vision.track.rule_checks`): a distance card while stopped or over the speed limit, a coup fourré
answering no attack, stays counted and is flagged.

The state types live in :mod:`vision.track.state`, the numbers in :mod:`vision.track.settings`, the
geometry of matching in :mod:`vision.track.matching`, the cards it keeps in :mod:`vision.track.slots`, a
person's correction in :mod:`vision.track.correction`, the flags about counted cards in
:mod:`vision.track.doubts`. What stays here is one class whose decisions (count, move, doubt) share its
slots and candidates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import DISTANCE_VALUES, Card
from scoring.hand import EXTENDED_GOAL, GOALS, HandRecord, SafetyPlay
from vision.table.observations import FrameObservations, Observation
from vision.track.correction import corrected_slots
from vision.track.doubts import MixedRuns, UnreadCards, mixed_column_flags, pile_flags, unfinished_flag
from vision.track.draw_pile import DrawPileWatch
from vision.track.matching import Matching, camera_shift, column_step, longest_after, match_nearest
from vision.track.piles import TablePiles
from vision.track.settings import (
    AT_HOME_SHARE,
    CARD_LENGTH_BEFORE_SEEN_PX,
    CARD_LENGTH_LEARN,
    COLUMN_STEPS_HIDDEN,
    EVIDENCE_HEAD_START,
    EXTENSION_AT,
    FLAGGED_SIDE_CONFIDENCE,
    HALF_SEEN_SIDE_CONFIDENCE,
    NOT_A_STRIP_SHARE,
    PILE_CHECK_AFTER,
    SHORTEST_COLUMN_STEP,
    TIGHTEST_STEP,
    WHOLE_SHARE,
    ReconcileSettings,
)
from vision.track.slots import Candidate, Slot
from vision.track.state import Flag, FlagReason, HandState, PlayEvent, SideState


class HandTracker:
    """Fuses frames into the state of one hand. Feed it frames in order with :meth:`update`.

    >>> tracker = HandTracker(("North", "South"), goal=1000)
    >>> for i in range(3):
    ...     state = tracker.update(FrameObservations(i, i / 10, (Observation("North", Card.DISTANCE_100, False, (50.0, 20.0), 0.9),), True))
    >>> state.sides[0].distance[100], [e.frame for e in state.events]
    (1, [0])
    """

    def __init__(self, sides: tuple[str, ...], *, goal: int, settings: ReconcileSettings = ReconcileSettings()) -> None:
        if goal not in GOALS:
            raise ValueError(f"a goal is 700 or 1000, not {goal}")
        self.side_names = tuple(sides)
        self.goal = goal
        self.settings = settings
        self.extension_called_by: str | None = None
        self.reached_700_at: tuple[str, int] | None = None
        """The side that first reached exactly 700 in a 700-km hand, and the frame its card landed."""
        self._slots: list[Slot] = []
        self._candidates: list[Candidate] = []
        self._events: list[PlayEvent] = []
        self._flags: list[Flag] = []
        self._piles = TablePiles(self.side_names, settings.pile_top_frames)
        self._to_check: list[tuple[PlayEvent, tuple[float, float] | None]] = []
        """Counted plays not yet held to their side's piles, with their places (:data:`PILE_CHECK_AFTER`)."""
        self._mixed_runs: MixedRuns = {}
        self._card_length: float | None = None
        self._ups: dict[str, tuple[float, float] | None] = {}
        self._draw_pile = DrawPileWatch(settings.draw_pile_frames, gone_before=settings.draw_pile_gone_before_frames)
        self.unread = UnreadCards(settings.unread_frames)  # not kept over a restart: two seconds refill it
        self.frames = 0
        self.last_play_time: float | None = None
        """When the last counted card (of any kind) landed, in source seconds."""
        self.last_frame: FrameObservations | None = None

    # -- snapshots (restart safety) ---------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The counted hand as a JSON document (:meth:`from_state` reads it back after a restart), card places
        kept: the cards seen again after a restart are matched to the cards counted, not counted twice."""
        return {
            "sides": list(self.side_names), "goal": self.goal, "extension_called_by": self.extension_called_by,
            "reached_700_at": list(self.reached_700_at) if self.reached_700_at is not None else None,
            "slots": [sl.to_state() for sl in self._slots],
            "events": [e.to_state() for e in self._events],
            "flags": [f.to_state() for f in self._flags],
            "piles": self._piles.to_state(),
            "to_check": [{"play": e.to_state(), "where": list(w) if w is not None else None} for e, w in self._to_check],
            "card_length": self._card_length,
            "ups": {k: list(v) if v is not None else None for k, v in self._ups.items()},
            **self._draw_pile.to_state(), "frames": self.frames, "last_play_time": self.last_play_time,
        }

    @classmethod
    def from_state(cls, d: dict[str, Any], settings: ReconcileSettings) -> HandTracker:
        t = cls(tuple(d["sides"]), goal=int(d["goal"]), settings=settings)
        t.extension_called_by = d["extension_called_by"]
        t.reached_700_at = (str(d["reached_700_at"][0]), int(d["reached_700_at"][1])) if d["reached_700_at"] else None
        t._slots = [Slot.from_state(s) for s in d["slots"]]
        t._events = [PlayEvent.from_state(e) for e in d["events"]]
        t._flags = [Flag.from_state(f) for f in d["flags"]]
        t._piles = TablePiles.from_state(t.side_names, d.get("piles"), settings.pile_top_frames)
        t._to_check = [(PlayEvent.from_state(c["play"]), (float(c["where"][0]), float(c["where"][1]))
                        if c["where"] is not None else None) for c in d.get("to_check", ())]
        t._card_length = d["card_length"]
        t._draw_pile = DrawPileWatch.from_state(d, settings.draw_pile_frames, settings.draw_pile_gone_before_frames)
        t._ups = {k: (float(v[0]), float(v[1])) if v is not None else None for k, v in d["ups"].items()}
        t.frames, t.last_play_time = int(d["frames"]), d["last_play_time"]
        return t

    # -- feeding ----------------------------------------------------------------------

    def update(self, frame: FrameObservations) -> HandState:
        """Take one frame's observations into account; returns the new state."""
        s = self.settings
        self.frames += 1
        self.last_frame = frame
        if frame.card_length_px:
            self._card_length = (frame.card_length_px if self._card_length is None else (1 - CARD_LENGTH_LEARN) * self._card_length
                                  + CARD_LENGTH_LEARN * frame.card_length_px)
        self._ups.update(dict(frame.up))
        self._draw_pile.see(frame.draw_pile, frame.index)
        self.unread.see(frame)
        length = self._card_length or CARD_LENGTH_BEFORE_SEEN_PX
        same = self._same_card_px()
        seen = [o for o in frame.cards if o.confidence >= s.minimum_confidence]
        self._piles.see(frame, s.minimum_confidence)
        self._follow_the_camera(seen, length)
        for key in sorted({(o.side, o.card.value) for o in seen}):
            side, card = key[0], Card(key[1])
            obs = [o for o in seen if o.side == side and o.card is card]
            points = [np.asarray(o.anchor, dtype=np.float64) for o in obs]
            slots = [sl for sl in self._slots if sl.side == side and sl.card is card and sl.anchor is not None]
            extra = len(obs) > sum(1 for sl in self._slots if sl.side == side and sl.card is card)
            left = match_nearest(points, [sl.anchor for sl in slots], same)  # type: ignore[misc]
            left = self._not_laid_over(left, obs, slots)
            for i, j in left.pairs:
                slots[j].anchor = slots[j].anchor + s.place_smoothing * (points[i] - slots[j].anchor)  # type: ignore[operator]
                slots[j].last_seen = frame.index
                slots[j].longest = longest_after(slots[j].longest, obs[i].length or 0.0)
                if (obs[i].length or 0.0) >= WHOLE_SHARE * slots[j].longest:
                    slots[j].home = slots[j].anchor.copy()  # type: ignore[union-attr]
                slots[j].seen += 1
            in_sight = {id(slots[j]) for _, j in left.pairs}
            cands = [c for c in self._candidates if c.side == side and c.card is card]
            free = left.unmatched
            more = match_nearest([points[i] for i in free], [c.anchor for c in cands], same)
            for a, j in more.pairs:
                o = obs[free[a]]
                c = cands[j]
                c.anchor = points[free[a]]
                c.hits.append(frame.index)
                c.sideways_votes.append(o.sideways)
                c.confidences.append(o.confidence)
                c.extra_copies += extra
                c.beside |= in_sight
                c.longest = max(c.longest, o.length or 0.0)
            for a in more.unmatched:
                o = obs[free[a]]
                self._candidates.append(
                    Candidate(side, card, points[free[a]], frame.index, frame.time, [frame.index], [o.sideways],
                               [o.confidence], int(extra), set(in_sight), o.length or 0.0)
                )
        window_start = frame.index - s.vote_window_frames + 1
        still: list[Candidate] = []
        for c in sorted(self._candidates, key=lambda c: (c.first_frame, c.side, c.card.value)):
            votes = [conf for h, conf in zip(c.hits, c.confidences) if h >= window_start]
            if len(votes) >= s.minimum_frames_seen and sum(votes) >= s.minimum_evidence and not self._maybe_cut_short(c):
                self._decide(c, frame)
            elif c.hits[-1] >= window_start:
                still.append(c)
        self._candidates = still
        self._check_on_piles(frame, frame.index - self.settings.pile_top_frames - PILE_CHECK_AFTER)
        self._doubt_the_unseen(frame)
        self._mixed_runs, mixed = mixed_column_flags(self._mixed_runs, frame, self._flags, s.mixed_column_frames)
        self._flags.extend(mixed)
        return self.state()

    def _not_laid_over(self, m: Matching, obs: list[Observation], slots: list[Slot]) -> Matching:
        """The matching without the pairs in which a whole card lies a column step past the counted card:
        the next card of a tight column laid over it (the counted card now shows as a strip, often
        too faintly to be matched), which must not pull the counted card's place onto itself."""
        apart = [(i, j) for i, j in m.pairs
                 if slots[j].longest and self._past(slots[j], np.asarray(obs[i].anchor, dtype=np.float64),
                                                    obs[i].length or 0.0, length_share=WHOLE_SHARE)]
        if not apart:
            return m
        return Matching([p for p in m.pairs if p not in apart], sorted(m.unmatched + [i for i, _ in apart]))

    def _doubt_the_unseen(self, frame: FrameObservations) -> None:
        """Flag counted cards seen in a few frames only and not for a long while since (see
        :attr:`FlagReason.SELDOM_SEEN`); a card covered whole by the next one laid over it is not doubted."""
        s = self.settings
        for sl in self._slots:
            if (not sl.counted or sl.doubted or sl.anchor is None or not (sl.card.is_distance or sl.card.is_safety)
                    or sl.seen >= s.doubt_seen_under or frame.index - sl.last_seen < s.doubt_unseen_frames):
                continue
            if any(o is not sl and o.side == sl.side and o.counted and o.anchor is not None and o.arrived > sl.arrived
                   and self._column_step(sl.side, o.anchor - sl.anchor) for o in self._slots):
                continue
            sl.doubted = True
            self._flags.append(Flag(frame.index, frame.time, sl.side, sl.card, FlagReason.SELDOM_SEEN,
                                    f"the {sl.card.title} counted for {sl.side} at frame {sl.arrived} was seen in "
                                    f"{sl.votes + sl.seen} frames only, none since frame {sl.last_seen}: "
                                    "is it on the table?", sl.where))

    def _follow_the_camera(self, seen: list[Observation], length: float) -> None:
        """Shift every known place by the whole table's shift in this frame, when the camera moved
        (:func:`~vision.track.matching.camera_shift`)."""
        known = [(sl.side, sl.card, sl.anchor) for sl in self._slots if sl.anchor is not None]
        shift = camera_shift([(o.side, o.card, np.asarray(o.anchor, dtype=np.float64)) for o in seen], known, length)
        if shift is None:
            return
        for sl in self._slots:
            if sl.anchor is not None:
                sl.anchor = sl.anchor + shift
                if sl.home is not None:
                    sl.home = sl.home + shift
        for c in self._candidates:
            c.anchor = c.anchor + shift

    def end_of_source(self) -> HandState:
        """The source ended: cards seen without a gap since they appeared, often enough, count now."""
        last = self.last_frame
        if last is not None:
            for c in sorted(self._candidates, key=lambda c: (c.first_frame, c.side, c.card.value)):
                steady = len(c.hits) == c.hits[-1] - c.first_frame + 1 and c.hits[-1] == last.index
                if steady and len(c.hits) >= self.settings.minimum_frames_at_end:
                    self._decide(c, last)
            self._candidates.clear()
        return self.settle_checks()

    def settle_checks(self) -> HandState:
        """The hand is over: every counted play is held to its side's piles now (not a few frames on)."""
        if self.last_frame is not None:
            self._check_on_piles(self.last_frame, self.last_frame.index)
        return self.state()

    def flag_hand_end(self, *, unfinished: bool) -> HandState:
        """The hand is over: each side whose whole cards were left unread is flagged (:attr:`FlagReason.UNREAD`), and
        with ``unfinished`` (the table cleared, the source stopped) a hand no side finished with cards to draw
        (:attr:`FlagReason.UNFINISHED`; not one where no scoring card was counted, a table cleared before anyone played)."""
        flag = unfinished_flag(self.state(), self.last_frame) if unfinished else None
        self._flags.extend([*self.unread.flags(), *([flag] if flag is not None else [])])
        return self.state()

    @property
    def draw_pile_empty_at_finish(self) -> bool:
        """Whether the draw pile was gone when the last counted card landed (the trip completed after it ran
        out: the delayed action bonus; :mod:`vision.track.draw_pile`)."""
        return self._draw_pile.empty_before(self._events[-1].frame if self._events else None)

    # -- deciding -------------------------------------------------------------------------

    def _decide(self, c: Candidate, frame: FrameObservations) -> None:
        sideways = sum(c.sideways_votes) * 2 > len(c.sideways_votes)
        confidence = float(np.mean(c.confidences)) * min(1.0, len(c.hits) / self.settings.vote_window_frames + EVIDENCE_HEAD_START)
        moved = self._moved_from(c) or self._lost_track_of(c, frame)
        if moved is not None:
            moved.anchor, moved.sideways, moved.last_seen = c.anchor, sideways, frame.index
            moved.home = c.anchor.copy()
            return
        if self._second_box_on(c) is not None:
            return
        if c.extra_copies == 0 and any(sl.side == c.side and sl.card is c.card and sl.last_seen >= c.first_frame
                                       and id(sl) not in c.beside for sl in self._slots):
            # Never more of this id in sight than were counted, and a counted one seen by turns with this
            # one (seen since it appeared, never beside it): one card whose box jumps (a hand over its top
            # edge), not a second copy.
            return
        problem = self._rule_broken(c.side, c.card, c.first_frame)
        slot = Slot(c.side, c.card, c.anchor, sideways, c.first_frame, frame.index, problem is None, confidence,
                     c.longest, len(c.hits), home=c.anchor.copy())
        self._slots.append(slot)
        if problem is not None:
            reason, message = problem
            self._flags.append(Flag(frame.index, frame.time, c.side, c.card, reason, message, slot.where))
            return
        self._apply_extension(c.side, c.card, c.first_frame)
        if self.last_play_time is None or c.first_time > self.last_play_time:
            self.last_play_time = c.first_time
        if c.card.is_distance or c.card.is_safety:
            play = PlayEvent(c.first_frame, c.first_time, c.side, c.card, sideways, frame.index, frame.time, confidence)
            self._events.append(play)
            self._events.sort(key=lambda e: (e.frame, e.side, e.card.value))
            self._to_check.append((play, slot.where))

    def _check_on_piles(self, frame: FrameObservations, counted_by: int) -> None:
        """Hold the plays counted by frame ``counted_by`` to their sides' piles: a play that breaks a rule of
        play stays counted and is flagged (:func:`~vision.track.doubts.pile_flags`)."""
        due = [(e, w) for e, w in self._to_check if e.decided_frame <= counted_by]
        self._to_check = [(e, w) for e, w in self._to_check if e.decided_frame > counted_by]
        s = self.settings
        self._flags.extend(pile_flags(due, self._events, self._piles, s.play_rules, frame, s.attack_taken_away_frames))

    def _moved_from(self, c: Candidate) -> Slot | None:
        """The counted card this candidate is, moved (knocked askew), if any."""
        length = self._card_length or CARD_LENGTH_BEFORE_SEEN_PX
        best: tuple[float, Slot] | None = None
        for sl in self._slots:
            if sl.side != c.side or sl.card is not c.card or sl.anchor is None or sl.last_seen >= c.first_frame:
                continue
            d = c.anchor - sl.anchor
            dist = float(np.linalg.norm(d)) / length
            # a card further down its column is laid over it (the hand laying it hides the column), not it moved
            plausible = c.card.is_safety or dist <= self.settings.moved_card_radius and not self._column_step(
                c.side, d, steps=COLUMN_STEPS_HIDDEN)
            if plausible and (best is None or dist < best[0]):
                best = (dist, sl)
        return best[1] if best is not None else None

    def _maybe_cut_short(self, c: Candidate) -> bool:
        """Whether the candidate, never seen whole, lies a column step past a counted card of its id hidden
        since before it appeared: that card with a hand over its top edge (its box shorter, its top edge
        lower) as likely as a new card. It waits: a new card shows whole once the hand has gone, the
        hidden card shows where it was."""
        return any(sl.side == c.side and sl.card is c.card and sl.anchor is not None and sl.last_seen < c.first_frame
                   and c.longest < WHOLE_SHARE * sl.longest and self._column_step(c.side, c.anchor - sl.anchor)
                   for sl in self._slots)

    def _second_box_on(self, c: Candidate) -> Slot | None:
        """The counted card of its id this candidate lies on, seen together with it: a second box the
        detector put across that card's strip (two copies of a card are a column step apart, more than
        :attr:`ReconcileSettings.same_card_radius`)."""
        same = self._same_card_px()
        return next((sl for sl in self._slots if sl.side == c.side and sl.card is c.card and sl.anchor is not None
                     and id(sl) in c.beside and float(np.linalg.norm(c.anchor - sl.anchor)) <= same
                     and not self._whole_past(c, sl)), None)

    def _whole_past(self, c: Candidate, sl: Slot) -> bool:
        """Whether the candidate, seen beside ``sl``, is a whole card a little way past it down its column:
        the next card laid over it, however tight (a second box the detector puts on a card's strip is
        not whole, and two boxes on one whole card share too much of it to both survive the tiles' merge)."""
        return self._past(sl, c.anchor, c.longest, length_share=NOT_A_STRIP_SHARE, shortest=TIGHTEST_STEP)

    def _past(self, sl: Slot, anchor: NDArray[np.float64], length: float, *, length_share: float,
              shortest: float = SHORTEST_COLUMN_STEP) -> bool:
        """Whether a box at ``anchor``, ``length`` long, lies a column step (at least ``shortest``) past the
        counted card ``sl`` and is at least ``length_share`` of the longest side ``sl`` was seen with (all
        lengths pass when that is not known)."""
        assert sl.anchor is not None
        return (self._column_step(sl.side, anchor - sl.anchor, shortest=shortest)
                and (not sl.longest or length >= length_share * sl.longest))

    def _lost_track_of(self, c: Candidate, frame: FrameObservations) -> Slot | None:
        """The counted card this candidate is when the side shows exactly as many cards of its id as were counted.

        A hand over a column, or the camera knocked for a frame, can leave a counted card's place
        following a neighbour's; the card then shows up where it always was, looking new. When every
        counted card of that id is in sight again (this one included), it is the one not seen since.
        With fewer in sight some are hidden, and a card laid meanwhile is new (a column's upper cards
        covered by the hand laying the next one).
        """
        slots = [sl for sl in self._slots if sl.side == c.side and sl.card is c.card and sl.anchor is not None]
        stale = [sl for sl in slots if sl.last_seen < c.first_frame and not self._laid_over(c, sl)
                 and not self._further_down(c.side, c.anchor - sl.anchor)]  # type: ignore[operator]
        if not stale:
            return None
        seen = sum(1 for o in frame.cards if o.side == c.side and o.card is c.card
                   and o.confidence >= self.settings.minimum_confidence)
        if seen != len(slots):
            return None
        length = self._card_length or CARD_LENGTH_BEFORE_SEEN_PX
        dist, nearest = min(((float(np.linalg.norm(c.anchor - sl.anchor)), sl) for sl in stale), key=lambda t: t[0])  # type: ignore[operator]
        return nearest if dist <= self.settings.moved_card_radius * length else None

    def _same_card_px(self) -> float:
        """:attr:`ReconcileSettings.same_card_radius` in pixels, at the card length seen lately."""
        return self.settings.same_card_radius * (self._card_length or CARD_LENGTH_BEFORE_SEEN_PX)

    def _laid_over(self, c: Candidate, sl: Slot) -> bool:
        """Whether the candidate is a whole card one column step past ``sl``, which still lies at its own
        place: a card laid over it (hiding it nearly whole), not ``sl`` found again. A box cut short by
        a hand over the card's top edge also lies lower, but is shorter than the card was seen; a slot
        whose place drifted (boxes cut short under a hand) is found again where it was last seen whole."""
        if not self._past(sl, c.anchor, c.longest, length_share=WHOLE_SHARE):
            return False
        return sl.home is None or float(np.linalg.norm(c.anchor - sl.home)) > AT_HOME_SHARE * self._same_card_px()

    def _column_step(self, side: str, d: NDArray[np.float64], *, steps: int = 1,
                     shortest: float = SHORTEST_COLUMN_STEP) -> bool:
        """:func:`~vision.track.matching.column_step` on ``side``'s column (``False`` while its up is unknown)."""
        up = self._ups.get(side)
        if up is None:
            return False
        return column_step(up, self._card_length or CARD_LENGTH_BEFORE_SEEN_PX, d, steps=steps, shortest=shortest)

    def _further_down(self, side: str, d: NDArray[np.float64]) -> bool:
        """Whether ``d`` goes from a card of a column to one of the cards laid after the next one: a card
        that far down the column is another (a card lost track of lies about where it was, or one step off)."""
        return self._column_step(side, d, steps=COLUMN_STEPS_HIDDEN) and not self._column_step(side, d)

    def _rule_broken(self, side: str, card: Card, arrived: int) -> tuple[FlagReason, str] | None:
        """The rule of the game (``scoring.plays.check_play``) this card would break, if counted now."""
        from scoring.plays import check_play

        done = self._completer()
        over = done if done is not None and not self._extension_possible(done, arrived) else None
        broken = check_play(((sl.side, sl.card) for sl in self._slots if sl.counted), side, card,
                            goal=self._goal_after(side, arrived), trip_completed_by=over)
        return None if broken is None else (FlagReason(broken.rule.value), broken.message)

    def _goal_after(self, side: str, arrived: int) -> int:
        """The goal a card landing at ``arrived`` is checked against (1,000 once the extension is or gets called)."""
        if self.goal == EXTENDED_GOAL or self.extension_called_by is not None:
            return EXTENDED_GOAL
        if self.reached_700_at is not None and arrived > self.reached_700_at[1]:
            return EXTENDED_GOAL  # play went on after 700 was reached: the extension was called
        return self.goal

    def _extension_possible(self, completer: str, arrived: int) -> bool:
        return (self.goal == EXTENSION_AT and self.extension_called_by is None and self.reached_700_at is not None
                and arrived > self.reached_700_at[1])

    def _completer(self) -> str | None:
        goal = EXTENDED_GOAL if self.extension_called_by is not None else self.goal
        return next((name for name in self.side_names if self._km(name) == goal), None)

    def _km(self, side: str) -> int:
        return sum(sl.card.km for sl in self._slots if sl.counted and sl.side == side and sl.card.is_distance)

    def _apply_extension(self, side: str, card: Card, arrived: int) -> None:
        if self.goal != EXTENSION_AT or self.extension_called_by is not None:
            return
        if self.reached_700_at is not None and arrived > self.reached_700_at[1]:
            # any play after a side reached 700 means that side went on: it called the extension
            self.extension_called_by = self.reached_700_at[0]
        elif card.is_distance and self._km(side) == EXTENSION_AT and self.reached_700_at is None:
            self.reached_700_at = (side, arrived)

    # -- people -----------------------------------------------------------------------------

    def correct(self, record: HandRecord) -> HandState:
        """A person's record of the hand so far replaces the tracker's counts; counting goes on from it.

        Cards the person removed stay known, cards added have no place (:func:`~vision.track.correction.corrected_slots`).
        Open flags are settled.

        :raises IllegalHandError: the corrected record breaks a rule (the core's own check).
        """
        record.validate()
        self.goal = record.goal
        self._slots = corrected_slots(self._slots, self.side_names, record)
        counted = {(sl.side, sl.card, sl.arrived) for sl in self._slots if sl.counted}
        self._events = [e for e in self._events if (e.side, e.card, e.frame) in counted]
        self._candidates.clear()
        self._flags.clear()
        self._to_check.clear()
        self.extension_called_by = record.extension_called_by
        return self.state()

    # -- reading --------------------------------------------------------------------------

    def state(self) -> HandState:
        sides = []
        for name in self.side_names:
            counted = [sl for sl in self._slots if sl.side == name and sl.counted]
            distance = {km: 0 for km in DISTANCE_VALUES}
            safeties: dict[Card, SafetyPlay] = {}
            for sl in counted:
                if sl.card.is_distance:
                    distance[sl.card.km] += 1
                elif sl.card.is_safety:
                    safeties[sl.card] = SafetyPlay.COUP_FOURRE if sl.sideways else SafetyPlay.PLAYED
            sides.append(SideState(name, distance, safeties, self._confidence(name, counted)))
        return HandState(self.goal, self.extension_called_by, tuple(sides), self._draw_pile.seen, tuple(self._events),
                         tuple(self._flags))

    def _confidence(self, side: str, counted: list[Slot]) -> float:
        """The least sure scoring card of the side, halved by an open flag, lowered while a card is half seen."""
        scoring = [sl.confidence for sl in counted if sl.card.is_distance or sl.card.is_safety]
        value = min(scoring) if scoring else 1.0
        if any(f.side == side for f in self._flags):
            value *= FLAGGED_SIDE_CONFIDENCE
        if any(c.side == side and (c.card.is_distance or c.card.is_safety) for c in self._candidates):
            value *= HALF_SEEN_SIDE_CONFIDENCE
        return max(0.0, min(1.0, value))

