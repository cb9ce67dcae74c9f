"""Fixtures of the web tests: a real ``borne serve`` process on loopback, hand records, a browser."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

TOKEN = "test-token-42"

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``borne serve`` subprocess on a free loopback port, restartable on the same database."""

    def __init__(self, db: Path, token: str = TOKEN) -> None:
        self.db = db
        self.token = token
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "serve", "--port", str(self.port), "--db", str(self.db),
             "--token", self.token],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"borne serve exited: {self.process.stdout.read() if self.process.stdout else ''}")
            try:
                if httpx.get(f"{self.url}/api/rules", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("borne serve did not start within 20 s")

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, **kw)

    def post(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.post(self.url + path, headers=headers, timeout=10, **kw)

    def put(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.put(self.url + path, headers=headers, timeout=10, **kw)

    def delete(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.delete(self.url + path, headers=headers, timeout=10, **kw)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "games.sqlite3")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite3")
    srv.start()
    yield srv
    srv.stop()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("BORNE_CHROMIUM", CHROMIUM)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()
