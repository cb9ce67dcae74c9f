"""How fast a posted hand reaches the open displays, and what the server holds in memory for them.

Starts ``borne serve`` on loopback with a temporary database, connects N Server-Sent-Events
clients to ``/api/events``, posts hands one by one, and times each hand from just before its POST
to the moment its event arrives on each client. Prints the median and worst delay, and the
server's resident memory (RSS) before and with the clients connected.

    python bench/bench_sse.py [--clients 50] [--hands 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from loopback import borne_serve, free_port, rss_mib

TOKEN = "bench"


def hand(number: int) -> dict[str, object]:
    """A small hand (nobody completes the trip), so the game never ends during the run."""
    return {"goal": 1000, "sides": [{"side": "North", "distance": {"100": 1 + number % 3}},
                                    {"side": "South", "distance": {"50": 1 + number % 2}}]}


async def client(url: str, arrivals: dict[int, float], ready: asyncio.Event, hands: int) -> None:
    async with httpx.AsyncClient(timeout=None) as http, http.stream("GET", url) as r:
        event = ""
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "hello":
                    ready.set()
            elif line.startswith("data: ") and event == "game":
                now = time.perf_counter()
                data = json.loads(line[6:])
                if data["kind"] == "add":
                    arrivals[data["revision"]] = now
                    if len(arrivals) >= hands:
                        return


async def run(url: str, pid: int, clients: int, hands: int) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as http:
        gid = (await http.post("/api/games", json={"sides": ["North", "South"], "target": 1_000_000})).json()["id"]
        idle = rss_mib(pid)
        arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
        readies = [asyncio.Event() for _ in range(clients)]
        tasks = [asyncio.create_task(client(f"{url}/api/events", arrivals[i], readies[i], hands)) for i in range(clients)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
        await asyncio.sleep(0.5)
        connected = rss_mib(pid)
        sent: dict[int, float] = {}
        for n in range(1, hands + 1):
            sent[n] = time.perf_counter()
            r = await http.post(f"/api/games/{gid}/hands", json=hand(n))
            r.raise_for_status()
            assert r.json()["revision"] == n
            await asyncio.sleep(0.1)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        peak = rss_mib(pid)
    delays = [(a[n] - sent[n]) * 1000 for a in arrivals for n in range(1, hands + 1)]
    print(f"SSE delivery: {hands} hands posted, each to {clients} connected clients ({len(delays)} deliveries)")
    print(f"  delay from POST to event on a client: median {statistics.median(delays):.1f} ms, "
          f"90th percentile {statistics.quantiles(delays, n=10)[-1]:.1f} ms, worst {max(delays):.1f} ms")
    print(f"  server RSS: {idle:.1f} MiB idle, {connected:.1f} MiB with {clients} clients, "
          f"{peak:.1f} MiB after the run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    port = free_port()
    with (tempfile.TemporaryDirectory() as tmp,
          borne_serve(port, Path(tmp) / "bench.sqlite3", env={**os.environ, "BORNE_TOKEN": TOKEN}) as server):
        asyncio.run(run(f"http://127.0.0.1:{port}", server.pid, args.clients, args.hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
