"""One simulated table of bench_club.py: whole games scored into its own SQLite file and sent to the club
by the same code as ``borne serve --club`` (GameStore's outbox and TablePublisher), without the web server.

    python bench/club_table.py --db t07.sqlite3 --club mqtt://t07:PW@127.0.0.1:1883/bench --table t07 \
        --games 3 --pace 1.5 --seed 7 --log t07.jsonl

Killed and started again, it goes on with the game it was playing. Each hand scored is a line of ``--log``:
``{"table", "game", "revision", "hand", "t"}`` (``t``: the wall clock when the hand was committed).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.club.broker import BrokerAddress  # noqa: E402
from scoring.club.publisher import TablePublisher  # noqa: E402
from scoring.game import GameSetup  # noqa: E402
from scoring.hand import HandRecord  # noqa: E402
from scoring.storage import GameStore  # noqa: E402


def a_hand(rng: random.Random, sides: tuple[str, str]) -> HandRecord:
    """A finished 1,000-km hand: one side completes the trip, the other has laid some distance."""
    winner = rng.randrange(2)
    trip = {"200": 1, "100": 5, "75": 4}
    other = {"100": rng.randint(0, 4), "75": rng.randint(0, 3), "50": rng.randint(0, 4), "25": rng.randint(0, 4)}
    distance = [trip, other] if winner == 0 else [other, trip]
    return HandRecord.from_json({"goal": 1000, "draw_pile_empty_at_finish": False, "extension_called_by": None,
                                 "sides": [{"side": s, "distance": d, "safeties": {}} for s, d in zip(sides, distance)]})


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", required=True)
    p.add_argument("--club", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--pace", type=float, default=1.5, help="seconds between hands")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", required=True)
    args = p.parse_args()
    store = GameStore(args.db, club_outbox=True)
    publisher = TablePublisher(store, BrokerAddress.parse(args.club), args.table)
    publisher.start()
    rng = random.Random(f"{args.seed}:{args.table}:{len(store.game_ids())}")
    sides = (f"{args.table}-north", f"{args.table}-south")
    with open(args.log, "a") as log:
        while True:
            games = [store.load(i) for i in sorted(store.game_ids())]
            finished = sum(g.game.outcome().winner is not None for g in games)
            if finished >= args.games:
                break
            current = games[-1] if games and games[-1].game.outcome().winner is None else None
            if current is None:
                current = store.create_game(GameSetup.for_players(list(sides), goal=1000, extension=False))
            time.sleep(args.pace * rng.uniform(0.5, 1.5))
            stored = store.add_hand(current.id, a_hand(rng, sides))
            log.write(json.dumps({"table": args.table, "game": stored.id, "revision": stored.revision,
                                  "hand": len(stored.game.hands), "t": time.time()}) + "\n")
            log.flush()
    deadline = time.monotonic() + 120  # stay until the hub has every hand (the broker or the hub may be away)
    while store.outbox_pending(after=0) and time.monotonic() < deadline:
        time.sleep(0.2)
    publisher.stop()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
