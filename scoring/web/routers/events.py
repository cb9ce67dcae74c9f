"""Server-Sent Events: every change to a game, pushed to every open page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse

from scoring.web.deps import Events, GameId, Settings, Store
from scoring.web.events import RECONNECT_MS, Broadcaster, Subscription, TooManyStreamsError

router = APIRouter(tags=["live updates"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

RETRY_AFTER_S = 15
"""What a 503 for too many streams asks the client to wait; the page polls meanwhile."""

STREAM_RESPONSES: dict[int | str, dict[str, object]] = {
    503: {"description": "Too many live streams open (in all or from this client); poll the game instead"}}


def subscribe(events: Broadcaster, game_id: int | None, request: Request) -> Subscription:
    """:raises HTTPException: 503 with ``Retry-After`` when the cap is reached."""
    try:
        return events.subscribe(game_id, client=request.client.host if request.client else "")
    except TooManyStreamsError as e:
        raise HTTPException(503, f"{e}; the page shows the games without live updates meanwhile",
                            headers={"Retry-After": str(RETRY_AFTER_S)}) from None


async def stream(broadcaster: Broadcaster, sub: Subscription, keepalive_s: float) -> AsyncIterator[str]:
    try:
        yield f"retry: {RECONNECT_MS}\nevent: hello\ndata: {{}}\n\n"
        while True:
            try:
                item = await asyncio.wait_for(sub.queue.get(), timeout=keepalive_s)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if item is None:
                return
            seq, event = item
            yield event.to_sse(seq)
    finally:
        broadcaster.unsubscribe(sub)


@router.get("/api/events", summary="Live changes to every game (text/event-stream)",
            response_class=StreamingResponse, responses=STREAM_RESPONSES)
async def all_events(events: Events, settings: Settings, request: Request) -> StreamingResponse:
    sub = subscribe(events, None, request)
    return StreamingResponse(stream(events, sub, settings.sse_keepalive_s), media_type="text/event-stream",
                             headers=SSE_HEADERS)


@router.get("/api/games/{game_id}/events", summary="Live changes to one game (text/event-stream)",
            response_class=StreamingResponse, responses=STREAM_RESPONSES)
async def game_events(game_id: GameId, store: Store, events: Events, settings: Settings,
                      request: Request) -> StreamingResponse:
    await asyncio.to_thread(store.load, game_id)  # 404 for an unknown game
    sub = subscribe(events, game_id, request)
    return StreamingResponse(stream(events, sub, settings.sse_keepalive_s), media_type="text/event-stream",
                             headers=SSE_HEADERS)
