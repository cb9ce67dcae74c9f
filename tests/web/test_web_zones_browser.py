"""The zone editor in a real Chromium over a real ``borne run``: a corner dragged with the mouse (and with
a finger on a phone) is saved, the camera's picture draws it, and a refusal shows next to the editor."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web.camera_run import CameraRun, render_sequence, zone_editing_run
from tests.web.conftest import TOKEN

pytestmark = pytest.mark.browser

ZONE_BGR = (255, 170, 0)
"""The colour the camera's picture draws the first side's zone in (vision/drawing.py ZONE_COLOURS[0])."""


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the editor's screenshots go, to be looked at (pytest's temporary folder, kept for a few runs)."""
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def zone_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CameraRun]:
    """``borne run`` without ``--layout`` (the default zones: North on top, South below), playing slowly
    (126 frames at 2 per second) so the picture keeps being drawn through the module."""
    seq = render_sequence(tmp_path_factory.mktemp("zones-seq"), seed=5, frames=126)
    yield from zone_editing_run(tmp_path_factory.mktemp("zones"), seq)


@pytest.fixture
def run(zone_run: CameraRun) -> CameraRun:
    assert zone_run.delete("/api/camera/layout").status_code == 200
    return zone_run


def open_editor(page: Any, run: CameraRun, *, tap: bool = False) -> None:
    page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
    page.goto(run.url + "/")
    page.wait_for_selector("#edit-zones:not([disabled])", timeout=20_000)
    if tap:
        page.tap("#edit-zones")
    else:
        page.click("#edit-zones")
    page.wait_for_selector("#zone-dialog[open] #zone-corner-1-3")
    page.wait_for_function("document.getElementById('zone-picture').complete"
                           " && document.getElementById('zone-picture').naturalWidth > 0")


def screen_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where the image pixel (x, y) is on the screen."""
    box = page.locator("#zone-svg").bounding_box()
    size = page.evaluate("(({width, height}) => [width, height])(document.getElementById('zone-svg').dataset)")
    return box["x"] + x / float(size[0]) * box["width"], box["y"] + y / float(size[1]) * box["height"]


def corner_centre(page: Any, side: int, corner: int) -> tuple[float, float]:
    box = page.locator(f"#zone-corner-{side}-{corner} .zone-dot").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def save(page: Any) -> None:
    page.click("#zone-save")
    page.wait_for_function("!document.getElementById('zone-dialog').open")


def zone_drawn_near(jpeg: bytes, x: int, y: int, *, reach: int = 4) -> bool:
    """Whether the picture has the first zone's colour within ``reach`` pixels of (x, y)."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    patch = image[y - reach:y + reach + 1, x - reach:x + reach + 1].astype(int)
    return bool((np.abs(patch - np.array(ZONE_BGR)).sum(axis=2) < 120).any())


def test_a_corner_dragged_with_the_mouse_is_saved_and_the_camera_draws_it(run: CameraRun, browser: Any) -> None:
    picture = run.get("/api/camera/frame.jpg")
    assert picture.status_code == 200 and picture.content[:2] == b"\xff\xd8"
    assert not zone_drawn_near(picture.content, 600, 60)  # the default North zone's edge is the picture's own
    before = run.get("/api/camera/layout").json()["layout"]
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        open_editor(page, run)
        mouse_drag(page, corner_centre(page, 0, 2), screen_point(page, 560, 120))  # North's bottom right corner
        handle = page.locator("#zone-corner-0-2")
        assert abs(int(handle.get_attribute("data-x")) - 560) <= 2 and abs(int(handle.get_attribute("data-y")) - 120) <= 2
        save(page)
    finally:
        page.close()
    view = run.get("/api/camera/layout").json()
    assert view["origin"] == "saved"
    north, south = view["layout"]["sides"]
    x, y = north["zone"][2]
    assert abs(x - 560) <= 2 and abs(y - 120) <= 2
    assert [p for k, p in enumerate(north["zone"]) if k != 2] == [p for k, p in enumerate(before["sides"][0]["zone"]) if k != 2]
    assert south == before["sides"][1] and north["up"] == [0.0, 1.0]
    # the new edge, from (640, 0) to the corner, is drawn on the camera's next pictures
    import time

    deadline = time.monotonic() + 15
    while not zone_drawn_near(run.get("/api/camera/frame.jpg").content, 600, 60):
        assert time.monotonic() < deadline, f"the new zone is not drawn\n{run.log.read_text()}"
        time.sleep(0.3)


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger on the screen: Chromium's own touch events (they become pointer events of type touch)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for k in range(1, 9):
        x = start[0] + (end[0] - start[0]) * k / 8
        y = start[1] + (end[1] - start[1]) * k / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(150)  # the finger rests before it lifts: no fling, which would eat the next tap
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": end[0], "y": end[1]}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def inside(box: dict[str, float], width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def test_on_a_phone_a_corner_dragged_by_a_finger_and_a_turned_arrow_are_saved(run: CameraRun, browser: Any,
                                                                              screenshots: Path) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        open_editor(page, run, tap=True)
        page.screenshot(path=str(screenshots / "borne-zones-390x844.png"))
        for part in ("#zone-stage", "#zone-save", "#zone-default", "#zone-cancel", "#zone-turn-1"):
            assert inside(page.locator(part).bounding_box(), 390, 844), part
        touch_drag(page, corner_centre(page, 1, 0), screen_point(page, 80, 250))  # South's top left corner
        page.tap("#zone-turn-0")  # North's up, (0, 1), a quarter turn clockwise on the screen
        assert "←" in page.locator("#zone-up-0").inner_text()
        page.tap("#zone-save")
        page.wait_for_function("!document.getElementById('zone-dialog').open")
    finally:
        context.close()
    north, south = run.get("/api/camera/layout").json()["layout"]["sides"]
    x, y = south["zone"][0]
    assert abs(x - 80) <= 3 and abs(y - 250) <= 3
    assert north["up"] == [-1.0, 0.0] and south["up"] == [0.0, -1.0]


def test_a_refused_zone_shows_the_reason_next_to_the_editor_on_a_tv(run: CameraRun, browser: Any,
                                                                    screenshots: Path) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
    try:
        open_editor(page, run)
        page.screenshot(path=str(screenshots / "borne-zones-1920x1080.png"))
        for part in ("#zone-stage", "#zone-save", "#zone-sides"):
            assert inside(page.locator(part).bounding_box(), 1920, 1080), part
        # North's top right corner pulled down across its bottom edge: the zone's edges cross
        mouse_drag(page, corner_centre(page, 0, 1), screen_point(page, 100, 300))
        page.click("#zone-save")
        error = page.wait_for_selector("#zone-error:has-text('cross')")
        assert "North" in error.inner_text()
        assert page.evaluate("document.getElementById('zone-dialog').open")
        assert run.get("/api/camera/layout").json()["origin"] == "default"
        page.click("#zone-default")  # back to the default zones, still to be saved
        assert page.locator("#zone-error").inner_text() == ""
        x, y = corner_centre(page, 0, 1)
        assert (x, y) == pytest.approx(screen_point(page, 640, 0), abs=1)
        page.click("#zone-cancel")
        page.wait_for_function("!document.getElementById('zone-dialog').open")
    finally:
        page.close()
    assert run.get("/api/camera/layout").json()["saved"] is False
