"""The club's hub (``borne club``): every table's games from the broker into PostgreSQL, one board over HTTP.

>>> HubSettings(db_url="postgresql://127.0.0.1/club", mqtt_url="mqtt://hub:pw@127.0.0.1/friday", token="organiser").port
8100
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from scoring.club.broker import BrokerAddress
from scoring.web.app import run_server
from scoring.web.errors import SafeJSONResponse, install_error_handlers
from scoring.web.gate import Gate, HostCheck
from scoring.web.headers import SecurityHeaders

log = logging.getLogger("borne.club")

DESCRIPTION = """The Borne club hub (CONTRACT.md §11): every table's games, live, the standings and the rounds.

Reads are open; organiser actions need `Authorization: Bearer TOKEN` (the club's token, printed at start).
Tables join over MQTT (`borne serve --club mqtt://TABLE:PASSWORD@HOST:PORT/CLUB --table TABLE`).
"""


class HubSettings(BaseModel):
    """How the hub is started: its database, its broker, where it listens and the organiser's token."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    db_url: str = Field(description="The club's PostgreSQL database (postgresql://USER@HOST:PORT/NAME).")
    mqtt_url: str = Field(description="The broker, with the hub's login: mqtt://hub:PASSWORD@HOST:PORT/CLUB.")
    token: str = Field(min_length=8, description="The organiser's token, needed by every write.")
    host: str = "127.0.0.1"
    port: int = Field(default=8100, ge=0, le=65535)
    allowed_hosts: tuple[str, ...] = ()
    max_body_bytes: int = 64 * 1024

    @property
    def broker(self) -> BrokerAddress:
        return BrokerAddress.parse(self.mqtt_url)


def create_hub(settings: HubSettings, store: Any, *, listener: Any = None) -> FastAPI:
    """The hub's web app over ``store`` (a ClubStore); ``listener`` (a ClubListener) is started and stopped with it."""
    from scoring.club.pages import router as pages
    from scoring.club.routes import router as api

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if listener is not None:
            listener.start()
        try:
            yield
        finally:
            if listener is not None:
                listener.stop()

    app = FastAPI(title="Borne club", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None, default_response_class=SafeJSONResponse)
    app.state.settings = settings
    app.state.club = settings.broker.club
    app.state.store = store
    app.state.listener = listener
    install_error_handlers(app)
    app.include_router(api)
    app.include_router(pages)
    app.mount("/club-static", StaticFiles(directory=str(resources.files("scoring.club").joinpath("static"))),
              name="club-static")
    app.add_middleware(Gate, token=settings.token, max_body_bytes=settings.max_body_bytes,
                       hosts=HostCheck([settings.host, *settings.allowed_hosts]))
    app.add_middleware(SecurityHeaders)
    return app


def serve_hub(settings: HubSettings, app: FastAPI, *, announce: Callable[[str], None] | None = None) -> None:
    """Serve the hub until interrupted."""
    import uvicorn

    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                            timeout_graceful_shutdown=1, access_log=False)
    run_server(uvicorn.Server(config), settings.host, "http", announce)
