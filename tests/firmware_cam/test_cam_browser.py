"""The Pi camera on the display, in real headless Chromium: the camera panel shows the agent's own status;
when the agent dies the panel says the camera is lost, and when it is back, connected again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.firmware_cam.conftest import AgentProcess, write_video
from tests.firmware_cam.test_cam_run import AgentRun
from tests.web.camera_run import render_sequence
from tests.web.conftest import browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.browser


def test_the_camera_panel_shows_the_agent_and_its_loss_and_return(tmp_path: Path, browser: Any) -> None:  # noqa: F811
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
