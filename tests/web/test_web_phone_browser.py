"""End to end: a phone's browser as the camera. Chromium's fake camera plays a rendered hand (a .y4m file);
the page /camera, opened over HTTPS on a real ``borne run --source browser``, sends its pictures over the
WebSocket with the table's token, and the pipeline counts the distance cards played; without the token the
page is refused and nothing is counted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.a11y import audit
from tests.web.camera_run import render_sequence
from tests.web.conftest import TOKEN, BorneProcess

pytestmark = pytest.mark.browser

FPS = 10
FRAMES = 30
"""Three seconds of the rendered hand (seed 5): two 200s are played by frame 23, then the video loops."""


def write_y4m(frames: list[Path], out: Path, *, fps: int) -> Path:
    """The frames as a Y4M video (4:2:0), the format Chromium's fake camera plays (``--use-file-for-fake-video-capture``)."""
    first = cv2.imread(str(frames[0]))
    h, w = first.shape[:2]
    with out.open("wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for path in frames:
            image = cv2.imread(str(path))
            f.write(b"FRAME\n" + cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes())
    return out


class PhoneRun(BorneProcess):
    """``borne run --source browser`` on a free loopback port, over HTTPS with a certificate kept in ``data``."""

    def __init__(self, folder: Path, sequence: Path) -> None:
        super().__init__()
        self.url = f"https://127.0.0.1:{self.port}"
        self.folder, self.sequence = folder, sequence
        self.log = folder / "run.log"

    def start(self) -> PhoneRun:
        env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
        env["XDG_DATA_HOME"] = str(self.folder / "data")  # the certificate, kept per machine: here per test
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--source", "browser", "--layout", str(self.sequence / "layout.json"),
             "--truth-boxes", str(self.sequence / "truth"), "--port", str(self.port),
             "--db", str(self.folder / "games.sqlite3"), "--token", TOKEN],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"borne run exited: {self.log.read_text()}")
            try:
                if self.get("/api/camera").status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"borne run did not start within 30 s: {self.log.read_text()}")

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, verify=False)

    def wait_hand(self, test: Any, *, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        hand: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            r = self.get("/api/camera/hand")
            hand = r.json() if r.status_code == 200 else None
            if hand is not None and test(hand):
                return hand
            time.sleep(0.2)
        raise AssertionError(f"{what} within {timeout} s; last: {hand}\n{self.log.read_text()}")


@pytest.fixture(scope="module")
def phone_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("phone")
    seq = render_sequence(folder / "seq", seed=5, frames=FRAMES)
    frames = sorted((seq / "frames").glob("*.jpg"))
    return seq, write_y4m(frames, folder / "hand.y4m", fps=FPS)


@pytest.fixture(scope="module")
def camera_browser(browser: Any, phone_video: tuple[Path, Path]) -> Iterator[Any]:
    """A second Chromium from the session's Playwright, its fake camera playing the rendered hand."""
    executable = os.environ.get("BORNE_CHROMIUM") or shutil.which("chromium") or CHROMIUM
    fake = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={phone_video[1]}"]
    b = browser.browser_type.launch(executable_path=executable, args=[*CHROMIUM_ARGS, *fake])
    yield b
    b.close()


def distance_counted(hand: dict[str, Any]) -> bool:
    return hand["plays"] >= 1 and any(n for s in hand["sides"] for n in s["distance"].values())


def test_the_phone_page_plays_a_hand_through_the_browser_camera_to_a_counted_play(
        tmp_path: Path, phone_video: tuple[Path, Path], camera_browser: Any) -> None:
    seq, _ = phone_video
    run = PhoneRun(tmp_path, seq).start()
    context = camera_browser.new_context(ignore_https_errors=True, viewport={"width": 800, "height": 900})
    page = context.new_page()
    try:
        log = run.log.read_text()
        assert f"Phone camera: open {run.url}/camera?token={TOKEN}" in log and "SHA-256 " in log
        assert (tmp_path / "data" / "borne" / "https-certificate.pem").exists()
        page.goto(f"{run.url}/camera?token={TOKEN}")
        page.wait_for_selector('#phone-state[data-state="sending"]', timeout=30_000)
        assert "token=" not in page.url  # taken out of the address bar, kept on the device
        hand = run.wait_hand(distance_counted, timeout=90, what="a distance card counted")
        assert hand["events"] and hand["events"][0]["card"].startswith("distance_")
        # the page shows what it sent and what the display dropped, from the server's own counts
        page.wait_for_function("Number(document.getElementById('phone-dropped').dataset.received) > 0",
                               timeout=10_000)
        sent = float(page.get_attribute("#phone-sent", "data-fps") or 0)
        assert sent > 0 and page.inner_text("#phone-sent").endswith("pictures/s sent")
        assert "dropped by Borne" in page.inner_text("#phone-dropped")
        status = run.get("/api/camera").json()
        assert status["connected"] and status["source"] == "browser"
        assert "pictures/s received" in status["message"]
    finally:
        context.close()
        run.stop()


def test_the_phone_page_without_the_token_is_refused_and_nothing_is_counted(
        tmp_path: Path, phone_video: tuple[Path, Path], camera_browser: Any) -> None:
    seq, _ = phone_video
    run = PhoneRun(tmp_path, seq).start()
    # the policy lets no script in: axe-core is added to this page only for its audit
    context = camera_browser.new_context(ignore_https_errors=True, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"{run.url}/camera?token=not-the-token")
        state = page.wait_for_selector('#phone-state[data-state="refused"]', timeout=30_000)
        assert state is not None and "wrong token" in state.inner_text()
        assert page.is_visible("#phone-token-input")  # asks for the right one
        assert audit(page, "phone camera") == []
        status = run.get("/api/camera").json()
        assert status["frames"] == 0 and not status["connected"]
    finally:
        context.close()
        run.stop()
