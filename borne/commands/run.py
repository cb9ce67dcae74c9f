"""``borne run``: the score display (as ``borne serve``) plus the camera pipeline in a thread.

With no ``--source`` it runs the built-in demo: simulated hands rendered at table speed, read
with the trained detector when it is installed, else with the true boxes the demo knows.
Each hand the camera sees finished is shown as pending on the display; it becomes final when a
person confirms it there (or corrects it) or when the table is cleared for the next one, and is then
added to the display's current game. The hand being followed is saved in the games' SQLite file
at every change, so a restart in the middle of a hand takes it back.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from borne.commands.web import add_server_options

    p = sub.add_parser(
        "run",
        help="serve the score display and follow the table with a camera (the demo without one)",
        description="Start the score display and API (as `borne serve`) and the camera pipeline. SOURCE is a "
        "webcam index (0), a video file, a folder of frames, an RTSP/HTTP stream URL, or `demo` (the default: "
        "a simulated game playing itself). Finished hands are added to the current game of the display.",
    )
    add_server_options(p)
    p.add_argument("--source", default="demo", help="webcam index, video file, folder, stream URL or demo (default)")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="the table layout (CONTRACT.md §4); default: two sides facing each other (the demo's own)")
    p.add_argument("--edition", default="generic", help="deck edition (default: the built-in generic edition)")
    p.add_argument("--goal", type=int, choices=(700, 1000), default=None, help="the hands' goal")
    p.add_argument("--game", type=int, default=None, metavar="ID",
                   help="the game finished hands go to (default: the latest game of the layout's sides, else a new one)")
    p.add_argument("--fps", type=float, default=10.0,
                   help="the pace of a folder of frames, played as if from a camera (default 10)")
    p.add_argument("--truth-boxes", metavar="TRUTH_DIR", default=None,
                   help="for testing: replay the true boxes of a rendered sequence (its truth/ folder) "
                        "instead of the trained detector")
    p.add_argument("--forget-hand", action="store_true",
                   help="start afresh instead of taking back the hand saved before a restart")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import sys
    import threading

    from borne.commands import CommandError
    from borne.commands.web import settings_from
    from scoring.web.app import create_app, serve
    from scoring.web.camera import CameraState
    from vision.layout import TableLayout
    from vision.sources import DemoSource, FolderSource, SourceError, open_source

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0 to 65535, not {args.port}")
    if args.fps <= 0:
        raise CommandError(f"--fps must be above 0, not {args.fps}")
    try:
        source = open_source(args.source)
    except SourceError as e:
        raise CommandError(str(e)) from None
    if isinstance(source, FolderSource):
        source.fps = args.fps
    demo = isinstance(source, DemoSource)
    if args.layout is not None:
        layout = TableLayout.from_file(args.layout)
    elif demo:
        assert isinstance(source, DemoSource)
        layout = TableLayout.from_json(source.layout_json())
    else:
        first = _first_frame_size(source)
        layout = TableLayout.default(*first)
    settings, generated = settings_from(args)
    app = create_app(settings)
    pipeline = _build_pipeline(args, layout, source)
    stop = threading.Event()
    keeper = _GameKeeper(app, layout, args.game)
    camera = CameraState(source="demo" if demo else str(args.source))
    table = LiveTable(app, pipeline, keeper, camera)
    camera.desk = table
    app.state.camera = camera
    restored = None if args.forget_hand else table.restore()
    if restored:
        print(f"camera: {restored}", file=sys.stderr, flush=True)

    def follow() -> None:
        try:
            table.follow(source, should_stop=stop.is_set)
        except Exception as e:  # the server stays up; say why the camera stopped
            camera.update(connected=False, message=f"the camera pipeline stopped: {e}")
            print(f"borne run: the camera pipeline stopped: {e}", file=sys.stderr, flush=True)

    thread = threading.Thread(target=follow, name="pipeline", daemon=True)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        note = "  (new; set your own with --token or BORNE_TOKEN)" if generated else ""
        print(f"Token for changes: {settings.token}{note}", flush=True)
        print(f"Camera: {'the demo (a simulated game)' if demo else args.source}", flush=True)
        thread.start()

    try:
        serve(settings, app=app, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        stop.set()
        source.close()
    return 0


def _first_frame_size(source: Any) -> tuple[int, int]:
    from borne.commands import CommandError

    frame = source.latest(timeout=10.0) if hasattr(source, "latest") else next(iter(source.frames()), None)
    if frame is None:
        raise CommandError("the camera gave no picture; pass --layout or check the camera")
    h, w = frame.image.shape[:2]
    return w, h


def _build_pipeline(args: argparse.Namespace, layout: Any, source: Any) -> Any:
    from vision.frame_reader import FrameReader
    from vision.lifecycle import LifecycleSettings
    from vision.models import detector_path, recogniser_path
    from vision.pipeline import Pipeline
    from vision.recogniser import FaceRecogniser
    from vision.sources import DemoSource

    demo = isinstance(source, DemoSource)
    try:
        detector_path()
        have_detector = True
    except Exception:
        have_detector = False
    before = None
    if args.truth_boxes is not None or (demo and not have_detector):
        from vision.replay_detector import TruthReplayDetector

        truth = TruthReplayDetector(args.truth_boxes)
        reader = FrameReader(truth, FaceRecogniser.load(recogniser_path(args.edition)))
        before = truth.seek
    else:
        reader = FrameReader.from_models(args.edition)
    pipeline = Pipeline(reader, layout, goal=args.goal, settings=LifecycleSettings(start_on_first_frame=True),
                        before_read=before)
    if demo:
        # every demo hand is shot from a new camera pose: follow its layout
        inner = before
        current: dict[str, Any] = {"folder": None}

        def follow_layout(frame: Any) -> None:
            import json
            from pathlib import Path

            from vision.layout import TableLayout

            folder = Path(frame.name).parent.parent
            if folder != current["folder"]:
                current["folder"] = folder
                truth = json.loads((folder / "truth" / "000000.json").read_text())
                pipeline.layout = TableLayout.from_json(truth["layout"])
            if inner is not None:
                inner(frame)

        pipeline.before_read = follow_layout
    return pipeline


class _GameKeeper:
    """Adds each final hand to the display's current game (creating one for the layout's sides)."""

    def __init__(self, app: Any, layout: Any, game_id: int | None) -> None:
        self.app = app
        self.sides = [s.side for s in layout.sides]
        self.game_id = game_id

    def _game(self) -> int:
        from scoring.game import GameSetup, Side
        from scoring.rules import RuleSet

        store = self.app.state.store
        if self.game_id is None:
            for gid in reversed(store.game_ids()):
                stored = store.load(gid)
                if [s.name for s in stored.game.setup.sides] == self.sides and not stored.game.outcome().is_over:
                    self.game_id = gid
                    break
        if self.game_id is None:
            setup = GameSetup(sides=tuple(Side(name=n) for n in self.sides), rules=RuleSet.from_name("classic"),
                              target=5000)
            stored = store.create_game(setup, author="camera")
            self._publish("created", stored, None)
            self.game_id = stored.id
        return self.game_id

    def add(self, record: Any) -> None:
        import sys

        from scoring.errors import BorneError

        store = self.app.state.store
        try:
            stored = store.add_hand(self._game(), record, author="camera")
        except BorneError as e:
            print(f"borne run: the camera's hand was not added to game {self.game_id}: {e}", file=sys.stderr)
            self.game_id = None
            return
        self._publish("add", stored, len(stored.game.hands))

    def _publish(self, kind: str, stored: Any, hand: int | None) -> None:
        from scoring.storage import game_document
        from scoring.web.events import GameEvent

        self.app.state.broadcaster.publish(
            GameEvent(kind=kind, game_id=stored.id, revision=stored.revision, game=game_document(stored), hand=hand))


LIVE_HAND_DOCUMENT = "live_hand"
"""The name of the saved hand in the games' SQLite file (``GameStore.save_camera_document``)."""

