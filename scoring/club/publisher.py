"""A table in a club: every change to its games sent to the hub over MQTT until the hub says it has it.

The table's own SQLite file stays the truth: each change goes into its outbox in the change's own
transaction (:class:`~scoring.storage.GameStore` with ``club_outbox``), so a table that loses the broker,
or is killed, loses nothing. This thread sends what the outbox holds, in order, at QoS 1, and sends it
again after :data:`RESEND_AFTER_S` until the hub's ``ack`` covers it; the hub applies each event once.
The broker keeps the table's status: ``online`` while connected, ``offline`` (its last will) once gone.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from scoring.club.broker import KEEPALIVE_S, BrokerAddress
from scoring.club.events import ACTION_KINDS, OFFLINE, ONLINE, TableEvent, check_name, read_ack, topic
from scoring.storage import GameStore, OutboxEntry

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger("borne.club")

POLL_S = 0.05
"""How often the outbox is looked at for new changes: the most a hand waits before it leaves the table."""
RESEND_AFTER_S = 5.0
"""An event the hub has not acknowledged after this long is sent again (it applies it once either way)."""
RESEND_MAX_S = 60.0
"""Each time the hub stays silent the wait doubles, up to this: fifty tables resending to a hub that is
catching up would only bury it deeper."""
BATCH = 100


class TablePublisher:
    """Sends a table's changes to the club; :meth:`start` it beside the server, :meth:`stop` at the end."""

    def __init__(self, store: GameStore, broker: BrokerAddress, table: str) -> None:
        self.store = store
        self.broker = broker
        self.table = check_name(table)
        self.origin = store.club_origin
        self.acknowledged = 0
        """The hub holds every event up to this seq."""
        self.connected = threading.Event()
        self._sent_at: dict[int, float] = {}
        self._resend_after = RESEND_AFTER_S
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club publisher", daemon=True)
        self._client = broker.client(f"borne-{broker.club}-table-{table}", persistent=False)
        self._client.will_set(self._topic("status"), OFFLINE, qos=1, retain=True)
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_message = self._message

    def _topic(self, channel: str) -> str:
        return topic(self.broker.club, self.table, channel)

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        """Says ``offline`` and leaves; what the hub has not acknowledged stays in the outbox for next time."""
        self._stop.set()
        self._thread.join(timeout=2)
        if self.connected.is_set():
            self._client.publish(self._topic("status"), OFFLINE, qos=1, retain=True).wait_for_publish(timeout=1)
        self._client.disconnect()
        self._client.loop_stop()

    def publish_live(self, hand: dict[str, Any]) -> None:
        """The hand the camera follows, for the table's page on the board (QoS 0: the next one replaces it)."""
        if self.connected.is_set():
            self._client.publish(self._topic("live"), json.dumps(hand, separators=(",", ":")), qos=0, retain=True)

    def status(self) -> dict[str, Any]:
        return {"club": self.broker.club, "table": self.table, "connected": self.connected.is_set(),
                "acknowledged": self.acknowledged}

    # -- paho's network thread ------------------------------------------------------

    def _connected(self, client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object) -> None:
        if reason.is_failure:
            log.warning("club broker %s refused table %s: %s", self.broker, self.table, reason)
            return
        client.subscribe(self._topic("ack"), qos=1)
        client.publish(self._topic("status"), ONLINE, qos=1, retain=True)
        self._sent_at.clear()  # whatever was in flight may be lost: send it again
        self._resend_after = RESEND_AFTER_S
        self.connected.set()
        log.info("table %s joined club %s at %s", self.table, self.broker.club, self.broker)

    def _disconnected(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                      properties: object) -> None:
        self.connected.clear()

    def _message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        ack = read_ack(bytes(message.payload))
        if ack is None:
            log.warning("club: an acknowledgement that is not <origin>:<seq> on %s", message.topic)
            return
        origin, seq = ack
        if origin != self.origin:  # the club holds another games file under this table's name
            return
        if seq > self.acknowledged:
            self.acknowledged = seq
            self._resend_after = RESEND_AFTER_S
            self.store.outbox_acknowledge(seq)

    # -- the sending thread -----------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            if not self.connected.is_set():
                continue
            try:
                self._send_pending()
            except Exception:  # the table plays on; the outbox keeps what was not sent
                log.exception("club: sending table %s's changes failed", self.table)

    def _send_pending(self) -> None:
        now = time.monotonic()
        pending = self.store.outbox_pending(after=self.acknowledged, limit=BATCH)
        due = [e for e in pending if e.seq not in self._sent_at or now - self._sent_at[e.seq] >= self._resend_after]
        if any(e.seq in self._sent_at for e in due):  # the hub is silent: the next resend waits longer
            self._resend_after = min(self._resend_after * 2, RESEND_MAX_S)
        for entry in due:
            self._client.publish(self._topic("events"), self.event(entry).model_dump_json(), qos=1)
            self._sent_at[entry.seq] = now
        if due:
            self._client.publish(self._topic("state"), self.event(pending[-1]).model_dump_json(), qos=1, retain=True)
        for seq in [s for s in self._sent_at if s <= self.acknowledged]:
            del self._sent_at[seq]

    def event(self, entry: OutboxEntry) -> TableEvent:
        """An outbox entry as the event the club hears."""
        return TableEvent(table=self.table, origin=self.origin, seq=entry.seq, kind=ACTION_KINDS[entry.kind],
                          game=entry.game_id, revision=entry.revision, hand=entry.hand, at=entry.at,
                          document=entry.document)
