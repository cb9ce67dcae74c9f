"""The hub's ear on the broker: every table's events applied once, in each table's order, and acknowledged.

The hub keeps a persistent MQTT session (its QoS 1 events wait on the broker while it is away) and the
tables send again what it has not acknowledged, so an event may arrive twice or out of order: the store
applies an event id once and a newer revision over an older one (``ClubStore.apply``). After each event
the hub acknowledges, retained on ``borne/<club>/<table>/ack``, the last seq it holds with every one before
it. A payload that is not a table's event is logged and dropped: nothing a table sends can stop the hub.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from scoring.club.broker import KEEPALIVE_S, BrokerAddress
from scoring.club.errors import ForeignOriginError
from scoring.club.events import ONLINE, TableEvent, ack_payload, parse_topic, topic

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger("borne.club")

MAX_PAYLOAD_BYTES = 2_000_000
"""An event bigger than this is dropped unread (a whole game's document is a few kilobytes)."""


class EventSink(Protocol):
    """What the listener needs of the club's store."""

    def apply(self, event: TableEvent) -> bool: ...

    def last_seq(self, table: str) -> int: ...

    def refuse(self, event: TableEvent) -> None: ...

    def set_online(self, table: str, online: bool) -> None: ...


class ClubListener:
    """Subscribes to the club's tables; applied events go to ``on_change`` (the board's live updates)."""

    def __init__(self, store: EventSink, broker: BrokerAddress, *,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.broker = broker
        self.on_change = on_change
        self.live: dict[str, dict[str, Any]] = {}
        """Each table's live hand, as its camera follows it (not stored: the next one replaces it)."""
        self.dropped = 0
        """Payloads logged and dropped: not JSON, not an event, an event under another table's topic."""
        self.applied = 0
        self._held: dict[str, tuple[str, int]] = {}
        """Per table, the origin and the seq acknowledged last: a resend below it needs no database."""
        self.connected = threading.Event()
        self._client = broker.client(f"borne-{broker.club}-hub", persistent=True)
        self._client.on_connect = self._connected
        self._client.on_disconnect = lambda *a: self.connected.clear()
        self._client.on_message = self._message

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def wait_connected(self, timeout: float) -> bool:
        return self.connected.wait(timeout)

    def _connected(self, client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object) -> None:
        if reason.is_failure:
            log.warning("club broker %s refused the hub: %s", self.broker, reason)
            return
        base = f"borne/{self.broker.club}/+"
        client.subscribe([(f"{base}/events", 1), (f"{base}/status", 1), (f"{base}/live", 0)])
        self.connected.set()
        log.info("hub listening to club %s at %s", self.broker.club, self.broker)

    def _message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        try:
            self._handle(message.topic, bytes(message.payload))
        except Exception:  # a store that fails now: the table sends again, the hub stays up
            log.exception("club: %s could not be applied", message.topic)

    def _handle(self, name: str, payload: bytes) -> None:
        where = parse_topic(name)
        if where is None or where[0] != self.broker.club:
            return self._drop(name, "a topic outside the club's tree")
        table, channel = where[1], where[2]
        if len(payload) > MAX_PAYLOAD_BYTES:
            return self._drop(name, f"{len(payload)} bytes")
        if channel == "status":
            self.store.set_online(table, payload == ONLINE.encode())
        elif channel == "live":
            self._live(table, payload)
        elif channel == "events":
            self._event(name, table, payload)
        if self.on_change is not None:
            self.on_change(table)

    def _event(self, name: str, table: str, payload: bytes) -> None:
        try:
            event = TableEvent.model_validate_json(payload)
        except ValidationError as e:
            return self._drop(name, f"not a table's event ({e.error_count()} problems: {e.errors()[0]['msg']})")
        if event.table != table:
            return self._drop(name, f"an event of table {event.table!r} under table {table!r}")
        held = self._held.get(table)
        if held is not None and held[0] == event.origin and event.seq <= held[1]:  # a resend: say so again, cheaply
            return self._acknowledge(table, event.origin, held[1])
        try:
            if self.store.apply(event):
                self.applied += 1
        except ForeignOriginError as e:  # not acknowledged: the ack would tell that file to forget its events
            return self._drop(name, f"event {event.id}: {e}")
        except ValueError as e:  # a document the hub's rules refuse: kept as refused, so the table stops sending it
            self.store.refuse(event)
            self._drop(name, f"event {event.id}: {e}")
        seq = self.store.last_seq(table)
        self._held[table] = (event.origin, seq)
        self._acknowledge(table, event.origin, seq)

    def _acknowledge(self, table: str, origin: str, seq: int) -> None:
        self._client.publish(topic(self.broker.club, table, "ack"), ack_payload(origin, seq), qos=1, retain=True)

    def _live(self, table: str, payload: bytes) -> None:
        try:
            hand = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            return self._drop(f"{table}/live", "not JSON")
        if isinstance(hand, dict):
            self.live[table] = {**hand, "received": time.time()}

    def _drop(self, name: str, why: str) -> None:
        self.dropped += 1
        log.warning("club: dropped a message on %s: %s", name, why)
