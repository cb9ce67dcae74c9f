"""Dependencies shared by the routers, as named ``Annotated`` aliases."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Path, Query, Request

from scoring.errors import GameNotFoundError, HandNotFoundError
from scoring.storage import GameStore
from scoring.web.events import Broadcaster
from scoring.web.i18n import LANGUAGES, accepted_languages, choose_language
from scoring.web.settings import WebSettings


def is_ascii_number(text: str, *, max_digits: int) -> bool:
    """Only 0-9: ``str.isdigit`` also takes ``²`` (which ``int`` refuses) and ``١`` or ``１`` (which it reads).

    >>> [is_ascii_number(t, max_digits=3) for t in ("12", "²", "１", "1234", "")]
    [True, False, False, False, False]
    """
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


def get_store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def get_broadcaster(request: Request) -> Broadcaster:
    broadcaster: Broadcaster = request.app.state.broadcaster
    return broadcaster


def get_settings(request: Request) -> WebSettings:
    settings: WebSettings = request.app.state.settings
    return settings


def require_token(
    settings: Annotated[WebSettings, Depends(get_settings)],
    authorization: Annotated[str | None, Header(description="Bearer TOKEN: the table's token.")] = None,
) -> None:
    """Writes need ``Authorization: Bearer TOKEN``: 401 without it, 403 with a wrong one."""
    if not authorization:
        raise HTTPException(401, "this change needs the table's token (Authorization: Bearer TOKEN)",
                            headers={"WWW-Authenticate": "Bearer"})
    scheme, _, given = authorization.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise HTTPException(401, "send the token as Authorization: Bearer TOKEN", headers={"WWW-Authenticate": "Bearer"})
    if not secrets.compare_digest(given.strip().encode(), settings.token.encode()):
        raise HTTPException(403, "wrong token for this table")


def expected_revision(
    if_match: Annotated[str | None, Header(description='The revision the change was made on ("5"); stale → 409.')] = None,
    revision: Annotated[int | None, Query(ge=0, description="Same as If-Match, for clients that cannot set headers.")] = None,
) -> int | None:
    """The revision a client edited, from ``If-Match`` or ``?revision=``; ``None`` when not given."""
    if if_match is not None and if_match.strip() not in ("", "*"):
        text = if_match.strip().removeprefix("W/").strip('"')
        if not is_ascii_number(text, max_digits=12):
            raise HTTPException(422, [{"loc": ["header", "If-Match"], "msg": "the revision is a whole number",
                                       "type": "value_error"}])
        return int(text)
    return revision


def get_author(x_borne_author: Annotated[str | None, Header(description="Who made the change, for the history.")] = None) -> str:
    name = (x_borne_author or "").strip()[:40]
    return name if name and name.isprintable() else "web"


def write_headers(
    _: Annotated[None, Depends(require_token)],
    idempotency_key: Annotated[str | None, Header(
        max_length=200, description="One key per change (the page sends one per entry): a retry with the same key "
        "and request gets the first answer again (`Idempotent-Replayed: true`) instead of making the change twice; "
        "with another request, 422. Kept two days.")] = None,
) -> None:
    """What every write takes: the token, and optionally an ``Idempotency-Key`` (served by
    :class:`scoring.web.idempotency.IdempotentWrites` before the route runs; declared here for the docs)."""


def get_language(
    settings: Annotated[WebSettings, Depends(get_settings)],
    lang: Annotated[str | None, Query(max_length=16, description=f"The language: {', '.join(LANGUAGES)}. "
                                      "Without it (or for another), the browser's Accept-Language, else the server's.")] = None,
    accept_language: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> str:
    """The language asked for: ``?lang=``, else the first supported one of ``Accept-Language``, else the server's."""
    return choose_language([lang, *accepted_languages(accept_language), settings.language])


Store = Annotated[GameStore, Depends(get_store)]
Events = Annotated[Broadcaster, Depends(get_broadcaster)]
Settings = Annotated[WebSettings, Depends(get_settings)]
Writer = Depends(write_headers)
ExpectedRevision = Annotated[int | None, Depends(expected_revision)]
Author = Annotated[str, Depends(get_author)]
Language = Annotated[str, Depends(get_language)]


def game_id_param(game_id: Annotated[str, Path(description="The game's id.")]) -> int:
    """The game id of the path; anything that is not an id is an unknown game (404), like an id not stored."""
    if not is_ascii_number(game_id, max_digits=12):
        raise GameNotFoundError(f"there is no game {game_id[:40]}")
    return int(game_id)


def hand_number_param(number: Annotated[str, Path(description="The hand's 1-based number.")]) -> int:
    if not is_ascii_number(number, max_digits=6):
        raise HandNotFoundError(f"there is no hand {number[:40]}")
    return int(number)


GameId = Annotated[int, Depends(game_id_param)]
HandNumber = Annotated[int, Depends(hand_number_param)]
