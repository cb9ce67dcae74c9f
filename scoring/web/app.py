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
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from scoring.storage import GameStore
from scoring.web.errors import SafeJSONResponse, install_error_handlers
from scoring.web.events import Broadcaster
from scoring.web.gate import Gate, HostCheck
from scoring.web.headers import SecurityHeaders
from scoring.web.idempotency import IdempotentWrites
from scoring.web.photos import MAX_PHOTO_BYTES
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

    # /docs is the package's own page (pages.py): FastAPI's loads Swagger UI from a CDN
    app = FastAPI(title="Borne", version="0.1.0", description=DESCRIPTION, lifespan=lifespan, docs_url=None,
                  redoc_url=None, default_response_class=SafeJSONResponse)
    app.state.settings = settings
    app.state.store = store if store is not None else GameStore(settings.db_path)
    app.state.broadcaster = Broadcaster(max_streams=settings.max_streams,
                                        max_streams_per_client=settings.max_streams_per_client)
    app.state.camera = None  # borne run sets a CameraState
    app.state.photos = None  # borne serve and borne run set a PhotoCounter
    install_error_handlers(app)
    for router in ALL:
        app.include_router(router)
    static = resources.files("scoring.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=str(resources.files("fastapi_offline").joinpath("static"))),
              name="docs-assets")
    # outermost last: headers on every answer, then host, size and token before anything reads the body
    app.add_middleware(IdempotentWrites, store=lambda: app.state.store)
    app.add_middleware(Gate, token=settings.token, max_body_bytes=settings.max_body_bytes,
                       hosts=HostCheck([settings.host, *settings.allowed_hosts]),
                       large_bodies={"/api/photos": MAX_PHOTO_BYTES})
    app.add_middleware(SecurityHeaders)
    return app


OPEN_FILES_WANTED = 4096
"""The open-files limit asked for at start-up (up to the hard limit): every connection and stream holds one."""


def raise_open_files_limit() -> int:
    """Raise this process's soft open-files limit towards OPEN_FILES_WANTED; returns the limit in force."""
    try:
        import resource
    except ImportError:  # not on Windows
        return OPEN_FILES_WANTED
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES_WANTED if hard == resource.RLIM_INFINITY else min(OPEN_FILES_WANTED, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


FILES_KEPT_FREE = 64
"""Open files left for the database, the log, the PDF fonts and the moment between accept and refusal."""


@dataclass(frozen=True)
class ConnectionBudget:
    """How the open-files limit is shared: live-update streams, and every connection at once (streams included).

    Streams get at most half of what is left after FILES_KEPT_FREE, so pages, API calls and refusals always
    have files to answer with; uvicorn answers 503 past ``connections``.

    >>> ConnectionBudget.of(WebSettings(token="t", db_path=":memory:"), open_files=4096)
    ConnectionBudget(streams=200, connections=400)
    >>> ConnectionBudget.of(WebSettings(token="t", db_path=":memory:"), open_files=256)
    ConnectionBudget(streams=96, connections=192)
    """

    streams: int
    connections: int

    @classmethod
    def of(cls, settings: WebSettings, *, open_files: int) -> ConnectionBudget:
        usable = max(32, open_files - FILES_KEPT_FREE)
        streams = max(1, min(settings.max_streams, usable // 2))
        return cls(streams=streams, connections=min(settings.max_streams + 200, usable))


def serve(settings: WebSettings, *, app: FastAPI | None = None,
          announce: Callable[[str], None] | None = None, tls: tuple[Path, Path] | None = None) -> None:
    """Serve the app until interrupted; ``announce`` gets the address once the socket listens.

    ``tls``: serve HTTPS with this ``(certificate, key)`` pair of PEM files (see :mod:`scoring.web.certificate`).
    """
    import uvicorn

    app = app or create_app(settings)
    budget = ConnectionBudget.of(settings, open_files=raise_open_files_limit())
    app.state.broadcaster.max_streams = budget.streams
    app.state.certificate = tls[0] if tls is not None else None
    https = {"ssl_certfile": str(tls[0]), "ssl_keyfile": str(tls[1])} if tls is not None else {}
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                            timeout_graceful_shutdown=1, access_log=False, limit_concurrency=budget.connections,
                            **https)  # type: ignore[arg-type]
    run_server(uvicorn.Server(config), settings.host, "https" if tls is not None else "http", announce)


def run_server(server: Any, host: str, scheme: str, announce: Callable[[str], None] | None) -> None:
    """Run a ``uvicorn.Server`` until interrupted; ``announce`` gets its address once the socket listens
    (the display's and the club hub's)."""
    if announce is not None:
        original = server.startup

        async def startup(sockets: object = None) -> None:
            await original(sockets=sockets)
            for s in server.servers:
                for sock in s.sockets:
                    bound, port = sock.getsockname()[:2]
                    announce(f"{scheme}://{host if host not in ('0.0.0.0', '::') else bound}:{port}")
                    return

        server.startup = startup
    server.run()
