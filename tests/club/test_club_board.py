"""What the board reads from the club's store: the tables, their games, the standings; tournaments; migrations."""

from __future__ import annotations

import psycopg
import pytest

from scoring.club.database import ClubStore
from scoring.club.errors import ClubDatabaseError, SeatingError, TableNotFoundError, TournamentNotFoundError
from scoring.club.migrate import LATEST_VERSION, migrations
from scoring.club.results import Standing
from scoring.errors import NothingToUndoError
from scoring.game import GameSetup
from tests.club.tables import H1, H2, H3, Table
from tests.conftest import build_hand


@pytest.fixture
def club(postgres_url):
    with ClubStore(postgres_url) as store:
        yield store


@pytest.fixture
def tables(tmp_path):
    made = [Table(tmp_path / "a.sqlite3", "t1"), Table(tmp_path / "b.sqlite3", "t2")]
    yield made
    for t in made:
        t.store.close()


def test_opening_a_database_twice_migrates_it_once(postgres_url):
    with ClubStore(postgres_url) as first:
        gid = first.create_game(GameSetup.for_players(["Ana", "Ben"])).id
    with ClubStore(postgres_url) as again:
        assert again.schema_version == LATEST_VERSION == len(migrations())
        assert again.game_ids() == [gid]
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
    assert rows == [(m.version, m.name) for m in migrations()]
    assert [name for _, name in rows][:3] == ["games", "club", "tournaments"]


def test_a_database_of_a_newer_borne_is_refused(postgres_url):
    ClubStore(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, 'future')", (LATEST_VERSION + 1,))
    with pytest.raises(ClubDatabaseError, match="newer Borne"):
        ClubStore(postgres_url)


@pytest.mark.parametrize("url", ["sqlite:///club.db", "postgresql://nobody@127.0.0.1:1/none"])
def test_a_database_that_cannot_be_used_is_refused_with_a_clear_error(url):
    with pytest.raises(ClubDatabaseError, match="club's database"):
        ClubStore(url)


def test_tables_list_each_table_with_its_current_game_and_totals(club, tables):
    one, two = tables
    g1, s1 = one.start()
    club.apply(s1)
    club.apply(one.score(g1, H1))
    g2, s2 = one.start()  # the table's second game: its current one
    club.apply(s2)
    club.apply(one.score(g2, H2))
    club.set_online("t2", False)  # heard of by its status only
    summary = {t.name: t for t in club.tables()}
    assert list(summary) == ["t1", "t2"]
    assert (summary["t1"].online, summary["t1"].table_game, summary["t1"].totals) == (True, 2, {"Ana": 100, "Ben": 150})
    assert club.load(summary["t1"].game).game.hands == (H2,)
    assert summary["t1"].last_seq == 4
    assert (summary["t2"].online, summary["t2"].game, summary["t2"].totals, summary["t2"].last_seq) == (False, None, {}, 0)
    club.set_online("t1", False)
    club.set_online("t2", True)
    assert [(t.name, t.online) for t in club.tables()] == [("t1", False), ("t2", True)]
    assert summary["t1"].to_json()["totals"] == {"Ana": 100, "Ben": 150}


def test_table_games_are_the_tables_games_oldest_first_as_documents(club, tables):
    one, _ = tables
    g1, s1 = one.start()
    for event in (s1, one.score(g1, H1), one.score(g1, H3)):
        club.apply(event)
    g2, s2 = one.start()
    club.apply(s2)
    documents = club.table_games("t1")
    assert [(d["table"], d["table_game"], len(d["hands"])) for d in documents] == [("t1", 1, 2), ("t1", 2, 0)]
    first = documents[0]
    assert first["hands"][1]["record"] == H3.to_json()
    assert first["totals"] == one.store.load(g1).game.totals()
    assert first["totals_after_each_hand"] == [h["totals"] for h in first["hands"]]
    assert {"sides", "rules", "target", "winner", "finished_after_hand"} <= set(first)
    with pytest.raises(TableNotFoundError):
        club.table_games("t9")
    assert club.last_seq("t9") == 0


def test_standings_count_each_players_games_wins_and_points_across_tables(club, tables):
    one, two = tables
    win = build_hand(("Ana", {100: 10}), ("Ben", {}), empty=True)  # Ana 2,500 a hand
    g1, s1 = one.start()
    club.apply(s1)
    for _ in range(2):
        club.apply(one.score(g1, win))  # 5,000: Ana wins
    g2, s2 = two.start(("Ana", "Cleo", "Ben", "Dev"))  # teams Ana & Cleo, Ben & Dev
    club.apply(s2)
    club.apply(two.score(g2, build_hand(("Ana & Cleo", {}), ("Ben & Dev", {75: 1}))))
    g3, s3 = two.start(("Eve", "Fay"))
    club.apply(s3)  # no hand yet: not counted
    assert club.standings() == [
        Standing("Ana", games=2, wins=1, points=5000),
        Standing("Ben", games=2, wins=0, points=75),
        Standing("Dev", games=1, wins=0, points=75),
        Standing("Cleo", games=1, wins=0, points=0),
    ]


def test_a_tournament_keeps_its_rounds_in_order(club):
    tid = club.create_tournament("Friday cup")
    assert club.add_round(tid, [["Ana", "Ben"], ["Cleo", "Dev"]], drawn=True) == 1
    assert club.add_round(tid, [["Ana", "Cleo"], ["Ben", "Dev"]], drawn=False) == 2
    rounds = club.rounds(tid)
    assert [(r.number, r.seating, r.drawn) for r in rounds] == [
        (1, [["Ana", "Ben"], ["Cleo", "Dev"]], True), (2, [["Ana", "Cleo"], ["Ben", "Dev"]], False)]
    assert [(t.id, t.name, t.rounds) for t in club.tournaments()] == [(tid, "Friday cup", 2)]
    other = club.create_tournament("Saturday")
    assert club.add_round(other, [["Eve", "Fay"]], drawn=True) == 1


@pytest.mark.parametrize(("call", "error"), [
    (lambda c, t: c.add_round(t + 1, [["Ana", "Ben"]], drawn=True), TournamentNotFoundError),
    (lambda c, t: c.rounds(t + 1), TournamentNotFoundError),
    (lambda c, t: c.add_round(t, [["Ana", "Ben"], ["Ana", "Cleo"]], drawn=True), SeatingError),
    (lambda c, t: c.add_round(t, [["Ana"]], drawn=True), SeatingError),
    (lambda c, t: c.add_round(t, [], drawn=True), SeatingError),
])
def test_a_round_that_cannot_be_seated_is_refused_and_nothing_stored(club, call, error):
    tid = club.create_tournament("Friday cup")
    with pytest.raises(error):
        call(club, tid)
    assert club.rounds(tid) == []


def test_a_hub_undo_leaves_the_tables_changes_to_the_table(club, tables):
    one, _ = tables
    g1, s1 = one.start()
    club.apply(s1)
    club.apply(one.score(g1, H1))
    hub_id = club.table_games("t1")[0]["id"]
    with pytest.raises(NothingToUndoError):
        club.undo(hub_id)
    assert club.load(hub_id).game.hands == (H1,)
