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

With ``--source browser`` a phone's browser is the camera: the page ``/camera`` sends its pictures over a
WebSocket with the table's token, and the whole display is served over HTTPS (a browser gives a page its camera
only there) with a certificate made once for this machine and kept in the user's data folder (``--no-https``: not).
Without it, ``borne run`` serves plain HTTP as ``borne serve`` does.
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
        "a simulated game playing itself), or `browser` (a phone's browser opening the display's page /camera, served "
        "over HTTPS). Finished hands are added to the current game of the display.",
    )
    add_server_options(p)
    p.add_argument("--source", default="demo",
                   help="webcam index, video file, folder, stream URL, a Borne camera's name as it announces itself "
                        "over mDNS (NAME or NAME?token=TOKEN; the token may also come from BORNE_CAM_TOKEN), "
                        "picamera (this Raspberry Pi's camera, with the Pi profile), browser (a phone's browser "
                        "opening the page /camera with the table's token: its rear camera sends pictures over a "
                        "WebSocket; use --host 0.0.0.0 so the phone reaches it) or demo (default)")
    p.add_argument("--https", action=argparse.BooleanOptionalAction, default=None,
                   help="serve the display over HTTPS with this machine's own certificate, made once and kept in the "
                        "user's data folder (default: on with --source browser, off otherwise)")
    p.add_argument("--list-cameras", action="store_true",
                   help="list the Borne cameras (borne-cam) announced on the network, then exit")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="the table layout (CONTRACT.md §4); default: the zones last saved for this table on the "
                        "display (Edit zones), else the demo's own, else two sides facing each other")
    p.add_argument("--find-sides", action=argparse.BooleanOptionalAction, default=True,
                   help="without --layout or saved zones, find the sides from the table as the hand starts and propose "
                        "their zones on the display (default); --no-find-sides: two sides facing each other")
    p.add_argument("--table", default=DEFAULT_TABLE, metavar="NAME",
                   help=f"the table's name: zones saved on the display are kept per table (default {DEFAULT_TABLE!r})")
    p.add_argument("--edition", default="generic",
                   help="deck edition: an enrolled one, or `unknown` (a deck nobody enrolled: distance cards by their "
                        "numerals, other cards unknown; default: the built-in generic edition)")
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
    from borne.commands.club import join_club
    from borne.commands.web import settings_from
    from borne.live import (
        BROWSER_FRAME_SIZE,
        BROWSER_SOURCE,
        CameraSwitcher,
        GameKeeper,
        LiveTable,
        NamedCamera,
        SwitchableSource,
        TableZones,
        choose_layout,
        follow_demo_layouts,
        layout_document_name,
        load_saved_layout,
        watch_camera,
        watch_feed,
    )
    from borne.live.phone import browser_source, phone_instructions
    from borne.live.photos import display_photo_counter
    from scoring.web.app import create_app, serve
    from scoring.web.camera import CameraState
    from scoring.web.certificate import machine_addresses
    from vision.sources import FolderSource, FrameFeed, SourceError, check_stream, open_source, redact
    from vision.table.layout import TableLayout

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
    browser = spec == BROWSER_SOURCE
    named = None
    source: FrameFeed
    try:
        if browser:
            source = browser_source()
        elif spec != args.source and "://" not in args.source:  # a camera by name: found again if it moves
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
            source = open_source(spec, demo=_demo_source)
            if spec.lower().startswith(("http://", "https://")):
                check_stream(spec)
    except (SourceError, OSError) as e:
        raise CommandError(str(e)) from None
    if isinstance(source, FolderSource):
        source.fps = args.fps
    demo = spec == "demo"  # open_source made the data engine's demo (datasets is imported for it only)
    settings, generated = settings_from(args)
    app = create_app(settings)
    app.state.photos = display_photo_counter(args.edition)
    club = join_club(args, app.state.store, None if args.table == DEFAULT_TABLE else table_name)
    # --layout > the zones saved for the table > the source's own (the demo) > the default
    choice = choose_layout(
        file=TableLayout.from_file(args.layout) if args.layout is not None else None,
        source_own=TableLayout.from_json(source.layout_json()) if demo else None,  # type: ignore[attr-defined]
        saved=None if args.layout is not None else load_saved_layout(app.state.store, table_name),
        table=table_name)
    for note in choice.notes:
        print(f"borne run: {note}", file=sys.stderr, flush=True)
    frame_size: tuple[int, int] | None = None
    layout = choice.layout
    if layout is None:
        # the phone connects once the display serves: its default zones are drawn for the size it asks for
        frame_size = BROWSER_FRAME_SIZE if browser else _first_frame_size(source)
        layout = TableLayout.default(*frame_size)
    pipeline = _build_pipeline(args, layout, source, demo=demo)
    stop = threading.Event()
    keeper = GameKeeper(app, layout, args.game)
    camera = CameraState(source="demo" if demo else redact(str(args.source)))
    table = LiveTable(app, pipeline, keeper, camera)
    zones = TableZones(app.state.store, pipeline, table.lock, table=table_name, base=choice.base,
                       base_origin=choice.base_origin, origin=choice.origin, frame_size=frame_size,
                       saved=app.state.store.load_camera_document(name=layout_document_name(table_name)) is not None,
                       saved_size=choice.saved_size)
    table.zones = zones
    if choice.layout is None and args.find_sides:  # no --layout, no saved zones, not the demo: found from the table
        from borne.live.seating import propose_sides

        propose_sides(pipeline, zones, keeper, store=app.state.store, game_id=args.game)
    if demo and args.layout is None:
        follow_demo_layouts(pipeline, zones)
    camera.desk = table
    camera.zones = zones
    camera.flag_pictures = pipeline.flag_pictures.get
    app.state.camera = camera
    if club is not None:
        camera.forward = club.publish_live
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

    if browser:
        app.state.frame_inbox = source
    if source.live and not demo and not browser:
        # a camera: a person may switch to another Borne camera found on the network, and the hand goes on
        switchable = SwitchableSource(source, spec, named=named)
        camera.chooser = CameraSwitcher(switchable, camera)
        source = switchable
    thread = threading.Thread(target=follow, name="pipeline", daemon=True)
    watcher = threading.Thread(target=watch_camera, args=(source, camera, stop), name="camera watcher", daemon=True)
    feed_watcher = (threading.Thread(target=watch_feed, args=(source, camera, stop), name="feed watcher", daemon=True)
                    if browser else None)
    certificate = _certificate(args.https if args.https is not None else browser)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        note = "  (new; set your own with --token or BORNE_TOKEN)" if generated else ""
        print(f"Token for changes: {settings.token}{note}", flush=True)
        print(f"Camera: {'the demo (a simulated game)' if demo else redact(str(args.source))}", flush=True)
        print(f"Zones of table {table_name!r}: {zones.zones().origin.value}", flush=True)
        if browser:
            for line in phone_instructions(
                    url, host=args.host, token=settings.token,
                    addresses=certificate.addresses if certificate else machine_addresses()[1],
                    fingerprint=certificate.fingerprint if certificate else None,
                    certificate=str(certificate.certificate) if certificate else None):
                print(line, flush=True)
        elif certificate is not None:
            print(f"HTTPS certificate: {certificate.certificate}, SHA-256 {certificate.fingerprint}", flush=True)
        thread.start()
        watcher.start()
        if feed_watcher is not None:
            feed_watcher.start()

    try:
        serve(settings, app=app, announce=announce,
              tls=(certificate.certificate, certificate.key) if certificate is not None else None)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        stop.set()
        source.close()
        if club is not None:
            club.stop()
    return 0


