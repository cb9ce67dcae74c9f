"""Borne cameras as ``borne run`` follows them: found again by name when they move, switched on the display,
and watched while no frame arrives (with the camera agent's own status for the panel)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    from firmware_cam.discovery import FoundCamera
    from scoring.web.camera import CameraState
    from vision.sources import Frame, FrameFeed, LiveSource, MjpegCapture, SourceStats


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


def watch_camera(source: FrameFeed, camera: CameraState, stop: threading.Event) -> None:
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

    def source(self) -> LiveSource:
        from vision.sources import LiveSource

        return LiveSource(self.open, name=self.name)

    def open(self) -> MjpegCapture:
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

    def __init__(self, inner: FrameFeed, spec: str, *, named: NamedCamera | None = None) -> None:
        self._inner = inner
        self.spec = spec
        """What is followed now (a stream URL, with its token: not for display)."""
        self.named = named
        """The camera followed by its name, whose address may change."""
        self._next: tuple[FrameFeed, str] | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._count = 0
        self.switches = 0

    @property
    def stats(self) -> SourceStats:
        return self._inner.stats

    def current_url(self) -> str:
        """The stream's URL now (a camera followed by name may have moved)."""
        return self.named.url if self.named is not None else self.spec

    def frames(self) -> Iterator[Frame]:
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

    def switch(self, source: FrameFeed, spec: str) -> None:
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

    def __init__(self, source: SwitchableSource, camera: CameraState) -> None:
        self.source = source
        self.camera = camera
        self._lock = threading.Lock()
        self._found: list[FoundCamera] = []
        self._at = -1e9

    def _cameras(self) -> list[FoundCamera]:
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
