"""Server-Sent Events: every change to a game, pushed to every open page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from scoring.web.deps import Events, GameId, Settings, Store
from scoring.web.events import RECONNECT_MS, Broadcaster, Subscription

router = APIRouter(tags=["live updates"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


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
            response_class=StreamingResponse)
async def all_events(events: Events, settings: Settings) -> StreamingResponse:
    sub = events.subscribe(None)
    return StreamingResponse(stream(events, sub, settings.sse_keepalive_s), media_type="text/event-stream",
                             headers=SSE_HEADERS)


@router.get("/api/games/{game_id}/events", summary="Live changes to one game (text/event-stream)",
            response_class=StreamingResponse)
async def game_events(game_id: GameId, store: Store, events: Events, settings: Settings) -> StreamingResponse:
    await asyncio.to_thread(store.load, game_id)  # 404 for an unknown game
    sub = events.subscribe(game_id)
    return StreamingResponse(stream(events, sub, settings.sse_keepalive_s), media_type="text/event-stream",
                             headers=SSE_HEADERS)
