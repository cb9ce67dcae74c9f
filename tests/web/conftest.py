"""Fixtures of the web tests: a real ``borne serve`` process on loopback, hand records, a browser."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

TOKEN = "test-token-42"

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BorneProcess:
    """A ``borne`` server subprocess on a free loopback port: started, awaited, stopped or killed."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[str] | None = None

    def await_route(self, path: str, *, seconds: float, output: Callable[[], str]) -> None:
        """Wait until ``path`` answers 200; :raises RuntimeError: the process died or never answered."""
        assert self.process is not None
        args = self.process.args
        command = str(args[3]) if isinstance(args, list) and len(args) > 3 else str(args)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{command} exited: {output()}")
            try:
                if httpx.get(f"{self.url}{path}", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"{command} did not start within {seconds:.0f} s")

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


class Server(BorneProcess):
    """A ``borne serve`` subprocess on a free loopback port, restartable on the same database."""

    def __init__(self, db: Path, token: str = TOKEN, *, args: tuple[str, ...] | None = None,
                 env: dict[str, str] | None = None, open_files: int | None = None) -> None:
        """``args`` replace ``--token TOKEN`` on the command line (a token file, limits); ``env`` adds variables;
        ``open_files`` sets the process's open-files limit, soft and hard (as a small machine's)."""
        super().__init__()
        self.db = db
        self.token = token
        self.args = args if args is not None else ("--token", token)
        self.env = env or {}
        self.open_files = open_files
        self.output: list[str] = []

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def start(self) -> None:
        env = {**{k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}, **self.env}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "serve", "--port", str(self.port), "--db", str(self.db), *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, preexec_fn=self._limit_files,
        )
        process = self.process
        self.await_route("/api/rules", seconds=20,
                         output=lambda: process.stdout.read() if process.stdout else "")

    def _limit_files(self) -> None:
        if self.open_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, **kw)

    def post(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.post(self.url + path, headers=headers, **{"timeout": 10, **kw})

    def put(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.put(self.url + path, headers=headers, **{"timeout": 10, **kw})

    def delete(self, path: str, *, auth: bool = True, **kw: Any) -> httpx.Response:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        return httpx.delete(self.url + path, headers=headers, **{"timeout": 10, **kw})


def raw_exchange(server: Server, head: str, *, seconds: float = 5.0) -> str:
    """Send only a request's head (no body) on a raw socket and return what the server answers, or ``""``
    when it answers nothing within ``seconds`` (a server that waits for the body)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=seconds) as s:
        s.sendall(head.encode("latin-1"))
        try:
            return s.recv(65536).decode("latin-1")
        except TimeoutError:
            return ""


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


# The ``browser`` fixture lives in tests/conftest.py: one Chromium for the whole session. Pages that wait with
# ``wait_for_function`` open with ``bypass_csp=True``: Playwright evaluates the predicate string with ``eval``,
# which the display's policy forbids; test_web_hardening_browser checks the page under it.
