"""``borne serve``: the web score display and its API (CONTRACT.md §9)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.web.settings import WebSettings


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The options ``borne serve`` and ``borne run`` share."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument("--token", default=None,
                   help="the table's token that writes need (default: $BORNE_TOKEN, else a new one printed at start)")
    p.add_argument("--db", default=None, metavar="PATH",
                   help="the SQLite file of the games (default: borne/borne.sqlite3 in the user's data folder)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the score display and its API",
        description="Serve the live score display, hand entry and correction, and the HTTP API. "
        "Reads are open; writes need the token printed at start-up.",
    )
    add_server_options(p)
    p.set_defaults(func=_serve)


def settings_from(args: argparse.Namespace) -> tuple[WebSettings, bool]:
    """The server's settings from ``--host/--port/--token/--db`` (``borne run`` reuses it); True if the token is new."""
    from scoring.web.settings import WebSettings

    host: str = args.host
    port: int = args.port
    token: str | None = args.token
    db: str | None = args.db
    resolved: tuple[WebSettings, bool] = WebSettings.resolve(host=host, port=port, token=token, db_path=db)
    return resolved


def _serve(args: argparse.Namespace) -> int:
    from borne.commands import CommandError
    from scoring.web.app import serve

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0 to 65535, not {args.port}")
    settings, generated = settings_from(args)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        note = "  (new; set your own with --token or BORNE_TOKEN)" if generated else ""
        print(f"Token for changes: {settings.token}{note}", flush=True)

    try:
        serve(settings, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0
