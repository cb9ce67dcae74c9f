"""Issue 15 in real headless Chromium: the page under its strict policy, framing refused, /docs offline,
one Idempotency-Key per entry, and the page keeping up when every event stream is taken."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.examples import TALLYNIGHT_HAND_1
from tests.web.conftest import TOKEN, Server
from tests.web.test_web_browser import TIMEOUT_MS, enter_side
from tests.web.test_web_hardening import open_stream

pytestmark = pytest.mark.browser

SIDES = ["Ana & Cleo", "Ben & Dev"]

CATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def expect_total(page: Any, side: str, text: str) -> None:
    """Wait for a side's total through a locator: ``wait_for_function`` would need ``eval``, which the policy refuses."""
    from playwright.sync_api import expect

    expect(page.locator(f".side[data-side='{side}'] .total")).to_have_text(text, timeout=TIMEOUT_MS)


def watched_page(browser: Any, server: Server, errors: list[str], *, offline: bool = True) -> Any:
    """A page that records script errors and policy violations, with the token, cut off from the internet."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(CATCH_VIOLATIONS)
    page.add_init_script(f"localStorage.setItem('borne.token', '{server.token}')")
    if offline:  # anything not from the display itself fails, as on a LAN without internet
        def only_the_display(route: Any) -> None:
            if route.request.url.startswith(server.url):
                route.continue_()
            else:
                errors.append(f"left the origin: {route.request.url}")
                route.abort()

        page.route("**/*", only_the_display)
    return page


def test_the_page_works_under_its_policy_and_sends_a_key_per_entry(server: Server, browser: Any) -> None:
    errors: list[str] = []
    r = server.post("/api/games", json={"sides": SIDES, "rules": "classic", "target": 5000})
    game_id = r.json()["id"]
    page = watched_page(browser, server, errors)
    writes: list[dict[str, str]] = []
    page.on("request", lambda req: writes.append(req.headers) if req.method in ("POST", "PUT", "DELETE") else None)
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("body[data-live='1']")
    for total in ("200", "400"):
        page.click("#enter-hand")
        enter_side(page, "Ana & Cleo", {100: 2}, {})
        page.click("#save-hand")
        expect_total(page, "Ana & Cleo", total)
    keys = [w.get("idempotency-key") for w in writes]
    assert len(keys) == 2 and all(keys) and keys[0] != keys[1], keys
    assert page.evaluate("window.__violations") == []
    assert errors == []
    page.close()


def test_another_site_cannot_frame_the_display(server: Server, browser: Any) -> None:
    page = browser.new_page()
    page.set_content(f'<iframe id="f" src="{server.url}/" width="600" height="400"></iframe>')
    page.wait_for_timeout(1500)  # let the frame load or be refused
    framed = [f for f in page.frames if f != page.main_frame]
    assert framed, "no frame"
    # refused: the frame shows Chromium's error page, never the display (whose shell has #main)
    for frame in framed:
        assert frame.url != f"{server.url}/" or frame.locator("#main").count() == 0
    page.close()


def test_the_docs_render_offline_under_the_policy(server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = watched_page(browser, server, errors)
    page.goto(server.url + "/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=TIMEOUT_MS)
    assert page.locator(".swagger-ui .opblock").count() > 10
    assert "Borne" in (page.text_content(".swagger-ui .title") or "")
    assert page.evaluate("window.__violations") == []
    assert errors == []
    page.close()


def test_the_page_keeps_up_by_polling_when_every_stream_is_taken(tmp_path: Path, browser: Any) -> None:
    server = Server(tmp_path / "games.sqlite3", args=("--token", TOKEN, "--max-streams", "2"))
    server.start()
    try:
        game_id = server.post("/api/games", json={"sides": SIDES, "rules": "classic", "target": 5000}).json()["id"]
        with ExitStack() as stack:
            for source in ("127.0.0.2", "127.0.0.3"):
                assert open_stream(stack, server, source=source).status_code == 200
            assert open_stream(stack, server, source="127.0.0.4").status_code == 503
            errors: list[str] = []
            page = watched_page(browser, server, errors)
            page.goto(f"{server.url}/games/{game_id}")
            page.wait_for_selector(".side[data-side='Ana & Cleo']", timeout=TIMEOUT_MS)
            # no stream for this page: it says so once the server's 503 has reached it
            page.wait_for_selector("body[data-live='0']", timeout=TIMEOUT_MS)
            hand = server.post(f"/api/games/{game_id}/hands", json={**TALLYNIGHT_HAND_1})
            assert hand.status_code == 200, hand.text
            total = f"{hand.json()['game_totals']['Ana & Cleo']:,}"
            expect_total(page, "Ana & Cleo", total)  # by polling, without a stream
            assert errors == []
        # a stream is free again: the page goes live by itself
        deadline = time.monotonic() + 20
        page.wait_for_selector("body[data-live='1']", timeout=(deadline - time.monotonic()) * 1000)
        page.close()
    finally:
        server.stop()


def test_a_hand_whose_answer_is_lost_is_retried_and_stored_once(server: Server, browser: Any) -> None:
    errors: list[str] = []
    game_id = server.post("/api/games", json={"sides": SIDES, "rules": "classic", "target": 5000}).json()["id"]
    page = watched_page(browser, server, errors, offline=False)
    dropped: list[str] = []

    def store_then_drop(route: Any) -> None:
        if route.request.method == "POST" and not dropped:
            route.fetch()  # the server stores the hand ...
            dropped.append(route.request.all_headers().get("idempotency-key", ""))
            route.abort("connectionreset")  # ... and the phone never hears back
        else:
            route.continue_()

    page.route(f"**/api/games/{game_id}/hands", store_then_drop)
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("body[data-live='1']")
    page.click("#enter-hand")
    enter_side(page, "Ana & Cleo", {100: 3}, {})
    replayed: list[str | None] = []
    page.on("response", lambda r: replayed.append(r.headers.get("idempotent-replayed"))
            if r.request.method == "POST" else None)
    page.click("#save-hand")
    page.wait_for_selector("#hand-dialog", state="hidden", timeout=TIMEOUT_MS)  # saved: the retry was answered
    expect_total(page, "Ana & Cleo", "300")
    assert len(dropped) == 1 and dropped[0]
    assert replayed == ["true"]  # the retry got the first answer back
    assert len(server.get(f"/api/games/{game_id}").json()["hands"]) == 1
    assert errors == []
    page.close()
