"""The live pipeline: a frame in, the hand's state out (frame reader → census → tracker → lifecycle).

The same object serves ``borne replay`` (every frame of a file, in order) and ``borne run``
(the newest frame of a camera, in a thread).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vision.flag_pictures import FlagPictures, flag_key, flag_picture
from vision.read.frame_reader import FrameReader, FrameReading
from vision.sources import Frame, FrameFeed, paced
from vision.sources.frames import DEFAULT_FPS, frames_for
from vision.table.census import TableCensus, take_census
from vision.table.layout import TableLayout
from vision.table.observations import observations_from_census
from vision.table.seating import Seating, SeenFrame
from vision.table.widening import ZoneWidening
from vision.track.lifecycle import HandLifecycle, LifecycleEvent, LifecycleSettings
from vision.track.state import Flag, HandState

if TYPE_CHECKING:
    from scoring.web.live_hand import LiveFlag, LiveHand


FLAG_PICTURE_LATE_FRAMES = 5
"""A flag's picture may be of a frame this many frames after the one it names (never of an older one), at
10 frames a second (the same time at another rate)."""


def default_goal(sides: int) -> int:
    """700 km for the classic 2- and 3-side games, 1,000 otherwise (RULES.md)."""
    return 700 if sides in (2, 3) else 1000


@dataclass(frozen=True)
class FrameResult:
    """What the pipeline made of one frame."""

    frame: Frame
    reading: FrameReading
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
        """``seating``: the sides are found from the table as the hand starts (``layout`` is only shown
        meanwhile) and the zones found are widened as the hand goes; see :mod:`vision.table.seating`.
        ``fps``: the frames a second the pipeline is given (a file's rate, a slow camera's), for the counts of
        frames that stand for a time (:meth:`~vision.track.lifecycle.LifecycleSettings.at_rate`,
        :meth:`~vision.read.frame_reader.FrameReader.pace`; ``None``: 10)."""
        self.reader = reader
        self.layout = layout
        self._goal = goal
        self._settings = settings or LifecycleSettings()
        if fps is not None:
            self._settings = self._settings.at_rate(fps)
            if isinstance(reader, FrameReader):
                reader.pace(fps)
        self._late_frames = frames_for(FLAG_PICTURE_LATE_FRAMES, fps or DEFAULT_FPS)
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
        self._last_index = -1
        self._last_time = 0.0
        self._busy = 0.0
        self.frame_offset = 0
        """Added to each frame's index before the lifecycle sees it: a run restored after a restart
        goes on from the frame it had reached (a camera's frames count from 0 again)."""
        self.time_offset = 0.0
        """Likewise for each frame's time, in seconds."""

    def _lifecycle_for(self, layout: TableLayout) -> HandLifecycle:
        sides = tuple(s.side for s in layout.sides)
        if len(sides) < 2:
            raise ValueError("the layout needs at least two sides to follow a hand")
        return HandLifecycle(sides, self._goal if self._goal is not None else default_goal(len(sides)), self._settings)

    @property
    def seated(self) -> bool:
        """Whether the sides are known (given, or found from the table)."""
        return self.seating is None or self.seating.layout is not None

    def process(self, frame: Frame) -> FrameResult:
        started = time.perf_counter()
        if self.before_read is not None:
            self.before_read(frame)
        reading = self.reader.read(frame.image)
        index, at = frame.index + self.frame_offset, frame.time + self.time_offset
        events: tuple[LifecycleEvent, ...] = ()
        found = None
        if self.seating is not None and self.seating.looking:
            h, w = frame.image.shape[:2]
            found = self.seating.see(SeenFrame(index, at, reading), w, h)
            if not self.seating.looking and found is None:
                self.seating.release()
        if found is not None:  # the sides found, or found again with more: the hand followed afresh
            events = tuple(self.seat(found))
            census = take_census(list(reading.sightings), self.layout)
        elif not self.seated:
            census = take_census(list(reading.sightings), self.layout)
        else:
            if self.widening is not None:
                widened = self.widening.widened(self.layout, reading.sightings)
                if widened is not None:
                    self.layout = widened
            census, events = self._follow(reading, index, at)
            self._picture_flags(frame.image, census, index)
        self.frames += 1
        seconds = time.perf_counter() - started
        self._busy += seconds
        self.last = FrameResult(frame, reading, census, events, seconds)
        return self.last

    def _follow(self, reading: FrameReading, index: int, at: float) -> tuple[TableCensus, tuple[LifecycleEvent, ...]]:
        census = take_census(list(reading.sightings), self.layout)
        observed = observations_from_census(census, self.layout, index=index, time=at)
        events = tuple(self.lifecycle.update(observed))
        self.log.extend(events)
        self._last_index, self._last_time = observed.index, observed.time
        return census, events

    def seat(self, layout: TableLayout) -> list[LifecycleEvent]:
        """Follow ``layout`` from now on, its sides' hand followed afresh from the frames gathered while the
        sides were looked for; returns the events of those frames. Ends the looking."""
        self.layout = layout
        self.lifecycle = self._lifecycle_for(layout)
        self.log = []
        if self.on_seated is not None:
            self.on_seated(layout)
        events: list[LifecycleEvent] = []
        if self.seating is not None:
            if self.seating.layout is None:
                self.seating.adopt(layout)
            for seen in self.seating.gathered:
                events.extend(self._follow(seen.reading, seen.index, seen.time)[1])
            if not self.seating.looking:
                self.seating.release()
        return events

    def finish(self) -> list[LifecycleEvent]:
        """The source ended: the hand in play becomes pending as it stands (the sides still looked for are
        those found on the fullest frame)."""
        events: list[LifecycleEvent] = []
        if not self.seated and self.last is not None:
            assert self.seating is not None
            h, w = self.last.frame.image.shape[:2]
            events = self.seat(self.seating.settle(w, h))
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
        """The lifecycle and its tracker as a JSON document, for :meth:`restore` after a restart."""
        out = {"version": 1, "frame": self._last_index, "time": self._last_time, "lifecycle": self.lifecycle.to_state()}
        if self.seating is not None and self.seating.layout is not None:
            out["found_layout"] = self.layout.to_json()  # the sides found are taken back with their hand
        return out

    def restore(self, document: dict[str, Any]) -> None:
        """Take back the hand of a :meth:`snapshot`; the frames that follow count on from it.

        :raises ValueError: the snapshot is of another table (other sides) or another version.
        """
        if document.get("version") != 1:
            raise ValueError(f"unknown snapshot version {document.get('version')!r}")
        if "found_layout" in document and not self.seated:
            self.seat(TableLayout.from_json(document["found_layout"]))
        self.lifecycle = HandLifecycle.from_state(document["lifecycle"], self.lifecycle)
        self.frame_offset = int(document["frame"]) + 1
        self.time_offset = float(document["time"]) + 1.0
        self._last_index, self._last_time = int(document["frame"]), float(document["time"])


def run_source(source: FrameFeed, pipeline: Pipeline, *, on_result: Callable[[FrameResult], None] | None = None,
               should_stop: Callable[[], bool] | None = None, pace: bool = False,
               lock: AbstractContextManager[Any] | None = None,
               on_read: Callable[[FrameResult], None] | None = None,
               on_finish: Callable[[list[LifecycleEvent]], None] | None = None) -> list[LifecycleEvent]:
    """Feed every frame of ``source`` to ``pipeline`` until it ends (or ``should_stop``), then finish.

    ``pace``: a file or folder is played at its own frame rate, as a camera would give it (a live source
    is never held back). ``lock`` is held while each frame goes through the pipeline together with
    ``on_read``, and while the pipeline finishes together with ``on_finish``; ``on_result`` runs after,
    outside it (``borne run`` draws the camera's picture there). Returns the events of the finish.
    """
    frames = source.frames()
    if pace and not source.live:
        frames = paced(frames)
    guard = lock if lock is not None else nullcontext()
    for frame in frames:
        with guard:
            result = pipeline.process(frame)
            if on_read is not None:
                on_read(result)
        if on_result is not None:
            on_result(result)
        if should_stop is not None and should_stop():
            break
    with guard:
        events = pipeline.finish()
        if on_finish is not None:
            on_finish(events)
    return events
