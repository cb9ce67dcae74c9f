"""The club evening under stress: 50 tables play whole games against one Mosquitto and one hub on PostgreSQL,
while the broker, the hub and one table are each killed once (``kill -9``) and started again.

    .venv/bin/python bench/bench_club.py [--tables 50] [--games 3] [--pace 3] [--out bench/records/club.json]

Each table is its own process (``bench/club_table.py``: GameStore's outbox and TablePublisher, the code of
``borne serve --club`` without its web server); the hub is a real ``borne club`` process; PostgreSQL keeps
its fsync. At the end every table's games (its SQLite file) are compared with the hub's, hand by hand:
hands played, on the board, lost (must be 0), doubled (must be 0); the delay from a hand committed at its
table to its commit in the hub's database, which the board reads (median and worst); the hub's memory.
Needs Debian's postgresql and mosquitto and the test extras (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402
from loopback import rss_mib  # noqa: E402

from tests.club.broker import running_broker  # noqa: E402
from tests.club.postgres import running_cluster  # noqa: E402
from tests.club.processes import hub  # noqa: E402


def table_process(name: str, url: str, folder: Path, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    out = (folder / f"{name}.out").open("ab")
    return subprocess.Popen([sys.executable, str(ROOT / "bench" / "club_table.py"), "--db", str(folder / f"{name}.sqlite3"),
                             "--club", url, "--table", name, "--games", str(args.games), "--pace", str(args.pace),
                             "--seed", str(args.seed), "--log", str(folder / f"{name}.jsonl")],
                            stdout=out, stderr=subprocess.STDOUT)


def table_hands(db: Path) -> dict[int, list[str]]:
    """A table's games as it holds them: game id → its hand records (JSON text), in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT game_id, record FROM hands ORDER BY game_id, position").fetchall()
    games: dict[int, list[str]] = {}
    for game, record in rows:
        games.setdefault(game, []).append(json.dumps(json.loads(record), sort_keys=True))
    return games


def hub_hands(base: str, table: str) -> dict[int, list[str]]:
    answer = httpx.get(f"{base}/api/club/tables/{table}/games", timeout=30)
    if answer.status_code == 404:
        return {}
    answer.raise_for_status()
    return {g["table_game"]: [json.dumps(h, sort_keys=True) for h in g["hands"]] for g in answer.json()}


def compare(tables: list[str], folder: Path, base: str) -> dict[str, int]:
    """Every table's hands against the hub's: on the board (the same record at the same place), lost, doubled."""
    played = on_board = lost = doubled = 0
    for name in tables:
        mine, theirs = table_hands(folder / f"{name}.sqlite3"), hub_hands(base, name)
        for game in set(mine) | set(theirs):
            hands, held = mine.get(game, []), theirs.get(game, [])
            same = sum(1 for a, b in zip(hands, held) if a == b)
            played += len(hands)
            on_board += same
            lost += len(hands) - same
            doubled += max(0, len(held) - len(hands))
    return {"played": played, "on_board": on_board, "lost": lost, "doubled": doubled}


def delays(tables: list[str], folder: Path, db_url: str) -> list[float]:
    """Seconds from each hand's commit at its table to the hub's commit of the event that brought it."""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT table_name, table_game, revision, extract(epoch FROM applied_at) "
                            "FROM applied_events").fetchall()
    applied = {(t, g, r): float(at) for t, g, r, at in rows}
    out = []
    for name in tables:
        for line in (folder / f"{name}.jsonl").read_text().splitlines():
            hand = json.loads(line)
            at = applied.get((name, hand["game"], hand["revision"]))
            if at is not None:
                out.append(max(0.0, at - hand["t"]))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--games", type=int, default=3, help="whole games each table plays")
    p.add_argument("--pace", type=float, default=3.0, help="seconds between a table's hands, on average")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="also write the figures to this JSON file")
    args = p.parse_args()
    names = [f"t{i:02d}" for i in range(1, args.tables + 1)]
    folder = Path(tempfile.mkdtemp(prefix="borne-club-bench-"))
    memory: list[float] = []
    with running_cluster(durable=True) as cluster, running_broker(names) as broker:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute(b"CREATE DATABASE club")
        db_url = cluster.url("club")
        the_hub = hub(db_url, broker.url("hub"), folder)
        the_hub.start()
        started = time.monotonic()
        tables = {n: table_process(n, broker.url(n), folder, args) for n in names}
        expected = args.games * 4 * args.pace  # about four hands a game
        stop = threading.Event()

        def watch_memory() -> None:
            while not stop.wait(0.5):
                if the_hub.process is not None:
                    memory.append(rss_mib(the_hub.process.pid))

        threading.Thread(target=watch_memory, daemon=True).start()
        kills: list[str] = []
        plan: list[tuple[float, str]] = [(0.25, "broker"), (0.5, "hub"), (0.75, "table")]
        for share, what in plan:
            while time.monotonic() - started < share * expected:
                time.sleep(0.2)
            if what == "broker":
                broker.kill()
                time.sleep(3)
                broker.start()
            elif what == "hub":
                the_hub.kill()
                time.sleep(3)
                the_hub.start()
            else:
                victim = names[len(names) // 2]
                tables[victim].kill()
                tables[victim].wait()
                time.sleep(2)
                tables[victim] = table_process(victim, broker.url(victim), folder, args)
            kills.append(f"{what} at {time.monotonic() - started:.1f} s")
        for process in tables.values():
            process.wait(timeout=max(600, 10 * expected))
        played_for = time.monotonic() - started
        figures: dict[str, Any] = dict(compare(names, folder, the_hub.url))
        stop.set()
        figures.update(tables=len(names), games_per_table=args.games, seconds=round(played_for, 1), kills=kills)
        waits = delays(names, folder, db_url)
        figures.update(delay_median_s=round(statistics.median(waits), 3), delay_worst_s=round(max(waits), 3),
                       delays_measured=len(waits), hub_rss_peak_mib=round(max(memory), 1),
                       hub_rss_end_mib=round(memory[-1], 1), cpus=os.cpu_count())
        the_hub.stop()
    print(json.dumps(figures, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1) + "\n")
    return 0 if figures["lost"] == 0 and figures["doubled"] == 0 and figures["on_board"] == figures["played"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
