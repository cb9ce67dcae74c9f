"""A real Mosquitto broker on loopback for the club's tests, set up as ``borne club-broker`` sets one up."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from scoring.club.mosquitto import BrokerFiles, write_broker_files

CLUB = "friday"
TABLES = ["t1", "t2", "t3"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Broker:
    """A running ``mosquitto``: kill it and start it again with the same files (its saved state survives)."""

    files: BrokerFiles
    port: int
    process: subprocess.Popen[bytes] | None = None

    def url(self, user: str, password: str | None = None) -> str:
        password = self.files.passwords[user] if password is None else password
        scheme = "mqtts" if self.files.certificate is not None else "mqtt"
        return f"{scheme}://{user}:{password}@127.0.0.1:{self.port}/{CLUB}"

    def start(self) -> None:
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(binary).exists():
            raise RuntimeError("mosquitto is not installed: run `make test`, which installs Debian's mosquitto")
        log = self.files.config.with_name("mosquitto.log")
        with log.open("ab") as out:
            self.process = subprocess.Popen([binary, "-c", str(self.files.config)], stderr=out, stdout=out)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped: {log.read_text(errors='replace')[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextmanager
def running_broker(tables: list[str] | None = None, *, tls: bool = False) -> Iterator[Broker]:
    """A Mosquitto with a login per table and the hub's, killed and its files removed on leaving."""
    # not under pytest's tmp_path: its folders are the test user's alone, and mosquitto started as root runs
    # as the mosquitto user, which must reach its files
    folder = Path(tempfile.mkdtemp(prefix="borne-mqtt-"))
    port = free_port()
    files = write_broker_files(folder, club=CLUB, tables=tables or TABLES, port=port, host="127.0.0.1", tls=tls)
    broker = Broker(files, port)
    broker.start()
    try:
        yield broker
    finally:
        broker.kill()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def broker() -> Iterator[Broker]:
    with running_broker() as started:
        yield started
