"""End to end on loopback: the camera agent plays a rendered hand as a camera would, a real ``borne run``
reads its stream (by URL, or by the name it announces over mDNS) and scores the hand; the agent killed
mid-hand is reported lost, comes back, and the hand goes on; a wrong token is refused on both sides."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.firmware_cam.conftest import CAM_TOKEN, STARTED, AgentProcess, video_from_frames
from tests.web.camera_run import CameraRun, render_sequence
from tests.web.conftest import TOKEN

FPS = 10.0
"""The rendered hand's own rate: the pipeline's times (a clear view is 0.3 s) are in seconds."""


class AgentRun(CameraRun):
    """``borne run --source URL --truth-boxes TRUTH``: the pipeline reads the agent's stream; its true boxes
    are found by matching each streamed picture to the sequence's frames."""

    def __init__(self, db: Path, source: str, sequence: Path, *, env: dict[str, str] | None = None) -> None:
        super().__init__(db, sequence / "frames", sequence, fps=FPS)
        self.source = source
        self.extra_env = env or {}

    def start(self) -> AgentRun:
        env = {k: v for k, v in os.environ.items() if k not in ("BORNE_TOKEN", "BORNE_CAM_TOKEN")}
        env.update(self.extra_env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--source", self.source, "--layout", str(self.layout),
             "--truth-boxes", str(self.sequence / "truth"), "--port", str(self.port), "--db", str(self.db),
             "--token", TOKEN], stdout=self.log.open("w"), stderr=subprocess.STDOUT, text=True, env=env)
        STARTED.append(self)
        self.await_route("/api/camera", seconds=30, output=self.log.read_text)
        return self

    def camera(self) -> dict[str, Any]:
        result: dict[str, Any] = self.get("/api/camera").json()
        return result

    def wait_camera(self, test: Any, *, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.camera()
            if test(status):
                return status
            time.sleep(0.1)
        raise AssertionError(f"{what} within {timeout} s; last: {self.camera()}\n{self.log.read_text()}")


def counts(sides: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    out = {(s["side"], km): n for s in sides for km, n in s["distance"].items() if n}
    out.update({(s["side"], safety): 1 for s in sides for safety in s["safeties"]})
    return out


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[tuple[str, str], int]]:
    """A rendered hand (seed 5, its first 120 frames at 640 × 360: twelve cards played), its video (the
    last frame held 5 s, as a table looks over its hand before clearing it: under load the camera reads the
    last landings a few seconds late, then the table cleared), and what ``borne replay`` counts in the frames."""
    folder = tmp_path_factory.mktemp("hand")
    seq = render_sequence(folder / "seq", seed=5, frames=120)
    video = video_from_frames(seq / "frames", folder / "hand.avi", fps=FPS, hold_last_s=5.0,
                              then_cleared=seq / "frames" / "000000.jpg", cleared_s=4.0)
    replay = subprocess.run([sys.executable, "-m", "borne", "replay", str(seq / "frames"), "--layout",
                             str(seq / "layout.json"), "--truth-boxes", str(seq / "truth")],
                            check=True, capture_output=True, text=True)
    return seq, video, counts(json.loads(replay.stdout)["sides"])


def test_borne_run_scores_a_hand_read_from_the_agents_stream(hand: Any, tmp_path: Path) -> None:
    seq, video, want = hand
    agent = AgentProcess(video, tmp_path, extra=["--stall-s", "30"]).start(wait=False)
    run = AgentRun(tmp_path / "games.sqlite3", agent.stream_url, seq).start()
    try:
        agent.wait_ready()
        run.wait_for(lambda h: counts(h["sides"]) == want, timeout=60, what="the hand counted")
        status = run.camera()
        agent_status = agent.status()
        game = wait_for_game_hand(run)
    finally:
        run.stop()
        agent.stop()
    # the table cleared: the hand went into the game, scored
    assert counts(game["hands"][0]["record"]["sides"]) == want
    assert sum(game["totals"].values()) > 0
    assert status["source"] == f"{agent.url}/stream.mjpg?token=***"  # the token is not shown on the display
    assert status["frames"] > 30
    # the agent's own status reaches the display's camera panel through borne run
    assert status["agent"]["reachable"] is True and status["agent"]["frames"] > 0
    assert {"dropped", "uptime_s", "temperature_c", "throttled"} <= set(status["agent"])
    assert agent_status["clients"] >= 2  # borne run's stream, and this status request


def test_the_agent_killed_mid_hand_is_reported_lost_then_the_hand_goes_on(hand: Any, tmp_path: Path) -> None:
    seq, video, want = hand
    agent = AgentProcess(video, tmp_path, extra=["--stall-s", "30"]).start()
    run = AgentRun(tmp_path / "games.sqlite3", agent.stream_url, seq).start()
    rest = None
    try:
        before = run.wait_for(lambda h: h["plays"] >= 3 and h["phase"] == "in_play", timeout=60,
                              what="three cards counted")
        shown = agent.status()["frames"]
        agent.kill()
        lost = run.wait_camera(lambda s: not s["connected"], timeout=15, what="the camera reported lost")
        assert "camera lost" in lost["message"] or "cannot open" in lost["message"]
        assert run.hand()["plays"] >= before["plays"]  # type: ignore[index]
        # the camera comes back on the same port, where the hand had got to
        rest_frames = tmp_path / "rest"
        rest_frames.mkdir()
        for path in sorted((seq / "frames").iterdir())[shown:]:
            (rest_frames / path.name).symlink_to(path)
        rest_video = video_from_frames(rest_frames, tmp_path / "rest.avi", fps=FPS, hold_last_s=5.0,
                                       then_cleared=seq / "frames" / "000000.jpg", cleared_s=4.0)
        rest = AgentProcess(rest_video, tmp_path,
                            port=agent.port, extra=["--stall-s", "30"]).start()
        back = run.wait_camera(lambda s: s["connected"] and s["reconnects"] >= 1, timeout=30,
                               what="the camera back")
        assert back["reconnects"] >= 1 and "camera back" in back["message"]
        done = run.wait_for(lambda h: counts(h["sides"]) == want, timeout=60, what="the whole hand counted")
        game = wait_for_game_hand(run)
    finally:
        run.stop()
        agent.stop()
        if rest is not None:
            rest.stop()
    assert done["hand"] == before["hand"]  # the same hand went on
    assert counts(game["hands"][0]["record"]["sides"]) == want


def wait_for_game_hand(run: AgentRun, timeout: float = 30) -> dict[str, Any]:
    """The game the camera's hand went into once the table was cleared: at once, or, when the cleared table
    left it in doubt (this rendered hand stops before anyone reaches the goal: flagged unfinished; borne run may
    join it in play: flagged so), once a person confirms it as the display's one tap does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        games = run.get("/api/games").json()
        if games and games[0]["hands"] >= 1:
            result: dict[str, Any] = run.get(f"/api/games/{games[0]['id']}").json()
            return result
        held = (run.hand() or {}).get("held") or []
        if held:
            # the agent plays from its start, borne run joins a moment later: the hand is in play at its first view
            assert {f["reason"] for f in held[0]["flags"]} <= {"unfinished", "in_play_at_start"}, held[0]["flags"]
            confirmed = httpx.post(run.url + "/api/camera/hand/confirm", headers={"Authorization": f"Bearer {TOKEN}"},
                                   timeout=10)
            assert confirmed.status_code == 200, confirmed.text
        time.sleep(0.2)
    raise AssertionError(f"no hand in a game within {timeout} s; camera: {run.hand()}\n{run.log.read_text()}")


def test_a_wrong_token_is_refused_with_a_clear_message_on_both_sides(video_and_agent: AgentProcess,
                                                                     tmp_path: Path) -> None:
    agent = video_and_agent
    wrong = subprocess.run([sys.executable, "-m", "borne", "run", "--source",
                            f"{agent.url}/stream.mjpg?token=not-the-token", "--port", "0",
                            "--db", str(tmp_path / "g.sqlite3"), "--token", TOKEN],
                           capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2
    assert "the camera refused the token (HTTP 403): wrong token for this camera" in wrong.stderr
    assert "not-the-token" not in wrong.stderr  # the token is not printed
    none = subprocess.run([sys.executable, "-m", "borne", "run", "--source", f"{agent.url}/stream.mjpg",
                           "--port", "0", "--db", str(tmp_path / "g.sqlite3"), "--token", TOKEN],
                          capture_output=True, text=True, timeout=60)
    assert none.returncode == 2 and "the camera asks for a token (HTTP 401)" in none.stderr
    time.sleep(0.2)
    log = agent.log.read_text()
    assert "refused a client at 127.0.0.1: wrong token" in log and "refused a client at 127.0.0.1: no token" in log


@pytest.fixture
def video_and_agent(tmp_path: Path) -> Any:
    from tests.firmware_cam.conftest import write_video

    a = AgentProcess(write_video(tmp_path / "camera.avi", 400), tmp_path).start()
    yield a
    a.stop()


def test_discovery_finds_the_agent_on_loopback_and_borne_run_opens_it_by_name(tmp_path: Path) -> None:
    from firmware_cam.discovery import DiscoveryError, find_cameras, resolve
    from tests.firmware_cam.conftest import write_video

    name = f"borne-cam-test-{os.getpid()}"
    agent = AgentProcess(write_video(tmp_path / "camera.avi", 400), tmp_path, extra=["--name", name]).start()
    run = None
    try:
        deadline = time.monotonic() + 20
        while "Announced over mDNS" not in agent.log.read_text():
            assert time.monotonic() < deadline, agent.log.read_text()
            time.sleep(0.1)
        found = resolve(name, timeout=5, interfaces=["127.0.0.1"])
        assert (found.host, found.port, found.url) == ("127.0.0.1", agent.port, f"{agent.url}/stream.mjpg")
        assert name in [c.name for c in find_cameras(2, interfaces=["127.0.0.1"])]
        with pytest.raises(DiscoveryError, match=f"no camera named 'nobody-here'.*cameras found: .*{name}"):
            resolve("nobody-here", timeout=1.5, interfaces=["127.0.0.1"])
        listed = subprocess.run([sys.executable, "-m", "borne", "run", "--list-cameras"], capture_output=True,
                                text=True, timeout=60)
        assert listed.returncode == 0 and f"{name}\t{agent.url}/stream.mjpg" in listed.stdout
        # by name, the token from BORNE_CAM_TOKEN; the default zones from the first picture (no --layout)
        run = CameraRun(tmp_path / "g.sqlite3", tmp_path, tmp_path, fps=FPS, layout=None)
        env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
        env["BORNE_CAM_TOKEN"] = CAM_TOKEN
        run.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--source", name, "--port", str(run.port), "--db",
             str(run.db), "--token", TOKEN], stdout=run.log.open("w"), stderr=subprocess.STDOUT, text=True, env=env)
        STARTED.append(run)
        run.await_route("/api/camera", seconds=60, output=run.log.read_text)
        deadline = time.monotonic() + 30
        while True:
            status = httpx.get(run.url + "/api/camera", timeout=5).json()
            if status["connected"] and status["frames"] > 3:
                break
            assert time.monotonic() < deadline, (status, run.log.read_text())
            time.sleep(0.2)
        assert f"camera: {name} found at {agent.url}/stream.mjpg" in run.log.read_text()
        # the camera comes back elsewhere (a new address from the router; here a new port): found again by name
        agent.kill()
        moved = AgentProcess(agent.source, tmp_path, extra=["--name", name]).start()
        deadline = time.monotonic() + 45
        while True:
            status = httpx.get(run.url + "/api/camera", timeout=5).json()
            if status["connected"] and status["reconnects"] >= 1 and moved.status()["clients"] >= 2:
                break  # borne run reads the moved camera (its stream, and this status request)
            assert time.monotonic() < deadline, (status, run.log.read_text())
            time.sleep(0.2)
        assert f"camera: {name} moved to {moved.url}/stream.mjpg?token=***" in run.log.read_text()
    finally:
        if run is not None:
            run.stop()
        agent.stop()


def test_an_unknown_camera_name_is_refused_naming_what_was_found(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "borne", "run", "--source", "no-such-camera", "--port", "0",
                        "--db", str(tmp_path / "g.sqlite3"), "--token", TOKEN],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--source no-such-camera: no camera named 'no-such-camera' answered" in r.stderr


FAKE_PICAMERA2 = '''"""A stand-in for picamera2 (tests): the JPEG frames of $FAKE_PICAMERA_FRAMES as the camera's pictures,
at $FAKE_PICAMERA_FPS, in RGB888's memory order (B, G, R); the last frame stays once they run out."""
import glob, os, time

import cv2


class Picamera2:
    def __init__(self):
        self.paths = sorted(glob.glob(os.path.join(os.environ["FAKE_PICAMERA_FRAMES"], "*.jpg")))
        self.every = 1.0 / float(os.environ.get("FAKE_PICAMERA_FPS", "10"))
        self.i, self.next_at, self.config, self.controls = 0, 0.0, None, []

    def create_video_configuration(self, main, controls, buffer_count):
        assert main["format"] == "RGB888"
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.config = config

    def set_controls(self, controls):
        self.controls.append(controls)

    def start(self):
        self.next_at = time.monotonic()

    def capture_array(self, name="main"):
        wait = self.next_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.next_at += self.every
        image = cv2.imread(self.paths[min(self.i, len(self.paths) - 1)])
        self.i += 1
        return image

    def capture_metadata(self):
        return {"ExposureTime": 10000, "AnalogueGain": 1.5}

    def stop(self):
        pass

    def close(self):
        pass
'''


def test_borne_run_on_the_pi_itself_reads_the_pi_camera_and_counts_the_hand(hand: Any, tmp_path: Path) -> None:
    """``borne run --source picamera`` (the Pi as the whole Borne), with a stand-in picamera2 module on the
    path that plays the rendered hand's frames."""
    seq, _, want = hand
    fake = tmp_path / "fakepi" / "picamera2"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(FAKE_PICAMERA2)
    env = {"PYTHONPATH": os.pathsep.join([str(fake.parent), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
           "FAKE_PICAMERA_FRAMES": str(seq / "frames"), "FAKE_PICAMERA_FPS": str(FPS)}
    run = AgentRun(tmp_path / "games.sqlite3", "picamera", seq, env=env).start()
    try:
        done = run.wait_for(lambda h: counts(h["sides"]) == want, timeout=90, what="the hand counted")
        status = run.camera()
    finally:
        run.stop()
    assert done["phase"] == "in_play" and done["plays"] == sum(want.values())  # no card counted twice
    assert status["source"] == "picamera" and status["connected"] and "agent" not in status
