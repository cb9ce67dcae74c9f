"""The hub applies each table's event once, in order, whole or not at all."""

from __future__ import annotations

import copy

import pytest

from scoring.club import database
from scoring.club.database import ClubStore
from scoring.club.errors import BadEventError, ForeignOriginError
from scoring.club.events import EventKind
from tests.club.tables import CLUB_TABLES, H1, H2, H3, Table, counts
from tests.conftest import build_hand


@pytest.fixture
def club(postgres_url):
    with ClubStore(postgres_url) as store:
        yield store


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path / "t1.sqlite3")
    yield t
    t.store.close()


def the_game(club, name="t1"):
    (document,) = club.table_games(name)
    return club.load(document["id"])


def test_a_new_event_is_applied_once_and_its_repeat_changes_nothing(club, table, postgres_url):
    game_id, started = table.start()
    scored = table.score(game_id, H1)
    assert club.apply(started) is True
    assert club.apply(scored) is True
    before = counts(postgres_url)
    assert club.apply(scored) is False
    assert club.apply(started) is False
    assert counts(postgres_url) == before
    stored = the_game(club)
    assert stored.game.hands == (H1,)
    assert stored.revision == table.store.load(game_id).revision
    assert club.last_seq("t1") == 2


def test_an_older_revision_after_a_newer_one_changes_nothing_but_counts_as_applied(club, table):
    game_id, started = table.start()
    first = table.score(game_id, H1)
    second = table.score(game_id, H2)
    assert club.apply(started) and club.apply(second)
    history = club.history(the_game(club).id)
    assert club.apply(first) is True  # late, but new
    assert the_game(club).game.hands == (H1, H2)
    assert club.history(the_game(club).id) == history
    assert club.apply(first) is False


def test_a_gap_in_the_events_still_lands_the_newer_document(club, table):
    game_id, started = table.start()
    table.score(game_id, H1)  # seq 2 never arrives
    third = table.score(game_id, H2)
    assert club.apply(started) and club.apply(third)
    assert the_game(club).game.hands == (H1, H2)
    assert club.last_seq("t1") == 1  # acknowledged up to the gap: the table sends 2 again


def test_the_first_event_heard_of_a_game_creates_it_from_the_document(club, table):
    game_id, _ = table.start(("Ana", "Ben", "Cleo", "Dev"))
    record = build_hand(("Ana & Ben", {100: 2}), ("Cleo & Dev", {}))
    event = table.score(game_id, record)
    assert club.apply(event)
    stored = the_game(club)
    assert stored.game.setup == table.store.load(game_id).game.setup
    assert stored.game.hands == (record,)


def test_corrections_deletions_and_undo_at_the_table_reach_the_hub(club, table):
    game_id, started = table.start()
    events = [started, table.score(game_id, H1), table.score(game_id, H2)]
    table.store.replace_hand(game_id, 1, H3)
    events.append(table.event(game_id, EventKind.HAND_CORRECTED, 1))
    table.store.delete_hand(game_id, 2)
    events.append(table.event(game_id, EventKind.HAND_DELETED, 2))
    table.store.undo(game_id)
    events.append(table.event(game_id, EventKind.HAND_UNDONE, 2))
    for event in events:
        assert club.apply(event)
    assert the_game(club).game.hands == table.store.load(game_id).game.hands == (H3, H2)
    trail = club.history(the_game(club).id)
    assert [(c.author, c.action, c.hand_number) for c in trail] == [
        ("t1", "game_started", None), ("t1", "hand_scored", 1), ("t1", "hand_scored", 2),
        ("t1", "hand_corrected", 1), ("t1", "hand_deleted", 2), ("t1", "hand_undone", 2)]
    assert trail[3].before == H1.to_json() and trail[3].after == H3.to_json()


def test_two_tables_with_the_same_game_id_are_kept_apart(club, tmp_path):
    one, two = Table(tmp_path / "a.sqlite3", "t1"), Table(tmp_path / "b.sqlite3", "t2")
    for t, record in ((one, H1), (two, H2)):
        game_id, started = t.start()
        assert game_id == 1
        assert club.apply(started) and club.apply(t.score(game_id, record))
    assert the_game(club, "t1").game.hands == (H1,)
    assert the_game(club, "t2").game.hands == (H2,)
    assert the_game(club, "t1").id != the_game(club, "t2").id
    one.store.close()
    two.store.close()


