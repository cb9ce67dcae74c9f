"""The hand as its landings tell it, in the form the lifecycle, ``borne replay`` and the display take.

Frames come in as :class:`TableView` values: most bring nothing (the table still, or an arm over it); a clear view
brings the landings read since the last one. Each landing is placed and checked once (:class:`LandedHand`); the
plays counted become :class:`~vision.track.state.PlayEvent` values and every doubt a
:class:`~vision.track.state.Flag`, raised as it comes and never taken back but by a person's correction, which
always wins: counting goes on from the record a person gave.

The draw pile: it is there from the start; a card drawn changes its top (a change read as a back, no play). Once a
change where the pile lay reads as neither a back nor a card, the pile is gone (the delayed action's question, and
a hand that stops when nobody can draw).

The tracker keeps its landings (never a picture), so that a snapshot is the landings themselves: a tracker taken
back after a restart lands them again and stands where it stood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import DISTANCE_VALUES, Card
from scoring.hand import GOALS, HandRecord
from vision.geometry import iou
from vision.landing.hand import AGAIN_WITHIN, Census, LandedHand, Play, add_plays, side_of
from vision.landing.reading import Landing
from vision.landing.watch import Change
from vision.read.recogniser import Reading
from vision.table.census import TableCensus
from vision.table.layout import TableLayout
from vision.track.rule_checks import PlayRules
from vision.track.state import Flag, FlagReason, HandState, PlayEvent, SideState

FLAGGED_SIDE_CONFIDENCE = 0.5
"""A side with an open flag is shown this much less sure."""
PILE_SPOT = 0.3
"""A change overlapping the draw pile's top this much (IoU) is on the pile."""


@dataclass(frozen=True)
class TableView:
    """What one frame brings: the landings read in it (a clear view's) and whether the table is bare."""

    index: int
    time: float
    landings: tuple[Landing, ...] = ()
    table_empty: bool = False
    """The table is as bare as it was before the hand: every card cleared away."""
    in_play: bool = False
    """The landings are the cards already on the table when the camera started (read once from the first view)."""
    census: TableCensus | None = None
    """The table read whole (as the source ends: :meth:`~vision.pipeline.Pipeline.finish`); :meth:`LandingTracker.update`
    checks the landings against it."""


@dataclass
class _Correction:
    record: HandRecord
    after: int
    """The plays counted when the person's record came: the later ones count on from it."""


