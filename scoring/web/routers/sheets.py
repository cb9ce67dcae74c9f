"""Printable score sheets: a game's, and a blank one to play on paper."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from scoring.storage import game_document
from scoring.web.deps import GameId, Language, Store
from scoring.web.i18n import load_strings
from scoring.web.schemas import ErrorOut
from scoring.web.sheet import blank_sheet_pdf, game_sheet_pdf

router = APIRouter(tags=["score sheets"])

PDF: dict[int | str, dict[str, Any]] = {200: {"content": {"application/pdf": {}}, "description": "A PDF"}}


@router.get("/api/games/{game_id}/sheet.pdf", response_class=Response, responses={**PDF, 404: {"model": ErrorOut}},
            summary="The game as a printable score sheet")
async def game_sheet(game_id: GameId, store: Store, language: Language) -> Response:
    stored = await asyncio.to_thread(store.load, game_id)
    pdf = await asyncio.to_thread(game_sheet_pdf, game_document(stored), load_strings(language))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="borne-game-{game_id}.pdf"'})


@router.get("/api/sheets/blank.pdf", response_class=Response, responses=PDF,
            summary="A blank score sheet to play on paper")
async def blank_sheet(
    language: Language,
    sides: Annotated[list[str] | None, Query(max_length=8, description="Column headings (empty: two blank columns).")] = None,
    hands: Annotated[int, Query(ge=1, le=30)] = 8,
    title: Annotated[str, Query(max_length=80)] = "",
) -> Response:
    names = [s.strip()[:60] for s in sides or [] if s.strip()]
    pdf = await asyncio.to_thread(blank_sheet_pdf, names, hands, load_strings(language), title)
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": 'inline; filename="borne-blank-sheet.pdf"'})
