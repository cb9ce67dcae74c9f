"""The phone's browser as the camera: the page ``/camera``, its WebSocket ``/api/camera/feed`` (see
:mod:`scoring.web.feed`) and the display's HTTPS certificate, for a phone to install and trust."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from starlette.websockets import WebSocketDisconnect

from scoring.web.feed import COUNTS_EVERY_S, TOKEN_WAIT_S, FeedClose, FeedTokenError, FrameInbox, token_from_message
from scoring.web.gate import TokenThrottle, host_name

router = APIRouter(tags=["camera"])

NOT_TAKEN = "this display takes no pictures from a browser: start it with `borne run --source browser`"


@router.get("/camera", response_class=HTMLResponse, include_in_schema=False)
def phone_camera_page() -> HTMLResponse:
    """The page a phone opens to be the table's camera (``?token=`` may carry the table's token)."""
    return HTMLResponse(resources.files("scoring.web").joinpath("static/phone.html").read_text(encoding="utf-8"))


@router.get("/camera/certificate.pem", summary="The display's HTTPS certificate, for a phone to install and trust",
            response_class=Response, responses={200: {"content": {"application/x-pem-file": {}}},
                                                 404: {"description": "The display is not served over HTTPS"}})
def certificate(request: Request) -> Response:
    path: Path | None = getattr(request.app.state, "certificate", None)
    if path is None:
        raise HTTPException(404, "this display is not served over HTTPS")
    return Response(path.read_bytes(), media_type="application/x-pem-file",
                    headers={"Content-Disposition": 'attachment; filename="borne.pem"'})


def _same_site(websocket: WebSocket) -> bool:
    """A browser names the page that opened the socket (``Origin``): another site's page is refused even with
    the token, so a page elsewhere cannot feed the table pictures. Clients that are not browsers send none."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return host_name(urlsplit(origin).netloc) == host_name(host) if urlsplit(origin).netloc else False


def _throttle(websocket: WebSocket) -> TokenThrottle:
    state = websocket.app.state
    throttle: TokenThrottle | None = getattr(state, "feed_throttle", None)
    if throttle is None:
        throttle = state.feed_throttle = TokenThrottle()
    return throttle


async def _token(websocket: WebSocket, given: str | None) -> str | None:
    """The token from ``?token=`` or the first message; ``None`` once the socket is closed for want of one."""
    if given:
        return given
    try:
        message = await asyncio.wait_for(websocket.receive(), TOKEN_WAIT_S)
    except TimeoutError:
        await websocket.close(FeedClose.NO_TOKEN, f"no token within {TOKEN_WAIT_S:g} s")
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        return token_from_message(message.get("text"))
    except FeedTokenError as e:
        await websocket.close(FeedClose.NO_TOKEN, str(e))
        return None


@router.websocket("/api/camera/feed")
async def camera_feed(websocket: WebSocket,
                      token: str | None = Query(None, max_length=200, description="The table's token")) -> None:
    """Pictures (binary JPEG messages) from a phone's camera to the pipeline; the table's token first."""
    await websocket.accept()
    inbox: FrameInbox | None = getattr(websocket.app.state, "frame_inbox", None)
    if inbox is None:
        await websocket.close(FeedClose.NOT_TAKEN, NOT_TAKEN)
        return
    if not _same_site(websocket):
        await websocket.close(FeedClose.WRONG_TOKEN, "a page of another site cannot feed this table")
        return
    throttle = _throttle(websocket)
    client = websocket.client.host if websocket.client else "unknown"
    wait = throttle.wait_s(client)
    if wait > 0:
        await websocket.close(FeedClose.TOO_MANY_TRIES, f"too many wrong tokens; try again in {wait:.0f} s")
        return
    given = await _token(websocket, token)
    if given is None:
        return
    if not secrets.compare_digest(given.encode(), websocket.app.state.settings.token.encode()):
        throttle.wrong(client)
        await websocket.close(FeedClose.WRONG_TOKEN, "wrong token for this table")
        return
    throttle.right(client)
    inbox.sender_joined()
    counts = asyncio.create_task(_send_counts(websocket, inbox))
    try:
        await websocket.send_text(json.dumps({"type": "ready"}))
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            picture = message.get("bytes")
            if picture is not None:
                inbox.offer(picture)
    except WebSocketDisconnect:
        pass
    finally:
        counts.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await counts
        inbox.sender_left()


async def _send_counts(websocket: WebSocket, inbox: FrameInbox) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await asyncio.sleep(COUNTS_EVERY_S)
            await websocket.send_text(json.dumps({"type": "counts", **inbox.counts().to_json()}))
