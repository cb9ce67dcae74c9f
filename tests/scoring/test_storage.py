"""SQLite storage: changes, undo, the audit trail, stale revisions, migrations, and surviving SIGKILL."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from scoring.errors import (
    GameNotFoundError,
    GameOverError,
    HandNotFoundError,
    IllegalHandError,
    NothingToUndoError,
    StaleRevisionError,
)
from scoring.game import GameSetup
from scoring.storage import SCHEMA_VERSION, GameStore
from tests.conftest import build_hand

H1 = build_hand(("A", {100: 10}), ("B", {}), empty=True)  # A 2500
H2 = build_hand(("A", {}), ("B", {25: 1}))  # B 25
H3 = build_hand(("A", {50: 1}), ("B", {75: 1}))


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "borne.sqlite3") as s:
        yield s


@pytest.fixture
def game_id(store):
    return store.create_game(GameSetup.for_players(["A", "B"], goal=1000, extension=False), author="setup").id


def test_the_file_is_real_sqlite_in_wal_mode_with_a_schema_version(store, tmp_path):
    assert store.schema_version == SCHEMA_VERSION
    con = sqlite3.connect(tmp_path / "borne.sqlite3")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_changes_are_stored_and_reloaded_by_a_new_connection(store, game_id, tmp_path):
    store.add_hand(game_id, H1, author="ana")
    store.add_hand(game_id, H2, author="ben")
    store.replace_hand(game_id, 2, H3, author="cleo")
    with GameStore(tmp_path / "borne.sqlite3") as other:
        stored = other.load(game_id)
    assert stored.game.hands == (H1, H3)
    assert stored.revision == 3
    assert stored.game.totals() == {"A": 2550, "B": 75}


def test_undo_takes_back_each_kind_of_change_in_turn(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H2)
    store.replace_hand(game_id, 1, H3)
    store.delete_hand(game_id, 2)
    assert store.load(game_id).game.hands == (H3,)
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
        ("create", "setup", None),
        ("add", "ana", 1),
        ("replace", "ben", 1),
        ("undo", "cleo", 1),
    ]
    assert trail[2].before == H1.to_json() and trail[2].after == H2.to_json()
    assert trail[2].undone and trail[3].undoes == trail[2].id
    assert all(c.at.endswith("+00:00") for c in trail)


def test_a_stale_revision_is_refused_and_writes_nothing(store, game_id):
    rev = store.add_hand(game_id, H1).revision
    store.add_hand(game_id, H2, expected_revision=rev)
    with pytest.raises(StaleRevisionError) as e:
        store.replace_hand(game_id, 1, H3, expected_revision=rev)
    assert (e.value.expected, e.value.actual) == (rev, rev + 1)
    assert store.load(game_id).game.hands == (H1, H2)


@pytest.mark.parametrize(
    "change",
    [
        lambda s, g: s.add_hand(g, build_hand(("X", {}), ("B", {}))),
        lambda s, g: s.replace_hand(g, 5, H2),
        lambda s, g: s.delete_hand(g, 0),
        lambda s, g: s.add_hand(g + 100, H2),
    ],
)
def test_refused_changes_leave_the_game_and_its_trail_untouched(store, game_id, change):
    store.add_hand(game_id, H1)
    before = (store.load(game_id), store.history(game_id))
    with pytest.raises((IllegalHandError, HandNotFoundError, GameNotFoundError)):
        change(store, game_id)
    assert (store.load(game_id), store.history(game_id)) == before


def test_a_hand_after_the_game_is_won_is_refused(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H1)
    with pytest.raises(GameOverError):
        store.add_hand(game_id, H2)
    assert len(store.load(game_id).game.hands) == 2


def test_an_old_file_is_migrated_and_a_newer_one_refused(tmp_path):
    path = tmp_path / "old.sqlite3"
    sqlite3.connect(path).close()  # schema version 0: empty
    with GameStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert s.game_ids() == []
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(RuntimeError, match="newer Borne"):
        GameStore(path)


def test_export_json_and_csv(store, game_id):
    store.add_hand(game_id, H1)
    store.add_hand(game_id, H2)
    doc = store.export_json(game_id)
    assert doc["totals"] == {"A": 2500, "B": 25}
    assert [h["totals"] for h in doc["hands"]] == [{"A": 2500, "B": 0}, {"A": 2500, "B": 25}]
    assert doc["hands"][0]["record"] == H1.to_json()
    assert [c["action"] for c in doc["history"]] == ["create", "add", "add"]
    json.dumps(doc)
    rows = store.export_csv(game_id).splitlines()
    assert rows[0].startswith("hand,side,km,distance,safeties,")
    assert rows[1] == "1,A,1000,1000,0,0,0,400,300,300,500,0,2500,2500"
    assert rows[4] == "2,B,25,25,0,0,0,0,0,0,0,0,25,25"


WRITER = textwrap.dedent(
    """
    import sys
    from scoring.game import GameSetup
    from scoring.hand import HandRecord
    from scoring.storage import GameStore

    store = GameStore(sys.argv[1])
    gid = store.create_game(GameSetup.for_players(["A", "B"], goal=1000, extension=False, target=10**6)).id
    print("game", gid, flush=True)
    n = 0
    while True:
        n += 1
        record = HandRecord.from_json({"goal": 1000, "sides": [
            {"side": "A", "distance": {"100": n % 10}}, {"side": "B", "distance": {"50": n % 7}}]})
        store.add_hand(gid, record, author=f"writer-{n}")
        print("committed", n, flush=True)
    """
)


@pytest.mark.slow
def test_the_database_survives_sigkill_in_the_middle_of_writing(tmp_path):
    db = tmp_path / "killed.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    game_id = int(proc.stdout.readline().split()[1])
    committed = 0
    deadline = time.monotonic() + 30
    while committed < 150 and time.monotonic() < deadline:
        committed = int(proc.stdout.readline().split()[1])
    proc.send_signal(signal.SIGKILL)  # in the middle of the next write
    proc.wait()
    assert committed >= 150
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    with GameStore(db) as store:
        hands = store.load(game_id).game.hands
    assert len(hands) >= committed  # every hand reported committed is there
    for n, hand in enumerate(hands, start=1):
        assert hand.side("A").distance[100] == n % 10
        assert hand.side("B").distance[50] == n % 7


# -- Idempotency-Key and durability (issue 15) -------------------------------------------------


def test_a_write_under_an_idempotency_key_commits_the_key_with_the_change(store, game_id):
    from scoring.storage import CURRENT_REQUEST, IdempotentRequest

    request = IdempotentRequest(key="entry-1", fingerprint="f1")
    token = CURRENT_REQUEST.set(request)
    try:
        store.add_hand(game_id, H2)
        with pytest.raises(StaleRevisionError):  # a refused change leaves no key behind
            CURRENT_REQUEST.set(IdempotentRequest(key="entry-2", fingerprint="f2"))
            store.add_hand(game_id, H2, expected_revision=0)
    finally:
        CURRENT_REQUEST.reset(token)
    # the power went before the answer was stored: the key says the change was made
    answer = store.stored_answer(key="entry-1")
    assert answer is not None and answer.fingerprint == "f1" and answer.status is None
    assert store.stored_answer(key="entry-2") is None
    store.store_answer(request=request, status=200, headers=[("etag", '"2"')], body=b"{}")
    answer = store.stored_answer(key="entry-1")
    assert answer is not None and (answer.status, answer.headers, answer.body) == (200, [("etag", '"2"')], b"{}")
    store.add_hand(game_id, H2)  # no key set: nothing recorded
    assert len(store.load(game_id).game.hands) == 2


def test_game_data_is_synced_to_disk_at_every_commit(store):
    assert store.durability == "FULL"
