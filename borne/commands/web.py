"""``borne serve``: the web score display and its API (CONTRACT.md §9)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from borne.commands.club import add_club_options

if TYPE_CHECKING:
    from scoring.web.settings import WebSettings


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The options ``borne serve`` and ``borne run`` share."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument("--token", default=None,
                   help="the table's token that writes need (default: --token-file, else $BORNE_TOKEN, else a new one "
                   "printed at start); other users of the machine can read it in `ps`: prefer BORNE_TOKEN or --token-file")
    p.add_argument("--token-file", default=None, metavar="PATH",
                   help="read the token from the first line of PATH (kept out of `ps`)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="also answer to this Host name (a DNS name of this machine, a reverse proxy's); repeatable. "
                   "Loopback, IP addresses, this machine's names and --host are always allowed")
    p.add_argument("--max-streams", type=int, default=None, metavar="N",
                   help="live-update streams open at once, in all (default 200); past it pages poll instead")
    p.add_argument("--max-streams-per-client", type=int, default=None, metavar="N",
                   help="live-update streams open at once per client address (default 8)")
    p.add_argument("--db", default=None, metavar="PATH",
                   help="the SQLite file of the games (default: borne/borne.sqlite3 in the user's data folder)")
    add_club_options(p)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the score display and its API",
        description="Serve the live score display, hand entry and correction, and the HTTP API. "
        "Reads are open; writes need the token printed at start-up.",
    )
    add_server_options(p)
    p.add_argument("--table", default=None, metavar="NAME",
                   help="the table's name in its club (with --club; default: the broker login's user name)")
    p.add_argument("--edition", default="generic",
                   help="the deck edition photos are read with (\"Score from a photo\"; default: the built-in generic)")
    p.set_defaults(func=_serve)


def settings_from(args: argparse.Namespace) -> tuple[WebSettings, bool]:
    """The server's settings from ``--host/--port/--token/--db`` (``borne run`` reuses it); True if the token is new."""
    from pydantic import ValidationError

    from borne.commands import CommandError
    from scoring.web.settings import TokenFileError, WebSettings

    host: str = args.host
    port: int = args.port
    token: str | None = args.token
    db: str | None = args.db
    try:
        resolved: tuple[WebSettings, bool] = WebSettings.resolve(
            host=host, port=port, token=token, db_path=db, token_file=args.token_file,
            allowed_hosts=tuple(args.allowed_host), max_streams=args.max_streams,
            max_streams_per_client=args.max_streams_per_client,
        )
    except TokenFileError as e:
        raise CommandError(str(e)) from None
    except ValidationError as e:
        problem = e.errors()[0]
        raise CommandError(f"--{str(problem['loc'][0]).replace('_', '-')}: {problem['msg']}") from None
    return resolved


def _serve(args: argparse.Namespace) -> int:
    from borne.commands import CommandError
    from borne.commands.club import join_club
    from borne.live.photos import display_photo_counter
    from scoring.web.app import create_app, serve

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0 to 65535, not {args.port}")
    settings, generated = settings_from(args)
    app = create_app(settings)
    app.state.photos = display_photo_counter(args.edition)
    club = join_club(args, app.state.store, args.table)

    def announce(url: str) -> None:
        print(f"Borne is serving the score display on {url}/", flush=True)
        print(f"Games are kept in {settings.db_path}", flush=True)
        note = "  (new; set your own with BORNE_TOKEN or --token-file)" if generated else ""
        print(f"Token for changes: {settings.token}{note}", flush=True)

    try:
        serve(settings, app=app, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        if club is not None:
            club.stop()
    return 0
