"""The core's refusals as HTTP answers: 422 names the field, 404 the missing thing, 409 the conflict."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
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
from scoring.web.photos import PhotoRefusedError
from scoring.web.zones import InvalidLayoutError, NoLayoutToRestoreError

LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes: a lone surrogate (``"\\ud800"`` in the request) becomes U+FFFD.

    Python's ``json`` reads ``"x\\ud800y"`` into a string that UTF-8 cannot encode; echoing it back
    would otherwise fail with a 500.
    """

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


ECHO_LIMIT = 80
"""Characters of an offending value a 422 repeats; the rest of the body is never echoed."""


def echoed_input(value: Any) -> Any:
    """What a 422 repeats of the offending value: a short scalar as it came, a long text cut, a list or object not.

    >>> echoed_input(7), echoed_input("x" * 100)[-3:], echoed_input({"sides": ["A"] * 1000})
    (7, 'xx…', None)
    """
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return value if len(value) <= ECHO_LIMIT else value[:ECHO_LIMIT] + "…"
    return None


def hand_error_detail(error: HandError) -> dict[str, Any]:
    """One entry in FastAPI's 422 shape, plus the core's ``side`` and ``field``."""
    side, field = clip(error.side), clip(error.field)
    path = [p for p in field.split(".") if p] if field else []
    loc: list[str] = ["body", "sides", side, *path] if side else ["body", *path]
    kind = "malformed_hand" if type(error).__name__ == "MalformedHandError" else "illegal_hand"
    return {"loc": loc, "msg": clip(error.reason, 2 * ECHO_LIMIT), "type": kind, "side": side, "field": field}


def clip(text: str | None, limit: int = ECHO_LIMIT) -> Any:
    """A name or message from the request as a refusal repeats it: at most ``limit`` characters.

    >>> clip("distance." + "9" * 200)[-3:], clip(None)
    ('99…', None)
    """
    return text if text is None or len(text) <= limit else text[:limit] + "…"


def _json(status: int, message: str, detail: Any = None, **extra: Any) -> JSONResponse:
    return SafeJSONResponse({"detail": detail if detail is not None else message, "message": message, **extra}, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    async def invalid_request(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, RequestValidationError)
        errors = []
        for error in e.errors():
            entry = {k: v for k, v in error.items() if k not in ("input", "ctx", "url")}
            entry["input"] = echoed_input(error.get("input"))
            errors.append(entry)
        first = errors[0] if errors else {"msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _json(422, f"{where}: {first['msg']}" if where else str(first["msg"]), jsonable_encoder(errors))

    async def hand_error(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, HandError)
        return _json(422, clip(str(e), 3 * ECHO_LIMIT), [hand_error_detail(e)])

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

    async def photo_refused(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, PhotoRefusedError)
        return _json(e.status, str(e))

    app.add_exception_handler(RequestValidationError, invalid_request)
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
    app.add_exception_handler(PhotoRefusedError, photo_refused)
