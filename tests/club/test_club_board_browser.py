"""The club's board and a table's page in real Chromium, in each of the five languages, under the page's CSP."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from scoring.club.broker import BrokerAddress
from scoring.club.pages import club_strings
from scoring.club.publisher import TablePublisher
from scoring.game import GameSetup
from scoring.storage import GameStore
from scoring.web.i18n import LANGUAGES
from tests.club.broker import Broker
from tests.club.processes import Served, hub
from tests.conftest import build_hand

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-GB", "fr": "fr-FR", "pt": "pt-BR", "es": "es-ES", "it": "it-IT"}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Served]:
    """A hub that heard two tables: t1 finished a game and started another, t2 is half-way through one."""
    from tests.club.broker import running_broker
    from tests.club.postgres import running_cluster

    folder = tmp_path_factory.mktemp("club")
    with running_cluster() as cluster, running_broker() as broker:
        import psycopg

        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute(b"CREATE DATABASE board")
        served = hub(cluster.url("board"), broker.url("hub"), folder)
        served.start()
        publishers = [play_table(broker, folder, "t1", hands=5), play_table(broker, folder, "t2", hands=2)]
        try:
            wait_for_hub(served, {"t1": 1, "t2": 2})
            yield served
        finally:
            for p in publishers:
                p.stop()
            served.stop()


def play_table(broker: Broker, folder: Path, name: str, *, hands: int) -> TablePublisher:
    store = GameStore(folder / f"{name}.sqlite3", club_outbox=True)
    publisher = TablePublisher(store, BrokerAddress.parse(broker.url(name)), name)
    publisher.start()
    game = store.create_game(GameSetup.for_players(["Ana", "Ben"] if name == "t1" else ["Cleo", "Dev"], goal=1000,
                                                   extension=False))
    sides = game.game.setup.side_names
    for _ in range(hands):
        done = store.add_hand(game.id, build_hand((sides[0], {200: 1, 100: 5, 75: 4}), (sides[1], {25: 2})))
        if done.game.outcome().winner is not None:
            game = store.create_game(game.game.setup)
    return publisher


def wait_for_hub(served: Served, hands: dict[str, int]) -> None:
    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        tables = {t["name"]: t for t in httpx.get(served.url + "/api/club/tables").json()}
        if all(name in tables and tables[name]["hands"] == n for name, n in hands.items()):
            return
        time.sleep(0.1)
    raise AssertionError(f"the hub did not hear the tables: {tables}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_in_each_language(evening: Served, browser: Any, language: str, tmp_path: Path) -> None:
    words = club_strings(language)
    errors: list[str] = []
    context = browser.new_context(locale=LOCALES[language], viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(evening.url + "/")
    page.wait_for_selector("body[data-ready] .table[data-table=t2]")
    assert page.get_attribute("html", "lang") == language
    assert words["title"] in page.text_content("h1")
    text = page.inner_text("body")
    for key in ("standings", "latest", "tables", "broker_up"):
        assert words[key] in text, key
    assert "Cleo" in page.inner_text(".table[data-table=t2]") and words["online"] in page.inner_text(".table[data-table=t2]")
    assert page.locator(".standings tbody tr").count() == 4
    assert "undefined" not in text and "NaN" not in text and "null" not in text
    shot = tmp_path / f"board-{language}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert Image.open(shot).convert("L").getextrema()[1] - Image.open(shot).convert("L").getextrema()[0] > 100

    page.click(".table[data-table=t1] h3 a")
    page.wait_for_selector("body[data-page=table][data-ready] .game")
    assert page.url.endswith("/tables/t1")
    games = page.locator(".game")
    assert games.count() == 2  # the finished game and the one just started
    assert words["winner"].split("{")[0].strip() in page.inner_text(".game >> nth=1")
    sheet = page.locator(".game >> nth=1").locator("h2 a").get_attribute("href")
    pdf = context.request.get(evening.url + sheet.split("?")[0])
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    assert errors == []
    context.close()


def test_the_table_page_of_no_such_table_says_so(evening: Served, browser: Any) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(evening.url + "/tables/t9")
    page.wait_for_selector("body[data-ready]")
    assert club_strings("en")["no_game"] in page.inner_text("main")
    context.close()


def test_the_organiser_seats_a_round_with_the_clubs_token(evening: Served, browser: Any, tmp_path: Path) -> None:
    from tests.club.processes import TOKEN

    words = club_strings("fr")
    errors: list[str] = []
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(evening.url + "/")
    page.wait_for_selector("body[data-ready] .table")
    page.click(f"text={words['organise']}")
    page.wait_for_selector("body[data-page=organise][data-ready] #create")
    page.fill("#token", "not-the-token")
    page.fill("#tournament-name", "Coupe d'hiver")
    page.click("#create")
    page.wait_for_selector("#status:not(:empty)")
    assert words["refused"].split("{")[0].strip() in page.text_content("#status")
    page.fill("#token", TOKEN)
    page.click("#create")
    page.wait_for_selector("#tournament option", state="attached")
    players = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
    page.fill("#players", "\n".join(players))
    page.click("#seeded")  # seeded from the standings: Ana has won a game at t1
    page.wait_for_selector("#seating .seat")
    seated = [page.locator("#seating .seat").nth(i).locator("li").all_text_contents()
              for i in range(page.locator("#seating .seat").count())]
    assert sorted(p for t in seated for p in t) == sorted(players) and seated[0][0] == "Ana"
    page.screenshot(path=str(tmp_path / "organise.png"), full_page=True)
    page.click(f"#status >> text={words['print']}")
    page.wait_for_selector("body.print .seat")
    assert page.locator("body.print .seat").count() == len(seated)
    assert errors == []
    context.close()
