"""The core's refusals as HTTP answers: 422 names the field, 404 the missing thing, 409 the conflict."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from scoring.errors import (
    GameNotFoundError,
    GameOverError,
    HandError,
    HandNotFoundError,
    NothingToUndoError,
    SetupError,
    StaleRevisionError,
    UnknownRulesError,
)
from scoring.web.zones import InvalidLayoutError, NoLayoutToRestoreError


def hand_error_detail(error: HandError) -> dict[str, Any]:
    """One entry in FastAPI's 422 shape, plus the core's ``side`` and ``field``."""
    path = [p for p in error.field.split(".") if p] if error.field else []
    loc: list[str] = ["body", "sides", error.side, *path] if error.side else ["body", *path]
    kind = "malformed_hand" if type(error).__name__ == "MalformedHandError" else "illegal_hand"
    return {"loc": loc, "msg": error.reason, "type": kind, "side": error.side, "field": error.field}


def _json(status: int, message: str, detail: Any = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail if detail is not None else message, "message": message, **extra}, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    async def hand_error(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, HandError)
        return _json(422, str(e), [hand_error_detail(e)])

    async def setup_error(_: Request, e: Exception) -> JSONResponse:
        field = "rules" if isinstance(e, UnknownRulesError) else "sides"
        return _json(422, str(e), [{"loc": ["body", field], "msg": str(e), "type": "setup", "field": field}])

    async def layout_error(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, InvalidLayoutError)
        return _json(422, str(e), [{"loc": ["body", *e.loc], "msg": e.reason, "type": "invalid_layout",
                                    "field": e.field}])

    async def not_found(_: Request, e: Exception) -> JSONResponse:
        return _json(404, str(e))

    async def stale(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, StaleRevisionError)
        return _json(409, str(e), expected=e.expected, actual=e.actual)

    async def conflict(_: Request, e: Exception) -> JSONResponse:
        return _json(409, str(e))

    app.add_exception_handler(HandError, hand_error)
    app.add_exception_handler(SetupError, setup_error)
    app.add_exception_handler(UnknownRulesError, setup_error)
    app.add_exception_handler(GameNotFoundError, not_found)
    app.add_exception_handler(HandNotFoundError, not_found)
    app.add_exception_handler(StaleRevisionError, stale)
    app.add_exception_handler(GameOverError, conflict)
    app.add_exception_handler(NothingToUndoError, conflict)
    app.add_exception_handler(InvalidLayoutError, layout_error)
    app.add_exception_handler(NoLayoutToRestoreError, conflict)
