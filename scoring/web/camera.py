"""The camera as the display sees it: a small typed state the pipeline thread updates and the web layer reads.

``scoring`` imports no vision code: the pipeline (``borne run``) hands over plain values — JPEG bytes,
numbers, JSON documents — a :class:`HandDesk` that carries a person's confirm and correct back to
it, and a :class:`~scoring.web.zones.ZoneDesk` for the zones a person draws. With ``borne serve``
there is no camera (``app.state.camera`` is ``None``).

>>> camera = CameraState(source="demo")
>>> camera.update(connected=True, frames_per_second=4.2)
>>> camera.status_json()["connected"], camera.frame_jpeg() is None
(True, True)
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from scoring.hand import HandRecord
from scoring.storage import GameStore
from scoring.web.events import Broadcaster, LiveHandEvent
from scoring.web.live_hand import LiveHand, LiveHandScored
from scoring.web.zones import ZoneDesk


class NoPendingHandError(ValueError):
    """There is no finished hand waiting to be confirmed."""


class HandDesk(Protocol):
    """What the display may ask of the pipeline about the hand it follows (called from request threads)."""

    def confirm(self) -> None:
        """Make the pending hand final (it goes into the game). :raises NoPendingHandError:"""

    def correct(self, record: HandRecord) -> None:
        """A person's record wins: of the pending hand (then confirmed), else of the hand in play."""


class CameraChoiceError(ValueError):
    """The camera a person picked cannot be used (not found, refused the token, does not answer)."""


class CameraChooser(Protocol):
    """The Borne cameras on the network and a way to switch to one (``borne run`` reading a camera)."""

    def cameras(self) -> list[dict[str, Any]]:
        """The cameras that answered (``name``, ``host``, ``port``, ``url`` without token)."""

    def choose(self, name: str, token: str) -> None:
        """Follow the camera ``name`` from the next frame. :raises CameraChoiceError: saying why not."""


@dataclass(frozen=True)
class CameraStatus:
    """What the camera panel shows besides the picture."""

    source: str
    """What the pipeline reads: ``demo``, a webcam index, a file, a URL."""
    connected: bool = False
    message: str = ""
    """The latest news for people ("camera lost, reconnecting in 2 s")."""
    frames: int = 0
    """Frames read so far."""
    frames_per_second: float = 0.0
    """The pipeline's own rate (frames read per second of work)."""
    corrupt_frames: int = 0
    reconnects: int = 0
    too_small: bool = False
    """Cards are too small in the picture to be read reliably."""
    card_px: float | None = None
    """A card's typical length in the picture, in pixels."""
    ended: bool = False
    """The source ended (a file or folder played to its end)."""
    agent: dict[str, Any] | None = None
    """A Borne camera agent's own status (frames, dropped, temperature, throttling, uptime; CONTRACT §10),
    with ``reachable``; ``None`` for other sources."""


