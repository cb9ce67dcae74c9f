"""The HTML pages: one shell that the display's script fills (live display, set-up, a game by id)."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)


def _shell() -> str:
    return resources.files("scoring.web").joinpath("static/index.html").read_text(encoding="utf-8")


@router.get("/", response_class=HTMLResponse)
def live_display() -> HTMLResponse:
    return HTMLResponse(_shell())


@router.get("/new", response_class=HTMLResponse)
def setup_page() -> HTMLResponse:
    return HTMLResponse(_shell())


@router.get("/docs", response_class=HTMLResponse)
def api_docs() -> HTMLResponse:
    """Swagger UI served from the package (``fastapi-offline``'s copy), started by ``static/docs.js``."""
    return HTMLResponse(resources.files("scoring.web").joinpath("static/docs.html").read_text(encoding="utf-8"))


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(game_id: int) -> HTMLResponse:
    return HTMLResponse(_shell())
