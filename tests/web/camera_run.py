"""A ``borne run`` subprocess on a short rendered sequence, replaying its true boxes (no trained detector needed)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import TOKEN, BorneProcess


def render_sequence(out: Path, *, seed: int, frames: int) -> Path:
    """One rendered hand at 640×360 cut to ``frames`` frames; returns its folder (frames/, truth/, layout.json)."""
    subprocess.run([sys.executable, "-m", "borne", "data", "sequences", "--count", "1", "--seed", str(seed),
                    "--width", "640", "--height", "360", "--max-frames", str(frames), "--no-video", "--out", str(out)],
                   check=True, capture_output=True, text=True)
    (folder,) = sorted(out.glob("seq_*"))
    return folder


class CameraRun(BorneProcess):
    """``borne run --source FRAMES --truth-boxes TRUTH`` on a free loopback port.

    ``layout``: the ``--layout`` file (default: the sequence's own; ``None``: no ``--layout``, so the zones
    saved for the table or the default ones); ``table``: ``--table``; ``find_sides``: without ``--layout`` or saved
    zones, the sides are found from the table (else ``--no-find-sides``: the default zones).
    """

    SEQUENCE_LAYOUT = Path("layout.json")

    def __init__(self, db: Path, frames: Path, sequence: Path, *, fps: float, layout: Path | None = SEQUENCE_LAYOUT,
                 table: str | None = None, find_sides: bool = False) -> None:
        super().__init__()
        self.find_sides = find_sides
        self.db, self.frames, self.sequence, self.fps = db, frames, sequence, fps
        self.layout = sequence / layout if layout == self.SEQUENCE_LAYOUT else layout
        self.table = table
        self.log = db.parent / f"run-{self.port}.log"

    def start(self) -> CameraRun:
        env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
        options = ["--layout", str(self.layout)] if self.layout is not None else []
        if self.table is not None:
            options += ["--table", self.table]
        if not self.find_sides:  # without --layout: the default zones, unless the test is of the sides found
            options.append("--no-find-sides")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--source", str(self.frames), *options,
             "--truth-boxes", str(self.sequence / "truth"), "--fps", str(self.fps),
             "--port", str(self.port), "--db", str(self.db), "--token", TOKEN],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, text=True, env=env)
        self.await_route("/api/camera", seconds=30, output=self.log.read_text)
        return self

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10)

    def put(self, path: str, *, token: str | None = TOKEN, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        return httpx.put(self.url + path, headers=headers, timeout=10, **kw)

    def delete(self, path: str, *, token: str | None = TOKEN) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        return httpx.delete(self.url + path, headers=headers, timeout=10)

    def wait_for_frame(self, *, timeout: float) -> None:
        """Until the camera has a picture and its size is known."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r = self.get("/api/camera/layout")
            if r.status_code == 200 and r.json()["frame_size"] is not None and self.get("/api/camera").json()["has_frame"]:
                return
            time.sleep(0.1)
        raise AssertionError(f"no picture within {timeout} s\n{self.log.read_text()}")

    def hand(self) -> dict[str, Any] | None:
        r = self.get("/api/camera/hand")
        return r.json() if r.status_code == 200 else None

    def wait_for(self, test: Any, *, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            hand = self.hand()
            if hand is not None and test(hand):
                return hand
            time.sleep(0.1)
        raise AssertionError(f"{what} within {timeout} s; last: {self.hand()}\n{self.log.read_text()}")



def zone_editing_run(folder: Path, sequence: Path) -> Iterator[CameraRun]:
    """A ``borne run`` of a rendered sequence without ``--layout`` (so its zones can be edited), playing
    at 2 frames per second so the picture keeps being drawn through a test module; stopped after."""
    run = CameraRun(folder / "games.sqlite3", sequence / "frames", sequence, fps=2, layout=None).start()
    run.wait_for_frame(timeout=30)
    yield run
    run.stop()
