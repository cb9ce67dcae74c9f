"""The agent's settings: a small TOML file, then the command line's flags over it.

Every setting has a default, so no file is needed. A file names its settings by section::

    [camera]
    source = "picamera"      # picamera, a webcam index (0) or a video file
    width = 1280
    height = 720
    fps = 10
    jpeg_quality = 80
    exposure = "lock"        # auto | lock (auto until the picture settles, then held) | fixed
    focus = "continuous"     # auto | continuous | manual

    [server]
    port = 8081
    token = "..."

    [watchdog]
    stall_s = 5

>>> config = CamConfig.from_toml('[camera]\\nfps = 15\\n[server]\\nport = 9000')
>>> config.camera.fps, config.server.port, config.camera.width
(15.0, 9000, 1280)
>>> CamConfig.from_toml('[camera]\\nfsp = 15')
Traceback (most recent call last):
...
firmware_cam.config.ConfigError: camera.fsp: unknown setting (known: source, width, height, fps, jpeg_quality, exposure, exposure_us, gain, focus, lens_position, rotation)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A setting that is unknown, of the wrong type or out of bounds; the message names it."""


EXPOSURES = ("auto", "lock", "fixed")
FOCUSES = ("auto", "continuous", "manual")


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    """``picamera``, a webcam index (``0``), a video file, or ``auto``: the Pi camera when ``picamera2`` is
    installed, else webcam 0."""
    width: int = 1280
    """Picture width asked of the camera (a video file keeps its own size)."""
    height: int = 720
    fps: float = 10.0
    """Frames per second asked of the camera; the live pipeline reads about 10 on a laptop (a video file
    plays at its own rate)."""
    jpeg_quality: int = 80
    """JPEG quality of the frames served (1-100): higher is sharper and heavier on the network."""
    exposure: str = "lock"
    """``auto``: the camera follows the light; ``lock``: automatic until the picture has settled, then held,
    so a hand reaching in does not darken the cards; ``fixed``: ``exposure_us`` and ``gain`` from the start."""
    exposure_us: int | None = None
    """Exposure time in microseconds for ``exposure = "fixed"``."""
    gain: float | None = None
    """Analogue gain for ``exposure = "fixed"`` (1.0 = none)."""
    focus: str = "continuous"
    """``auto``: focus once at start; ``continuous``; ``manual``: ``lens_position`` (cameras with autofocus)."""
    lens_position: float | None = None
    """Manual focus in dioptres (1 / metres): 1.0 for a table one metre below."""
    rotation: int = 0
    """0 or 180: a camera clamped upside down."""

    def check(self) -> None:
        if not self.source:
            raise ConfigError("camera.source: empty (picamera, a webcam index or a video file)")
        if not 16 <= self.width <= 4608 or not 16 <= self.height <= 3496:
            raise ConfigError(f"camera.width/height: {self.width}×{self.height} is not a camera resolution")
        if not 0.5 <= self.fps <= 120:
            raise ConfigError(f"camera.fps: must be between 0.5 and 120, not {self.fps:g}")
        if not 1 <= self.jpeg_quality <= 100:
            raise ConfigError(f"camera.jpeg_quality: must be between 1 and 100, not {self.jpeg_quality}")
        if self.exposure not in EXPOSURES:
            raise ConfigError(f"camera.exposure: one of {', '.join(EXPOSURES)}, not {self.exposure!r}")
        if self.exposure == "fixed" and (self.exposure_us is None or self.exposure_us <= 0):
            raise ConfigError("camera.exposure_us: a fixed exposure needs a time in microseconds above 0")
        if self.gain is not None and not 1.0 <= self.gain <= 64.0:
            raise ConfigError(f"camera.gain: must be between 1 and 64, not {self.gain:g}")
        if self.focus not in FOCUSES:
            raise ConfigError(f"camera.focus: one of {', '.join(FOCUSES)}, not {self.focus!r}")
        if self.focus == "manual" and (self.lens_position is None or not 0.0 <= self.lens_position <= 32.0):
            raise ConfigError("camera.lens_position: manual focus needs a lens position of 0 to 32 dioptres")
        if self.rotation not in (0, 180):
            raise ConfigError(f"camera.rotation: 0 or 180, not {self.rotation}")


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    """Where to listen: ``0.0.0.0`` is the whole LAN, ``127.0.0.1`` this machine only."""
    port: int = 8081
    token: str | None = None
    """The camera's own token (``BORNE_CAM_TOKEN`` or ``--token`` also set it); a new one is made and
    printed when none is given."""
    name: str | None = None
    """The name announced over mDNS (default: ``borne-cam-`` and the host name)."""
    announce: bool = True
    """Announce the camera over mDNS/DNS-SD (needs the ``zeroconf`` package)."""
    max_clients: int = 8
    """Connections served at once; more are refused with 503, so memory stays bounded."""
    send_timeout_s: float = 10.0
    """A client that has not taken a frame for this long is dropped."""

    def check(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"server.port: must be 0 to 65535, not {self.port}")
        if self.token is not None and (len(self.token) < 8 or not self.token.isprintable() or " " in self.token):
            raise ConfigError("server.token: at least 8 printable characters, no spaces")
        if self.name is not None and not (1 <= len(self.name) <= 60 and self.name.isprintable() and "." not in self.name):
            raise ConfigError("server.name: 1 to 60 printable characters, no dots")
        if not 1 <= self.max_clients <= 64:
            raise ConfigError(f"server.max_clients: must be between 1 and 64, not {self.max_clients}")
        if not 0.5 <= self.send_timeout_s <= 120:
            raise ConfigError(f"server.send_timeout_s: must be between 0.5 and 120, not {self.send_timeout_s:g}")


