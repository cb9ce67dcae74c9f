"""``borne club``: the club's hub (CONTRACT §11); ``borne club-broker``: a Mosquitto set up for a club.

A table joins with ``borne serve|run --club mqtt://TABLE:PASSWORD@HOST:PORT/CLUB --table TABLE``
(:func:`join_club`); nothing of this is imported by a lone table.
"""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path
from typing import Any

CLUB_TOKEN_ENV = "BORNE_CLUB_TOKEN"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "club",
        help="serve the club's board: every table's games over MQTT, kept in PostgreSQL",
        description="The club hub: listens to the tables on the MQTT broker, keeps their games in PostgreSQL and "
        "serves the board (every table live, the standings, the latest hands), a page per table, tournament "
        "rounds and exports. Organiser actions need the club's token.",
    )
    p.add_argument("--db", required=True, metavar="URL", help="the club's PostgreSQL database, postgresql://…")
    p.add_argument("--mqtt", required=True, metavar="URL",
                   help="the broker with the hub's login: mqtt://hub:PASSWORD@HOST:PORT/CLUB (mqtts:// for TLS)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--port", type=int, default=8100, help="TCP port (default 8100)")
    p.add_argument("--token", default=None,
                   help=f"the organiser's token (default ${CLUB_TOKEN_ENV}, else a new one printed at start)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="also answer to this Host name; repeatable")
    p.set_defaults(func=_club)

    b = sub.add_parser(
        "club-broker",
        help="write a Mosquitto configuration for a club: a login per table, each publishing only as itself",
        description="Writes mosquitto.conf, its password file (hashed by mosquitto_passwd), its ACL and the logins "
        "to FOLDER, then prints how to start the broker and the URL each table and the hub join with.",
    )
    b.add_argument("folder", metavar="FOLDER")
    b.add_argument("--club", required=True, metavar="NAME", help="the club's name (a topic level: letters, digits, -, _)")
    b.add_argument("--tables", required=True, nargs="+", metavar="TABLE", help="the tables' names")
    b.add_argument("--port", type=int, default=1883, help="the broker's port (default 1883)")
    b.add_argument("--host", default="0.0.0.0", help="the address it listens on (default 0.0.0.0)")
    b.add_argument("--tls", action="store_true",
                   help="speak only TLS (mqtts://), with a certificate made for this machine; the hub and each table "
                   "trust it through BORNE_CLUB_CA=FOLDER/tls/https-certificate.pem")
    b.set_defaults(func=_club_broker)


def add_club_options(p: argparse.ArgumentParser) -> None:
    """``--club`` for ``borne serve`` and ``borne run``."""
    p.add_argument("--club", default=None, metavar="URL",
                   help="join a club: mqtt://TABLE:PASSWORD@HOST:PORT/CLUB (the login `borne club-broker` printed "
                   "for this table); every change is sent to the club's board, and kept here until it has it")


def join_club(args: argparse.Namespace, store: Any, table: str | None) -> Any:
    """A started :class:`~scoring.club.publisher.TablePublisher` when ``--club`` is given, else ``None``.

    ``table`` defaults to the broker login's user: the broker lets a table publish under its own name only.
    """
    if args.club is None:
        return None
    from borne.commands import CommandError

    needs_club_extra(database=False)
    from scoring.club.broker import BrokerAddress
    from scoring.club.publisher import TablePublisher

    try:
        broker = BrokerAddress.parse(args.club)
        table = table or broker.user
        if table is None:
            raise CommandError("--club: give the table's login (mqtt://TABLE:PASSWORD@HOST…) or --table")
        publisher = TablePublisher(store, broker, table)
    except ValueError as e:
        raise CommandError(f"--club: {e}") from None
    store.club_outbox = True
    publisher.start()
    print(f"Table {table!r} joins club {broker.club!r} at {broker}", flush=True)
    return publisher


def needs_club_extra(*, database: bool) -> None:
    """:raises CommandError: the club's packages (MQTT; PostgreSQL for the hub) are not installed."""
    from importlib.util import find_spec

    from borne.commands import CommandError

    wanted = (("paho-mqtt", "paho"), ("psycopg", "psycopg")) if database else (("paho-mqtt", "paho"),)
    missing = [name for name, module in wanted if find_spec(module) is None]
    if missing:
        raise CommandError(f"the club needs {' and '.join(missing)}: pip install -e '.[club]' (make install-club)")


def _club(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from borne.commands import CommandError

    needs_club_extra(database=True)
    from scoring.club.database import ClubStore
    from scoring.club.hub import HubSettings, create_hub, serve_hub
    from scoring.club.listener import ClubListener

    token = args.token or os.environ.get(CLUB_TOKEN_ENV) or secrets.token_urlsafe(18)
    try:
        settings = HubSettings(db_url=args.db, mqtt_url=args.mqtt, token=token, host=args.host, port=args.port,
                               allowed_hosts=tuple(args.allowed_host))
        broker = settings.broker
    except ValidationError as e:
        problem = e.errors()[0]
        raise CommandError(f"--{str(problem['loc'][0]).replace('_url', '').replace('_', '-')}: {problem['msg']}") from None
    except ValueError as e:
        raise CommandError(f"--mqtt: {e}") from None
    try:
        store = ClubStore(args.db)
    except Exception as e:  # psycopg's OperationalError and friends: say which database
        raise CommandError(f"--db: cannot open the club's database: {str(e).strip().splitlines()[0]}") from None
    listener = ClubListener(store, broker)
    app = create_hub(settings, store, listener=listener)

    def announce(url: str) -> None:
        print(f"Borne club {broker.club!r} is serving its board on {url}/", flush=True)
        print(f"Listening to the tables at {broker}", flush=True)
        new = "" if args.token or os.environ.get(CLUB_TOKEN_ENV) else f"  (new; set your own with {CLUB_TOKEN_ENV})"
        print(f"Organiser's token: {token}{new}", flush=True)

    try:
        serve_hub(settings, app, announce=announce)
    except OSError as e:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        store.close()
    return 0


def _club_broker(args: argparse.Namespace) -> int:
    from scoring.club.mosquitto import HUB_USER, write_broker_files

    files = write_broker_files(Path(args.folder), club=args.club, tables=list(args.tables), port=args.port,
                               host=args.host, tls=args.tls)
    print(f"Start the broker:  mosquitto -c {files.config}")
    if files.certificate is not None:
        print(f"TLS: copy {files.certificate} to the hub's and each table's machine and set BORNE_CLUB_CA to it")
    print(f"The logins are in {Path(args.folder) / 'logins.json'} (keep it private). Replace BROKER by this "
          "machine's address:")
    for user in (HUB_USER, *args.tables):
        joins = "borne club --db postgresql://… --mqtt" if user == HUB_USER else f"borne serve --table {user} --club"
        print(f"  {joins} {files.url(user, 'BROKER', args.port, args.club)}")
    return 0