FRAME_EVERY_S = 0.5
"""How often the camera panel's picture is drawn and encoded; each costs the pipeline a few milliseconds."""


class LiveTable:
    """The pipeline's link to the display: status and picture, the live hand, confirm and correct, saving.

    The pipeline thread calls :meth:`follow`; request threads call :meth:`confirm` and :meth:`correct`
    (the :class:`~scoring.web.camera.HandDesk` of the display). One lock keeps them apart.
    """

    def __init__(self, app: Any, pipeline: Any, keeper: _GameKeeper, camera: Any) -> None:
        import threading

        self.app = app
        self.pipeline = pipeline
        self.keeper = keeper
        self.camera = camera
        self._lock = threading.Lock()

    # -- the pipeline thread -----------------------------------------------------------------

    def follow(self, source: Any, *, should_stop: Any) -> None:
        """Feed ``source`` to the pipeline until it ends or ``should_stop()``; files are paced as a camera."""
        import time

        started = time.monotonic()
        for frame in source.frames():
            if not source.live:
                wait = started + frame.time - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            with self._lock:
                result = self.pipeline.process(frame)
                self._report(result)
                self._publish()
            self._show(source, result)
            if should_stop():
                break
        with self._lock:
            for event in self.pipeline.finish():
                self._print(event)
            self._publish()
        self.camera.update(connected=False, ended=True, message="the source ended")

    def _report(self, result: Any) -> None:
        for event in result.events:
            if event.kind == "hand_final" and event.pending is not None:
                self.keeper.add(event.pending.record)
            self._print(event)

    @staticmethod
    def _print(event: Any) -> None:
        import sys

        if event.kind in ("hand_pending", "hand_final", "hand_started", "flagged", "hand_reopened"):
            print(f"camera: hand {event.hand} {event.kind.replace('_', ' ')} (frame {event.frame})"
                  + (f": {event.message}" if event.message else ""), file=sys.stderr, flush=True)

    def _show(self, source: Any, result: Any) -> None:
        stats = source.stats
        reading = result.reading
        self.camera.update(connected=stats.connected, message=stats.message, frames=self.pipeline.frames,
                           frames_per_second=self.pipeline.frames_per_second, corrupt_frames=stats.corrupt,
                           reconnects=stats.reconnects, too_small=bool(reading.too_small),
                           card_px=reading.typical_card_px)
        if self.camera.frame_due(FRAME_EVERY_S):
            from vision.drawing import census_jpeg

            self.camera.set_frame(census_jpeg(result.frame.image, result.census, self.pipeline.layout))

    def _publish(self) -> None:
        """Push the live hand to the displays and save it, when it changed."""
        from scoring.web.camera import publish_hand

        raw = self.pipeline.live_json()
        raw["game_id"] = self.keeper.game_id
        changed = publish_hand(self.camera, raw, store=self.app.state.store, broadcaster=self.app.state.broadcaster)
        if changed:
            self.app.state.store.save_camera_document(name=LIVE_HAND_DOCUMENT, document=self.pipeline.snapshot())

    def restore(self) -> str | None:
        """Take back the hand saved before a restart; says what was restored (``None``: nothing)."""
        doc = self.app.state.store.load_camera_document(name=LIVE_HAND_DOCUMENT)
        if doc is None:
            return None
        with self._lock:
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

        with self._lock:
            done = self.pipeline.lifecycle.confirm()
            if done is None:
                raise NoPendingHandError("no hand is waiting to be confirmed")
            self.keeper.add(done.record)
            self._publish()

    def correct(self, record: Any) -> None:
        from scoring.errors import IllegalHandError
        from scoring.web.camera import NoPendingHandError

        with self._lock:
            lc = self.pipeline.lifecycle
            if sorted(record.side_names) != sorted(lc.sides):
                raise IllegalHandError(f"the camera follows {', '.join(lc.sides)}, not {', '.join(record.side_names)}",
                                       field="sides")
            if lc.pending is None and lc.tracker is None:
                raise NoPendingHandError("the camera is not following a hand yet")
            was_pending = lc.pending is not None
            lc.correct(record)
            if was_pending:
                done = lc.confirm()
                if done is not None:
                    self.keeper.add(done.record)
            self._publish()
