"""The club evening end to end: real tables (``borne serve --club``), Mosquitto, PostgreSQL and ``borne club``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.club.broker import Broker
from tests.club.processes import AUTH, TOKEN, Served, game_at, hand, hub, new_game, table

SIDES = ["Ana", "Ben"]


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.fixture
def club(broker: Broker, postgres_url: str, tmp_path: Path) -> Iterator[dict[str, Served]]:
    servers = {"hub": hub(postgres_url, broker.url("hub"), tmp_path)}
    for name in ("t1", "t2"):
        servers[name] = table(name, broker.url(name), tmp_path)
    try:
        for s in servers.values():
            s.start()
        yield servers
    finally:
        for s in servers.values():
            s.stop()


def hub_games(club: dict[str, Served], name: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{club['hub'].url}/api/club/tables/{name}/games", timeout=10)
    answer.raise_for_status()
    games: list[dict[str, Any]] = answer.json()
    return games


def same_hands(club: dict[str, Served], name: str, game_id: int) -> bool:
    """The hub holds the table's game exactly: the same hand records in the same order."""
    at_table = game_at(club[name], game_id)
    games = hub_games(club, name)
    return bool(games) and games[-1]["hands"] == [h["record"] for h in at_table["hands"]]


def test_hands_scored_corrected_and_deleted_reach_the_board_exactly_once(club: dict[str, Served]) -> None:
    t1, t2 = club["t1"], club["t2"]
    g1, g2 = new_game(t1, SIDES), new_game(t2, ["Cleo", "Dev"])
    for km in ({100: 2, 75: 1}, {200: 1, 50: 2}):
        httpx.post(f"{t1.url}/api/games/{g1}/hands", json=hand(SIDES, [km, {25: 4}]), headers=AUTH).raise_for_status()
    httpx.post(f"{t2.url}/api/games/{g2}/hands", json=hand(["Cleo", "Dev"], [{100: 1}, {50: 1}]),
               headers=AUTH).raise_for_status()
    wait_for(lambda: same_hands(club, "t1", g1) and same_hands(club, "t2", g2))

    httpx.put(f"{t1.url}/api/games/{g1}/hands/1", json=hand(SIDES, [{100: 3}, {25: 2}]), headers=AUTH).raise_for_status()
    httpx.delete(f"{t2.url}/api/games/{g2}/hands/1", headers=AUTH).raise_for_status()
    wait_for(lambda: same_hands(club, "t1", g1) and hub_games(club, "t2")[-1]["hands"] == [])

    tables = {t["name"]: t for t in httpx.get(f"{club['hub'].url}/api/club/tables").json()}
    assert set(tables) == {"t1", "t2"} and tables["t1"]["online"] is True
    assert tables["t1"]["totals"] == game_at(t1, g1)["totals"]
    hub_game, at_table = hub_games(club, "t1")[-1], game_at(t1, g1)
    assert hub_game["sides"] == SIDES and hub_game["totals"] == at_table["totals"]  # CONTRACT §3's form
    assert hub_game["totals_after_each_hand"] == [h["totals"] for h in at_table["hands"]]
    assert (hub_game["winner"], hub_game["finished_after_hand"]) == (None, None)


def test_a_table_killed_and_restarted_loses_nothing_and_doubles_nothing(club: dict[str, Served]) -> None:
    t1 = club["t1"]
    g1 = new_game(t1, SIDES)
    httpx.post(f"{t1.url}/api/games/{g1}/hands", json=hand(SIDES, [{100: 1}, {25: 1}]), headers=AUTH).raise_for_status()
    wait_for(lambda: same_hands(club, "t1", g1))
    t1.kill()  # kill -9: the broker's last will says the table is offline
    wait_for(lambda: not {t["name"]: t for t in httpx.get(f"{club['hub'].url}/api/club/tables").json()}["t1"]["online"])
    t1.start()
    httpx.post(f"{t1.url}/api/games/{g1}/hands", json=hand(SIDES, [{200: 1}, {75: 1}]), headers=AUTH).raise_for_status()
    wait_for(lambda: same_hands(club, "t1", g1))
    assert len(hub_games(club, "t1")[-1]["hands"]) == 2


def test_the_hub_and_the_broker_killed_lose_no_hand(club: dict[str, Served], broker: Broker) -> None:
    t2 = club["t2"]
    g2 = new_game(t2, SIDES)
    club["hub"].kill()
    for km in ({100: 1}, {75: 2}):  # scored while the hub is away
        httpx.post(f"{t2.url}/api/games/{g2}/hands", json=hand(SIDES, [km, {25: 1}]), headers=AUTH).raise_for_status()
    broker.kill()
    httpx.post(f"{t2.url}/api/games/{g2}/hands", json=hand(SIDES, [{50: 1}, {25: 1}]), headers=AUTH).raise_for_status()
    broker.start()
    club["hub"].start()
    wait_for(lambda: same_hands(club, "t2", g2), timeout=40)
    assert len(hub_games(club, "t2")[-1]["hands"]) == 3


def test_organiser_actions_need_the_clubs_token(club: dict[str, Served]) -> None:
    base = club["hub"].url
    assert httpx.post(f"{base}/api/club/tournaments", json={"name": "Winter cup"}).status_code == 401
    assert httpx.post(f"{base}/api/club/tournaments", json={"name": "Winter cup"}, headers=AUTH).status_code == 403
    organiser = {"Authorization": f"Bearer {TOKEN}"}
    created = httpx.post(f"{base}/api/club/tournaments", json={"name": "Winter cup"}, headers=organiser)
    assert created.status_code == 201
    tid = created.json()["id"]
    players = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    seated = httpx.post(f"{base}/api/club/tournaments/{tid}/rounds", headers=organiser,
                        json={"players": players, "per_table": 2, "method": "drawn", "seed": 7})
    assert seated.status_code == 201
    seating = seated.json()["seating"]
    assert sorted(p for t in seating for p in t) == sorted(players) and all(len(t) == 2 for t in seating)
    page = httpx.get(f"{base}/tournaments/{tid}/rounds/{seated.json()['round']}")
    assert page.status_code == 200 and all(p in page.text for p in players)
    bad = httpx.post(f"{base}/api/club/tournaments/{tid}/rounds", headers=organiser, json={"players": ["Ana", "Ana"]})
    assert bad.status_code == 422
