"""What a table tells the club: one event per change to its games, on a documented MQTT topic tree.

Topics (``<club>`` and ``<table>`` are names of :data:`NAME_PATTERN`)::

    borne/<club>/<table>/events   QoS 1, not retained: every TableEvent, in the table's order (seq 1, 2, 3 …)
    borne/<club>/<table>/state    QoS 1, retained: the table's current game (the last event), for a late subscriber
    borne/<club>/<table>/status   QoS 1, retained: "online", or "offline" (the broker's last will for the table)
    borne/<club>/<table>/live     QoS 0, retained: the hand the camera follows (``GET /api/camera/hand``'s form)
    borne/<club>/<table>/ack      QoS 1, retained, written by the hub only: ``<origin>:<seq>``, the last seq of that
                                  games file it holds with all before it

An event carries the whole game after the change (the ``GET /api/games/{id}`` document), so the hub that
applies it needs nothing else, a duplicate changes nothing, and an event missed in between is healed by the
next one. ``seq`` numbers a table's events without gaps; ``id`` (``<table>:<seq>``) is what the hub applies once.
A table keeps each event in its own SQLite file until the hub's ``ack`` covers it, and sends it again until then:
the broker or the hub may go away at any moment without a hand lost.

>>> event = TableEvent(table="t7", origin="0123456789abcdef", seq=3, kind=EventKind.HAND_SCORED, game=1, revision=2, hand=2,
...                    at="2026-12-06T20:15:00+00:00", document={"sides": []})
>>> event.id, event_topic("friday", "t7")
('t7:3', 'borne/friday/t7/events')
>>> parse_topic("borne/friday/t7/status")
('friday', 't7', 'status')
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from scoring.errors import BorneError

ROOT = "borne"
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"
"""A club's or a table's name: letters, digits, ``-`` and ``_``, up to 40 (a topic level and a broker user)."""
_NAME = re.compile(NAME_PATTERN)
CHANNELS = ("events", "state", "status", "live", "ack")
ONLINE, OFFLINE = "online", "offline"


class ClubNameError(BorneError):
    """A club or table name that cannot be a topic level or a broker user."""


class EventKind(StrEnum):
    """What happened at the table."""

    GAME_STARTED = "game_started"
    HAND_SCORED = "hand_scored"
    HAND_CORRECTED = "hand_corrected"
    HAND_DELETED = "hand_deleted"
    HAND_UNDONE = "hand_undone"
    GAME_FINISHED = "game_finished"


ACTION_KINDS = {"create": EventKind.GAME_STARTED, "add": EventKind.HAND_SCORED, "replace": EventKind.HAND_CORRECTED,
                "delete": EventKind.HAND_DELETED, "undo": EventKind.HAND_UNDONE, "finished": EventKind.GAME_FINISHED}
"""The table store's audit actions as club events."""


class TableEvent(BaseModel):
    """One change to one of a table's games, as published on ``borne/<club>/<table>/events``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: str = Field(pattern=f"^{NAME_PATTERN}$", description="The table that played it.")
    origin: str = Field(pattern="^[0-9a-f]{16}$",
                        description="The table's games file (a random name it keeps): seq and game ids are its own.")
    seq: int = Field(ge=1, description="The table's event number: 1, 2, 3 … without gaps, in the order played.")
    kind: EventKind
    game: int = Field(ge=1, description="The game's id at the table (its own SQLite file).")
    revision: int = Field(ge=0, description="The game's revision after the change; a newer one wins.")
    hand: int | None = Field(default=None, ge=1, description="The hand the change was about, when there is one.")
    at: str = Field(max_length=40, description="When the table made the change (ISO 8601, UTC).")
    document: dict[str, Any] = Field(description="The game after the change, as GET /api/games/{id} returns it.")

    @property
    def id(self) -> str:
        """What the hub applies once: ``<table>:<seq>``."""
        return f"{self.table}:{self.seq}"


def ack_payload(origin: str, seq: int) -> str:
    """What the hub acknowledges: ``<origin>:<seq>`` (a table with another games file ignores it).

    >>> read_ack(ack_payload("0123456789abcdef", 12))
    ('0123456789abcdef', 12)
    """
    return f"{origin}:{seq}"


def read_ack(payload: bytes | str) -> tuple[str, int] | None:
    """``(origin, seq)`` of an acknowledgement, ``None`` for anything else."""
    text = payload.decode("ascii", "replace") if isinstance(payload, bytes) else payload
    origin, _, seq = text.partition(":")
    return (origin, int(seq)) if seq.isdigit() and len(origin) == 16 else None


def check_name(name: str, what: str = "table") -> str:
    """``name`` when it can be a topic level and a broker user. :raises ClubNameError:"""
    if not _NAME.fullmatch(name):
        raise ClubNameError(f"{what} name {name!r}: use 1–40 letters, digits, '-' or '_', starting with a letter or digit")
    return name


def topic(club: str, table: str, channel: str) -> str:
    """``borne/<club>/<table>/<channel>``. :raises ClubNameError: a name that cannot be a topic level."""
    if channel not in CHANNELS:
        raise ValueError(f"no channel {channel!r}; the channels are {', '.join(CHANNELS)}")
    return f"{ROOT}/{check_name(club, 'club')}/{check_name(table)}/{channel}"


def event_topic(club: str, table: str) -> str:
    return topic(club, table, "events")


def parse_topic(name: str) -> tuple[str, str, str] | None:
    """``(club, table, channel)`` of a topic of the tree, ``None`` for any other topic."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in CHANNELS:
        return None
    if not (_NAME.fullmatch(parts[1]) and _NAME.fullmatch(parts[2])):
        return None
    return parts[1], parts[2], parts[3]
