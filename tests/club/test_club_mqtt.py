"""Tables and the hub over a real Mosquitto broker: events sent until acknowledged, applied once, the ACL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from scoring.club.broker import BrokerAddress
from scoring.club.events import TableEvent
from scoring.club.listener import ClubListener
from scoring.club.publisher import TablePublisher
from scoring.game import GameSetup
from scoring.storage import GameStore
from tests.club.broker import CLUB, Broker
from tests.conftest import build_hand


class Board:
    """The hub's side as the listener sees it: each table's events kept by id, the newest revision per game."""

    def __init__(self) -> None:
        self.events: dict[str, TableEvent] = {}
        self.received: list[str] = []
        self.online: dict[str, bool] = {}

    def apply(self, event: TableEvent) -> bool:
        self.received.append(event.id)
        if event.id in self.events:
            return False
        self.events[event.id] = event
        return True

    def last_seq(self, table: str) -> int:
        seq = 0
        while f"{table}:{seq + 1}" in self.events:
            seq += 1
        return seq

    def set_online(self, table: str, online: bool) -> None:
        self.online[table] = online

    def refuse(self, event: TableEvent) -> None:
        self.events.setdefault(event.id, event)

    def hands(self, table: str) -> int:
        games: dict[int, TableEvent] = {}
        for e in self.events.values():
            if e.table == table and (e.game not in games or e.revision > games[e.game].revision):
                games[e.game] = e
        return sum(len(e.document["hands"]) for e in games.values())


def wait_for(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def play(store: GameStore, hands: int) -> int:
    game = store.create_game(GameSetup.for_players(["Ana", "Ben"], goal=1000, extension=False))
    for _ in range(hands):
        store.add_hand(game.id, build_hand(("Ana", {100: 2}), ("Ben", {25: 1})))
    return game.id


@contextmanager
def table_and_hub(broker: Broker, tmp_path: Path, name: str) -> Iterator[tuple[Board, GameStore, TablePublisher]]:
    """A hub (its store the :class:`Board`) and table ``name`` (its own SQLite file), both joined to ``broker``."""
    board = Board()
    hub = ClubListener(board, BrokerAddress.parse(broker.url("hub")))
    hub.start()
    store = GameStore(tmp_path / f"{name}.sqlite3", club_outbox=True)
    table = TablePublisher(store, BrokerAddress.parse(broker.url(name)), name)
    table.start()
    try:
        yield board, store, table
    finally:
        table.stop()
        hub.stop()
        store.close()


def test_every_change_reaches_the_hub_once_and_leaves_the_outbox(broker: Broker, tmp_path: Path) -> None:
    with table_and_hub(broker, tmp_path, "t1") as (board, store, table):
        play(store, 3)
        wait_for(lambda: board.last_seq("t1") == 4 and table.acknowledged == 4)
        assert [e.kind.value for e in sorted(board.events.values(), key=lambda e: e.seq)] == [
            "game_started", "hand_scored", "hand_scored", "hand_scored"]
        assert board.hands("t1") == 3
        wait_for(lambda: store.outbox_pending(after=0) == [])
        wait_for(lambda: board.online.get("t1") is True)


def test_a_table_that_lost_the_broker_sends_what_it_missed(broker: Broker, tmp_path: Path) -> None:
    with table_and_hub(broker, tmp_path, "t2") as (board, store, table):
        game = play(store, 1)
        wait_for(lambda: board.last_seq("t2") == 2)
        broker.kill()
        for _ in range(2):  # played while the broker is away: kept in the table's own file
            store.add_hand(game, build_hand(("Ana", {200: 1}), ("Ben", {75: 1})))
        kept = [e.seq for e in store.outbox_pending(after=0)]
        assert kept[-2:] == [3, 4]  # (1 and 2 too when the hub's acks were still on their way)
        broker.start()
        wait_for(lambda: board.last_seq("t2") == 4, timeout=30)
        assert board.hands("t2") == 3


def test_a_table_cannot_publish_as_another_and_bad_payloads_are_dropped(broker: Broker) -> None:
    board = Board()
    hub = ClubListener(board, BrokerAddress.parse(broker.url("hub")))
    hub.start()
    assert hub.wait_connected(10)
    intruder = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="intruder")
    intruder.username_pw_set("t1", broker.files.passwords["t1"])
    intruder.connect("127.0.0.1", broker.port)
    intruder.loop_start()
    try:
        forged = TableEvent(table="t2", origin="0123456789abcdef", seq=1, kind="game_started", game=1, revision=0, at="2026-12-06T20:00:00+00:00",
                            document={"hands": []})
        intruder.publish(f"borne/{CLUB}/t2/events", forged.model_dump_json(), qos=1).wait_for_publish(5)
        for payload in (b"not json", b"{}", json.dumps({**forged.model_dump(mode="json"), "seq": -1}).encode()):
            intruder.publish(f"borne/{CLUB}/t1/events", payload, qos=1).wait_for_publish(5)
        posing = forged.model_copy(update={"table": "t2"})
        intruder.publish(f"borne/{CLUB}/t1/events", posing.model_dump_json(), qos=1).wait_for_publish(5)
        wait_for(lambda: hub.dropped == 4)
        time.sleep(0.5)
        assert board.events == {}  # the broker refused the forged topic; the rest was dropped unapplied
    finally:
        intruder.loop_stop()
        intruder.disconnect()
        hub.stop()


def test_a_wrong_password_is_refused_by_the_broker(broker: Broker) -> None:
    refused: list[bool] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="guess")
    client.username_pw_set("t1", "guess")
    client.on_connect = lambda c, u, f, reason, p: refused.append(reason.is_failure)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        wait_for(lambda: bool(refused))
        assert refused == [True]
    finally:
        client.loop_stop()


def test_borne_run_sends_the_live_hand_to_the_club(broker: Broker, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.club.processes import free_port

    heard: list[dict[str, object]] = []
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="listener")
    listener.username_pw_set("hub", broker.files.passwords["hub"])
    listener.on_connect = lambda c, u, f, r, p: c.subscribe(f"borne/{CLUB}/t1/live")
    listener.on_message = lambda c, u, m: heard.append(json.loads(m.payload))
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    run = subprocess.Popen([sys.executable, "-m", "borne", "run", "--port", str(free_port()), "--token", "t0ken-t0ken",
                            "--db", str(tmp_path / "t1.sqlite3"), "--club", broker.url("t1")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: bool(heard), timeout=90)  # the demo plays a hand: its live hand reaches the club
        assert [s["side"] for s in heard[-1]["sides"]] and "phase" in heard[-1]  # type: ignore[union-attr]
    finally:
        run.terminate()
        run.wait(10)
        listener.loop_stop()


def test_over_tls_the_table_and_the_hub_trust_the_brokers_certificate(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.club.broker import running_broker

    with running_broker(["t1"], tls=True) as secure:
        assert secure.url("t1").startswith("mqtts://")
        stranger = BrokerAddress.parse(secure.url("t1")).client("no-ca", persistent=False)  # the system's CAs only
        try:
            stranger.connect("127.0.0.1", secure.port)
            raise AssertionError("a client that does not trust the broker's certificate connected")
        except OSError:  # ssl.SSLCertVerificationError: the certificate is nobody's the system trusts
            pass
        monkeypatch.setenv("BORNE_CLUB_CA", str(secure.files.certificate))
        with table_and_hub(secure, tmp_path, "t1") as (board, store, table):
            play(store, 1)
            wait_for(lambda: board.last_seq("t1") == 2 and table.acknowledged == 2)
