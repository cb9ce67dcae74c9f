"""One storage interface, two databases: a table's SQLite file and the club's PostgreSQL behave alike."""

from __future__ import annotations

import pytest

from scoring.club.database import ClubStore
from scoring.errors import (
    GameNotFoundError,
    GameOverError,
    HandNotFoundError,
    IllegalHandError,
    NothingToUndoError,
    StaleRevisionError,
)
from scoring.game import GameSetup
from scoring.storage import GameStore, game_document
from scoring.store import GameStorage
from tests.conftest import build_hand

H1 = build_hand(("A", {100: 10}), ("B", {}), empty=True)  # A 2500
H2 = build_hand(("A", {}), ("B", {25: 1}))  # B 25
H3 = build_hand(("A", {50: 1}), ("B", {75: 1}))
SETUP = GameSetup.for_players(["A", "B"], goal=1000, extension=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """A GameStorage: GameStore on a SQLite file, or ClubStore on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        opened: GameStorage = GameStore(tmp_path / "borne.sqlite3")
    else:
        opened = ClubStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


@pytest.fixture
def game_id(store):
    return store.create_game(SETUP, author="setup").id


def test_both_stores_are_game_storage(store):
    assert isinstance(store, GameStorage)


def test_a_new_game_has_no_hands_and_revision_zero_and_is_listed_newest_first(store):
    first = store.create_game(SETUP)
    second = store.create_game(GameSetup.for_players(["Ana", "Ben", "Cleo"]))
    assert (first.revision, first.game.hands, first.game.setup) == (0, (), SETUP)
    assert store.load(second.id).game.setup.side_names == ("Ana", "Ben", "Cleo")
    assert store.game_ids() == [second.id, first.id]
    assert first.created_at.endswith("+00:00")


def test_add_replace_and_delete_each_raise_the_revision_and_re_total(store, game_id):
    assert store.add_hand(game_id, H1, author="ana").revision == 1
    assert store.add_hand(game_id, H2, author="ben").game.totals() == {"A": 2500, "B": 25}
    replaced = store.replace_hand(game_id, 2, H3, author="cleo")
    assert (replaced.revision, replaced.game.hands) == (3, (H1, H3))
    deleted = store.delete_hand(game_id, 1)
    assert (deleted.revision, deleted.game.hands) == (4, (H3,))
    assert store.load(game_id) == deleted


def test_undo_takes_back_each_kind_of_change_in_turn(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H2)
    store.replace_hand(game_id, 1, H3)
    store.delete_hand(game_id, 2)
    assert store.undo(game_id).game.hands == (H3, H2)  # the delete
    assert store.undo(game_id).game.hands == (H1, H2)  # the replace
    assert store.undo(game_id).game.hands == (H1,)  # the second add
    assert store.undo(game_id).game.hands == ()  # the first add
    with pytest.raises(NothingToUndoError):
        store.undo(game_id)


def test_the_audit_trail_says_who_changed_what_and_when(store, game_id):
    store.add_hand(game_id, H1, author="ana")
    store.replace_hand(game_id, 1, H2, author="ben")
    store.undo(game_id, author="cleo")
    trail = store.history(game_id)
    assert [(c.action, c.author, c.hand_number) for c in trail] == [
        ("create", "setup", None), ("add", "ana", 1), ("replace", "ben", 1), ("undo", "cleo", 1)]
    assert trail[0].after == SETUP.to_json()
    assert trail[2].before == H1.to_json() and trail[2].after == H2.to_json()
    assert trail[2].undone and trail[3].undoes == trail[2].id
    assert all(c.at.endswith("+00:00") for c in trail)


def test_a_stale_revision_is_refused_and_writes_nothing(store, game_id):
    rev = store.add_hand(game_id, H1).revision
    store.add_hand(game_id, H2, expected_revision=rev)
    trail = store.history(game_id)
    with pytest.raises(StaleRevisionError) as refused:
        store.replace_hand(game_id, 1, H3, expected_revision=rev)
    assert (refused.value.expected, refused.value.actual) == (rev, rev + 1)
    for change in (lambda: store.delete_hand(game_id, 1, expected_revision=rev),
                   lambda: store.undo(game_id, expected_revision=0)):
        with pytest.raises(StaleRevisionError):
            change()
    assert store.load(game_id).game.hands == (H1, H2)
    assert store.history(game_id) == trail


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda s, g: s.add_hand(g, build_hand(("X", {}), ("B", {}))), IllegalHandError),
        (lambda s, g: s.replace_hand(g, 5, H2), HandNotFoundError),
        (lambda s, g: s.delete_hand(g, 0), HandNotFoundError),
        (lambda s, g: s.add_hand(g + 100, H2), GameNotFoundError),
        (lambda s, g: s.load(-1), GameNotFoundError),
        (lambda s, g: s.history(g + 100), GameNotFoundError),
    ],
)
def test_refused_changes_raise_the_same_error_and_leave_everything_untouched(store, game_id, change, error):
    store.add_hand(game_id, H1)
    before = (store.load(game_id), store.history(game_id))
    with pytest.raises(error):
        change(store, game_id)
    assert (store.load(game_id), store.history(game_id)) == before


def test_a_hand_after_the_game_is_won_is_refused(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H1)
    with pytest.raises(GameOverError):
        store.add_hand(game_id, H2)
    assert len(store.load(game_id).game.hands) == 2


def test_export_json_and_csv(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H2)
    doc = store.export_json(game_id)
    assert doc["totals"] == {"A": 2500, "B": 25}
    assert [c["action"] for c in doc["history"]] == ["create", "add", "add"]
    rows = store.export_csv(game_id, headings={"hand": "Donne"}).splitlines()
    assert rows[0].startswith("Donne,side,km,distance,safeties,")
    assert rows[1] == "1,A,1000,1000,0,0,0,400,300,300,500,0,2500,2500"
    assert rows[4] == "2,B,25,25,0,0,0,0,0,0,0,0,25,25"


def test_the_same_changes_give_the_same_game_in_sqlite_and_postgresql(tmp_path, postgres_url):
    with GameStore(tmp_path / "t.sqlite3") as table, ClubStore(postgres_url) as club:
        for s in (table, club):
            gid = s.create_game(SETUP).id
            s.add_hand(gid, H2)
            s.add_hand(gid, H3)
            s.replace_hand(gid, 1, H1)
            s.undo(gid)
            s.delete_hand(gid, 2)
        ours, theirs = game_document(table.load(1)), game_document(club.load(1))
        assert {**ours, "created_at": ""} == {**theirs, "created_at": ""}
        assert table.export_csv(1) == club.export_csv(1)
        assert [(c.action, c.hand_number, c.before, c.after, c.undone) for c in table.history(1)] == [
            (c.action, c.hand_number, c.before, c.after, c.undone) for c in club.history(1)]
