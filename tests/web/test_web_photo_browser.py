"""Score from a photo in real Chromium: the display's file input fed a rendered photo, the proposed hand shown
with every counted card outlined (and no serious accessibility problem), sides swapped, confirmed or corrected,
and scored; a refusal shown.

The file input is the one that opens the phone's camera app (``capture="environment"``); Playwright gives it
the file as a phone would after the shot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web.a11y import audit
from tests.web.conftest import Server
from tests.web.test_web_photo import new_game, send, table_photo

pytestmark = pytest.mark.browser

TIMEOUT_MS = 120_000
"""A bound on how long the page may take to show the count (the models load at the first photo)."""


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return table_photo(tmp_path_factory.mktemp("photo"))


def game_page(server: Server, browser: Any, game: int, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1100, "height": 900}, bypass_csp=True)  # axe is injected
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(f"localStorage.setItem('borne.token', '{server.token}')")
    page.goto(f"{server.url}/games/{game}")
    page.wait_for_selector("#score-photo")
    return page


def km(side: dict[str, Any]) -> int:
    return sum(int(v) * n for v, n in side["distance"].items())


def test_a_photo_is_proposed_outlined_then_confirmed_with_the_sides_swapped(
        server: Server, browser: Any, photo: Path, tmp_path: Path) -> None:
    game = new_game(server, ["Ana", "Ben"])
    counted = send(server, photo.read_bytes()).json()  # what the page will be shown
    errors: list[str] = []
    page = game_page(server, browser, game, errors)
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#photo-hand", timeout=TIMEOUT_MS)
    outlines = page.locator("#photo-dialog polygon.photo-card")
    assert outlines.count() == sum(len(s["cards"]) for s in counted["sides"]) > 0
    assert page.locator("#photo-image").evaluate("img => img.complete && img.naturalWidth") == 1600
    page.screenshot(path=str(tmp_path / "photo-proposed.png"))
    assert audit(page, "the photo's proposed hand") == []  # axe-core: no serious or critical problem
    first, second = counted["sides"][0], counted["sides"][1]
    seats = page.locator(".photo-seat")
    assert [seats.nth(i).input_value() for i in range(2)] == ["Ana", "Ben"]
    seats.nth(0).select_option("Ben")  # the photo was taken from the other side of the table
    assert [seats.nth(i).input_value() for i in range(2)] == ["Ben", "Ana"]
    assert server.get(f"/api/games/{game}").json()["hands"] == []  # nothing stored before the confirm
    page.click("#confirm-photo")
    page.wait_for_selector("#photo-dialog:not([open])", state="attached")
    hands = server.get(f"/api/games/{game}").json()["hands"]
    assert len(hands) == 1
    sides = {s["side"]: s for s in hands[0]["record"]["sides"]}
    assert km(sides["Ben"]) == km(first) and km(sides["Ana"]) == km(second)
    assert sides["Ben"]["safeties"] == first["safeties"] and sides["Ana"]["safeties"] == second["safeties"]
    assert errors == []


def test_a_photo_is_corrected_in_the_hand_form_before_it_goes_in(
        server: Server, browser: Any, photo: Path) -> None:
    game = new_game(server, ["Ana", "Ben"])
    errors: list[str] = []
    page = game_page(server, browser, game, errors)
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#photo-hand", timeout=TIMEOUT_MS)
    page.click("#correct-photo")
    page.wait_for_selector("#entry-form")
    before = int(page.locator("#s0-count-25").text_content() or "0")
    page.click("#s0-plus-25")  # a 25 the photo missed under a cup
    page.click("#save-hand")
    page.wait_for_selector("#hand-dialog:not([open])", state="attached")
    hands = server.get(f"/api/games/{game}").json()["hands"]
    assert len(hands) == 1 and hands[0]["record"]["sides"][0]["distance"]["25"] == before + 1
    assert errors == []


def test_a_photo_with_no_cards_is_refused_on_the_page_and_nothing_stored(
        server: Server, browser: Any, tmp_path: Path) -> None:
    game = new_game(server, ["Ana", "Ben"])
    blank = tmp_path / "ceiling.png"
    cv2.imwrite(str(blank), np.full((900, 1200, 3), 200, np.uint8))
    errors: list[str] = []
    page = game_page(server, browser, game, errors)
    page.set_input_files("#photo-input", str(blank))
    message = page.wait_for_selector("#photo-error", timeout=TIMEOUT_MS)
    assert "no card" in (message.text_content() or "")
    assert server.get(f"/api/games/{game}").json()["hands"] == []
    assert errors == []
