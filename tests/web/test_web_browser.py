"""The display in real headless Chromium: set-up, entry by the counters, live updates, corrections, winner.

Chromium is Debian's (``/usr/bin/chromium``, or ``$BORNE_CHROMIUM``), driven by Playwright for Python;
``make browser`` installs it on a fresh machine. Nothing is downloaded.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from tests.examples import TALLYNIGHT_HAND_1
from tests.web.conftest import Server

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
"""How long a page may take to show what it should (Playwright's own default): a bound on a wait, not a
timing figure; a loaded CI machine once needed more than 10 s."""


def side_index(page: Any, name: str) -> int:
    sides = page.locator("#entry-form .entry-side")
    for i in range(sides.count()):
        if sides.nth(i).get_attribute("data-side") == name:
            return i
    raise AssertionError(f"no side {name!r} in the entry form")


def enter_side(page: Any, name: str, distance: dict[int, int], safeties: dict[str, str]) -> None:
    """Click the + counters and the safety choices of one side, as a player would."""
    i = side_index(page, name)
    for km, count in distance.items():
        for _ in range(count):
            page.click(f"#s{i}-plus-{km}")
    for safety, how in safeties.items():
        page.click(f"label[for='s{i}-{safety}-{how}']")


def total_of(page: Any, side: str) -> str:
    return page.locator(f".side[data-side='{side}'] .total").text_content() or ""


def expect_total(page: Any, side: str, text: str) -> None:
    page.wait_for_function(
        "([side, text]) => { const e = [...document.querySelectorAll('.side')].find((x) => x.dataset.side === side);"
        " return e && e.querySelector('.total').textContent === text; }",
        arg=[side, text], timeout=TIMEOUT_MS,
    )


def test_a_whole_evening_in_the_browser(server: Server, browser: Any) -> None:
    errors: list[str] = []
    table = browser.new_page(bypass_csp=True, viewport={"width": 390, "height": 844})
    table.on("pageerror", lambda e: errors.append(str(e)))
    table.on("dialog", lambda d: d.accept())
    table.add_init_script(f"localStorage.setItem('borne.token', '{server.token}')")

    # -- set-up: four players, teams drawn at random until Ana and Cleo are partners
    table.goto(server.url + "/new")
    for i, name in enumerate(["Ana", "Ben", "Cleo", "Dev"]):
        if i >= 2:
            table.click("#add-player")
        table.fill(f"#player-{i}", name)
    table.wait_for_selector("#sides-preview li >> nth=1")
    # four players: teams of two by default (the page redraws the grouping after the last name's input; two
    # players' preview already has two sides, so wait for the grouping itself)
    table.wait_for_selector("#grouping input[value='2']:checked", timeout=TIMEOUT_MS)
    assert table.is_checked("#grouping input[value='2']")
    assert table.input_value("#goal") == "1000" and not table.is_checked("#extension")
    for draw in range(1, 60):
        table.click("#draw-teams")
        table.wait_for_selector(f"#sides-preview[data-draws='{draw}']")
        chips = table.locator("#sides-preview li").all_text_contents()
        team = next(c for c in chips if "Ana" in c)
        if "Cleo" in team:
            break
    ana_cleo = team
    ben_dev = next(c for c in chips if c != team)
    assert sorted(ana_cleo.split(" & ")) == ["Ana", "Cleo"] and sorted(ben_dev.split(" & ")) == ["Ben", "Dev"]
    assert "Parker Brothers" in (table.text_content("#rules-help") or "")
    table.fill("#game-name", "Tallynight")
    table.click("#start-game")
    table.wait_for_url(re.compile(r"/games/\d+$"), timeout=TIMEOUT_MS)
    game_id = int(table.url.rsplit("/", 1)[1])

    # -- a second screen (the TV) opens the live display and is never reloaded
    tv = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
    tv.on("pageerror", lambda e: errors.append(str(e)))
    tv.goto(server.url + "/")
    tv.wait_for_selector(f".side[data-side='{ana_cleo}']")
    tv.wait_for_selector("body[data-live='1']")
    tv.evaluate("window.__notReloaded = true")

    # -- hand 1 by the counters, with a mistake the page catches before sending
    table.click("#enter-hand")
    a = side_index(table, ana_cleo)
    for _ in range(3):
        table.click(f"#s{a}-plus-200")
    assert "at most two 200s" in (table.text_content(f"#entry-{ana_cleo.replace(' & ', '_')} .counter[data-km='200']") or "")
    assert table.is_disabled("#save-hand")
    table.click(f"#s{a}-minus-200")
    table.click(f"#s{a}-minus-200")
    enter_side(table, ana_cleo, {50: 1, 75: 2, 100: 6}, {"puncture_proof": "coup_fourre", "right_of_way": "played"})
    assert "1,000 of 1,000 km ✓" in (table.text_content(f"#s{a}-km") or "")  # the 200 left from above
    enter_side(table, ben_dev, {100: 4, 75: 1, 50: 2}, {"driving_ace": "played"})
    table.check("#draw-pile-empty")
    table.click("#save-hand")
    expect_total(table, ana_cleo, "2,200")
    expect_total(tv, ana_cleo, "2,200")
    expect_total(tv, ben_dev, "675")

    # -- hand 2
    table.click("#enter-hand")
    enter_side(table, ben_dev, {100: 6, 75: 4, 50: 2}, {"right_of_way": "played"})
    enter_side(table, ana_cleo, {100: 5, 75: 2}, {"extra_tank": "played"})
    table.click("#save-hand")
    expect_total(tv, ana_cleo, "2,950")
    expect_total(tv, ben_dev, "2,475")
    assert tv.evaluate("window.__notReloaded") is True
    assert "+1,800" in (tv.locator(f".side[data-side='{ben_dev}'] .last").text_content() or "")
    pad = tv.locator("#score-pad tbody[data-hand='1']").text_content() or ""
    assert "Delayed action" in pad and "2,200" in pad

    # -- tap hand 1 to fix a miscount: the draw pile was not empty after all (300 less)
    table.click("#fix-1")
    assert table.is_checked("#draw-pile-empty")
    table.uncheck("#draw-pile-empty")
    table.click("#save-hand")
    expect_total(tv, ana_cleo, "2,650")
    expect_total(table, ana_cleo, "2,650")

    # -- undo takes the correction back; a second fix puts it again
    table.click("#undo")
    expect_total(tv, ana_cleo, "2,950")
    table.click("#fix-1")
    table.uncheck("#draw-pile-empty")
    table.click("#save-hand")
    expect_total(tv, ana_cleo, "2,650")

    # -- replay the race chart hand by hand
    tv.click("#replay")
    tv.wait_for_selector("#race-chart[data-step='0']", timeout=TIMEOUT_MS)
    tv.wait_for_selector("#race-chart[data-step='1']", timeout=TIMEOUT_MS)
    tv.wait_for_selector("#race-chart[data-step='2']", timeout=TIMEOUT_MS)
    assert "After hand 2" in (tv.text_content("#chart-label") or "")
    assert tv.locator(f"#race-chart g.series[data-side='{ana_cleo}'] circle").count() == 3

    # -- the score sheet behind the display's link holds the totals
    href = tv.get_attribute("#sheet-link", "href")
    pdf = tv.request.get(server.url + href)
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
    assert "2,650" in text and "2,475" in text and "Tallynight" in text

    # -- play on to 5,000: all four safeties as coups fourrés and a shut-out
    table.click("#enter-hand")
    enter_side(table, ana_cleo, {100: 8, 200: 1}, {s: "coup_fourre" for s in
                                                 ("right_of_way", "extra_tank", "puncture_proof", "driving_ace")})
    table.check("#draw-pile-empty")
    table.click("#save-hand")
    tv.wait_for_selector("#winner", timeout=TIMEOUT_MS)
    assert f"{ana_cleo} wins the game!" in (tv.text_content("#winner") or "")
    expect_total(tv, ana_cleo, "6,750")
    assert table.locator("#enter-hand").count() == 0

    # -- the next game with the same sides; the TV follows it by itself
    table.click("#next-game")
    tv.wait_for_function(f"document.querySelector('.game-head p').textContent.startsWith('#{game_id + 1}')",
                         timeout=TIMEOUT_MS)
    expect_total(tv, ana_cleo, "0")
    assert tv.evaluate("window.__notReloaded") is True
    assert tv.locator("#games li").count() >= 2
    assert errors == []


def test_a_stale_correction_is_refused_with_a_clear_message(server: Server, browser: Any) -> None:
    gid = server.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page.add_init_script(f"localStorage.setItem('borne.token', '{server.token}')")
    page.goto(f"{server.url}/games/{gid}")
    page.click("#fix-1")
    page.uncheck("#draw-pile-empty")
    server.delete(f"/api/games/{gid}/hands/1")  # someone else changes the game meanwhile
    page.wait_for_function("document.querySelector('#entry-error').textContent.includes('changed this game')",
                           timeout=TIMEOUT_MS)
    page.click("#save-hand")
    page.wait_for_function("document.querySelector('#entry-error').textContent.length > 0", timeout=TIMEOUT_MS)
    assert server.get(f"/api/games/{gid}").json()["hands"] == []
    page.close()


def test_the_token_is_asked_once_and_remembered(server: Server, browser: Any) -> None:
    gid = server.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/games/{gid}")
    page.click("#enter-hand")
    i = side_index(page, "Ben & Dev")
    page.click(f"#s{i}-plus-100")
    page.click("#save-hand")
    page.wait_for_selector("#token-dialog[open]")
    page.fill("#token-input", "wrong")
    page.click("#token-save")
    page.wait_for_selector("#token-dialog[open] .error")
    page.fill("#token-input", server.token)
    page.click("#token-save")
    expect_total(page, "Ben & Dev", "100")
    assert page.evaluate("localStorage.getItem('borne.token')") == server.token
    context.close()


def test_sigkill_mid_game_then_restart_keeps_every_hand_and_the_page_reconnects(
    fresh_server: Server, browser: Any
) -> None:
    server = fresh_server
    gid = server.post("/api/games", json={"players": ["Ana", "Ben", "Cleo", "Dev"],
                                          "teams": [["Ana", "Cleo"], ["Ben", "Dev"]]}).json()["id"]
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    page = browser.new_page(bypass_csp=True)
    page.goto(server.url + "/")
    expect_total(page, "Ana & Cleo", "2,200")
    page.evaluate("window.__notReloaded = true")
    server.kill()
    page.wait_for_selector("body[data-live='0']", timeout=TIMEOUT_MS)
    server.start()
    game = server.get(f"/api/games/{gid}").json()
    assert len(game["hands"]) == 1 and game["totals"] == {"Ana & Cleo": 2200, "Ben & Dev": 675}
    page.wait_for_selector("body[data-live='1']", timeout=TIMEOUT_MS)
    from tests.examples import TALLYNIGHT_HAND_2

    assert server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2).status_code == 200
    expect_total(page, "Ana & Cleo", "2,950")
    expect_total(page, "Ben & Dev", "2,475")
    assert page.evaluate("window.__notReloaded") is True
    page.close()
