"""The agent in-process: the OpenCV and picamera2 cameras behind one seam, the newest-frame hub, the
watchdog, and the settings file."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from firmware_cam.agent import Agent, FrameHub, JpegFrame
from firmware_cam.cameras import Camera, CameraError, OpenCVCamera, PiCamera, open_camera, picamera_source
from firmware_cam.config import CamConfig, CameraConfig, ConfigError, WatchdogConfig


class FakePicamera2:
    """Stands in for ``picamera2.Picamera2``: records what the agent asked, gives RGB888 arrays as libcamera
    lays them out (bytes B, G, R), a red square on blue."""

    instances: list[FakePicamera2] = []

    def __init__(self) -> None:
        self.configured: dict[str, Any] | None = None
        self.controls: list[dict[str, Any]] = []
        self.started = self.stopped = self.closed = False
        self.captures = 0
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict[str, Any], controls: dict[str, Any], buffer_count: int) -> dict[str, Any]:
        return {"main": main, "controls": controls, "buffer_count": buffer_count}

    def configure(self, config: dict[str, Any]) -> None:
        self.configured = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(dict(controls))

    def start(self) -> None:
        self.started = True

    def capture_array(self, stream: str) -> np.ndarray:
        assert stream == "main" and self.started and self.configured is not None
        w, h = self.configured["main"]["size"]
        self.captures += 1
        time.sleep(0.005)
        image = np.zeros((h, w, 3), np.uint8)
        image[:, :] = (255, 0, 0)  # blue, in RGB888's B, G, R byte order
        image[h // 4: h // 2, w // 4: w // 2] = (0, 0, 255)  # red
        return image

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.closed = True


FAKE_PICAMERA2 = SimpleNamespace(Picamera2=FakePicamera2)


def test_the_picamera2_backend_keeps_red_red_and_sets_the_configured_controls() -> None:
    config = CameraConfig(source="picamera", width=320, height=240, fps=12, exposure="fixed", exposure_us=8000,
                          gain=2.0, focus="manual", lens_position=1.5)
    camera = open_camera(config, picamera2=FAKE_PICAMERA2)
    assert isinstance(camera, PiCamera)
    fake = FakePicamera2.instances[-1]
    assert fake.configured == {"main": {"size": (320, 240), "format": "RGB888"}, "controls": {"FrameRate": 12.0},
                               "buffer_count": 2}
    assert fake.controls[0] == {"AeEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.0, "AfMode": 0,
                                "LensPosition": 1.5}
    image = camera.read()
    assert image is not None and image.shape == (240, 320, 3)
    # through JPEG and back, as a client sees it: the square is red, the rest blue (OpenCV's B, G, R)
    decoded = cv2.imdecode(cv2.imencode(".jpg", image)[1], cv2.IMREAD_COLOR)
    b, g, r = (int(v) for v in decoded[90, 120])
    assert r > 200 and b < 50 and g < 50
    b, g, r = (int(v) for v in decoded[200, 300])
    assert b > 200 and r < 50
    camera.close()
    assert fake.stopped and fake.closed


def test_a_locked_exposure_is_held_once_the_picture_has_settled() -> None:
    from firmware_cam.cameras import SETTLE_FRAMES

    camera = PiCamera(CameraConfig(source="picamera", width=64, height=48, exposure="lock"), module=FAKE_PICAMERA2)
    fake = FakePicamera2.instances[-1]
    for _ in range(SETTLE_FRAMES - 1):
        camera.read()
    assert not any("AeEnable" in c for c in fake.controls)  # still automatic
    camera.read()
    assert fake.controls[-1] == {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5, "AwbEnable": False,
                                 "ColourGains": (1.8, 1.4)}


def test_without_picamera2_the_pi_camera_says_how_to_install_it() -> None:
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera(CameraConfig(source="picamera"))


def test_the_opencv_backend_plays_a_video_file_at_its_own_rate_then_gives_nothing(video: Path) -> None:
    camera = open_camera(CameraConfig(source=str(video)))
    assert isinstance(camera, OpenCVCamera) and camera.fps == pytest.approx(20.0)
    started = time.monotonic()
    frames = [camera.read() for _ in range(40)]
    took = time.monotonic() - started
    assert all(f is not None and f.shape == (240, 320, 3) for f in frames)
    assert [round(int(f[0, 200, 0]) / 5) for f in frames[:4]] == [0, 1, 2, 3]  # type: ignore[index]
    assert took > 1.0, "40 frames at 20 frames/s take about 2 s"
    assert camera.read() is None  # the end: as a stuck camera
    camera.close()


@pytest.mark.parametrize(("source", "message"), [("nowhere.avi", "no such video file"),
                                                  ("97", "no camera at this index")])
def test_a_camera_that_is_not_there_is_refused_with_its_reason(source: str, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        open_camera(CameraConfig(source=source))


def test_the_hub_holds_the_newest_frame_only_and_wakes_waiters() -> None:
    hub = FrameHub()
    assert hub.wait_newer(0, timeout=0.01) is None
    got: list[int] = []
    waiter = threading.Thread(target=lambda: got.append(hub.wait_newer(0, timeout=5).number))  # type: ignore[union-attr]
    waiter.start()
    time.sleep(0.05)
    for n in range(1, 1001):
        hub.publish(JpegFrame(n, 0.0, bytes(100), 2, 2))
    waiter.join()
    assert got and 1 <= got[0] <= 1000
    assert hub.newest().number == 1000  # type: ignore[union-attr]
    assert hub.wait_newer(1000, timeout=0.01) is None


class ScriptedCamera(Camera):
    """Gives ``frames`` pictures, then blocks in ``read`` until closed (a stuck driver)."""

    backend = "scripted"
    opened = 0

    def __init__(self, frames: int) -> None:
        ScriptedCamera.opened += 1
        self.left = frames
        self.closed = threading.Event()

    def read(self) -> np.ndarray | None:
        if self.left > 0:
            self.left -= 1
            time.sleep(0.01)
            return np.full((24, 32, 3), 128, np.uint8)
        self.closed.wait()  # stuck until the watchdog closes us
        return None

    def close(self) -> None:
        self.closed.set()


def test_the_watchdog_restarts_a_stuck_camera_no_more_often_than_the_interval(caplog: Any) -> None:
    ScriptedCamera.opened = 0
    config = CamConfig(watchdog=WatchdogConfig(stall_s=0.3, min_restart_interval_s=0.8))
    # five frames, then stuck; after a restart stuck from the start
    agent = Agent(config, lambda: ScriptedCamera(5 if ScriptedCamera.opened == 0 else 0)).start()
    try:
        deadline = time.monotonic() + 10
        while agent.frames < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert agent.status()["camera"] == "ok"
        time.sleep(0.6)
        assert agent.status()["camera"] == "lost"
        time.sleep(2.4)
        status = agent.status()
    finally:
        agent.close()
    # stuck after 5 frames each time: restarted after 0.3 s, then every 0.8 s at most (about 3 in 3 s)
    assert 2 <= status["restarts"] <= 4, status
    assert ScriptedCamera.opened == status["restarts"] + 1 and status["frames"] == 5
    assert "no frame for" in caplog.text and "restarting the camera (restart 1)" in caplog.text
    # the stuck reads were unblocked by closing their camera: only the newest capture thread may be left
    time.sleep(0.1)
    assert [t.name for t in threading.enumerate() if t.name.startswith("capture ")] in ([], [f"capture {ScriptedCamera.opened}"])


def test_a_camera_that_will_not_open_is_retried_by_the_watchdog_and_the_status_says_why() -> None:
    attempts: list[float] = []

    def broken() -> Camera:
        attempts.append(time.monotonic())
        raise CameraError("picamera: no camera module found or it is busy")

    agent = Agent(CamConfig(watchdog=WatchdogConfig(stall_s=0.2, min_restart_interval_s=0.5)), broken).start()
    try:
        time.sleep(1.6)
        status = agent.status()
    finally:
        agent.close()
    assert status["camera"] == "lost" and "no camera module" in str(status["error"])
    assert 2 <= len(attempts) <= 5
    assert all(b - a >= 0.45 for a, b in zip(attempts[1:], attempts[2:]))


def test_the_pi_profile_source_reads_the_picamera2_stand_in_through_the_pipelines_live_source() -> None:
    source = picamera_source(CameraConfig(source="picamera", width=64, height=48, exposure="auto"),
                             picamera2=FAKE_PICAMERA2)
    try:
        frame = source.latest(timeout=5.0)
    finally:
        source.close()
    assert frame is not None and frame.image.shape == (48, 64, 3)
    assert int(frame.image[20, 20, 2]) == 255  # red is in OpenCV's third channel


# -- settings --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("toml", "message"), [
    ("[camera]\nfps = 0", "camera.fps: must be between 0.5 and 120, not 0"),
    ("[camera]\nfps = 'fast'", "camera.fps: expected a number"),
    ("[camera]\njpeg_quality = 101", "camera.jpeg_quality"),
    ("[camera]\nwidth = 12.5", "camera.width: expected a number (whole)"),
    ("[camera]\nexposure = 'manual'", "camera.exposure: one of auto, lock, fixed"),
    ("[camera]\nexposure = 'fixed'", "camera.exposure_us"),
    ("[camera]\nfocus = 'manual'", "camera.lens_position"),
    ("[camera]\nrotation = 90", "camera.rotation: 0 or 180"),
    ("[server]\nport = 70000", "server.port"),
    ("[server]\ntoken = 'short'", "server.token: at least 8"),
    ("[server]\nannounce = 'yes'", "server.announce: expected a bool"),
    ("[watchdog]\nstall_s = 0", "watchdog.stall_s"),
    ("[network]\nport = 1", "[network]: unknown section"),
    ("[camera]\nfsp = 10", "camera.fsp: unknown setting"),
    ("camera = 3", "camera: a section"),
    ("[camera\nfps = 1", "not a TOML file"),
])
def test_a_bad_setting_is_refused_naming_it(toml: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        CamConfig.from_toml(toml)


def test_the_file_then_the_flags(tmp_path: Path) -> None:
    from firmware_cam.cli import load_config, parser

    path = tmp_path / "cam.toml"
    path.write_text('[camera]\nsource = 0\nfps = 15\nfocus = "manual"\nlens_position = 1.2\n'
                    '[server]\nport = 9001\ntoken = "from-the-file"\n[watchdog]\nstall_s = 3\n')
    config = load_config(parser().parse_args(["--config", str(path), "--fps", "8", "--port", "9002"]))
    assert (config.camera.source, config.camera.fps, config.camera.lens_position) == ("0", 8.0, 1.2)
    assert (config.server.port, config.server.token, config.watchdog.stall_s) == (9002, "from-the-file", 3.0)
    with pytest.raises(ConfigError, match="nowhere.toml: cannot read"):
        load_config(parser().parse_args(["--config", str(tmp_path / "nowhere.toml")]))
    with pytest.raises(ConfigError, match="camera.fps"):
        load_config(parser().parse_args(["--fps", "500"]))


def test_the_command_refuses_a_camera_it_cannot_open_with_status_2(tmp_path: Path, capsys: Any) -> None:
    from firmware_cam.cli import main

    assert main(["--source", str(tmp_path / "none.avi"), "--no-announce", "--port", "0"]) == 2
    assert "none.avi: no such video file" in capsys.readouterr().err
    assert main(["--source", "picamera", "--no-announce", "--port", "0"]) == 2
    assert "picamera2 package is not installed" in capsys.readouterr().err