@dataclass(frozen=True)
class WatchdogConfig:
    stall_s: float = 5.0
    """No frame for this long: the camera is declared lost and restarted. Lower notices a stuck camera
    sooner; too low restarts a camera that is only slow to start."""
    min_restart_interval_s: float = 10.0
    """Two restarts are at least this far apart, so a camera that is gone is not hammered."""

    def check(self) -> None:
        if not 0.2 <= self.stall_s <= 600:
            raise ConfigError(f"watchdog.stall_s: must be between 0.2 and 600, not {self.stall_s:g}")
        if not 0.0 <= self.min_restart_interval_s <= 3600:
            raise ConfigError(f"watchdog.min_restart_interval_s: must be 0 to 3600, not {self.min_restart_interval_s:g}")


@dataclass(frozen=True)
class CamConfig:
    camera: CameraConfig = field(default_factory=CameraConfig)
    server: ServerConfig = field(default_factory=ServerConfig)
    watchdog: WatchdogConfig = field(default_factory=WatchdogConfig)

    def check(self) -> CamConfig:
        """:raises ConfigError: naming the setting."""
        self.camera.check()
        self.server.check()
        self.watchdog.check()
        return self

    @classmethod
    def from_toml(cls, text: str, *, where: str = "") -> CamConfig:
        """:raises ConfigError: a file that is not TOML, an unknown section or setting, a bad value."""
        prefix = f"{where}: " if where else ""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{prefix}not a TOML file: {e}") from None
        try:
            return cls.from_json(data)
        except ConfigError as e:
            raise ConfigError(f"{prefix}{e}") from None

    @classmethod
    def from_file(cls, path: str | Path) -> CamConfig:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"{path}: cannot read the configuration: {e.strerror or e}") from None
        return cls.from_toml(text, where=str(path))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CamConfig:
        sections = {"camera": CameraConfig, "server": ServerConfig, "watchdog": WatchdogConfig}
        out: dict[str, Any] = {}
        for name, values in data.items():
            if name not in sections:
                raise ConfigError(f"[{name}]: unknown section (known: {', '.join(sections)})")
            if not isinstance(values, dict):
                raise ConfigError(f"{name}: a section ([{name}]), not a value")
            out[name] = _section(sections[name], name, values)
        return cls(**out).check()

    def with_flags(self, **flags: Any) -> CamConfig:
        """The same settings with those given on the command line (``None``: not given) put over them."""
        camera = {k: v for k, v in flags.items() if k in _names(CameraConfig) and v is not None}
        server = {k: v for k, v in flags.items() if k in _names(ServerConfig) and v is not None}
        watchdog = {k: v for k, v in flags.items() if k in _names(WatchdogConfig) and v is not None}
        return CamConfig(replace(self.camera, **camera), replace(self.server, **server),
                         replace(self.watchdog, **watchdog)).check()


def _names(kind: type) -> list[str]:
    return [f.name for f in fields(kind)]


_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "str": (str,), "bool": (bool,)}


def _section(kind: type, section: str, values: dict[str, object]) -> Any:
    known = {f.name: f for f in fields(kind)}
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"{section}.{key}: unknown setting (known: {', '.join(known)})")
        if key == "source" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # source = 0: a webcam index
        wanted = str(known[key].type).replace(" | None", "")
        types = _TYPES[wanted]
        if isinstance(value, bool) and wanted != "bool" or not isinstance(value, types):
            raise ConfigError(f"{section}.{key}: expected {'a number' if wanted in ('int', 'float') else 'a ' + wanted}"
                              f"{' (whole)' if wanted == 'int' else ''}, not {value!r}")
        out[key] = float(value) if wanted == "float" and isinstance(value, int | float) else value
    return kind(**out)
