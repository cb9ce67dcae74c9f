"""A Mosquitto broker set up for a club: a password per table and per hub, and an ACL by which a table can
publish only as itself (``borne club-broker``; the tests start Debian's ``mosquitto`` with the same files).

The ACL, for a club named ``friday``::

    user hub                               # the hub reads every table and writes the acknowledgements
    topic read borne/friday/#
    topic write borne/friday/+/ack
    pattern write borne/friday/%u/events   # a table (its broker user is its name) writes its own topics only
    pattern write borne/friday/%u/state
    pattern write borne/friday/%u/status
    pattern write borne/friday/%u/live
    pattern read borne/friday/%u/ack
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from scoring.club.events import check_name
from scoring.errors import BorneError

HUB_USER = "hub"
TABLE_CHANNELS = ("events", "state", "status", "live")


class BrokerSetupError(BorneError):
    """The broker's files could not be written (no ``mosquitto_passwd``, a bad name)."""


@dataclass(frozen=True)
class BrokerFiles:
    """What :func:`write_broker_files` made: the configuration to start ``mosquitto -c`` with and the logins."""

    config: Path
    passwords: dict[str, str]
    """Broker user → password: ``hub`` and one per table (the table's name)."""
    certificate: Path | None = None
    """With TLS: the broker's self-signed certificate, which the hub and the tables trust (``BORNE_CLUB_CA``)."""

    def url(self, user: str, host: str, port: int, club: str) -> str:
        scheme = "mqtts" if self.certificate is not None else "mqtt"
        return f"{scheme}://{user}:{self.passwords[user]}@{host}:{port}/{club}"


def acl_text(club: str) -> str:
    check_name(club, "club")
    lines = [f"user {HUB_USER}", f"topic read borne/{club}/#", f"topic write borne/{club}/+/ack", ""]
    lines += [f"pattern write borne/{club}/%u/{channel}" for channel in TABLE_CHANNELS]
    lines += [f"pattern read borne/{club}/%u/ack"]
    return "\n".join(lines) + "\n"


def write_broker_files(folder: Path, *, club: str, tables: list[str], port: int = 1883, host: str = "0.0.0.0",
                       passwords: dict[str, str] | None = None, tls: bool = False) -> BrokerFiles:
    """``mosquitto.conf``, ``acl``, ``passwd`` (hashed by ``mosquitto_passwd``) and ``logins.json`` in ``folder``;
    with ``tls`` a certificate for this machine (its names and addresses; :mod:`scoring.web.certificate`)
    and a listener that speaks only TLS.

    :raises BrokerSetupError: a table named ``hub``, a bad name, or no ``mosquitto_passwd``.
    """
    for name in tables:
        check_name(name)
        if name == HUB_USER:
            raise BrokerSetupError(f"{HUB_USER!r} is the hub's login; name the table otherwise")
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise BrokerSetupError("mosquitto_passwd: not found; install Debian's mosquitto (apt-get install mosquitto)")
    folder.mkdir(parents=True, exist_ok=True)
    logins = dict(passwords or {})
    for user in (HUB_USER, *tables):
        logins.setdefault(user, secrets.token_urlsafe(12))
    password_file = folder / "passwd"
    password_file.write_text("")
    password_file.chmod(0o600)
    for user, password in logins.items():
        subprocess.run([tool, "-b", str(password_file), user, password], check=True, capture_output=True)
    (folder / "acl").write_text(acl_text(club))
    (folder / "data").mkdir(exist_ok=True)
    certificate = None
    listener = [f"listener {port} {host}"]
    if tls:
        from scoring.web.certificate import keep_certificate

        kept = keep_certificate(folder / "tls")
        certificate = kept.certificate
        listener += [f"certfile {kept.certificate.resolve()}", f"keyfile {kept.key.resolve()}"]
    config = folder / "mosquitto.conf"
    config.write_text("\n".join([
        *listener,
        "allow_anonymous false",
        f"password_file {password_file.resolve()}",
        f"acl_file {(folder / 'acl').resolve()}",
        "persistence true",
        f"persistence_location {(folder / 'data').resolve()}/",
        "autosave_interval 1",  # the hub's queued events and the retained states survive a broker killed
        "autosave_on_changes true",
        "max_queued_messages 100000",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "",
    ]))
    logins_file = folder / "logins.json"
    logins_file.write_text(json.dumps(logins, indent=1))
    logins_file.chmod(0o600)
    _hand_to_broker_user(folder)
    return BrokerFiles(config=config, passwords=logins, certificate=certificate)


def _hand_to_broker_user(folder: Path) -> None:
    """Started as root, mosquitto runs as the ``mosquitto`` user: the files become its own (not the logins)."""
    if os.geteuid() != 0:
        return
    try:
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    tls = folder / "tls"
    for path in (folder, folder / "data", folder / "passwd", folder / "acl", folder / "mosquitto.conf",
                 *((tls, *tls.iterdir()) if tls.is_dir() else ())):
        os.chown(path, user.pw_uid, user.pw_gid)
