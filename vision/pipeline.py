"""The live pipeline: a frame in, the hand's state out (motion watch → landings read → lifecycle).

Every frame is looked at small (:class:`~vision.landing.watch.MotionWatch`); what came to rest since the last
clear view is read once, whole, at the frame's full resolution (:func:`~vision.landing.reading.read_change`),
and the hand is the list of those landings (:class:`~vision.landing.tracker.LandingTracker`, under the
:class:`~vision.track.lifecycle.HandLifecycle` that starts and ends hands). The frame reader (detector and
recogniser) reads the whole table once, at the first view: the draw pile, and any card already there.

The same object serves ``borne replay`` (every frame of a file, in order) and ``borne run`` (the newest frame of
a camera, in a thread).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.flag_pictures import FlagPictures, flag_key, flag_picture
from vision.landing.card_size import CardSize
from vision.landing.reading import Landing, gone, read_change, sharpness
from vision.landing.tracker import TableView
from vision.landing.watch import REST_FRAMES, SETTLE_FRAMES, Change, Look, MotionWatch, through
from vision.read.frame_reader import FrameReader, FrameReading
from vision.read.recogniser import Reading
from vision.read.sighting import Sighting
from vision.sources import Frame
from vision.sources.frames import DEFAULT_FPS, frames_for
from vision.table.census import TableCensus, take_census
from vision.table.layout import TableLayout
from vision.table.seating import Seating, SeenFrame
from vision.table.widening import ZoneWidening
from vision.track.lifecycle import HandLifecycle, LifecycleEvent, LifecycleSettings
from vision.track.state import Flag, HandState

if TYPE_CHECKING:
    from scoring.web.live_hand import LiveFlag, LiveHand


FLAG_PICTURE_LATE_FRAMES = 5
"""A flag's picture may be of a frame this many frames after the one it names (never of an older one), at
10 frames a second (the same time at another rate)."""
KNOWN_OUTLINES = 40
"""The latest landings whose outlines a change is also read on (a card laid on a pile lies where the last did)."""
CENSUS_STILL = 3.0
"""Seconds the table stays still after a landing before it is read whole once, its census checked against the
landings (a play the watch missed is a flag, never a count); and when the source ends after a landing. A pause in
play: the whole read holds the camera's loop for about half a second (the watch then compares the next frame with
the last clear view, so a card laid meanwhile is a landing a moment later)."""
WATCH_RATE = 5.0
"""The frame rate :data:`~vision.landing.watch.SETTLE_FRAMES` is given at."""


def default_goal(sides: int) -> int:
    """700 km for the classic 2- and 3-side games, 1,000 otherwise (RULES.md)."""
    return 700 if sides in (2, 3) else 1000


@dataclass(frozen=True)
class FrameResult:
    """What the pipeline made of one frame."""

    frame: Frame
    look: Look
    landings: tuple[Landing, ...]
    """The changes read in this frame (a clear view's), in the order the watch handed them on."""
    reading: FrameReading
    """The cards the hand's landings put on the table, in this frame's pixels (and the draw pile as first seen)."""
    census: TableCensus
    events: tuple[LifecycleEvent, ...]
    seconds: float
    """Wall-clock time spent on the frame."""


class Pipeline:
    """Reads frames and follows the hands on one table."""

    def __init__(self, reader: FrameReader, layout: TableLayout, *, goal: int | None = None,
                 settings: LifecycleSettings | None = None,
                 before_read: Callable[[Frame], None] | None = None, seating: Seating | None = None,
                 fps: float | None = None) -> None:
        """``reader``: the whole table's reader, run at the first view; its recogniser reads each landing.
        ``seating``: the sides are found from the table as the hand starts (``layout`` is only shown
        meanwhile) and the zones found are widened as the hand goes; see :mod:`vision.table.seating`.
        ``fps``: the frames a second the pipeline is given (a file's rate, a slow camera's; ``None``: 10), for
        the counts of frames that stand for a time."""
        self.reader = reader
        self.layout = layout
        self._goal = goal
        self._settings = settings or LifecycleSettings()
        rate = fps if fps is not None else DEFAULT_FPS
        if fps is not None:
            self._settings = self._settings.at_rate(fps)
        self._late_frames = frames_for(FLAG_PICTURE_LATE_FRAMES, rate)
        self.card_size = CardSize()
        self.watch = MotionWatch(self.card_size, settle_frames=frames_for(round(SETTLE_FRAMES * DEFAULT_FPS / WATCH_RATE), rate),
                                 rest_frames=frames_for(REST_FRAMES, rate))
        self.lifecycle = self._lifecycle_for(layout)
        self.before_read = before_read
        self.seating = seating
        self.widening: ZoneWidening | None = ZoneWidening() if seating is not None else None
        """Widens the found zones with the cards laid past their edge (``None``: the zones stay as they are)."""
        self.on_seated: Callable[[TableLayout], None] | None = None
        """Called with the layout found, before the gathered frames are followed."""
        self.frames = 0
        self.last: FrameResult | None = None
        self.log: list[LifecycleEvent] = []
        self.flag_pictures = FlagPictures()
        """A picture of the moment each flag names (the display shows it beside the flag)."""
        self.first_view: FrameReading | None = None
        """The whole table as the frame reader read it at the first view (the draw pile, cards already there)."""
        self.landed: list[Landing] = []
        self._before: tuple[Any, Any] | None = None
        """The frame before and its camera (:meth:`_sharper`)."""
        """The landings since the table was last bare, oldest first."""
        self._gathered: dict[int, TableView] = {}
        self._asking = False
        self._empty = False
        self._unread: list[Landing] = []
        self._restored = False
        self._drawn: tuple[tuple[Any, ...], tuple[Any, ...], FrameReading, TableCensus] | None = None
        """The last :meth:`_reading`: what it was made of, and it."""
        self._last_index = -1
        self._last_time = 0.0
        self._busy = 0.0
        self.seconds: dict[str, float] = {"watch": 0.0, "read": 0.0, "census": 0.0, "follow": 0.0}
        """Wall-clock seconds spent so far in each stage: the motion watch, reading the landings, the whole table's
        census at a clear view, the rest."""
        self._census_due = False
        """A card landed since the table was last read whole (checked at a pause in play, else as the source ends)."""
        self._still_since = 0.0
        """When the table last moved or took a card (stream time)."""
        self.frame_offset = 0
        """Added to each frame's index before the lifecycle sees it: a run restored after a restart
        goes on from the frame it had reached (a camera's frames count from 0 again)."""
        self.time_offset = 0.0
        """Likewise for each frame's time, in seconds."""

    def _lifecycle_for(self, layout: TableLayout) -> HandLifecycle:
        if len(layout.sides) < 2:
            raise ValueError("the layout needs at least two sides to follow a hand")
        return HandLifecycle(layout, self._goal if self._goal is not None else default_goal(len(layout.sides)),
                             self._settings)

    @property
    def seated(self) -> bool:
        """Whether the sides are known (given, or found from the table)."""
        return self.seating is None or self.seating.layout is not None

    @property
    def recogniser(self) -> Any:
        return self.reader.recogniser

    def process(self, frame: Frame) -> FrameResult:
        started = time.perf_counter()
        if self.before_read is not None:
            self.before_read(frame)
        image = frame.image
        in_play: tuple[Landing, ...] = ()
        look = self.watch.look(frame.index, image)
        watched = time.perf_counter()
        if look.first:
            self.first_view = self.reader.read(image)
            self._know_the_draw_pile(self.lifecycle)
            in_play = self._in_play(frame.index)
        known = [x.on_table for x in self.landed[-KNOWN_OUTLINES:]]
        landings = in_play or tuple(
            gone(change) if change.bare
            else read_change(self.recogniser, self._sharper(image, look, change), change, self.card_size, known)
            for change in look.changes)
        self._before = (image, look.camera)
        read = time.perf_counter()
        empty = look.bare or self._cleared(look, landings, image)
        landings = self._unread_waits(landings, empty, look)
        if empty:
            self.landed.clear()
        self.landed.extend(landings)
        index, at = frame.index + self.frame_offset, frame.time + self.time_offset
        census_started = time.perf_counter()
        checked = self._census(image, look, landings, empty, at)
        census_seconds = time.perf_counter() - census_started
        view = TableView(index, at, landings, empty, in_play=bool(in_play) and not self._restored, census=checked)
        reading, census = self._reading(look)
        events: tuple[LifecycleEvent, ...] = ()
        found = None
        if self.seating is not None and self.seating.looking:
            h, w = image.shape[:2]
            self._gathered[index] = view
            found = self.seating.see(SeenFrame(index, at, reading), w, h)
            if not self.seating.looking and found is None:
                self.seating.release()
        if found is not None:  # the sides found, or found again with more: the hand followed afresh
            events = tuple(self.seat(found))
        elif self.seated:
            if self.widening is not None:
                widened = self.widening.widened(self.layout, reading.sightings)
                if widened is not None:
                    self.layout = widened
            events = self._follow(view)
        reading, census = self._reading(look)  # again, where the zones were found or widened with this frame
        if self.seated:
            self._picture_flags(image, census, index)
        self.frames += 1
        done = time.perf_counter()
        self.seconds["watch"] += watched - started
        self.seconds["read"] += read - watched
        self.seconds["census"] += census_seconds
        self.seconds["follow"] += done - read - census_seconds
        self._busy += done - started
        self.last = FrameResult(frame, look, landings, reading, census, events, done - started)
        return self.last

    def _in_play(self, frame: int) -> tuple[Landing, ...]:
        """The face-up cards the first view showed, each as a landing (a hand already in play). None after a restart
        that took back the last clear view: what was laid while Borne was down is a change against it, read as a
        landing."""
        assert self.first_view is not None
        if self.watch.taken_back:
            return ()
        census = take_census(list(self.first_view.sightings), self.layout)
        seen = [c.sighting for side in census.sides for c in side.cards] + list(census.unassigned)
        cards = [s for s in seen if s.face_up and s.card is not None]
        identity = np.eye(2, 3)
        return tuple(Landing(frame, np.asarray(s.corners, dtype=np.float64), Reading(s.card, float(s.confidence)),
                             Change(frame, np.asarray(s.corners, dtype=np.float64), identity)) for s in cards)

    def _census(self, image: Any, look: Look, landings: tuple[Landing, ...], empty: bool, at: float) -> TableCensus | None:
        """The whole table's census once it has been still :data:`CENSUS_STILL` seconds after a landing (once a
        landing; ``None`` otherwise)."""
        if landings:
            self._census_due = True
        if landings or look.moving:
            self._still_since = at
        if empty:
            self._census_due = False
        if not self._census_due or not self.seated or at - self._still_since < CENSUS_STILL:
            return None
        self._census_due = False
        return self._whole(image)

    def _whole(self, image: Any) -> TableCensus:
        """The table read whole (the detector and its reader), counted by the zones."""
        return take_census(list(self.reader.read(image).sightings), self.layout, image)

    def _sharper(self, image: Any, look: Look, change: Change) -> Any:
        """The frame to read a change on: this one, or the one before where it is sharper over the change (a
        change is handed on once it lay still in both (:data:`~vision.landing.watch.REST_FRAMES`), so both show
        the card where it is; a camera's shake or a slow shutter blurs one frame in a few, and a blurred 200 read
        as an End of Limit)."""
        if self._before is None:
            return image
        before, camera = self._before
        if before.shape != image.shape or not np.allclose(camera, look.camera):
            return image
        return before if sharpness(before, change.outline) > sharpness(image, change.outline) else image

    def _cleared(self, look: Look, landings: tuple[Landing, ...], image: Any) -> bool:
        """Whether the table is bare though the first view was not (the camera started on a hand in play): once
        cards went or a sweep settled, the next still frame is read whole, and no face-up card on any side is a
        cleared table (until something moves again)."""
        if look.settled or any(x.change.bare or x.reading.card is None for x in landings):
            self._asking = True
        if look.moving or landings:
            self._empty = False
            return False
        if self._asking:
            self._asking = False
            census = self._whole(image)
            self._empty = not any(c.sighting.face_up for side in census.sides for c in side.cards)
        return self._empty

    def _unread_waits(self, landings: tuple[Landing, ...], empty: bool, look: Look) -> tuple[Landing, ...]:
        """Changes that named no card wait for the next still frame: where the table then proves cleared, they were
        the cards going; else they are taken in then (an unread card, a card picked up, the draw pile gone)."""
        unread = [x for x in landings if x.reading.card is None and not x.reading.back]
        self._unread.extend(unread)
        landings = tuple(x for x in landings if all(x is not u for u in unread))
        if self._unread and not look.moving and not unread:
            waited, self._unread = self._unread, []
            if not empty:
                landings = (*waited, *landings)
        return landings

    def _know_the_draw_pile(self, lifecycle: HandLifecycle) -> None:
        """Tell the lifecycle where the first view showed the draw pile (its surest back), and whether the zones
        were found from the table."""
        backs = [s for s in self.first_view.sightings if not s.face_up] if self.first_view is not None else []
        lifecycle.found_layout = self.seating is not None
        if backs:
            lifecycle.draw_pile_spot = np.asarray(max(backs, key=lambda s: s.confidence).corners, dtype=np.float64)
            if lifecycle.tracker is not None and not lifecycle.tracker.views:  # the hand started a frame before
                lifecycle.tracker.found_layout = lifecycle.found_layout
                lifecycle.tracker.sees_the_draw_pile(lifecycle.draw_pile_spot)

    def _reading(self, look: Look) -> tuple[FrameReading, TableCensus]:
        """The cards of the hand so far where they lie in this frame, and the draw pile as the first view showed it;
        and their census by the zones. Made again only when a card landed, the zones or the camera moved."""
        key = (len(self.landed), tuple(np.round(look.camera, 1).ravel()))
        made_of = (self.landed[-1] if self.landed else None, self.first_view, self.layout)  # by identity
        if self._drawn is not None and self._drawn[0] == key and all(x is y for x, y in zip(self._drawn[1], made_of)):
            return self._drawn[2], self._drawn[3]
        sightings = [Sighting(through(x.on_table, look.camera), True, x.reading.card, float(x.reading.confidence))
                     for x in self.landed if x.reading.card is not None]
        if self.first_view is not None:
            sightings += [s for s in self.first_view.sightings if not s.face_up]
        reading = FrameReading(tuple(sightings), self.card_size.length)
        census = take_census(list(reading.sightings), self.layout)
        self._drawn = (key, made_of, reading, census)
        return reading, census

    def _follow(self, view: TableView) -> tuple[LifecycleEvent, ...]:
        events = tuple(self.lifecycle.update(view))
        self.log.extend(events)
        self._last_index, self._last_time = view.index, view.time
        return events

    def seat(self, layout: TableLayout) -> list[LifecycleEvent]:
        """Follow ``layout`` from now on, its sides' hand followed afresh from the frames gathered while the
        sides were looked for; returns the events of those frames. Ends the looking."""
        self.layout = layout
        self.lifecycle = self._lifecycle_for(layout)
        self._know_the_draw_pile(self.lifecycle)
        self.log = []
        if self.on_seated is not None:
            self.on_seated(layout)
        events: list[LifecycleEvent] = []
        if self.seating is not None:
            if self.seating.layout is None:
                self.seating.adopt(layout)
            for seen in self.seating.gathered:
                view = self._gathered.get(seen.index)
                if view is not None:
                    events.extend(self._follow(view))
            if not self.seating.looking:
                self.seating.release()
                self._gathered.clear()
        return events

    def finish(self) -> list[LifecycleEvent]:
        """The source ended: the hand in play becomes pending as it stands (the sides still looked for are
        those found on the fullest frame), its landings first checked against the last frame read whole when a
        card landed since the last census (a card it shows more of on a side than the landings is a flag)."""
        events: list[LifecycleEvent] = []
        if not self.seated and self.last is not None:
            assert self.seating is not None
            h, w = self.last.frame.image.shape[:2]
            events = self.seat(self.seating.settle(w, h))
        if self._census_due and self.seated and self.last is not None and not self.last.look.moving:
            self._census_due = False
            events += self._follow(TableView(self._last_index, self._last_time, census=self._whole(self.last.frame.image)))
        ended = self.lifecycle.end_of_source(self._last_index)
        self.log.extend(ended)
        if self.last is not None:
            self._picture_flags(self.last.frame.image, self.last.census, self._last_index)
        return events + ended

    def _flags_by_hand(self) -> list[tuple[int, tuple[Flag, ...]]]:
        """The flags of the hand followed, the pending hand and the hands held, each with its hand's number."""
        lc = self.lifecycle
        out = [(p.number, p.flags) for p in (*lc.held, *([lc.pending] if lc.pending is not None else []))]
        state = lc.state
        if state is not None:
            out.append((lc.hand_number, state.flags))
        return out

    def _picture_flags(self, image: Any, census: TableCensus, index: int) -> None:
        """Keep a picture of each flag raised now, once: this frame is the one it names, or one a few frames
        after (a hand ended by the cleared table names the last frame its tracker saw)."""
        for hand, flags in self._flags_by_hand():
            for i, f in enumerate(flags):
                key = flag_key(hand, f, i)
                if 0 <= index - f.frame <= self._late_frames and key not in self.flag_pictures:
                    self.flag_pictures.keep(hand, key, flag_picture(image, census, self.layout, f))

    def _live_flags(self, hand: int, flags: tuple[Flag, ...]) -> list[LiveFlag]:
        from scoring.web.live_hand import LiveFlag

        keys = [flag_key(hand, f, i) for i, f in enumerate(flags)]
        return [LiveFlag(**f.to_json(), picture=f"/api/camera/flags/{k}.jpg" if k in self.flag_pictures else None)
                for f, k in zip(flags, keys)]

    @property
    def frames_per_second(self) -> float:
        return self.frames / self._busy if self._busy > 0 else 0.0

    @property
    def state(self) -> HandState | None:
        return self.lifecycle.state

    def replay_json(self) -> dict[str, Any]:
        """The hand state reached, as ``borne replay`` prints it (CONTRACT §6)."""
        state = self.state
        finished = [*self.lifecycle.finished, *self.lifecycle.held]
        if state is not None and not state.events and finished and self.lifecycle.pending is None:
            # the table was cleared after the last hand: report that hand (final or held), not the empty new one
            last = max(finished, key=lambda p: p.number)
            return {"sides": [s.to_json() for s in last.record.sides], "draw_pile": state.draw_pile,
                    "events": [e.to_json() for e in last.events], "flags": [f.to_json() for f in last.flags],
                    "hand": last.record.to_json()}
        if state is None:
            sides = [{"side": s.side, "distance": {"25": 0, "50": 0, "75": 0, "100": 0, "200": 0}, "safeties": {}}
                     for s in self.layout.sides]
            return {"sides": sides, "draw_pile": False, "events": [], "flags": []}
        out = state.to_json()
        pending = self.lifecycle.pending
        out["hand"] = (pending.record if pending is not None else state.record(
            draw_pile_empty_at_finish=not state.draw_pile)).to_json()
        return out

    # -- the display and restarts (``borne run``) ----------------------------------------------

    def live_hand(self, *, recent_events: int = 8) -> LiveHand:
        """The hand in progress for the display: per side the counts, km and confidence, the open flags,
        the latest plays, and the pending hand's record (unscored: the display scores it with the core)."""
        from scoring.web.live_hand import HeldHandOut, LiveHand, LivePlay, LiveSide, PendingHandOut

        lc = self.lifecycle
        state = lc.state
        pending = lc.pending
        if state is not None:
            sides = [LiveSide(**s.to_json(), km=s.km, confidence=round(s.confidence, 3)) for s in state.sides]
        else:
            sides = [LiveSide(side=name, distance={"25": 0, "50": 0, "75": 0, "100": 0, "200": 0}, safeties={},
                              km=0, confidence=1.0) for name in lc.sides]
        events = list(state.events[-recent_events:]) if state is not None else []
        return LiveHand(
            hand=lc.hand_number,
            phase=lc.phase.value,
            goal=state.goal if state is not None else lc.goal,
            extension_called_by=state.extension_called_by if state is not None else None,
            draw_pile=state.draw_pile if state is not None else None,
            sides=sides,
            flags=self._live_flags(lc.hand_number, state.flags) if state is not None else [],
            events=[LivePlay(**e.to_json(), time=round(e.time, 2)) for e in events],
            plays=len(state.events) if state is not None else 0,
            pending=None if pending is None else PendingHandOut(
                number=pending.number, record=pending.record.to_json(), termination=pending.termination.value,
                corrected=pending.corrected),
            held=[HeldHandOut(number=h.number, record=h.record.to_json(), termination=h.termination.value,
                              corrected=h.corrected, flags=self._live_flags(h.number, h.flags)) for h in lc.held],
            game_id=None,
        )

    def snapshot(self) -> dict[str, Any]:
        """The lifecycle and its tracker, the motion watch's last clear view and the card's length learnt, as a JSON
        document, for :meth:`restore` after a restart."""
        out = {"version": 3, "frame": self._last_index, "time": self._last_time, "lifecycle": self.lifecycle.to_state(),
               "view": self.watch.to_state(), "card_lengths": list(self.card_size.lengths)}
        if self.seating is not None and self.seating.layout is not None:
            out["found_layout"] = self.layout.to_json()  # the sides found are taken back with their hand
        return out

    def restore(self, document: dict[str, Any]) -> None:
        """Take back the hand of a :meth:`snapshot`; the frames that follow count on from it.

        :raises ValueError: the snapshot is of another table (other sides) or another version.
        """
        if document.get("version") != 3:
            raise ValueError(f"unknown snapshot version {document.get('version')!r} (a hand saved by an older Borne)")
        if "found_layout" in document and not self.seated:
            self.seat(TableLayout.from_json(document["found_layout"]))
        self.lifecycle = HandLifecycle.from_state(document["lifecycle"], self.lifecycle)
        tracker = self.lifecycle.tracker
        self.landed = [x for view in tracker.views for x in view.landings] if tracker is not None else []
        self._restored = True
        if document["view"] is not None:
            self.watch.resume(document["view"])
        self.card_size.lengths.clear()
        self.card_size.lengths.extend(float(x) for x in document["card_lengths"])
        self.frame_offset = int(document["frame"]) + 1
        self.time_offset = float(document["time"]) + 1.0
        self._last_index, self._last_time = int(document["frame"]), float(document["time"])
