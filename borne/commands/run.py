"""``borne run``: the score display (as ``borne serve``) plus the camera pipeline in a thread.

With no ``--source`` it runs the built-in demo: simulated hands rendered at table speed, read
with the trained detector when it is installed, else with the true boxes the demo knows.
Each hand the camera sees finished is shown as pending on the display; it becomes final when a
person confirms it there (or corrects it) or when the table is cleared for the next one, and is then
added to the display's current game. The hand being followed is saved in the games' SQLite file
at every change, so a restart in the middle of a hand takes it back.

The zones a person draws on the display (``PUT /api/camera/layout``) are saved in that file too, per
table (``--table``), followed from the next frame, and used again at the next start unless ``--layout``
is given.
"""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_TABLE = "table"
"""The table's name when ``--table`` is not given."""


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
    p.add_argument("--source", default="demo",
                   help="webcam index, video file, folder, stream URL, a Borne camera's name as it announces itself "
                        "over mDNS (NAME or NAME?token=TOKEN; the token may also come from BORNE_CAM_TOKEN), "
                        "picamera (this Raspberry Pi's camera, with the Pi profile) or demo (default)")
    p.add_argument("--list-cameras", action="store_true",
                   help="list the Borne cameras (borne-cam) announced on the network, then exit")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="the table layout (CONTRACT.md §4); default: the zones last saved for this table on the "
                        "display (Edit zones), else the demo's own, else two sides facing each other")
    p.add_argument("--table", default=DEFAULT_TABLE, metavar="NAME",
                   help=f"the table's name: zones saved on the display are kept per table (default {DEFAULT_TABLE!r})")
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
    from scoring.web.zones import LayoutOrigin
    from vision.layout import TableLayout
    from vision.sources import DemoSource, FolderSource, SourceError, check_stream, open_source, redact

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0 to 65535, not {args.port}")
    if args.fps <= 0:
        raise CommandError(f"--fps must be above 0, not {args.fps}")
    table_name = args.table.strip()
    if not table_name or len(table_name) > 60 or not table_name.isprintable():
        raise CommandError("--table is a name of 1 to 60 printable characters")
    if args.list_cameras:
        return _list_cameras()
    spec = _resolve_camera(args.source)
    named = None
    try:
        if spec != args.source and "://" not in args.source:  # a camera by name: found again if it moves
            named = NamedCamera(args.source.partition("?")[0], spec)
            check_stream(spec)
            source = named.source()
        elif spec == "picamera":
            from firmware_cam.cameras import CameraError, picamera_source

            try:
                source = picamera_source()
            except CameraError as e:
                raise CommandError(str(e)) from None
        else:
            source = open_source(spec)
            if spec.lower().startswith(("http://", "https://")):
                check_stream(spec)
    except (SourceError, OSError) as e:
        raise CommandError(str(e)) from None
    if isinstance(source, FolderSource):
        source.fps = args.fps
    demo = isinstance(source, DemoSource)
    settings, generated = settings_from(args)
    app = create_app(settings)
    # --layout > the zones saved for the table > the source's own (the demo) > the default
    base: Any = None
    frame_size: tuple[int, int] | None = None
    if args.layout is not None:
        base, origin = TableLayout.from_file(args.layout), LayoutOrigin.FILE
    elif demo:
        assert isinstance(source, DemoSource)
        base, origin = TableLayout.from_json(source.layout_json()), LayoutOrigin.CAMERA
    else:
        origin = LayoutOrigin.DEFAULT
    saved, saved_size = (None, None) if args.layout is not None else _saved_layout(app.state.store, table_name, fits=base)
    if saved is not None:
        layout = saved
    elif base is not None:
        layout = base
    else:
        frame_size = _first_frame_size(source)
        layout = TableLayout.default(*frame_size)
    pipeline = _build_pipeline(args, layout, source)
    stop = threading.Event()
    keeper = _GameKeeper(app, layout, args.game)
    camera = CameraState(source="demo" if demo else redact(str(args.source)))
    table = LiveTable(app, pipeline, keeper, camera)
    zones = TableZones(app.state.store, pipeline, table.lock, table=table_name, base=base, base_origin=origin,
                       origin=LayoutOrigin.SAVED if saved is not None else origin, frame_size=frame_size,
                       saved=app.state.store.load_camera_document(name=layout_document_name(table_name)) is not None,
                       saved_size=saved_size)
    table.zones = zones
    if demo and args.layout is None:
        _follow_demo_layouts(pipeline, zones)
    camera.desk = table
    camera.zones = zones
    app.state.camera = camera
    if demo and not args.forget_hand and table.has_saved_hand():
        # the demo deals a new hand at every start: the hand saved before the restart is not on its table,
        # and taking it back would end it as cleared and add it, half played, to the game
        print("camera: the demo deals a new hand; the hand saved before the restart is set aside",
              file=sys.stderr, flush=True)
    restored = None if args.forget_hand or demo else table.restore()
    if restored:
        print(f"camera: {restored}", file=sys.stderr, flush=True)

    def follow() -> None:
        try:
            table.follow(source, should_stop=stop.is_set)
        except Exception as e:  # the server stays up; say why the camera stopped
            camera.update(connected=False, message=f"the camera pipeline stopped: {e}")
            print(f"borne run: the camera pipeline stopped: {e}", file=sys.stderr, flush=True)

    if source.live and not demo:
        # a camera: a person may switch to another Borne camera found on the network, and the hand goes on
        source = SwitchableSource(source, spec, named=named)
        camera.chooser = CameraSwitcher(source, camera)
    thread = threading.Thread(target=follow, name="pipeline", daemon=True)
    watcher = threading.Thread(target=_watch_camera, args=(source, camera, stop), name="camera watcher", daemon=True)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        note = "  (new; set your own with --token or BORNE_TOKEN)" if generated else ""
        print(f"Token for changes: {settings.token}{note}", flush=True)
        print(f"Camera: {'the demo (a simulated game)' if demo else redact(str(args.source))}", flush=True)
        print(f"Zones of table {table_name!r}: {zones.zones().origin.value}", flush=True)
        thread.start()
        watcher.start()

    try:
        serve(settings, app=app, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        stop.set()
        source.close()
    return 0


def _list_cameras() -> int:
    from borne.commands import CommandError
    from firmware_cam.discovery import DiscoveryError, find_cameras

    try:
        found = find_cameras(3.0)
    except DiscoveryError as e:
        raise CommandError(str(e)) from None
    if not found:
        print("no Borne camera answered on the network within 3 s (is borne-cam running, on this LAN?)")
    for c in found:
        print(f"{c.name}\t{c.url}\tborne run --source '{c.name}?token=TOKEN'")
    return 0


def _resolve_camera(spec: str) -> str:
    """``--source`` as a URL: a Borne camera named as it announces itself over mDNS (``NAME`` or
    ``NAME?token=T``, the token else from ``BORNE_CAM_TOKEN``) becomes its stream's URL; anything else
    (a file, a folder, an index, a URL, ``demo``, ``picamera``) is left as it is. A camera name has no dot
    and no slash, so a mistyped file name is not looked for on the network."""
    import os
    import sys
    from pathlib import Path
    from urllib.parse import parse_qs, quote

    from borne.commands import CommandError

    name, _, query = spec.partition("?")
    if (spec in ("demo", "picamera") or spec.isdigit() or "://" in spec or "/" in name or "." in name
            or Path(spec).exists() or not name):
        return spec
    from firmware_cam.discovery import DiscoveryError, resolve

    try:
        found = resolve(name, timeout=5.0)
    except DiscoveryError as e:
        raise CommandError(f"--source {name}: {e}") from None
    token = (parse_qs(query).get("token") or [os.environ.get("BORNE_CAM_TOKEN", "")])[0]
    print(f"camera: {name} found at {found.url}", file=sys.stderr, flush=True)
    if not token:
        print("camera: no token given (NAME?token=TOKEN or BORNE_CAM_TOKEN); the camera will refuse",
              file=sys.stderr, flush=True)
    return found.url + (f"?token={quote(token, safe='')}" if token else "")


def agent_status_url(stream_url: str) -> str | None:
    """The ``/status`` URL of a Borne camera agent's ``/stream.mjpg`` URL (``None`` for any other source).

    >>> agent_status_url("http://10.0.0.7:8081/stream.mjpg?token=abc")
    'http://10.0.0.7:8081/status?token=abc'
    >>> agent_status_url("rtsp://cam/live") is None
    True
    """
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(stream_url)
    if parts.scheme not in ("http", "https") or not parts.path.endswith("/stream.mjpg"):
        return None
    return urlunsplit(parts._replace(path=parts.path[: -len("/stream.mjpg")] + "/status"))


WATCH_EVERY_S = 0.5
"""How often the camera's connection is copied to the display while no frame arrives."""
AGENT_STATUS_EVERY_S = 2.0
"""How often a Borne camera agent's own status (frames, drops, temperature) is fetched for the panel."""


def _watch_camera(source: Any, camera: Any, stop: Any) -> None:
    """Keep the display's camera status current while frames stop coming (the pipeline thread only
    reports at each frame), and fetch a camera agent's own status for the panel."""
    import json
    import time
    import urllib.request

    next_agent = 0.0
    while not stop.wait(WATCH_EVERY_S):
        if camera.status.ended:
            return
        if source.live:
            stats = source.stats
            camera.update(connected=stats.connected, message=stats.message, reconnects=stats.reconnects)
        status_url = agent_status_url(source.current_url() if hasattr(source, "current_url") else "")
        if status_url is None or time.monotonic() < next_agent:
            continue
        next_agent = time.monotonic() + AGENT_STATUS_EVERY_S
        try:
            from urllib.parse import parse_qs, urlsplit

            token = (parse_qs(urlsplit(status_url).query).get("token") or [""])[0]
            request = urllib.request.Request(status_url, headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request, timeout=2.0) as r:
                agent = json.loads(r.read(64 << 10))
            agent = {k: v for k, v in agent.items() if isinstance(v, str | int | float | bool | list | type(None))}
            agent["reachable"] = True
        except Exception as e:  # the agent is down or restarting: the panel says so
            agent = {"reachable": False, "error": str(getattr(e, "reason", e))[:200]}
        camera.update(agent=agent)


class NamedCamera:
    """A Borne camera followed by the name it announces: opened at the address found at start, and looked
    up again whenever it stops answering there (a Pi that a router gave a new address, a new port)."""

    LOOKUP_S = 2.0

    def __init__(self, name: str, url: str) -> None:
        from urllib.parse import urlsplit

        self.name = name
        self.url = url
        self._query = urlsplit(url).query

    def source(self) -> Any:
        from vision.sources import LiveSource

        return LiveSource(self.open, name=self.name)

    def open(self) -> Any:
        import sys

        from firmware_cam.discovery import resolve
        from vision.sources import MjpegCapture, redact

        try:
            return MjpegCapture(self.url)
        except OSError:
            found = resolve(self.name, timeout=self.LOOKUP_S)  # not found: the source says so and tries again
            url = found.url + (f"?{self._query}" if self._query else "")
            if url != self.url:
                print(f"camera: {self.name} moved to {redact(url)}", file=sys.stderr, flush=True)
                self.url = url
            return MjpegCapture(self.url)


class SwitchableSource:
    """The camera ``borne run`` follows, which a person may change on the display to another Borne camera:
    frames are numbered on across a change, so the pipeline sees one camera and the hand goes on."""

    live = True

    def __init__(self, inner: Any, spec: str, *, named: NamedCamera | None = None) -> None:
        import threading

        self._inner = inner
        self.spec = spec
        """What is followed now (a stream URL, with its token: not for display)."""
        self.named = named
        """The camera followed by its name, whose address may change."""
        self._next: tuple[Any, str] | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._count = 0
        self.switches = 0

    @property
    def stats(self) -> Any:
        return self._inner.stats

    def current_url(self) -> str:
        """The stream's URL now (a camera followed by name may have moved)."""
        return self.named.url if self.named is not None else self.spec

    def frames(self) -> Any:
        from vision.sources import Frame

        # the first camera's own clock; the next ones carry on from where it stopped
        last = 0.0
        base: float | None = 0.0
        while True:
            for frame in self._inner.frames():
                if base is None:
                    base = last + 0.001 - frame.time
                last = frame.time + base
                yield Frame(self._count, last, frame.image, frame.name)
                self._count += 1
                if self._next is not None:
                    break
            base = None
            with self._lock:
                following, self._next = self._next, None
                if following is None or self._closed:
                    return
                old, (self._inner, self.spec) = self._inner, following
                self.named = None
                self.switches += 1
            old.close()

    def switch(self, source: Any, spec: str) -> None:
        """Follow ``source`` from the next frame (the current camera is closed)."""
        with self._lock:
            if self._next is not None:
                self._next[0].close()
            self._next = (source, spec)
            current = self._inner
        current.close()  # a camera that gives no frame any more lets go of the pipeline thread too

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pending, self._next = self._next, None
        if pending is not None:
            pending[0].close()
        self._inner.close()


class CameraSwitcher:
    """The display's :class:`~scoring.web.camera.CameraChooser`: the Borne cameras that answer on the
    network (looked for at most every :attr:`REFRESH_S`) and a switch to one of them."""

    REFRESH_S = 10.0
    BROWSE_S = 2.0

    def __init__(self, source: SwitchableSource, camera: Any) -> None:
        import threading

        self.source = source
        self.camera = camera
        self._lock = threading.Lock()
        self._found: list[Any] = []
        self._at = -1e9

    def _cameras(self) -> list[Any]:
        import time

        from firmware_cam.discovery import find_cameras

        with self._lock:
            if time.monotonic() - self._at >= self.REFRESH_S:
                self._found = find_cameras(self.BROWSE_S)
                self._at = time.monotonic()
            return list(self._found)

    def cameras(self) -> list[dict[str, Any]]:
        from firmware_cam.discovery import DiscoveryError

        try:
            return [c.to_json() for c in self._cameras()]
        except DiscoveryError:
            return []

    def choose(self, name: str, token: str) -> None:
        import sys
        from urllib.parse import quote

        from firmware_cam.discovery import DiscoveryError, resolve
        from scoring.web.camera import CameraChoiceError
        from vision.sources import MjpegCapture, SourceError, open_source, redact

        found = next((c for c in self._found if c.name == name), None)
        if found is None:
            try:
                found = resolve(name, timeout=3.0)
            except DiscoveryError as e:
                raise CameraChoiceError(str(e)) from None
        url = f"{found.url}?token={quote(token, safe='')}"
        try:
            MjpegCapture(url, timeout=3.0).release()
        except SourceError as e:  # a refused token, or not a camera stream: the camera's own reason
            raise CameraChoiceError(str(e)) from None
        except OSError as e:
            raise CameraChoiceError(f"{name} does not answer at {found.url}: {e.strerror or e}") from None
        source = open_source(url)
        self.source.switch(source, url)
        self.camera.update(source=redact(url), agent=None)
        print(f"camera: now following {name} ({found.url}), as chosen on the display", file=sys.stderr, flush=True)


def _saved_layout(store: Any, table: str, *, fits: Any) -> tuple[Any, tuple[int, int] | None]:
    """The zones saved for ``table`` (a ``TableLayout``) and the picture size they were drawn on, or
    ``None``s; saved zones that cannot be used are reported and left in the file. ``fits``: the source's
    own layout, whose sides saved zones must have."""
    import sys

    from vision.errors import LayoutError
    from vision.layout import TableLayout

    doc = store.load_camera_document(name=layout_document_name(table))
    if doc is None:
        return None, None
    try:
        if doc.get("version") != 1:
            raise LayoutError(f"unknown version {doc.get('version')!r}")
        layout = TableLayout.from_json(doc["layout"])
        raw = doc.get("frame_size")
        size = None if raw is None else (int(raw[0]), int(raw[1]))
    except (LayoutError, KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        print(f"borne run: the zones saved for table {table!r} are not used: {e}", file=sys.stderr, flush=True)
        return None, None
    if fits is not None and sorted(s.side for s in layout.sides) != sorted(s.side for s in fits.sides):
        print(f"borne run: the zones saved for table {table!r} are for other sides "
              f"({', '.join(s.side for s in layout.sides)}); not used", file=sys.stderr, flush=True)
        return None, None
    return layout, size


def layout_document_name(table: str) -> str:
    """The name of a table's saved zones in the games' SQLite file (``GameStore.save_camera_document``)."""
    return f"layout:{table}"


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
    from vision.models import detector_path, load_recogniser
    from vision.pipeline import Pipeline
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

        # a live stream skips frames and starts anywhere: its frames are told by their picture
        truth = TruthReplayDetector(args.truth_boxes, match_pictures=bool(source.live and not demo))
        reader = FrameReader(truth, load_recogniser(args.edition))
        before = truth.seek
    else:
        reader = FrameReader.from_models(args.edition)
    pipeline = Pipeline(reader, layout, goal=args.goal, settings=LifecycleSettings(start_on_first_frame=True),
                        before_read=before)
    return pipeline


def _follow_demo_layouts(pipeline: Any, zones: TableZones) -> None:
    """Every demo hand is shot from a new camera pose: each one's layout becomes the table's start-up
    layout, followed unless a person saved zones of their own."""
    inner = pipeline.before_read
    current: dict[str, Any] = {"folder": None}

    def follow_layout(frame: Any) -> None:
        import json
        from pathlib import Path

        from vision.layout import TableLayout

        folder = Path(frame.name).parent.parent
        if folder != current["folder"]:
            current["folder"] = folder
            truth = json.loads((folder / "truth" / "000000.json").read_text())
            zones.source_layout(TableLayout.from_json(truth["layout"]))
        if inner is not None:
            inner(frame)

    pipeline.before_read = follow_layout


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
        self.zones: TableZones | None = None
        self.lock = threading.Lock()
        """Held while a frame goes through the pipeline and while a request changes what it follows."""

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
            with self.lock:
                result = self.pipeline.process(frame)
                self._report(result)
                self._publish()
            self._show(source, result)
            if should_stop():
                break
        with self.lock:
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

    def _publish(self) -> None:
        """Push the live hand to the displays and save it, when it changed."""
        from scoring.web.camera import publish_hand

        raw = self.pipeline.live_json()
        raw["game_id"] = self.keeper.game_id
        changed = publish_hand(self.camera, raw, store=self.app.state.store, broadcaster=self.app.state.broadcaster)
        if changed:
            self.app.state.store.save_camera_document(name=LIVE_HAND_DOCUMENT, document=self.pipeline.snapshot())

    def has_saved_hand(self) -> bool:
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
            done = self.pipeline.lifecycle.confirm()
            if done is None:
                raise NoPendingHandError("no hand is waiting to be confirmed")
            self.keeper.add(done.record)
            self._publish()

    def correct(self, record: Any) -> None:
        from scoring.errors import IllegalHandError
        from scoring.web.camera import NoPendingHandError

        with self.lock:
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


class TableZones:
    """The table's zones: the layout the pipeline follows, where it came from, and the zones a person saved.

    The display's :class:`~scoring.web.zones.ZoneDesk` (request threads), fed by the pipeline thread
    (:meth:`saw_frame`, :meth:`source_layout`). A layout is never changed in place: a new ``TableLayout``
    replaces ``pipeline.layout`` under the table's lock, so a frame is read with one layout from start to end.
    """

    def __init__(self, store: Any, pipeline: Any, lock: Any, *, table: str, base: Any, base_origin: Any, origin: Any,
                 saved: bool, frame_size: tuple[int, int] | None, saved_size: tuple[int, int] | None = None) -> None:
        """``base``: the start-up layout (``None``: the default, made for the picture); ``origin``: that of
        the layout the pipeline has now; ``saved``: whether zones are saved for the table; ``saved_size``:
        the picture size the saved zones were drawn on, when known."""
        import threading

        from scoring.web.zones import LayoutOrigin

        self.store = store
        self.pipeline = pipeline
        self.table = table
        self.sides: tuple[str, ...] = tuple(s.side for s in pipeline.layout.sides)
        self._table_lock = lock
        self._lock = threading.Lock()
        """Guards the fields below (the view is read without waiting for a frame to finish)."""
        self._base = base
        self._base_origin = base_origin
        self._saved = saved
        self._origin = origin
        self._frame_size = frame_size
        self._saved_layout = pipeline.layout if origin is LayoutOrigin.SAVED else None
        """The saved zones as drawn, before any scaling to the camera's picture."""
        self._saved_size = saved_size

    @property
    def document_name(self) -> str:
        return layout_document_name(self.table)

    # -- the pipeline thread -----------------------------------------------------------------

    def saw_frame(self, width: int, height: int) -> None:
        if self._frame_size != (width, height):
            with self._lock:
                self._frame_size = (width, height)
                self._fit_saved_zones(width, height)

    def _fit_saved_zones(self, width: int, height: int) -> None:
        """Saved zones drawn on a picture of another size: scaled when only the resolution changed (same
        shape), else left for the start-up or default zones (the camera sees another part of the table)."""
        import sys

        from scoring.web.zones import LayoutOrigin

        if self._origin is not LayoutOrigin.SAVED or self._saved_size is None or self._saved_layout is None:
            return
        sw, sh = self._saved_size
        if (sw, sh) == (width, height):
            self.pipeline.layout = self._saved_layout
            return
        factor = width / sw
        if abs(height / sh - factor) <= 0.01 * factor:
            self.pipeline.layout = self._saved_layout.scaled(factor)
            print(f"borne run: the zones of table {self.table!r} were saved on a {sw}×{sh} picture; "
                  f"scaled to the camera's {width}×{height}", file=sys.stderr, flush=True)
            return
        fallback = self._base if self._base is not None else self._default(self._saved_layout, (width, height))
        if fallback is None:
            return
        self.pipeline.layout, self._origin = fallback, self._base_origin
        print(f"borne run: the zones of table {self.table!r} were saved on a {sw}×{sh} picture and the camera "
              f"now gives {width}×{height}, another shape: not used; check the zones on the display (Edit zones)",
              file=sys.stderr, flush=True)

    def source_layout(self, layout: Any) -> None:
        """The source's own layout changed (a new demo hand); followed unless a person saved zones.
        Called with the table's lock held (from the pipeline's ``before_read``)."""
        from scoring.web.zones import LayoutOrigin

        if sorted(s.side for s in layout.sides) != sorted(self.sides):
            return
        with self._lock:
            self._base = layout
            if self._origin is not LayoutOrigin.SAVED:
                self.pipeline.layout = layout

    # -- the display (request threads) -------------------------------------------------------

    def zones(self) -> Any:
        from scoring.web.zones import ZoneView

        with self._lock:
            layout, origin, saved, size = self.pipeline.layout, self._origin, self._saved, self._frame_size
        default = self._default(layout, size)
        return ZoneView(layout=layout.to_json(), origin=origin, table=self.table, sides=self.sides, frame_size=size,
                        default=None if default is None else default.to_json(), saved=saved)

    def save_zones(self, layout: dict[str, Any]) -> Any:
        from scoring.web.zones import InvalidLayoutError, LayoutOrigin
        from vision.errors import LayoutError
        from vision.layout import TableLayout

        try:
            parsed = TableLayout.from_json(layout)
        except LayoutError as e:  # check_layout is stricter; this is a second opinion, never expected to differ
            raise InvalidLayoutError(str(e)) from None
        with self._table_lock:
            with self._lock:
                size = self._frame_size
            self.store.save_camera_document(name=self.document_name, document={
                "version": 1, "table": self.table, "layout": parsed.to_json(),
                "frame_size": None if size is None else list(size)})
            with self._lock:
                self.pipeline.layout = self._saved_layout = parsed
                self._saved_size = size
                self._saved, self._origin = True, LayoutOrigin.SAVED
        return self.zones()

    def forget_zones(self) -> Any:
        from scoring.web.zones import LayoutOrigin, NoLayoutToRestoreError

        with self._table_lock:
            with self._lock:
                size = self._frame_size
                base = self._base if self._base is not None else self._default(self.pipeline.layout, size)
                saved = self._saved
                following = self._origin is LayoutOrigin.SAVED
            if following and base is None:
                raise NoLayoutToRestoreError(
                    "there is no start-up layout for these sides to go back to (pass --layout, or save new zones)")
            if saved:
                self.store.delete_camera_document(name=self.document_name)
            with self._lock:
                self._saved = False
                if following:
                    self.pipeline.layout = base
                    self._origin = self._base_origin
        return self.zones()

    def _default(self, layout: Any, size: tuple[int, int] | None) -> Any:
        """Two sides facing each other in a picture of ``size``, the side now higher in the picture on top."""
        from vision.layout import TableLayout

        if size is None or len(layout.sides) != 2:
            return None
        top, bottom = sorted(layout.sides, key=lambda s: float(s.zone[:, 1].mean()))
        return TableLayout.default(size[0], size[1], sides=(top.side, bottom.side))
