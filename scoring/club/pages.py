"""The hub's pages: the board for a TV, a page per table (read-only, live), a round's printable seating.

Each page is a shell in the visitor's language (``?lang=``, else the browser's) that ``static/board.js``
fills from the API every second; the strings are one JSON file per language in ``strings/``.
"""

from __future__ import annotations

import html
import json
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse

from scoring.club.events import check_name
from scoring.web.i18n import DEFAULT_LANGUAGE, LANGUAGES, accepted_languages, choose_language

router = APIRouter(include_in_schema=False)


@lru_cache(maxsize=8)
def club_strings(language: str) -> dict[str, str]:
    """The board's words in ``language`` (one of the display's five)."""
    text = resources.files("scoring.club").joinpath(f"strings/{language}.json").read_text(encoding="utf-8")
    strings: dict[str, str] = json.loads(text)
    return strings


def page_language(lang: str | None, accept_language: str | None) -> str:
    return choose_language([lang, *accepted_languages(accept_language), DEFAULT_LANGUAGE])


Lang = Annotated[str | None, Query(max_length=20)]
Accept = Annotated[str | None, Header(include_in_schema=False)]


def _shell(page: str, language: str, title: str, **data: str) -> HTMLResponse:
    attributes = "".join(f' data-{k}="{html.escape(v)}"' for k, v in data.items())
    scripts = ["organise.js"] if page == "organise" else []
    tags = "".join(f'<script src="/club-static/{name}" defer></script>' for name in [*scripts, "board.js"])
    return HTMLResponse(
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f'<link rel="icon" href="data:,"><link rel="stylesheet" href="/club-static/board.css">{tags}'
        f'</head><body data-page="{page}"{attributes}><main id="board" aria-live="polite"></main></body></html>')


@router.get("/", response_class=HTMLResponse)
def board_page(lang: Lang = None, accept_language: Accept = None) -> HTMLResponse:
    language = page_language(lang, accept_language)
    return _shell("board", language, club_strings(language)["title"])


@router.get("/tables/{name}", response_class=HTMLResponse)
def table_page(name: str, lang: Lang = None, accept_language: Accept = None) -> HTMLResponse:
    language = page_language(lang, accept_language)
    try:
        check_name(name)
    except ValueError as e:
        raise HTTPException(status_code=404, detail=str(e)) from None
    return _shell("table", language, club_strings(language)["table_title"].replace("{name}", name), table=name)


@router.get("/organise", response_class=HTMLResponse)
def organiser_page(lang: Lang = None, accept_language: Accept = None) -> HTMLResponse:
    """Tournament rounds: seat the next round, drawn or seeded from the standings (the club's token)."""
    language = page_language(lang, accept_language)
    return _shell("organise", language, club_strings(language)["organise"])


@router.get("/api/club/strings")
def strings(lang: Lang = None, accept_language: Accept = None) -> JSONResponse:
    language = page_language(lang, accept_language)
    return JSONResponse({"language": language, "languages": LANGUAGES, "strings": club_strings(language)})


@router.get("/tournaments/{tournament_id}/rounds/{number}", response_class=HTMLResponse)
def seating_page(tournament_id: int, number: int, request: Request, lang: Lang = None,
                 accept_language: Accept = None) -> HTMLResponse:
    """A round's seating, printable: one block per table with the names to seat there."""
    words = club_strings(page_language(lang, accept_language))
    from scoring.club.errors import TournamentNotFoundError

    try:
        rounds: list[Any] = request.app.state.store.rounds(tournament_id)
    except TournamentNotFoundError as e:
        raise HTTPException(status_code=404, detail=str(e)) from None
    found = [r for r in rounds if _field(r, "number") == number]
    if not found:
        raise HTTPException(status_code=404, detail=f"tournament {tournament_id} has no round {number}")
    blocks = "".join(
        f'<section class="seat"><h2>{html.escape(words["table_n"].replace("{n}", str(i)))}</h2><ul>'
        + "".join(f"<li>{html.escape(name)}</li>" for name in seats) + "</ul></section>"
        for i, seats in enumerate(_field(found[0], "seating"), start=1))
    title = html.escape(words["seating"].replace("{n}", str(number)))
    return HTMLResponse(f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>'
                        f'<link rel="stylesheet" href="/club-static/board.css"></head>'
                        f'<body class="print"><h1>{title}</h1><div class="seats">{blocks}</div></body></html>')


def _field(row: Any, name: str) -> Any:
    return row[name] if isinstance(row, dict) else getattr(row, name)
