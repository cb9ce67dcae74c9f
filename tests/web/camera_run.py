"""A ``borne run`` subprocess on a short rendered sequence, replaying its true boxes (no trained detector needed)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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
    """``borne run --source FRAMES --truth-boxes TRUTH`` on a free loopback port."""

    def __init__(self, db: Path, frames: Path, sequence: Path, *, fps: float) -> None:
        super().__init__()
        self.db, self.frames, self.sequence, self.fps = db, frames, sequence, fps
        self.log = db.parent / f"run-{self.port}.log"

    def start(self) -> CameraRun:
        env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--source", str(self.frames), "--layout",
             str(self.sequence / "layout.json"), "--truth-boxes", str(self.sequence / "truth"), "--fps", str(self.fps),
             "--port", str(self.port), "--db", str(self.db), "--token", TOKEN],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, text=True, env=env)
        self.await_route("/api/camera", seconds=30, output=self.log.read_text)
        return self

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10)

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

