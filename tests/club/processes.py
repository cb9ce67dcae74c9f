"""Real ``borne club`` and ``borne serve --club`` processes on loopback (the club's tests and bench_club share them)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

TOKEN = "club-organiser"
TABLE_TOKEN = "table-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_answered(url: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            out = process.stdout.read().decode(errors="replace") if process.stdout else ""
            raise RuntimeError(f"{url}: the process exited with {process.returncode}: {out[-2000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url}: no answer within {seconds:.0f} s")
        time.sleep(0.05)


@dataclass
class Served:
    """A ``borne`` server process: started, killed (``kill -9``) and started again with the same arguments."""

    args: list[str]
    port: int
    probe: str
    log: Path
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, seconds: float = 60) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "borne", *self.args, "--port", str(self.port)],
                                            stdout=out, stderr=subprocess.STDOUT, env=self.env)
        wait_answered(self.url + self.probe, self.process, seconds)

    def kill(self) -> None:
        """``kill -9``: no goodbye to the broker, nothing flushed."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


def hub(db_url: str, mqtt_url: str, folder: Path) -> Served:
    return Served(["club", "--db", db_url, "--mqtt", mqtt_url, "--token", TOKEN], free_port(), "/api/club/tables",
                  folder / "hub.log")


def table(name: str, mqtt_url: str, folder: Path) -> Served:
    return Served(["serve", "--db", str(folder / f"{name}.sqlite3"), "--token", TABLE_TOKEN, "--club", mqtt_url,
                   "--table", name], free_port(), "/api/rules", folder / f"{name}.log")


AUTH = {"Authorization": f"Bearer {TABLE_TOKEN}"}


def new_game(server: Served, sides: list[str]) -> int:
    answer = httpx.post(server.url + "/api/games", json={"sides": sides, "rules": "classic", "target": 5000},
                        headers=AUTH, timeout=10)
    answer.raise_for_status()
    return int(answer.json()["id"])


def hand(sides: list[str], km: list[dict[str, int]]) -> dict[str, Any]:
    """A hand record of CONTRACT §1: each side's distance cards, no safeties."""
    return {"goal": 1000, "draw_pile_empty_at_finish": False, "extension_called_by": None,
            "sides": [{"side": s, "distance": {str(k): n for k, n in d.items()}, "safeties": {}}
                      for s, d in zip(sides, km, strict=True)]}


def game_at(server: Served, game_id: int) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/games/{game_id}", timeout=10)
    answer.raise_for_status()
    document: dict[str, Any] = answer.json()
    return document
