"""The sides Borne found on the table, proposed over the camera's picture in a real Chromium over a real
``borne run`` without ``--layout``: each zone drawn and named, one tap on Confirm saves them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.camera_run import CameraRun, render_sequence
from tests.web.conftest import TOKEN

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go, to be looked at (pytest's temporary folder, kept for a few runs)."""
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def finding_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CameraRun]:
    """``borne run`` with no layout and no saved zones on a two-side hand whose sides sit left and right,
    played slowly enough (5 frames a second) that the picture keeps coming through the test."""
    seq = render_sequence(tmp_path_factory.mktemp("found-seq"), seed=5005, frames=400)
    run = CameraRun(tmp_path_factory.mktemp("found") / "games.sqlite3", seq / "frames", seq, fps=5, layout=None,
                    find_sides=True).start()
    run.wait_for_frame(timeout=30)
    yield run
    run.stop()


def test_the_proposed_zones_await_a_one_tap_confirm(finding_run: CameraRun, browser: Any, screenshots: Path) -> None:
    run = finding_run
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
    try:
        page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
        page.goto(run.url + "/")
        page.wait_for_selector("#confirm-sides", timeout=90_000)
        page.wait_for_function("document.querySelector('#found-sides img') && document.querySelector('#found-sides img').complete"
                               " && document.querySelector('#found-sides img').naturalWidth > 0")
        names = page.eval_on_selector_all("#found-sides .found-zone", "gs => gs.map((g) => g.dataset.side)")
        assert names == ["East", "West"]
        assert page.locator("#found-sides .found-zone polygon").count() == 2
        # each zone is drawn over the picture, on its own half of it
        picture = page.locator("#found-sides .found-stage").bounding_box()
        east = page.locator("#found-sides .found-zone[data-side=East] polygon").bounding_box()
        west = page.locator("#found-sides .found-zone[data-side=West] polygon").bounding_box()
        middle = picture["x"] + picture["width"] / 2
        assert east["x"] + east["width"] / 2 > middle > west["x"] + west["width"] / 2
        assert page.locator("#fix-sides").is_visible()
        page.evaluate("() => { window.confirmButton = document.querySelector('#confirm-sides'); }")
        page.wait_for_timeout(4500)  # the camera's next pictures and two status polls, drawn with the zones found
        # the panel is brought up to date in place: the button a finger is on stays the same button
        assert page.evaluate("() => document.querySelector('#confirm-sides') === window.confirmButton")
        # the picture is taken of the panel's place on the page (a zone's drawing may change while it is taken)
        panel = page.locator("#found-sides").bounding_box()
        assert panel is not None
        page.screenshot(path=str(screenshots / "borne-found-sides.png"), clip=panel)
        page.screenshot(path=str(screenshots / "borne-found-sides-page.png"))
        assert run.get("/api/camera/layout").json()["origin"] == "found"
        page.click("#confirm-sides")
        page.wait_for_selector("#found-sides", state="detached", timeout=10_000)
    finally:
        page.close()
    view = run.get("/api/camera/layout").json()
    assert view["origin"] == "saved" and view["saved"] and view["sides"] == ["East", "West"]
    assert (screenshots / "borne-found-sides.png").stat().st_size > 10_000
