"""What the benchmarks that start real servers on loopback share: a free port, a process's memory, ``borne serve``."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` in MiB (NaN when /proc does not say)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextmanager
def borne_serve(port: int, db: Path, *options: str, env: Mapping[str, str],
                seconds: float = 30) -> Iterator[subprocess.Popen[bytes]]:
    """``borne serve`` on ``port`` with the database ``db``, answering ``/api/rules``; stopped on leaving.

    :raises RuntimeError: the server exited, or did not answer within ``seconds``.
    """
    server = subprocess.Popen([sys.executable, "-m", "borne", "serve", "--port", str(port), "--db", str(db), *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=dict(env))
    try:
        wait_until_answered(f"http://127.0.0.1:{port}/api/rules", server, seconds)
        yield server
    finally:
        server.terminate()
        server.wait(10)


def wait_until_answered(url: str, process: subprocess.Popen[Any], seconds: float) -> None:
    """Poll ``url`` until it answers 200.

    :raises RuntimeError: ``process`` (the server behind it) exited first, or ``seconds`` went by.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the server exited with {process.returncode} before answering")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url}: no answer within {seconds:.0f} s")
        time.sleep(0.1)
