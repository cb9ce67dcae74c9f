"""Usable by everyone at the table: axe-core finds no serious or critical problem on any page, light or dark;
everything works from the keyboard; the totals keep their contrast for a TV across the room."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.examples import TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2
from tests.web.a11y import SCHEMES, audit, contrast
from tests.web.camera_run import render_sequence, zone_editing_run
from tests.web.conftest import TOKEN, Server
from tests.web.test_web_browser import TIMEOUT_MS, expect_total

pytestmark = pytest.mark.browser

WINNING_HAND = {
    "goal": 1000, "draw_pile_empty_at_finish": True, "extension_called_by": None,
    "sides": [{"side": "Ana & Cleo", "distance": {"100": 8, "200": 1},
               "safeties": {s: "coup_fourre" for s in ("right_of_way", "extra_tank", "puncture_proof", "driving_ace")}},
              {"side": "Ben & Dev", "distance": {}, "safeties": {}}],
}


def open_page(browser: Any, server: Server, path: str, *, token: bool = True, locale: str = "en-GB") -> Any:
    context = browser.new_context(bypass_csp=True, locale=locale, viewport={"width": 1280, "height": 900})
    if token:
        context.add_init_script(f"localStorage.setItem('borne.token', '{server.token}')")
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(server.url + path)
    return page


def no_stray_words(page: Any, where: str) -> list[str]:
    text = page.inner_text("body")
    return [f"{where}: {m!r} on the page" for m in re.findall(r"\b(?:null|undefined|NaN)\b", text)]


def test_no_page_has_a_serious_problem_light_or_dark(fresh_server: Server, browser: Any) -> None:
    server = fresh_server
    problems: list[str] = []

    page = open_page(browser, server, "/")  # no game yet
    page.wait_for_selector(".card.empty")
    problems += audit(page, "welcome") + no_stray_words(page, "welcome")

    page.goto(server.url + "/new")
    page.wait_for_selector("#setup-form")
    page.fill("#player-0", "Ana")
    page.fill("#player-1", "Ben")
    page.wait_for_selector("#sides-preview li >> nth=1")
    problems += audit(page, "set-up") + no_stray_words(page, "set-up")

    gid = server.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
    page.goto(f"{server.url}/games/{gid}")
    page.wait_for_selector(".side >> nth=1")
    problems += audit(page, "a game with no hand") + no_stray_words(page, "a game with no hand")

    for hand in (TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2):
        server.post(f"/api/games/{gid}/hands", json=hand)
    page.reload()
    expect_total(page, "Ana & Cleo", "2,950")
    problems += audit(page, "a game") + no_stray_words(page, "a game")

    page.click("#fix-1")
    page.wait_for_selector("#hand-dialog[open]")
    for _ in range(3):
        page.click("#s0-plus-200")  # a mistake, so the errors show too
    problems += audit(page, "hand correction with errors") + no_stray_words(page, "hand correction")
    page.keyboard.press("Escape")

    server.post(f"/api/games/{gid}/hands", json=WINNING_HAND)
    page.wait_for_selector("#winner", timeout=TIMEOUT_MS)
    problems += audit(page, "the winner") + no_stray_words(page, "the winner")
    page.context.close()

    fresh = open_page(browser, server, f"/games/{gid}", token=False, locale="fr-FR")
    fresh.wait_for_selector("#undo")
    fresh.click("#undo")
    fresh.wait_for_selector("#token-dialog[open]")
    problems += audit(fresh, "token dialog, in French") + no_stray_words(fresh, "token dialog")
    fresh.context.close()
    assert problems == []


def test_a_hand_is_entered_and_corrected_from_the_keyboard(server: Server, browser: Any) -> None:
    gid = server.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
    page = open_page(browser, server, f"/games/{gid}")
    page.wait_for_selector("#enter-hand")

    def tab_to(element_id: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
                return
        raise AssertionError(f"Tab never reaches #{element_id}")

    tab_to("enter-hand")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-dialog[open]")
    tab_to("s0-plus-100")
    for _ in range(4):
        page.keyboard.press("Enter")
    tab_to("s0-right_of_way-none")
    page.keyboard.press("ArrowRight")  # a radio group: the arrow picks "played"
    assert page.is_checked("#s0-right_of_way-played")
    tab_to("save-hand")
    page.keyboard.press("Enter")
    expect_total(page, "Ana & Cleo", "500")

    tab_to("fix-1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-dialog[open]")
    tab_to("s0-minus-100")
    page.keyboard.press("Space")
    tab_to("save-hand")
    page.keyboard.press("Enter")
    expect_total(page, "Ana & Cleo", "400")
    # the game's event may redraw the totals before the save's own answer closes the dialog, and a key
    # pressed inside the dialog is not the page's shortcut
    page.wait_for_selector("#hand-dialog:not([open])", state="attached")

    page.keyboard.press("n")  # the shortcut the button announces
    page.wait_for_selector("#hand-dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#hand-dialog:not([open])", state="attached")

    page.focus("#language")
    page.keyboard.press("ArrowDown")  # English → Français, from the keyboard too
    page.wait_for_function("document.documentElement.lang === 'fr'", timeout=TIMEOUT_MS)
    page.context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_totals_keep_their_contrast_for_a_tv_across_the_room(server: Server, browser: Any, scheme: str) -> None:
    gid = server.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    page = open_page(browser, server, f"/games/{gid}")
    page.emulate_media(color_scheme=scheme)
    expect_total(page, "Ana & Cleo", "2,200")
    ratios = contrast(page, ".side .total") + contrast(page, ".side .side-name")
    assert len(ratios) == 4 and min(ratios) >= 7.0, ratios  # WCAG AAA for text, whatever its size
    page.context.close()


def test_the_camera_panel_and_zone_editor_have_no_serious_problem(tmp_path: Any, browser: Any) -> None:
    seq = render_sequence(tmp_path / "seq", seed=5, frames=60)
    for run in zone_editing_run(tmp_path, seq):
        context = browser.new_context(bypass_csp=True, locale="it-IT", viewport={"width": 1280, "height": 900})
        context.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
        page = context.new_page()
        page.goto(run.url + "/")
        page.wait_for_selector("#edit-zones:not([disabled])", timeout=20_000)
        problems = audit(page, "camera panel, in Italian") + no_stray_words(page, "camera panel")
        assert re.search(r"\d+,\d fotogrammi/s", page.text_content("#camera-panel") or "")  # Italian decimal comma
        page.click("#edit-zones")
        page.wait_for_selector("#zone-dialog[open] #zone-corner-1-3")
        problems += audit(page, "zone editor, in Italian") + no_stray_words(page, "zone editor")
        assert page.text_content("#zone-title") == "Zone del tavolo"
        context.close()
        assert problems == []
