"""The FastAPI application and the function that serves it (``borne serve``; ``borne run`` reuses both).

>>> from scoring.web.settings import WebSettings
>>> app = create_app(WebSettings(token="t", db_path=":memory:"))
>>> sorted(p for p in app.openapi()["paths"] if "sheet" in p)
['/api/games/{game_id}/sheet.pdf', '/api/sheets/blank.pdf']
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from scoring.storage import GameStore
from scoring.web.errors import install_error_handlers
from scoring.web.events import Broadcaster
from scoring.web.routers import ALL
from scoring.web.settings import WebSettings

DESCRIPTION = """The Borne score display and its API (CONTRACT.md §9).

Reads are open; writes need `Authorization: Bearer TOKEN` (the token printed when the server starts).
Send the game's `revision` as `If-Match` (or `?revision=`) with an edit to have it refused with 409 when
someone else changed the game first. Live changes stream from `/api/events` as Server-Sent Events.
"""


def create_app(settings: WebSettings, *, store: GameStore | None = None) -> FastAPI:
    """The web app over the games in ``settings.db_path`` (or ``store``, which the caller then owns)."""
    owns_store = store is None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.broadcaster.bind(asyncio.get_running_loop())
        try:
            yield
        finally:
            app.state.broadcaster.close_all()
            if owns_store:
                app.state.store.close()

    app = FastAPI(title="Borne", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.store = store if store is not None else GameStore(settings.db_path)
    app.state.broadcaster = Broadcaster()
    app.state.camera = None  # borne run sets a CameraState
    install_error_handlers(app)
    for router in ALL:
        app.include_router(router)
    static = resources.files("scoring.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


def serve(settings: WebSettings, *, app: FastAPI | None = None,
          announce: Callable[[str], None] | None = None) -> None:
    """Serve the app until interrupted; ``announce`` gets the address once the socket listens."""
    import uvicorn

    app = app or create_app(settings)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                            timeout_graceful_shutdown=1, access_log=False)
    server = uvicorn.Server(config)
    if announce is not None:
        original = server.startup

        async def startup(sockets: object = None) -> None:
            await original(sockets=sockets)  # type: ignore[arg-type]
            for s in server.servers:
                for sock in s.sockets:
                    host, port = sock.getsockname()[:2]
                    announce(f"http://{settings.host if settings.host not in ('0.0.0.0', '::') else host}:{port}")
                    return

        server.startup = startup  # type: ignore[method-assign]
    server.run()
