"""The Pi camera on the display, in real headless Chromium: the camera panel shows the agent's own status;
when the agent dies the panel says the camera is lost, and when it is back, connected again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.firmware_cam.conftest import AgentProcess, write_video
from tests.firmware_cam.test_cam_run import AgentRun
from tests.web.camera_run import render_sequence

pytestmark = pytest.mark.browser


def test_the_camera_panel_shows_the_agent_and_its_loss_and_return(tmp_path: Path, browser: Any) -> None:
    seq = render_sequence(tmp_path / "seq", seed=5, frames=8)
    video = write_video(tmp_path / "camera.avi", 600, size=(640, 360), fps=10.0)
    agent = AgentProcess(video, tmp_path, extra=["--stall-s", "30"]).start()
    run = AgentRun(tmp_path / "games.sqlite3", agent.stream_url, seq).start()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})  # wait_for_function evals
    back = None
    try:
        page.goto(run.url + "/")
        page.wait_for_function("(document.getElementById('camera-agent') || {}).textContent?.includes('Pi camera:')",
                               timeout=30_000)
        assert "camera connected" in page.inner_text("#camera-status")
        agent.kill()
        page.wait_for_function("document.getElementById('camera-status').textContent === 'camera lost'",
                               timeout=30_000)
        page.wait_for_function("document.getElementById('camera-agent').textContent.includes('does not answer')",
                               timeout=30_000)
        back = AgentProcess(video, tmp_path, port=agent.port, extra=["--stall-s", "30"]).start()
        page.wait_for_function("document.getElementById('camera-status').textContent === 'camera connected'",
                               timeout=30_000)
        page.wait_for_function("document.getElementById('camera-agent').textContent.includes('Pi camera:')",
                               timeout=30_000)
        assert "reconnect" in page.inner_text("#camera-panel")
    finally:
        page.close()
        run.stop()
        agent.stop()
        if back is not None:
            back.stop()


def test_another_camera_found_on_the_network_is_picked_on_the_page(tmp_path: Path, browser: Any) -> None:
    import os

    import httpx

    from tests.firmware_cam.conftest import CAM_TOKEN
    from tests.web.conftest import TOKEN

    seq = render_sequence(tmp_path / "seq", seed=5, frames=8)
    video = write_video(tmp_path / "camera.avi", 600, size=(640, 360), fps=10.0)
    first_name, second_name = f"cam-a-{os.getpid()}", f"cam-b-{os.getpid()}"
    first = AgentProcess(video, tmp_path, extra=["--name", first_name, "--stall-s", "30"]).start()
    second = AgentProcess(video, tmp_path, token="second-camera-token", extra=["--name", second_name, "--stall-s", "30"]).start()
    run = AgentRun(tmp_path / "games.sqlite3", first.stream_url, seq).start()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})  # wait_for_function evals
    try:
        for agent in (first, second):  # announced (mDNS probes the name for a second or two)
            run.wait_camera(lambda s, a=agent: "Announced over mDNS" in a.log.read_text(), timeout=20, what="announced")
        # the API: the display's token first, then the camera's
        body = {"name": second_name, "token": "not-its-token"}
        assert httpx.post(run.url + "/api/camera/source", json=body, timeout=30).status_code == 401
        r = httpx.post(run.url + "/api/camera/source", json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
        assert r.status_code == 422 and "refused the token (HTTP 403)" in r.json()["detail"]
        # the page
        page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
        page.goto(run.url + "/")
        page.click("#choose-camera")
        page.wait_for_selector(f'.found-camera[data-name="{second_name}"]', timeout=30_000)
        assert page.query_selector(f'.found-camera[data-name="{first_name}"]') is not None
        item = f'.found-camera[data-name="{second_name}"]'
        page.fill(f"{item} .camera-token", "still-not-its-token")
        page.click(f"{item} .use-camera")
        page.wait_for_function("document.getElementById('camera-choice-error').textContent.includes('refused the token')",
                               timeout=30_000)
        page.fill(f"{item} .camera-token", "second-camera-token")
        page.click(f"{item} .use-camera")
        page.wait_for_selector("#camera-dialog", state="hidden", timeout=30_000)
        status = run.wait_camera(lambda s: s["source"] == f"{second.url}/stream.mjpg?token=***" and s["connected"],
                                 timeout=30, what="the second camera followed")
        frames = status["frames"]
        run.wait_camera(lambda s: s["frames"] > frames + 3, timeout=30, what="frames from the second camera")
        assert second.status()["clients"] >= 2
        assert CAM_TOKEN not in page.content() and "second-camera-token" not in httpx.get(run.url + "/api/camera").text
    finally:
        page.close()
        run.stop()
        first.stop()
        second.stop()