@pytest.mark.parametrize("path", [
    ("sides",), ("rules",), ("target",), ("hands",), ("hands", 0, "record"), ("hands", 1, "record", "goal"),
    ("hands", 1, "record", "sides", 0, "side"), ("sides", 0, "name"), ("sides", 0, "players"), ("id",),
])
def test_a_malformed_document_is_refused_with_nothing_written(club, table, postgres_url, path):
    game_id, _ = table.start()
    table.score(game_id, H1)
    event = table.score(game_id, H2)
    document = copy.deepcopy(event.document)
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = 7 if path[-1] in ("name", "side", "players", "id", "hands", "sides") else "not this"
    with pytest.raises(BadEventError):
        club.apply(event.model_copy(update={"document": document}))
    assert counts(postgres_url) == dict.fromkeys(CLUB_TABLES, 0)
    assert club.apply(event) is True  # the good one is still new


@pytest.mark.parametrize("missing", ["sides", "rules", "target", "goal", "extension", "hands"])
def test_a_document_without_a_field_of_the_game_is_refused(club, table, postgres_url, missing):
    game_id, started = table.start()
    document = {k: v for k, v in started.document.items() if k != missing}
    with pytest.raises(BadEventError, match="table t1, game 1"):
        club.apply(started.model_copy(update={"document": document}))
    assert counts(postgres_url) == dict.fromkeys(CLUB_TABLES, 0)


def test_a_hand_that_breaks_the_game_refuses_the_whole_document(club, table, postgres_url):
    game_id, started = table.start()
    event = table.score(game_id, H1)
    document = copy.deepcopy(event.document)
    document["hands"].append({"record": build_hand(("Ana", {}), ("Zed", {})).to_json()})  # not a side here
    with pytest.raises(BadEventError, match="hand 2"):
        club.apply(event.model_copy(update={"document": document}))
    assert counts(postgres_url) == dict.fromkeys(CLUB_TABLES, 0)


def test_a_transaction_killed_half_way_leaves_nothing(club, table, postgres_url, monkeypatch):
    game_id, started = table.start()
    assert club.apply(started)
    before = counts(postgres_url)
    event = table.score(game_id, H1)
    written = []

    def crash(conn, *args, **kwargs):
        written.append(conn.execute("SELECT count(*) FROM hands").fetchone()[0])
        raise RuntimeError("the power went")

    monkeypatch.setattr(database, "log_change", crash)  # after the hands are written, before the audit line
    with pytest.raises(RuntimeError):
        club.apply(event)
    assert written == [1]  # the hand was written inside the transaction…
    assert counts(postgres_url) == before  # …and rolled back with it
    monkeypatch.undo()
    assert club.apply(event) is True  # not counted as applied
    assert the_game(club).game.hands == (H1,)


def test_latest_hands_are_the_tables_newest_with_their_points(club, tmp_path):
    one, two = Table(tmp_path / "a.sqlite3", "t1"), Table(tmp_path / "b.sqlite3", "t2")
    g1, s1 = one.start()
    g2, s2 = two.start()
    for event in (s1, s2, one.score(g1, H1, at="2026-12-06T20:01:00+00:00"),
                  two.score(g2, H2, at="2026-12-06T20:02:00+00:00"),
                  one.score(g1, H3, at="2026-12-06T20:03:00+00:00")):
        club.apply(event)
    latest = club.latest_hands(2)
    assert [(h.table, h.table_game, h.hand, h.at) for h in latest] == [
        ("t1", 1, 2, "2026-12-06T20:03:00+00:00"), ("t2", 1, 1, "2026-12-06T20:02:00+00:00")]
    assert latest[0].points == {"Ana": 0, "Ben": 200}
    one.store.close()
    two.store.close()


def test_a_table_publishing_from_another_games_file_is_refused_whole(club, table, tmp_path):
    game_id, started = table.start()
    assert club.apply(started) and club.apply(table.score(game_id, H1))
    newcomer = Table(tmp_path / "replaced.sqlite3")  # the same table name, a fresh file: its seq and ids restart
    other_game, other_start = newcomer.start(("Cleo", "Dev"))
    before = counts(club.url)
    with pytest.raises(ForeignOriginError, match="another games file"):
        club.apply(other_start)
    assert counts(club.url) == before
    assert the_game(club).game.hands == (H1,) and club.last_seq("t1") == 2


def test_a_document_the_hub_refuses_is_kept_as_refused_so_the_events_after_it_are_acknowledged(club, table):
    game_id, started = table.start()
    bad = started.model_copy(update={"document": {**started.document, "sides": "nobody"}})
    with pytest.raises(BadEventError):
        club.apply(bad)
    club.refuse(bad)
    assert club.apply(table.score(game_id, H1))
    assert club.last_seq("t1") == 2 and the_game(club).game.hands == (H1,)
