"""Fixtures of the camera agent's tests: a short video standing in for a camera, the agent as a real
process on a loopback port, and a reader of its MJPEG stream."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web.conftest import free_port

CAM_TOKEN = "cam-token-1234"


def write_video(path: Path, frames: int = 40, *, size: tuple[int, int] = (320, 240), fps: float = 20.0) -> Path:
    """A video whose frame k is grey level 5k with a white bar at x = 4k, so frames can be told apart."""
    w, h = size
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert writer.isOpened()
    for k in range(frames):
        image = np.full((h, w, 3), (5 * k) % 256, np.uint8)
        image[:, (4 * k) % w: (4 * k) % w + 4] = 255
        writer.write(image)
    writer.release()
    return path


def write_noise_video(path: Path, frames: int, *, size: tuple[int, int] = (1280, 720), fps: float = 20.0) -> Path:
    """Random pictures: each about a megabyte of JPEG, so buffers and queues fill fast."""
    w, h = size
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    noise = np.random.default_rng(1).integers(0, 256, (4, h, w, 3), dtype=np.uint8)
    for k in range(frames):
        writer.write(noise[k % 4])
    writer.release()
    return path


def video_from_frames(folder: Path, out: Path, *, fps: float, hold_last_s: float = 0.0,
                      then_cleared: Path | None = None, cleared_s: float = 0.0) -> Path:
    """The JPEG frames of a rendered sequence as one MJPG video; the last frame held ``hold_last_s`` more
    (a camera goes on seeing the table after the last card), then ``then_cleared`` (the table before the
    hand) for ``cleared_s``: the players gathered the cards."""
    paths = sorted(folder.glob("*.jpg"))
    first = cv2.imread(str(paths[0]))
    h, w = first.shape[:2]
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert writer.isOpened()
    for p in paths:
        writer.write(cv2.imread(str(p)))
    for _ in range(round(hold_last_s * fps)):
        writer.write(cv2.imread(str(paths[-1])))
    if then_cleared is not None:
        for _ in range(round(cleared_s * fps)):
            writer.write(cv2.imread(str(then_cleared)))
    writer.release()
    return out


@pytest.fixture
def video(tmp_path: Path) -> Path:
    return write_video(tmp_path / "camera.avi")


STARTED: list[Any] = []
"""Every process a test started (agents, ``borne run``): stopped after the test, whatever happened in it."""


@pytest.fixture(autouse=True)
def _stop_what_the_test_started() -> Iterator[None]:
    yield
    while STARTED:
        process = STARTED.pop()
        try:
            process.stop()
        except Exception as e:  # the test's own failure is the one to see
            print(f"stopping {process}: {e}")


class AgentProcess:
    """``python -m firmware_cam`` on a free loopback port, reading a video file."""

    def __init__(self, source: Path | str, folder: Path, *, token: str = CAM_TOKEN, extra: list[str] | None = None,
                 port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.source, self.token, self.extra = str(source), token, extra or []
        self.log = folder / f"agent-{self.port}.log"
        self.process: subprocess.Popen[str] | None = None

    @property
    def stream_url(self) -> str:
        return f"{self.url}/stream.mjpg?token={self.token}"

    def start(self, *, wait: bool = True) -> AgentProcess:
        env = {k: v for k, v in os.environ.items() if k != "BORNE_CAM_TOKEN"}
        args = [sys.executable, "-m", "firmware_cam", "--source", self.source, "--host", "127.0.0.1",
                "--port", str(self.port), "--token", self.token, "--stall-s", "1", "--min-restart-interval-s", "0.5"]
        if "--name" not in self.extra:
            args.append("--no-announce")
        with self.log.open("a") as out:
            self.process = subprocess.Popen(args + self.extra, stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        STARTED.append(self)
        if wait:
            try:
                self.wait_ready()
            except BaseException:
                self.stop()  # a test that fails here leaves no agent behind
                raise
        return self

    def wait_ready(self, seconds: float = 20.0) -> None:
        assert self.process is not None
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the agent exited ({self.process.returncode}):\n{self.log.read_text()}")
            try:
                if self.status()["frames"] > 0:
                    return
            except (OSError, http.client.HTTPException, KeyError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the agent gave no frame within {seconds} s:\n{self.log.read_text()}")

    def get(self, path: str, *, token: str | None = CAM_TOKEN, headers: dict[str, str] | None = None,
            timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent = dict(headers or {})
            if token is not None:
                sent["Authorization"] = f"Bearer {token}"
            conn.request("GET", path, headers=sent)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def status(self) -> dict[str, Any]:
        import json

        code, _, body = self.get("/status", token=self.token, timeout=2.0)
        assert code == 200, body
        result: dict[str, Any] = json.loads(body)
        return result

    def rss_kib(self) -> int:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> int | None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode if self.process else None


@pytest.fixture
def agent(video: Path, tmp_path: Path) -> Iterator[AgentProcess]:
    a = AgentProcess(video, tmp_path).start()
    yield a
    a.stop()


class StreamReader:
    """Reads ``/stream.mjpg`` part by part: (frame number, JPEG bytes)."""

    def __init__(self, port: int, *, query: str = f"token={CAM_TOKEN}", timeout: float = 5.0,
                 receive_buffer: int | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        if receive_buffer is not None:  # set before connecting, so the window stays small
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            sock.settimeout(timeout)
            sock.connect(("127.0.0.1", port))
            self.conn.sock = sock
        self.conn.request("GET", f"/stream.mjpg?{query}")
        self.response = self.conn.getresponse()

    def part(self) -> tuple[int, bytes]:
        r = self.response
        line = r.readline()
        while line and not line.startswith(b"--"):
            line = r.readline()
        assert line, "the stream ended"
        headers = {}
        while True:
            h = r.readline().strip()
            if not h:
                break
            k, _, v = h.decode().partition(":")
            headers[k.strip().lower()] = v.strip()
        assert headers["content-type"] == "image/jpeg"
        data = r.read(int(headers["content-length"]))
        return int(headers["x-frame"]), data

    def close(self) -> None:
        self.response.close()  # the response holds the socket open too
        self.conn.close()
