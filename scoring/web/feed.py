"""The camera feed: a phone's browser sends the pictures of its camera to ``borne run --source browser``.

The page ``/camera`` opens the WebSocket ``/api/camera/feed`` and proves it may feed the table with the table's
token, as ``?token=TOKEN`` on the socket's URL or as its first message, ``{"token": "TOKEN"}`` (a browser cannot
set ``Authorization`` on a WebSocket). Then every binary message is one picture (a JPEG), handed to a
:class:`FrameInbox` that keeps the newest and never makes the socket wait. The server answers with JSON text:
``{"type": "ready"}`` once the token is taken, then ``{"type": "counts", …}`` every :data:`COUNTS_EVERY_S`
(pictures received, taken by the pipeline, dropped, corrupt, the rate received).

A refusal closes the socket with a code of :class:`FeedClose` and a reason a person can read, before any
picture is taken. ``scoring`` imports no vision code: ``borne run`` hands the inbox in (``app.state.frame_inbox``).
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any, Protocol

COUNTS_EVERY_S = 0.5
"""How often the page is told what came of its pictures."""
TOKEN_WAIT_S = 10.0
"""How long a socket opened without ``?token=`` may take to send the token as its first message."""
MAX_TOKEN_MESSAGE = 1024
"""The longest first message taken (a token is at most 200 characters)."""


class FeedClose(IntEnum):
    """Why the server closed the feed (WebSocket close codes; 4000-4999 are the application's own)."""

    NO_TOKEN = 4401
    """No token came, or a picture came before it."""
    WRONG_TOKEN = 4403
    """The token is not the table's (or the page is another site's)."""
    NOT_TAKEN = 4404
    """This server takes no pictures (``borne serve``, or ``borne run`` with another source)."""
    TOO_MANY_TRIES = 4429
    """Too many wrong tokens from this address; try again later."""


class FeedCounts(Protocol):
    """What came of the pictures so far."""

    def to_json(self) -> dict[str, Any]: ...


class FrameInbox(Protocol):
    """Where the feed's pictures go (``borne run --source browser`` hands one in); called on the event loop,
    so none of it may block."""

    def sender_joined(self) -> None: ...

    def sender_left(self) -> None: ...

    def offer(self, jpeg: bytes) -> None:
        """Keep ``jpeg`` as the newest picture (an older one not yet taken is dropped)."""

    def counts(self) -> FeedCounts: ...


class FeedTokenError(ValueError):
    """The first message is not ``{"token": "…"}``."""


def token_from_message(text: str | None) -> str:
    """The token of the feed's first message.

    >>> token_from_message('{"token": "k7mqx-2pt9r-hw4cz"}')
    'k7mqx-2pt9r-hw4cz'
    >>> token_from_message(None)
    Traceback (most recent call last):
    ...
    scoring.web.feed.FeedTokenError: send the table's token first, as {"token": "TOKEN"}, before any picture

    :raises FeedTokenError: a picture, anything but that JSON, or an empty token.
    """
    problem = 'send the table\'s token first, as {"token": "TOKEN"}, before any picture'
    if text is None or len(text) > MAX_TOKEN_MESSAGE:
        raise FeedTokenError(problem)
    try:
        data = json.loads(text)
    except ValueError:
        raise FeedTokenError(problem) from None
    token = data.get("token") if isinstance(data, dict) else None
    if not isinstance(token, str) or not token.strip():
        raise FeedTokenError(problem)
    return token.strip()
