"""End to end: ``borne run`` on a short rendered hand; a real Chromium page shows its score appear,
pending, then confirmed with a click, then in the game's table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.camera_run import CameraRun, render_sequence
from tests.web.conftest import TOKEN

pytestmark = pytest.mark.browser


def test_a_hand_the_camera_follows_is_confirmed_on_the_page_and_lands_in_the_game(tmp_path: Path, browser: Any) -> None:
    seq = render_sequence(tmp_path / "seq", seed=5, frames=120)
    run = CameraRun(tmp_path / "games.sqlite3", seq / "frames", seq, fps=10).start()  # the hand's own rate (a clear view is 0.3 s)
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
        page.goto(run.url + "/")
        page.wait_for_selector("#camera-panel #camera-status")
        page.wait_for_selector("#live-hand")
        pending = page.wait_for_selector("#pending-hand", timeout=60_000)
        assert pending is not None
        hand = run.hand()
        assert hand is not None and hand["pending"] is not None and hand["plays"] > 0
        totals = {s["side"]: s["total"] for s in hand["pending"]["score"]["sides"]}
        shown = {el.get_attribute("data-side"): int(el.query_selector(".pending-points").get_attribute("data-points"))
                 for el in page.query_selector_all("#live-hand .live-side")}
        assert shown == totals
        page.click("#confirm-hand")
        page.wait_for_selector("#pending-hand", state="detached")
        page.wait_for_selector("table.pad")
        for side, total in totals.items():
            page.wait_for_selector(f'.side[data-side="{side}"] .total[data-total="{total}"]')
        # beside the camera panel the side cards are narrow: the totals still fit in them
        clipped = page.evaluate("[...document.querySelectorAll('.side .total')]"
                                ".filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)")
        assert clipped == []
        game = run.get("/api/games").json()
        assert len(game) == 1 and game[0]["hands"] == 1 and game[0]["totals"] == totals
        # the picture is fetched again every few frames: wait for one that has loaded
        page.wait_for_function("document.getElementById('camera-frame').naturalWidth > 0", timeout=15_000)
    finally:
        page.close()
        run.stop()


def test_a_hand_in_doubt_waits_for_a_person_with_each_flag_s_picture_then_goes_into_the_game(tmp_path: Path,
                                                                                           browser: Any) -> None:
    """Half a hand, then the table cleared: flagged unfinished, the hand is held for a person (a new one starts),
    not put into the game by the cleared table; the page shows it with its flag and the flag's picture (the frame
    it names, from the display's /api/camera/flags/…), and one tap on confirm puts it into the game."""
    import shutil

    seq = render_sequence(tmp_path / "seq", seed=5, frames=90)
    cut = tmp_path / "cut"
    (cut / "frames").mkdir(parents=True)
    (cut / "truth").mkdir()
    shutil.copy(seq / "layout.json", cut / "layout.json")
    for k in range(90 + 30):
        source = k if k < 90 else 0  # the first frame: the table before anyone played
        shutil.copy(seq / "frames" / f"{source:06d}.jpg", cut / "frames" / f"{k:06d}.jpg")
        shutil.copy(seq / "truth" / f"{source:06d}.json", cut / "truth" / f"{k:06d}.json")
    run = CameraRun(tmp_path / "games.sqlite3", cut / "frames", cut, fps=10).start()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
        page.goto(run.url + "/")
        held = page.wait_for_selector("#held-hand", timeout=60_000)
        assert held is not None
        text = held.inner_text()
        assert "waits for you" in text and "was a distance card missed?" in text
        picture = page.wait_for_selector("#held-hand img.flag-picture")
        assert picture is not None and picture.get_attribute("src").startswith("/api/camera/flags/")
        page.wait_for_function("document.querySelector('#held-hand img.flag-picture').naturalWidth === 240",
                               timeout=15_000)
        shot = run.get(picture.get_attribute("src"))
        assert shot.status_code == 200 and shot.headers["content-type"] == "image/jpeg"
        page.screenshot(path=str(tmp_path / "borne-held-hand.png"))
        assert run.get("/api/games").json() == [] or run.get("/api/games").json()[0]["hands"] == 0  # not in the game
        page.click("#confirm-held")
        page.wait_for_selector("#held-hand", state="detached")
        games = run.get("/api/games").json()
        assert len(games) == 1 and games[0]["hands"] == 1
    finally:
        page.close()
        run.stop()
