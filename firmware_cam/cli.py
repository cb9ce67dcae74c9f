"""``borne-cam``: the command line of the camera agent (CONTRACT.md §10)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from typing import Any

from firmware_cam.config import CamConfig, ConfigError

log = logging.getLogger("borne-cam")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="borne-cam",
        description="Serve a camera as Borne's eyes: an authenticated MJPEG stream (/stream.mjpg), snapshots "
                    "(/snapshot.jpg) and a status (/status), announced on the LAN over mDNS. Settings come from "
                    "--config (TOML), then these flags.")
    p.add_argument("--config", metavar="FILE", help="a TOML file ([camera], [server], [watchdog]; see docs/camera-agent.md)")
    p.add_argument("--source", help="picamera, a webcam index (0) or a video file (default: the Pi camera when "
                                    "picamera2 is installed, else webcam 0)")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: the whole LAN)")
    p.add_argument("--port", type=int, help="port (default 8081)")
    p.add_argument("--token", help="the camera's token (default: BORNE_CAM_TOKEN, else the config file's, else a new one)")
    p.add_argument("--width", type=int, help="picture width (default 1280)")
    p.add_argument("--height", type=int, help="picture height (default 720)")
    p.add_argument("--fps", type=float, help="frames per second (default 10)")
    p.add_argument("--jpeg-quality", type=int, dest="jpeg_quality", help="JPEG quality 1-100 (default 80)")
    p.add_argument("--exposure", choices=("auto", "lock", "fixed"), help="exposure (default lock)")
    p.add_argument("--exposure-us", type=int, dest="exposure_us", help="fixed exposure time in µs")
    p.add_argument("--focus", choices=("auto", "continuous", "manual"), help="focus (default continuous)")
    p.add_argument("--lens-position", type=float, dest="lens_position", help="manual focus in dioptres")
    p.add_argument("--name", help="the name announced over mDNS (default borne-cam-HOSTNAME)")
    p.add_argument("--no-announce", action="store_true", help="do not announce the camera over mDNS")
    p.add_argument("--stall-s", type=float, dest="stall_s", help="no frame for this long: restart the camera (default 5)")
    p.add_argument("--min-restart-interval-s", type=float, dest="min_restart_interval_s",
                   help="at least this long between two restarts (default 10)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    return p


def load_config(args: argparse.Namespace) -> CamConfig:
    """The file's settings (if any), then ``BORNE_CAM_TOKEN``, then the flags. :raises ConfigError:"""
    config = CamConfig.from_file(args.config) if args.config else CamConfig()
    env_token = os.environ.get("BORNE_CAM_TOKEN") or None
    flags: dict[str, Any] = {k: getattr(args, k) for k in (
        "source", "host", "port", "width", "height", "fps", "jpeg_quality", "exposure", "exposure_us", "focus",
        "lens_position", "name", "stall_s", "min_restart_interval_s")}
    flags["token"] = args.token or env_token
    if args.no_announce:
        flags["announce"] = False
    return config.with_flags(**flags)


def _set_up_logging(level: str) -> None:
    # under systemd the journal stamps each line; by hand, the time helps
    fmt = "%(levelname)s %(message)s" if os.environ.get("JOURNAL_STREAM") else "%(asctime)s borne-cam %(levelname)s %(message)s"
    logging.basicConfig(level=getattr(logging, level.upper()), format=fmt, stream=sys.stderr)


def main(argv: list[str] | None = None, *, picamera2: Any = None) -> int:
    """Run the agent until SIGTERM or Ctrl-C. ``picamera2``: a stand-in for the module (tests)."""
    args = parser().parse_args(argv)
    _set_up_logging(args.log_level)
    try:
        config = load_config(args)
    except ConfigError as e:
        print(f"borne-cam: {e}", file=sys.stderr)
        return 2
    from firmware_cam.agent import Agent
    from firmware_cam.cameras import CameraError, open_camera
    from firmware_cam.server import CamServer
    from firmware_cam.system import bound_heap

    bound_heap()  # before the server's threads start

    token, generated = config.server.token, False
    if token is None:
        token, generated = secrets.token_urlsafe(12), True
    # a camera that cannot open at all (no such file, picamera2 missing) is refused now, not retried for ever
    try:
        open_camera(config.camera, picamera2=picamera2).close()
    except CameraError as e:
        print(f"borne-cam: {e}", file=sys.stderr)
        return 2
    agent = Agent(config, lambda: open_camera(config.camera, picamera2=picamera2))
    try:
        server = CamServer(agent, token, (config.server.host, config.server.port))
    except OSError as e:
        print(f"borne-cam: cannot listen on {config.server.host}:{config.server.port}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    agent.start()
    from firmware_cam.system import sd_notify

    sd_notify("READY=1")
    port = server.server_address[1]
    shown = "127.0.0.1" if config.server.host in ("0.0.0.0", "") else config.server.host
    print(f"borne-cam is serving {agent.config.camera.source} on http://{shown}:{port}/stream.mjpg", flush=True)
    note = "  (new; set your own with --token, BORNE_CAM_TOKEN or [server] token)" if generated else ""
    print(f"Camera token: {token}{note}", flush=True)
    announcement: list[Any] = []
    if config.server.announce:
        # in the background: mDNS probes the name for a second or two, and the stream should not wait for it
        threading.Thread(target=_announce, args=(config, port, announcement), name="mdns", daemon=True).start()

    def stop(_signum: int, _frame: Any) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        for a in list(announcement):
            try:
                a.close()
            except Exception as e:
                log.debug("withdrawing the announcement: %s", e)
        server.server_close()
        agent.close()
        log.info("stopped after %d frames", agent.frames)
    return 0


def _announce(config: CamConfig, port: int, out: list[Any]) -> None:
    from firmware_cam.discovery import Announcement, DiscoveryError, default_name

    name = config.server.name or default_name()
    try:
        out.append(Announcement(name, port, host=config.server.host))
    except (DiscoveryError, OSError) as e:
        log.warning("not announced over mDNS: %s", e)
        return
    print(f"Announced over mDNS as {name!r}: borne run --source '{name}?token=…'", flush=True)
