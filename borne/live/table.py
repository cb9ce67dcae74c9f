"""The live table: the pipeline's link to the display (status and picture, the live hand, confirm and correct, saving)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from borne.live.keeper import GameKeeper

if TYPE_CHECKING:
    from fastapi import FastAPI

    from borne.live.zones import TableZones
    from scoring.hand import HandRecord
    from scoring.web.camera import CameraState
    from vision.pipeline import FrameResult, Pipeline
    from vision.sources import FrameFeed
    from vision.track.lifecycle import LifecycleEvent

LIVE_HAND_DOCUMENT = "live_hand"
"""The name of the saved hand in the games' SQLite file (``GameStore.save_camera_document``)."""

FRAME_EVERY_S = 0.5
"""How often the camera panel's picture is drawn and encoded; each costs the pipeline a few milliseconds."""


class LiveTable:
    """The pipeline's link to the display: status and picture, the live hand, confirm and correct, saving.

    The pipeline thread calls :meth:`follow`; request threads call :meth:`confirm` and :meth:`correct`
    (the :class:`~scoring.web.camera.HandDesk` of the display). One lock keeps them apart.
    """

    def __init__(self, app: FastAPI, pipeline: Pipeline, keeper: GameKeeper, camera: CameraState) -> None:
        self.app = app
        self.pipeline = pipeline
        self.keeper = keeper
        self.camera = camera
        self.zones: TableZones | None = None
        self.lock = threading.Lock()
        """Held while a frame goes through the pipeline and while a request changes what it follows."""

    # -- the pipeline thread -----------------------------------------------------------------

    def follow(self, source: FrameFeed, *, should_stop: Callable[[], bool]) -> None:
        """Feed ``source`` to the pipeline until it ends or ``should_stop()``; files are paced as a camera."""
        from vision.feeding import run_source

        def read(result: FrameResult) -> None:
            self._report(result)
            self._publish(save=bool(result.landings) or result.look.first)

        def finish(events: list[LifecycleEvent]) -> None:
            for event in events:
                self._print(event)
            self._publish()

        run_source(source, self.pipeline, pace=True, lock=self.lock, on_read=read,
                   on_result=lambda result: self._show(source, result), should_stop=should_stop, on_finish=finish)
        self.camera.update(connected=False, ended=True, message="the source ended")

    def _report(self, result: FrameResult) -> None:
        from vision.track.lifecycle import EventKind

        for event in result.events:
            if event.kind is EventKind.HAND_FINAL and event.pending is not None:
                self.keeper.add(event.pending.record)
            self._print(event)

    @staticmethod
    def _print(event: LifecycleEvent) -> None:
        from vision.track.lifecycle import EventKind

        if event.kind is not EventKind.CARD_PLAYED:
            print(f"camera: hand {event.hand} {event.kind.value.replace('_', ' ')} (frame {event.frame})"
                  + (f": {event.message}" if event.message else ""), file=sys.stderr, flush=True)

    def _show(self, source: FrameFeed, result: FrameResult) -> None:
        stats = source.stats
        reading = result.reading
        if self.zones is not None:
            h, w = result.frame.image.shape[:2]
            self.zones.saw_frame(w, h)
        self.camera.update(connected=stats.connected, message=stats.message, frames=self.pipeline.frames,
                           frames_per_second=self.pipeline.frames_per_second, corrupt_frames=stats.corrupt,
                           reconnects=stats.reconnects, too_small=bool(reading.too_small),
                           card_px=reading.typical_card_px)
        if self.camera.frame_due(FRAME_EVERY_S):
            from vision.drawing import census_jpeg

            self.camera.set_frame(census_jpeg(result.frame.image, result.census, self.pipeline.layout))

    def _publish(self, *, save: bool = False) -> None:
        """Push the live hand to the displays and save it, when it changed or ``save`` (a card landed, the first view
        was taken): each landing is stored as it is decided, with the clear view it leaves, so that a run killed and
        started again takes the hand back and reads what was laid meanwhile as landings."""
        from scoring.web.camera import publish_hand

        hand = self.pipeline.live_hand().model_copy(update={"game_id": self.keeper.game_id})
        changed = publish_hand(self.camera, hand, store=self.app.state.store, broadcaster=self.app.state.broadcaster)
        if changed or save:
            self.app.state.store.save_camera_document(name=LIVE_HAND_DOCUMENT, document=self.pipeline.snapshot())

    def has_saved_hand(self) -> bool:
        """Whether a hand was saved before a restart."""
        return self.app.state.store.load_camera_document(name=LIVE_HAND_DOCUMENT) is not None

    def restore(self) -> str | None:
        """Take back the hand saved before a restart; says what was restored (``None``: nothing)."""
        doc = self.app.state.store.load_camera_document(name=LIVE_HAND_DOCUMENT)
        if doc is None:
            return None
        with self.lock:
            try:
                self.pipeline.restore(doc)
            except (ValueError, KeyError, TypeError) as e:
                return f"the hand saved before the restart was not taken back: {e}"
            self._publish()
        lc = self.pipeline.lifecycle
        return f"hand {lc.hand_number} taken back from before the restart ({lc.phase.value.replace('_', ' ')})"

    # -- the display (request threads) -------------------------------------------------------

    def confirm(self) -> None:
        from scoring.web.camera import NoPendingHandError

        with self.lock:
            lc = self.pipeline.lifecycle
            done = lc.confirm()
            if done is None:
                raise NoPendingHandError("no hand is waiting to be confirmed")
            for hand in (done, *lc.release()):  # the hands that waited in line behind it go in after it
                self.keeper.add(hand.record)
            self._publish()

    def correct(self, record: HandRecord) -> None:
        from scoring.errors import IllegalHandError
        from scoring.web.camera import NoPendingHandError

        with self.lock:
            lc = self.pipeline.lifecycle
            if sorted(record.side_names) != sorted(lc.sides):
                raise IllegalHandError(f"the camera follows {', '.join(lc.sides)}, not {', '.join(record.side_names)}",
                                       field="sides")
            if lc.pending is None and lc.tracker is None:
                raise NoPendingHandError("the camera is not following a hand yet")
            was_pending = lc.pending is not None or bool(lc.held)
            lc.correct(record)
            if was_pending:
                done = lc.confirm()
                for hand in (done, *lc.release()) if done is not None else ():
                    self.keeper.add(hand.record)
            self._publish()
