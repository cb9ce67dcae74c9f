"""``borne serve``: the web score display and its API (CONTRACT.md §9)."""

from __future__ import annotations

import argparse
import sys


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


def settings_from(args: argparse.Namespace) -> tuple[object, bool]:
    from scoring.web.settings import WebSettings

    return WebSettings.resolve(host=args.host, port=args.port, token=args.token, db_path=args.db)


def _serve(args: argparse.Namespace) -> int:
    from borne.commands import CommandError
    from scoring.web.app import serve
    from scoring.web.settings import WebSettings

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0 to 65535, not {args.port}")
    settings, generated = settings_from(args)
    assert isinstance(settings, WebSettings)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        if generated:
            print(f"Token for changes: {settings.token}  (set it with --token or BORNE_TOKEN)", flush=True)
        else:
            print("Token for changes: as given", flush=True)

    try:
        serve(settings, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0
