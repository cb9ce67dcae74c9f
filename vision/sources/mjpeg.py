"""HTTP MJPEG streams: the Borne camera agent's ``/stream.mjpg`` (CONTRACT §10) or an IP camera's."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.sources.frames import SourceError


class StreamRefusedError(SourceError):
    """The camera answered but refused us: no token or a wrong one (HTTP 401 or 403)."""


def redact(url: str) -> str:
    """``url`` with its token hidden, for messages and the display.

    >>> redact("http://pi.local:8081/stream.mjpg?token=s3cret&x=1")
    'http://pi.local:8081/stream.mjpg?token=***&x=1'
    """
    import re

    return re.sub(r"(token=)[^&#]*", r"\1***", url)


class MjpegCapture:
    """An HTTP MJPEG stream (``multipart/x-mixed-replace``) read part by part: the Borne camera agent's
    ``/stream.mjpg`` (CONTRACT §10) or an IP camera's. It has the :class:`Capture` interface.

    A ``token`` in the URL's query is also sent as ``Authorization: Bearer``.

    :raises StreamRefusedError: the camera wants a token, or another one (with its own explanation).
    :raises SourceError: the server answered with something else than an MJPEG stream.
    :raises OSError: nothing answers (yet).
    """

    def __init__(self, url: str, *, timeout: float = 5.0) -> None:
        import http.client
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SourceError(f"{redact(url)}: not an http:// stream URL")
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._conn = kind(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "multipart/x-mixed-replace, image/jpeg"}
        token = parse_qs(parts.query).get("token")
        if token:
            headers["Authorization"] = f"Bearer {token[0]}"
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            self._conn.request("GET", path, headers=headers)
            response = self._conn.getresponse()
        except Exception:
            self._conn.close()
            raise
        if response.status in (401, 403):
            detail = _detail(response.read(2000))
            self._conn.close()
            what = "asks for a token" if response.status == 401 else "refused the token"
            raise StreamRefusedError(f"{redact(url)}: the camera {what} (HTTP {response.status}): {detail}")
        content_type = response.getheader("Content-Type", "")
        if response.status != 200 or "multipart" not in content_type.lower():
            self._conn.close()
            raise SourceError(f"{redact(url)}: not an MJPEG stream (HTTP {response.status}, {content_type or 'no type'})")
        boundary = next((p.split("=", 1)[1].strip().strip('"') for p in content_type.split(";")
                         if p.strip().lower().startswith("boundary=")), "")
        self._boundary = ("--" + boundary.removeprefix("--")).encode() if boundary else b"--"
        self._response = response
        self.captured_at: float | None = None
        """The agent's wall-clock capture time of the last frame read (its ``X-Timestamp``), when sent."""
        self.frame_number: int | None = None
        """The agent's number of the last frame read (``X-Frame``), when sent."""

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, Any]:
        """The next picture; ``(False, None)`` when the stream ended or stalled, ``(True, None)`` for a
        part that is not a picture (counted as corrupt)."""
        import http.client

        import cv2

        try:
            data = self._next_part()
        except (TimeoutError, OSError, http.client.HTTPException, ValueError):
            return False, None
        if data is None:
            return False, None
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return True, image

    def _next_part(self) -> bytes | None:
        r = self._response
        line = r.readline(1024)
        while line and not line.strip().startswith(self._boundary):
            line = r.readline(1024)
        if not line:
            return None
        length: int | None = None
        self.captured_at = self.frame_number = None
        for _ in range(32):
            header = r.readline(1024).strip()
            if not header:
                break
            name, _, value = header.decode("latin-1").partition(":")
            key = name.strip().lower()
            if key == "content-length":
                length = int(value)
            elif key == "x-timestamp":
                self.captured_at = float(value)
            elif key == "x-frame":
                self.frame_number = int(value)
        if length is None:  # no length: the picture runs to its end-of-image marker
            data = bytearray()
            while not data.endswith(b"\xff\xd9"):
                chunk = r.read(1)
                if not chunk or len(data) > 32 << 20:
                    return None
                data += chunk
            return bytes(data)
        if not 0 < length <= 32 << 20:
            raise ValueError(f"a part of {length} bytes")
        data = r.read(length)  # type: ignore[assignment]
        return data if len(data) == length else None  # type: ignore[return-value]

    def release(self) -> None:
        self._conn.close()


def _detail(body: bytes) -> str:
    import json

    try:
        detail = json.loads(body).get("detail")
        if isinstance(detail, str):
            return detail
    except (ValueError, AttributeError):
        pass
    return body.decode("utf-8", "replace").strip()[:200] or "no reason given"


def check_stream(url: str, *, timeout: float = 5.0) -> None:
    """Try an HTTP stream once: a camera that refuses the token is refused now, with its reason; one that
    does not answer yet may come later (nothing is raised).

    :raises StreamRefusedError:
    :raises SourceError: the URL answers with something that is not an MJPEG stream.
    """
    try:
        MjpegCapture(url, timeout=timeout).release()
    except SourceError:
        raise
    except Exception:
        return