@dataclass
class CameraState:
    """The camera's latest status, picture and hand; updated by the pipeline thread, read by requests."""

    source: str
    desk: HandDesk | None = None
    zones: ZoneDesk | None = None
    """The table's zones: shown and edited on the display (``borne run`` sets it)."""
    chooser: CameraChooser | None = None
    """Lists the Borne cameras on the network and switches to one (``borne run`` on a camera, not a file)."""
    forward: Callable[[dict[str, Any]], None] | None = None
    """Also gets each new live hand (a table in a club sends it to the club's board)."""
    flag_pictures: Callable[[str], bytes | None] | None = None
    """The picture of a flag's moment by its id (JPEG), as the pipeline keeps them (``borne run`` sets it)."""
    _status: CameraStatus = field(init=False)
    _jpeg: bytes | None = field(default=None, init=False)
    _jpeg_at: float = field(default=0.0, init=False)
    _hand: LiveHandScored | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self._status = CameraStatus(source=self.source)

    # -- the pipeline's side ---------------------------------------------------------------

    def update(self, **changes: Any) -> None:
        """Change some fields of the status (names of :class:`CameraStatus`)."""
        with self._lock:
            self._status = replace(self._status, **changes)

    def set_frame(self, jpeg: bytes) -> None:
        with self._lock:
            self._jpeg, self._jpeg_at = jpeg, time.monotonic()

    def frame_due(self, every_s: float) -> bool:
        """Whether the last picture is older than ``every_s`` (encoding each frame would cost the pipeline time)."""
        return time.monotonic() - self._jpeg_at >= every_s

    def set_hand(self, hand: LiveHandScored | None) -> bool:
        """The live hand's document; returns whether it changed."""
        with self._lock:
            changed = hand != self._hand
            self._hand = hand
            return changed

    # -- the display's side ----------------------------------------------------------------

    @property
    def status(self) -> CameraStatus:
        with self._lock:
            return self._status

    def status_json(self) -> dict[str, Any]:
        out = asdict(self.status)
        out["frames_per_second"] = round(out["frames_per_second"], 1)
        if out["card_px"] is not None:
            out["card_px"] = round(out["card_px"], 1)
        out["camera"] = True
        out["has_frame"] = self._jpeg is not None
        if out["agent"] is None:  # only a camera agent has one
            del out["agent"]
        if self.chooser is not None:  # another Borne camera can be chosen on the display
            out["can_choose"] = True
        return out

    def frame_jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    def hand(self) -> LiveHandScored | None:
        with self._lock:
            return self._hand


NO_CAMERA: dict[str, Any] = {"camera": False, "source": None, "connected": False, "message": "no camera",
                             "frames": 0, "frames_per_second": 0.0, "corrupt_frames": 0, "reconnects": 0,
                             "too_small": False, "card_px": None, "ended": False, "has_frame": False}
"""``GET /api/camera`` when the server runs without the pipeline (``borne serve``)."""


def scored_hand_document(hand: LiveHand, store: GameStore) -> LiveHandScored:
    """The live hand as the display gets it: the pipeline's document with the pending hand scored by the core.

    The pending hand is scored by the rules of the game it will go to (``hand.game_id``), classic
    without one. In a 700-km hand whose record says a side called the extension, ``ask_extension``
    names that side so the display asks a person to confirm it.
    """
    from scoring.errors import BorneError
    from scoring.rules import RuleSet
    from scoring.score import score_hand

    out = hand.model_dump(exclude_unset=True)
    if hand.pending is None:
        return LiveHandScored.model_validate(out)
    rules = RuleSet.from_name("classic")
    if hand.game_id is not None:
        with contextlib.suppress(BorneError):  # the game was deleted: score by the classic rules
            rules = store.load(hand.game_id).game.setup.rules
    pending = out["pending"]
    try:
        record = HandRecord.from_json(hand.pending.record)
        pending["score"] = score_hand(record, rules).to_json()
        pending["ask_extension"] = record.extension_called_by if record.goal == 700 else None
    except BorneError as e:
        pending["score"], pending["ask_extension"], pending["problem"] = None, None, str(e)
    return LiveHandScored.model_validate(out)


def publish_hand(camera: CameraState, hand: LiveHand | None, *, store: GameStore,
                 broadcaster: Broadcaster) -> bool:
    """Keep the live hand on ``camera`` and push it to every open display when it changed."""
    doc = scored_hand_document(hand, store) if hand is not None else None
    changed = camera.set_hand(doc)
    if changed and doc is not None:
        data = hand_json(doc)
        broadcaster.publish(LiveHandEvent(data))
        if camera.forward is not None:
            camera.forward(data)
    return changed


def hand_json(hand: LiveHandScored) -> dict[str, Any]:
    """The live hand as JSON (``GET /api/camera/hand`` and the ``camera`` event): the fields it was given."""
    return hand.model_dump(mode="json", exclude_unset=True)
