"""Scores 100,000 random legal hands and prints hands per second.

    python bench/bench_scoring.py [--hands 100000] [--seed 1]

Three figures: scoring alone (validated records in memory), parsing + validating + scoring
(JSON objects, as the API and `borne score` receive them), and a whole game re-totalled.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from scoring.cards import DECK_COUNTS, DISTANCE_CARD_OF_KM, DISTANCE_VALUES, SAFETIES
from scoring.hand import HandRecord
from scoring.rules import RULE_SETS
from scoring.score import score_hand


def random_legal_hand(rng: random.Random) -> dict[str, object]:
    """A legal hand record as JSON: 2–4 sides, deck counts, two 200s at most, within the goal, one completer."""
    n = rng.randint(2, 4)
    names = [f"Side {i + 1}" for i in range(n)]
    goal = 1000
    left = {km: DECK_COUNTS[DISTANCE_CARD_OF_KM[km]] for km in DISTANCE_VALUES}
    sides = []
    completed = False
    for name in names:
        counts = {km: rng.randint(0, min(left[km], 2 if km == 200 else 6)) for km in DISTANCE_VALUES}
        while sum(k * v for k, v in counts.items()) > goal or (
            completed and sum(k * v for k, v in counts.items()) == goal
        ):
            counts[max(k for k, v in counts.items() if v)] -= 1
        completed = completed or sum(k * v for k, v in counts.items()) == goal
        for km, v in counts.items():
            left[km] -= v
        sides.append({"side": name, "distance": {str(k): v for k, v in counts.items()}, "safeties": {}})
    for safety in SAFETIES:
        owner = rng.randrange(n + 1)
        if owner < n:
            sides[owner]["safeties"][safety.value] = rng.choice(["played", "coup_fourre"])  # type: ignore[index]
    return {"goal": goal, "draw_pile_empty_at_finish": rng.random() < 0.2, "sides": sides}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    raw = [random_legal_hand(rng) for _ in range(args.hands)]
    texts = [json.dumps(r) for r in raw]
    records = [HandRecord.from_json(r) for r in raw]
    rules = RULE_SETS["classic"]

    t0 = time.perf_counter()
    for r in records:
        score_hand(r, rules)
    score_only = time.perf_counter() - t0

    t0 = time.perf_counter()
    for t in texts:
        score_hand(HandRecord.from_json_text(t), rules)
    full = time.perf_counter() - t0

    per_rules = {}
    for name, rs in RULE_SETS.items():
        t0 = time.perf_counter()
        for r in records[:20_000]:
            score_hand(r, rs)
        per_rules[name] = 20_000 / (time.perf_counter() - t0)

    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"hands: {args.hands:,} random legal hands (seed {args.seed})")
    print(f"score only:                   {args.hands / score_only:>10,.0f} hands/s")
    print(f"parse + validate + score:     {args.hands / full:>10,.0f} hands/s")
    for name, rate in per_rules.items():
        print(f"  score only, {name:<16} {rate:>10,.0f} hands/s")


if __name__ == "__main__":
    main()