@dataclass
class LandingTracker:
    """Follows one hand from its landings; feed it every frame's :class:`TableView` in order."""

    layout: TableLayout
    goal: int
    rules: PlayRules = field(default_factory=PlayRules)
    draw_pile_spot: NDArray[np.float64] | None = None
    """Where the draw pile's top lies on the table (first view's pixels), when known."""
    found_layout: bool = False
    """The zones were found from the table: around the draw pile lies the discard pile, nobody's
    (:func:`~vision.landing.hand.side_of`)."""
    again_within: int = AGAIN_WITHIN
    """Frames within which a card read again on its spot is no new play (:data:`vision.landing.hand.AGAIN_WITHIN`)."""

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise ValueError(f"a goal is 700 or 1000, not {self.goal}")
        middle = self.draw_pile_spot.mean(axis=0) if self.found_layout and self.draw_pile_spot is not None else None
        self.hand = LandedHand(self.layout, middle=middle, again_within=self.again_within, goal=self.goal, rules=self.rules)
        self.side_names = tuple(s.side for s in self.layout.sides)
        self.views: list[TableView] = []
        """The views that brought landings, in order (a snapshot's content)."""
        self.last_view: TableView | None = None
        self.last_play_time: float | None = None
        """When the last card (of any kind) landed on a side, in source seconds."""
        self.draw_pile = True
        self._pile_gone_at: int | None = None
        self._flags: list[Flag] = []
        self._events: list[PlayEvent] = []
        self._correction: _Correction | None = None
        self._seen = (0, 0, 0, 0)
        self._census_seen: set[tuple[str, Card, int]] = set()

    def sees_the_draw_pile(self, spot: NDArray[np.float64]) -> None:
        """Where the first view showed the draw pile (it may come a frame or two after the hand started)."""
        self.draw_pile_spot = spot
        if self.found_layout:
            self.hand.middle = spot.mean(axis=0)

    # -- feeding ------------------------------------------------------------------------------

    def update(self, view: TableView) -> HandState:
        self.last_view = view
        if view.landings:
            self.views.append(view)
            self._land(view)
        if view.census is not None:
            self._check(view, view.census)
        return self.state()

    def _check(self, view: TableView, census: TableCensus) -> None:
        """A flag for each card the census shows more of on a side than the landings counted (once for each count
        it shows): a cross-check, never a count."""
        state = self.state()
        for seen in census.sides:
            counted = next((s for s in state.sides if s.side == seen.side), None)
            if counted is None:
                continue
            more = [(Card(f"distance_{km}"), n, counted.distance.get(km, 0)) for km, n in seen.distance.items()]
            more += [(card, 1, int(card in counted.safeties)) for card in seen.safeties]
            for card, shown, landed in more:
                key = (seen.side, card, shown)
                if shown <= landed or key in self._census_seen:
                    continue
                self._census_seen.add(key)
                where = next((c.sighting.corners for c in seen.cards if c.sighting.card is card), None)
                top = None if where is None else np.asarray(where, np.float64)
                spot = None if top is None else top[np.argsort(top[:, 1])[:2]].mean(axis=0)
                self._flags.append(Flag(view.index, view.time, seen.side, card, FlagReason.CENSUS,
                                        f"the table read whole shows {shown} {card.title} on {seen.side}'s side, the "
                                        f"landings counted {landed}: was a play missed, or is the census wrong?",
                                        None if spot is None else (float(spot[0]), float(spot[1]))))

    def _land(self, view: TableView) -> None:
        hand = self.hand
        if view.in_play:
            self._flags.append(Flag(view.index, view.time, None, None, FlagReason.IN_PLAY_AT_START,
                                    f"the camera started on a hand in play: the {len(view.landings)} cards already there "
                                    "were read once from the first view; check the counts"))
        for landing, play in zip(view.landings, hand.land_all(list(view.landings), checked=not view.in_play), strict=True):
            if play is None:
                self._watch_draw_pile(view, landing)
                continue
            if play.side is not None:
                self.last_play_time = view.time
            if any(p is play for p in hand.counted) and (play.card.is_distance or play.card.is_safety):
                self._events.append(PlayEvent(landing.frame, view.time, play.side or "", play.card, play.crosswise,
                                              view.index, view.time, float(landing.reading.confidence)))
        counted = {id(p.landing) for p in hand.counted}
        taken = [p for p in hand.taken if id(p.landing) not in counted]
        self._events = [e for e in self._events
                        if not any((t.landing.frame, t.side, t.card) == (e.frame, e.side, e.card) for t in taken)]
        self._flag_news(view)

    def _watch_draw_pile(self, view: TableView, landing: Landing) -> None:
        """A change in the middle: the pile's top (a back) followed, and the pile gone once its spot shows none."""
        if side_of(landing, self.layout, self.hand.middle) is not None:
            return
        if landing.reading.back:
            self.draw_pile_spot = landing.on_table
        elif (landing.change.bare or landing.reading.card is None) and self.draw_pile_spot is not None and self.draw_pile \
                and iou(self.draw_pile_spot, landing.on_table) >= PILE_SPOT:
            self.draw_pile, self._pile_gone_at = False, view.index

    def _flag_news(self, view: TableView) -> None:
        """A flag for each breach, refusal and unread change the last landings brought."""
        hand = self.hand
        breaches, refused, unread, off_pile = self._seen
        for b in hand.breaches[breaches:]:
            play = next(p for p in hand.plays if p.landing.frame == b.play.frame and p.card is b.play.card)
            self._flag(view, play.side, play.card, FlagReason(b.breach.value), b.message, play.landing)
        for play, broken in hand.refused[refused:]:
            self._flag(view, play.side, play.card, FlagReason(broken.rule.value), broken.message, play.landing)
        for landing in hand.unread[unread:]:
            side = side_of(landing, self.layout, self.hand.middle)
            self._flag(view, side, None, FlagReason.UNREAD,
                       f"a card laid on {side}'s side could not be read: its count may lack it", landing)
        for play in hand.off_pile[off_pile:]:
            self._flag(view, play.side, play.card, FlagReason.OFF_PILE,
                       f"{play.side} laid {play.card.title} away from its {play.pile} pile at frame {play.landing.frame}: is it the card read?", play.landing)
        self._seen = (len(hand.breaches), len(hand.refused), len(hand.unread), len(hand.off_pile))

    def _flag(self, view: TableView, side: str | None, card: Card | None, reason: FlagReason, message: str,
              landing: Landing) -> None:
        top = landing.outline[np.argsort(landing.outline[:, 1])[:2]].mean(axis=0)
        self._flags.append(Flag(view.index, view.time, side, card, reason, message, (float(top[0]), float(top[1]))))

    # -- the hand's end -------------------------------------------------------------------------

    def flag_hand_end(self, *, unfinished: bool) -> HandState:
        """With ``unfinished`` (the table cleared, the source stopped): a hand no side finished with cards left to
        draw is flagged (:attr:`FlagReason.UNFINISHED`; not one where no scoring card was counted)."""
        state = self.state()
        if unfinished and state.completer is None and state.draw_pile and state.any_played:
            leader = max(state.sides, key=lambda s: s.km)
            last = self.last_view
            self._flags.append(Flag(
                last.index if last is not None else 0, last.time if last is not None else 0.0, None, None,
                FlagReason.UNFINISHED, f"the hand ended with cards left to draw and no side at {state.effective_goal} km "
                f"({leader.side} has {leader.km}): was a distance card missed?"))
        return self.state()

    @property
    def draw_pile_empty_at_finish(self) -> bool:
        """Whether the draw pile was gone when the last counted card landed (the delayed action bonus): gone in an
        earlier view (where both came in one view, which came first is unknown, and no bonus is given)."""
        last = self._events[-1].decided_frame if self._events else None
        return self._pile_gone_at is not None and (last is None or self._pile_gone_at < last)

    @property
    def has_unread(self) -> bool:
        """Whether a change on a side named no card (a hand of cards Borne cannot read is still a hand)."""
        return bool(self.hand.unread)

    @property
    def extension_called_by(self) -> str | None:
        if self._correction is not None and self._correction.record.extension_called_by is not None:
            return self._correction.record.extension_called_by
        return self.hand.extension_called_by

    # -- people -------------------------------------------------------------------------------

    def correct(self, record: HandRecord) -> HandState:
        """A person's record of the hand so far replaces the counts; the plays that land later count on from it.
        Open flags are settled.

        :raises IllegalHandError: the record breaks a rule (the core's own check).
        """
        record.validate()
        self._correction = _Correction(record, len(self.hand.counted))
        self._flags.clear()
        return self.state()

    # -- reading ------------------------------------------------------------------------------

    def state(self) -> HandState:
        counted = self.hand.counted
        base: Census = {
            s: ({km: 0 for km in DISTANCE_VALUES}, {}) for s in self.side_names}
        goal = self.goal
        if self._correction is not None:
            record = self._correction.record
            goal = record.goal
            for s in record.sides:
                base[s.side] = ({km: s.distance.get(km, 0) for km in DISTANCE_VALUES}, dict(s.safeties))
            counted = counted[self._correction.after:]
        add_plays(base, counted)
        sides = tuple(SideState(name, base[name][0], base[name][1], self._confidence(name, counted))
                      for name in self.side_names)
        return HandState(goal, self.extension_called_by, sides, self.draw_pile, tuple(self._events), tuple(self._flags))

    def _confidence(self, side: str, counted: list[Play]) -> float:
        """The least sure scoring card of the side, halved by an open flag."""
        sure = [float(p.landing.reading.confidence) for p in counted
                if p.side == side and (p.card.is_distance or p.card.is_safety)]
        value = min(sure, default=1.0)
        if any(f.side == side for f in self._flags):
            value *= FLAGGED_SIDE_CONFIDENCE
        return max(0.0, min(1.0, value))

    # -- snapshots (restart safety) -------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The hand as JSON: its landings (never a picture), in order, and a person's correction."""
        return {
            "layout": self.layout.to_json(), "goal": self.goal, "found_layout": self.found_layout,
            "draw_pile_spot": self.draw_pile_spot.tolist() if self.draw_pile_spot is not None else None,
            "views": [_view_to_state(v) for v in self.views],
            "correction": None if self._correction is None else {
                "record": self._correction.record.to_json(), "after_views": self._corrected_after_views()},
        }

    def _corrected_after_views(self) -> int:
        assert self._correction is not None
        counted = 0
        for k, view in enumerate(self.views):
            if counted >= self._correction.after:
                return k
            mine = {id(x) for x in view.landings}
            counted += sum(1 for p in self.hand.counted if id(p.landing) in mine)
        return len(self.views)

    @classmethod
    def from_state(cls, d: dict[str, Any], rules: PlayRules | None = None, again_within: int = AGAIN_WITHIN) -> LandingTracker:
        spot = d.get("draw_pile_spot")
        tracker = cls(TableLayout.from_json(d["layout"]), int(d["goal"]), rules or PlayRules(),
                      np.asarray(spot, dtype=np.float64) if spot is not None else None, bool(d.get("found_layout")),
                      again_within)
        correction = d.get("correction")
        for k, view in enumerate(d["views"]):
            if correction is not None and k == int(correction["after_views"]):
                tracker.correct(HandRecord.from_json(correction["record"]))
            tracker.update(_view_from_state(view))
        if correction is not None and int(correction["after_views"]) >= len(d["views"]):
            tracker.correct(HandRecord.from_json(correction["record"]))
        return tracker


def _view_to_state(view: TableView) -> dict[str, Any]:
    return {"index": view.index, "time": view.time, "in_play": view.in_play, "landings": [
        {"frame": x.frame, "outline": x.on_table.round(2).tolist(), "card": x.reading.card.value if x.reading.card else None,
         "back": x.reading.back, "confidence": round(float(x.reading.confidence), 4), "bare": x.change.bare}
        for x in view.landings]}


def _view_from_state(d: dict[str, Any]) -> TableView:
    landings = []
    for x in d["landings"]:
        outline = np.asarray(x["outline"], dtype=np.float64)
        reading = Reading(Card(x["card"]) if x["card"] is not None else None, float(x["confidence"]), back=bool(x["back"]))
        landings.append(Landing(int(x["frame"]), outline, reading,
                                Change(int(x["frame"]), outline, np.eye(2, 3), bool(x.get("bare")))))
    return TableView(int(d["index"]), float(d["time"]), tuple(landings), in_play=bool(d.get("in_play")))