def _certificate(https: bool) -> Any:
    """This machine's HTTPS certificate (made at the first start, then kept), or ``None`` without HTTPS."""
    from borne.commands import CommandError

    if not https:
        return None
    try:
        from scoring.web.certificate import CertificateError, keep_certificate
    except ImportError:  # pragma: no cover - cryptography is a dependency
        raise CommandError("HTTPS needs the cryptography package (pip install cryptography), or pass --no-https") from None
    try:
        return keep_certificate()
    except CertificateError as e:
        raise CommandError(str(e)) from None


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
    (a file, a folder, an index, a URL, ``demo``, ``picamera``, ``browser``) is left as it is. A camera name has no dot
    and no slash, so a mistyped file name is not looked for on the network."""
    import os
    import sys
    from pathlib import Path
    from urllib.parse import parse_qs, quote

    from borne.commands import CommandError

    name, _, query = spec.partition("?")
    if (spec in ("demo", "picamera", "browser") or spec.isdigit() or "://" in spec or "/" in name or "." in name
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


def _first_frame_size(source: Any) -> tuple[int, int]:
    from borne.commands import CommandError

    frame = source.latest(timeout=10.0) if hasattr(source, "latest") else next(iter(source.frames()), None)
    if frame is None:
        raise CommandError("the camera gave no picture; pass --layout or check the camera")
    h, w = frame.image.shape[:2]
    return w, h


def _demo_source() -> Any:
    """The built-in demo, rendered by the data engine (imported only when the demo is asked for)."""
    from datasets.demo import DemoSource

    return DemoSource(width=960, height=540)


def _build_pipeline(args: argparse.Namespace, layout: Any, source: Any, *, demo: bool) -> Any:
    from vision.pipeline import Pipeline
    from vision.read.frame_reader import FrameReader
    from vision.read.models import detector_path, load_video_recogniser
    from vision.sources.frames import DEFAULT_FPS
    from vision.track.lifecycle import LifecycleSettings

    try:
        detector_path()
        have_detector = True
    except Exception:
        have_detector = False
    before = None
    if args.truth_boxes is not None or (demo and not have_detector):
        from vision.read.replay_detector import TruthReplayDetector

        # a live stream skips frames and starts anywhere: its frames are told by their picture
        truth = TruthReplayDetector(args.truth_boxes, match_pictures=bool(source.live and not demo))
        reader = FrameReader(truth, load_video_recogniser(args.edition))
        before = truth.seek
    else:
        reader = FrameReader.from_models(args.edition, moved_only=False)  # read whole, at a few views only
    # a camera slower than the pipeline gives it every frame at its own rate (a Pi at 4 frames a second); a faster
    # one is read as often as the pipeline keeps up, about 10 frames a second
    rate = getattr(source, "fps", None)
    pipeline = Pipeline(reader, layout, goal=args.goal, settings=LifecycleSettings(start_on_first_frame=True),
                        before_read=before, fps=min(float(rate), DEFAULT_FPS) if rate else None)
    return pipeline
