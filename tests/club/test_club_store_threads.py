"""The hub calls one ClubStore from the MQTT thread and the web server's threads at once, and outlives a lost connection."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from scoring.club.database import ClubStore
from scoring.club.errors import ClubDatabaseError
from scoring.game import GameSetup
from tests.club.tables import H1, H2, Table


@pytest.fixture
def club(postgres_url):
    with ClubStore(postgres_url) as store:
        yield store


def test_threads_sharing_one_store_each_apply_once_and_write_every_hand(club, tmp_path):
    tables = [Table(tmp_path / f"t{i}.sqlite3", f"t{i}") for i in range(4)]
    events = []
    for t in tables:
        game_id, started = t.start()
        events += [started, t.score(game_id, H1), t.score(game_id, H2)]
    hub_game = club.create_game(GameSetup.for_players(["Ana", "Ben"], goal=1000, extension=False, target=10**6)).id

    def work(i):
        if i % 2:
            return club.add_hand(hub_game, H2).revision
        return [club.apply(e) for e in events]  # every thread offers every event: each lands once

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(work, range(12)))
    applied = [r for r in results if isinstance(r, list)]
    assert [sum(column) for column in zip(*applied)] == [1] * len(events)
    assert sorted(r for r in results if isinstance(r, int)) == list(range(1, 7))
    assert len(club.load(hub_game).game.hands) == 6
    for t in tables:
        assert club.table_games(t.name)[0]["hands"][1]["record"] == H2.to_json()
        t.store.close()


def test_a_lost_connection_fails_one_call_and_the_next_opens_a_new_one(club, postgres_url):
    game_id = club.create_game(GameSetup.for_players(["Ana", "Ben"])).id
    with psycopg.connect(postgres_url, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    with pytest.raises(psycopg.OperationalError):
        club.load(game_id)
    assert club.load(game_id).id == game_id


def test_a_closed_store_says_so(postgres_url):
    store = ClubStore(postgres_url)
    store.close()
    with pytest.raises(ClubDatabaseError, match="closed"):
        store.game_ids()
