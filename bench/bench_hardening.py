"""What the server holds under abuse, and what durability costs per hand.

Starts ``borne serve`` on loopback with a temporary database and prints its resident memory (RSS):

1. idle;
2. at the peak of a flood of 12 MB request bodies sent at once: without the token, with it (refused from
   ``Content-Length``), and with it in chunks (refused as the body runs past the limit);
3. with the event-stream cap reached (``--max-streams``, clients spread over loopback addresses so the
   per-client cap is not what stops them), how many more were refused, and whether ``/`` still answers.

Then times adding a hand through :class:`scoring.storage.GameStore` with ``synchronous=FULL`` (what the
server uses) against ``NORMAL``, in a temporary folder on the same disk as ``--dir``.

    python bench/bench_hardening.py [--floods 8] [--max-streams 200] [--hands 200] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from loopback import borne_serve, free_port, rss_mib

TOKEN = "bench-token"
BODY_BYTES = 12 * 1024 * 1024
CHUNK = 64 * 1024


class PeakRss:
    """Samples a process's RSS every 10 ms in a thread; ``peak`` is the highest seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_mib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mib(self.pid))
            time.sleep(0.01)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


async def post_big(port: int, *, token: bool, chunked: bool) -> str:
    """Send a 12 MB POST on a raw connection (whatever the server says meanwhile); returns its status line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {TOKEN}\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {BODY_BYTES}\r\n\r\n"
    writer.write(head.encode())
    block = b"x" * CHUNK
    try:
        for _ in range(BODY_BYTES // CHUNK):
            writer.write(f"{CHUNK:x}\r\n".encode() + block + b"\r\n" if chunked else block)
            await writer.drain()
        if chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()
    except (ConnectionError, OSError):
        pass  # the server answered and closed: what we wanted
    try:
        line = await asyncio.wait_for(reader.readline(), timeout=30)
    except (ConnectionError, OSError, TimeoutError):
        line = b"(no answer)"
    writer.close()
    return line.decode(errors="replace").strip()


async def flood(port: int, count: int, *, token: bool, chunked: bool) -> list[str]:
    return list(await asyncio.gather(*(post_big(port, token=token, chunked=chunked) for _ in range(count))))


async def fill_streams(url: str, count: int, extra: int) -> tuple[int, int, float, float]:
    """Open ``count`` streams, then ``extra`` more; returns (open, refused, seconds for /, seconds for /api/games)."""
    opened = refused = 0
    clients: list[httpx.AsyncClient] = []
    responses: list[httpx.Response] = []
    for i in range(count + extra):
        address = f"127.0.{1 + i // 250}.{1 + i % 250}"  # a phone each, under the per-client cap
        client = httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address), timeout=10)
        clients.append(client)
        response = await client.send(client.build_request("GET", url + "/api/events"), stream=True)
        responses.append(response)
        if response.status_code == 200:
            opened += 1
        elif response.status_code == 503:
            refused += 1
    async with httpx.AsyncClient(timeout=30) as probe:
        t0 = time.perf_counter()
        page = await probe.get(url + "/")
        t1 = time.perf_counter()
        games = await probe.get(url + "/api/games")
        t2 = time.perf_counter()
        assert page.status_code == games.status_code == 200
    fill_streams.rss_at_cap = rss_mib(fill_streams.pid)  # type: ignore[attr-defined]
    for response in responses:
        await response.aclose()
    for client in clients:
        await client.aclose()
    return opened, refused, t1 - t0, t2 - t1


def durability_cost(folder: Path, hands: int) -> dict[str, float]:
    """Median milliseconds to add one hand, per ``synchronous`` setting."""
    import scoring.storage as storage
    from scoring.game import GameSetup, Side
    from scoring.hand import HandRecord
    from scoring.rules import RuleSet

    record = HandRecord.from_json({"goal": 1000, "sides": [{"side": "North", "distance": {"25": 1}},
                                                           {"side": "South", "distance": {"50": 1}}]})
    out: dict[str, float] = {}
    for mode in ("NORMAL", "FULL"):
        storage.SYNCHRONOUS = mode
        with tempfile.TemporaryDirectory(dir=folder) as tmp, storage.GameStore(Path(tmp) / "g.sqlite3") as store:
            assert store.durability == mode
            times = []
            game_id = 0
            for i in range(hands):
                if i % 40 == 0:  # a new game now and then: one never gets long or won
                    game_id = store.create_game(GameSetup(sides=(Side("North"), Side("South")),
                                                          rules=RuleSet.from_name("classic"), target=1_000_000)).id
                t0 = time.perf_counter()
                store.add_hand(game_id, record)
                times.append(time.perf_counter() - t0)
            out[mode] = statistics.median(times) * 1000
    storage.SYNCHRONOUS = "FULL"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floods", type=int, default=8, help="12 MB bodies sent at once per kind (default 8)")
    parser.add_argument("--max-streams", type=int, default=200, help="the server's stream cap (default 200)")
    parser.add_argument("--hands", type=int, default=200, help="hands timed per durability setting (default 200)")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the durability files go (its disk)")
    args = parser.parse_args()

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
    with (tempfile.TemporaryDirectory() as tmp,
          borne_serve(port, Path(tmp) / "g.sqlite3", "--token", TOKEN, "--max-streams", str(args.max_streams),
                      env=env) as server):
        time.sleep(0.5)
        print(f"borne serve idle: RSS {rss_mib(server.pid):.0f} MiB")
        for label, token, chunked in (("without the token", False, False),
                                      ("with the token, Content-Length", True, False),
                                      ("with the token, chunked", True, True)):
            with PeakRss(server.pid) as peak:
                t0 = time.perf_counter()
                answers = asyncio.run(flood(port, args.floods, token=token, chunked=chunked))
                seconds = time.perf_counter() - t0
            codes = sorted({a.split(" ")[1] if " " in a else a for a in answers})
            print(f"{args.floods} × 12 MB {label}: answers {', '.join(codes)}; peak RSS {peak.peak:.0f} MiB; "
                  f"{seconds:.1f} s; after: {rss_mib(server.pid):.0f} MiB")
        fill_streams.pid = server.pid  # type: ignore[attr-defined]
        with PeakRss(server.pid) as peak:
            opened, refused, page_s, games_s = asyncio.run(fill_streams(url, args.max_streams, 20))
        print(f"stream cap {args.max_streams}: {opened} open, {refused} of 20 more refused (503); "
              f"RSS at the cap {fill_streams.rss_at_cap:.0f} MiB (peak {peak.peak:.0f}); "  # type: ignore[attr-defined]
              f"/ answered in {page_s * 1000:.0f} ms, /api/games in {games_s * 1000:.0f} ms")
    cost = durability_cost(Path(args.dir), args.hands)
    print(f"adding a hand (median of {args.hands}): synchronous=NORMAL {cost['NORMAL']:.2f} ms, "
          f"FULL {cost['FULL']:.2f} ms (+{cost['FULL'] - cost['NORMAL']:.2f} ms: one fsync of the log per change)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
