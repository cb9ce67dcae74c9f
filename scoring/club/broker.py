"""Where the club's MQTT broker is, and an MQTT client set up for it (paho-mqtt, imported only here).

``mqtt://USER:PASSWORD@HOST:PORT/CLUB`` — ``mqtts://`` for TLS (the system's certificate authorities, or the
file in ``$BORNE_CLUB_CA``); the path names the club (default ``club``); the port defaults to 1883 (8883 with TLS).

>>> b = BrokerAddress.parse("mqtt://t7:secret@127.0.0.1:1884/friday")
>>> b.host, b.port, b.user, b.club, b.tls
('127.0.0.1', 1884, 't7', 'friday', False)
>>> BrokerAddress.parse("mqtts://hub:pw@club.example").port
8883
>>> str(BrokerAddress.parse("mqtt://t7:secret@127.0.0.1:1884/friday"))
'mqtt://t7:***@127.0.0.1:1884/friday'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from scoring.club.events import check_name
from scoring.errors import BorneError

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

DEFAULT_CLUB = "club"
KEEPALIVE_S = 5
"""Seconds between pings: the broker declares a silent table offline (its last will) after 1.5 times this."""
RECONNECT_S = (0.2, 2.0)
"""The shortest and longest wait between tries while the broker is away."""


class BrokerAddressError(BorneError):
    """An MQTT URL Borne cannot use."""


@dataclass(frozen=True)
class BrokerAddress:
    """An MQTT broker, the credentials to log in with and the club whose topics to use."""

    host: str
    port: int
    user: str | None
    password: str | None
    club: str
    tls: bool = False

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """:raises BrokerAddressError: not ``mqtt://`` or ``mqtts://``, no host, a bad port or club name."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts"):
            raise BrokerAddressError(f"{redact(url)}: the club's broker is an mqtt:// or mqtts:// URL")
        tls = parts.scheme == "mqtts"
        try:
            port = parts.port or (8883 if tls else 1883)
        except ValueError:
            raise BrokerAddressError(f"{redact(url)}: the port is not a number from 1 to 65535") from None
        if not parts.hostname:
            raise BrokerAddressError(f"{redact(url)}: no broker host")
        club = parts.path.strip("/") or DEFAULT_CLUB
        try:
            check_name(club, "club")
        except ValueError as e:
            raise BrokerAddressError(str(e)) from None
        return cls(host=parts.hostname, port=port, user=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None, club=club, tls=tls)

    def __str__(self) -> str:
        login = f"{self.user}:***@" if self.user else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{login}{self.host}:{self.port}/{self.club}"

    def client(self, client_id: str, *, persistent: bool) -> mqtt.Client:
        """A client for this broker, not yet connected; ``persistent`` keeps its subscriptions and QoS 1 messages
        on the broker while it is away (an MQTT 3.1.1 session that is not clean)."""
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=not persistent,
                             protocol=mqtt.MQTTv311)
        if self.user is not None:
            client.username_pw_set(self.user, self.password)
        if self.tls:
            client.tls_set(ca_certs=os.environ.get("BORNE_CLUB_CA") or None)
        client.reconnect_delay_set(min_delay=1, max_delay=int(RECONNECT_S[1]))
        client.max_inflight_messages_set(100)
        return client


def redact(url: str) -> str:
    """``url`` with its password hidden, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
