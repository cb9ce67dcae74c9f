"""The agent as a real process on loopback (CONTRACT §10): the stream, snapshots and status behind the
camera's token; a slow client gets the newest frame; memory stays bounded whatever the clients do."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.firmware_cam.conftest import CAM_TOKEN, AgentProcess, StreamReader, write_noise_video


def test_the_stream_is_mjpeg_of_the_cameras_frames_in_order(agent: AgentProcess) -> None:
    reader = StreamReader(agent.port)
    try:
        assert reader.response.status == 200
        assert reader.response.getheader("Content-Type") == "multipart/x-mixed-replace; boundary=borneframe"
        parts = [reader.part() for _ in range(8)]
    finally:
        reader.close()
    numbers = [n for n, _ in parts]
    assert numbers == sorted(numbers) and len(set(numbers)) == 8
    image = cv2.imdecode(np.frombuffer(parts[-1][1], np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (240, 320, 3)


def test_a_snapshot_and_the_status(agent: AgentProcess) -> None:
    code, headers, body = agent.get("/snapshot.jpg")
    assert code == 200 and headers["content-type"] == "image/jpeg" and body[:2] == b"\xff\xd8"
    assert cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR).shape == (240, 320, 3)
    status = agent.status()
    assert status["camera"] == "ok" and status["frames"] > 0 and status["uptime_s"] >= 0
    for key in ("dropped", "restarts", "temperature_c", "throttled", "mean_jpeg_bytes", "clients", "backend"):
        assert key in status
    assert (status["width"], status["height"], status["jpeg_quality"]) == (320, 240, 80)
    code, _, _ = agent.get(f"/status?token={CAM_TOKEN}", token=None)
    assert code == 200


@pytest.mark.parametrize("path", ["/stream.mjpg", "/snapshot.jpg", "/status"])
def test_no_token_or_a_wrong_one_is_refused_with_a_clear_message(agent: AgentProcess, path: str) -> None:
    code, headers, body = agent.get(path, token=None)
    assert code == 401 and "needs its token" in json.loads(body)["detail"]
    assert headers["www-authenticate"].startswith("Bearer")
    code, _, body = agent.get(path, token="not-the-token")
    assert code == 403 and "wrong token" in json.loads(body)["detail"]
    code, _, body = agent.get(f"{path}?token=not-the-token", token=None)
    assert code == 403
    time.sleep(0.2)
    log = agent.log.read_text()
    assert "refused a client at 127.0.0.1: no token" in log and "refused a client at 127.0.0.1: wrong token" in log


def test_an_unknown_page_says_what_the_camera_serves(agent: AgentProcess) -> None:
    code, _, body = agent.get("/video")
    assert code == 404 and "/stream.mjpg" in json.loads(body)["detail"]


def test_a_slow_client_gets_the_newest_frame_and_the_skipped_ones_are_counted(tmp_path: Path) -> None:
    # noisy 1280 × 720 frames (about a megabyte of JPEG each) fill the socket's buffers in a few frames
    path = write_noise_video(tmp_path / "noise.avi", 60)
    agent = AgentProcess(path, tmp_path).start()
    try:
        reader = StreamReader(agent.port, receive_buffer=64 << 10)
        first, _ = reader.part()
        time.sleep(1.5)  # the camera runs on: about 30 frames, more than the buffers between us hold
        numbers = [reader.part()[0] for _ in range(12)]
        reader.close()
        status = agent.status()
    finally:
        agent.stop()
    steps = [b - a for a, b in zip([first, *numbers], numbers)]
    assert all(s >= 1 for s in steps) and max(steps) >= 5, (first, numbers)
    assert status["dropped"] >= 5


def test_clients_past_the_limit_get_503(video: Path, tmp_path: Path) -> None:
    agent = AgentProcess(video, tmp_path, extra=["--config", str(_config(tmp_path, "[server]\nmax_clients = 2\n"))]).start()
    readers = [StreamReader(agent.port), StreamReader(agent.port)]
    try:
        for r in readers:
            r.part()
        code, headers, body = agent.get("/snapshot.jpg")
        assert code == 503 and headers["retry-after"] == "5" and "2 clients at once" in json.loads(body)["detail"]
    finally:
        for r in readers:
            r.close()
    deadline = time.monotonic() + 10
    while agent.get("/snapshot.jpg")[0] != 200:  # the slots free up once the clients are gone
        assert time.monotonic() < deadline
        time.sleep(0.2)
    agent.stop()


def _config(folder: Path, text: str) -> Path:
    path = folder / "cam.toml"
    path.write_text(text)
    return path


def test_a_bad_setting_stops_the_agent_with_status_2_naming_it(video: Path, tmp_path: Path) -> None:
    agent = AgentProcess(video, tmp_path, extra=["--config", str(_config(tmp_path, "[camera]\nfps = -1\n"))])
    agent.start(wait=False)
    assert agent.process is not None and agent.process.wait(20) == 2
    assert "camera.fps: must be between 0.5 and 120, not -1" in agent.log.read_text()


def test_the_video_ending_looks_like_a_lost_camera_and_the_watchdog_brings_it_back(agent: AgentProcess) -> None:
    # 40 frames at 20 frames/s: the file ends after 2 s; 1 s without a frame and the camera is restarted
    deadline = time.monotonic() + 20
    seen_lost = False
    while time.monotonic() < deadline:
        status = agent.status()
        seen_lost = seen_lost or status["camera"] == "lost"
        if seen_lost and status["restarts"] >= 1 and status["camera"] == "ok":
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"no restart: {agent.status()}\n{agent.log.read_text()}")
    log = agent.log.read_text()
    assert "camera lost: no frame for 1.0 s" in log and "restarting the camera (restart 1)" in log


def test_sigterm_stops_the_agent_cleanly(agent: AgentProcess) -> None:
    assert agent.stop() == 0
    assert "stopped after" in agent.log.read_text()


def test_memory_stays_bounded_with_slow_and_vanishing_clients(tmp_path: Path) -> None:
    """A bounded soak: 1280 × 720 frames of about a megabyte at 15 frames/s, clients that never read, read slowly, or
    connect and vanish, over and over; the agent's memory must not grow with them."""
    video = write_noise_video(tmp_path / "hd.avi", 90, fps=15.0)
    agent = AgentProcess(video, tmp_path, extra=["--config", str(_config(
        tmp_path, "[server]\nmax_clients = 6\nsend_timeout_s = 1.0\n[watchdog]\nstall_s = 1\n"))]).start()
    try:
        time.sleep(1.0)
        before = agent.rss_kib()
        stop = threading.Event()

        def stalled() -> None:  # connects, asks for the stream, never reads
            while not stop.is_set():
                s = socket.create_connection(("127.0.0.1", agent.port))
                s.sendall(f"GET /stream.mjpg?token={CAM_TOKEN} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                stop.wait(2.0)
                s.close()

        def slow() -> None:
            while not stop.is_set():
                try:
                    r = StreamReader(agent.port)
                    for _ in range(5):
                        r.part()
                        stop.wait(0.3)
                    r.close()
                except (OSError, AssertionError):
                    stop.wait(0.1)

        def vanishing() -> None:
            while not stop.is_set():
                try:
                    with socket.create_connection(("127.0.0.1", agent.port), timeout=5) as s:
                        s.sendall(f"GET /stream.mjpg?token={CAM_TOKEN} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                        s.recv(1000)
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    # closed with a reset, mid-frame
                except OSError:
                    pass
                stop.wait(0.05)

        threads = [threading.Thread(target=f) for f in (stalled, stalled, slow, slow, vanishing, vanishing)]
        for t in threads:
            t.start()
        peaks = []
        for _ in range(12):
            time.sleep(0.5)
            peaks.append(agent.rss_kib())
        stop.set()
        for t in threads:
            t.join(10)
        time.sleep(1.5)
        status = agent.status()
        after = agent.rss_kib()
    finally:
        agent.stop()
    assert status["camera"] == "ok" and status["clients"] <= 1  # only this status request
    # a queue per stalled client would grow by 15 MB a second; the newest frame per client is a few MB in all
    assert max(peaks) - before < 25 * 1024, (before, peaks)
    assert after - before < 15 * 1024, (before, after)
    assert status["frames"] >= 15  # the camera went on all along
    assert "Traceback" not in agent.log.read_text()
