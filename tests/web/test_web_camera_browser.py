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
    run = CameraRun(tmp_path / "games.sqlite3", seq / "frames", seq, fps=30).start()
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


def test_a_hand_cut_short_by_a_cleared_table_goes_into_the_game_and_the_page_asks_for_a_look(tmp_path: Path,
                                                                                           browser: Any) -> None:
    """Half a hand, then the table cleared: the hand is final at once (a new one starts), flagged
    unfinished; the page says it went into the game with the camera in doubt."""
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
    run = CameraRun(tmp_path / "games.sqlite3", cut / "frames", cut, fps=30).start()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page.goto(run.url + "/")
        doubt = page.wait_for_selector("#camera-in-doubt", timeout=60_000)
        assert doubt is not None
        assert "in doubt" in doubt.inner_text() and "was a distance card missed?" in doubt.inner_text()
        assert page.query_selector("#pending-hand") is None
        games = run.get("/api/games").json()
        assert len(games) == 1 and games[0]["hands"] == 1
    finally:
        page.close()
        run.stop()
