"""``borne score``, ``borne game`` and ``borne export``: the scoring core from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TypeVar

from borne.commands import CommandError, read_text_input, whole_number

T = TypeVar("T")


def with_path(path: str, parse: Callable[[], T]) -> T:
    """Run ``parse``, naming the input file in the message of any error it raises."""
    from scoring.errors import BorneError

    try:
        return parse()
    except BorneError as e:
        raise CommandError(f"{_display(path)}: {e}") from None


def _display(path: str) -> str:
    return "stdin" if path == "-" else path

RULE_NAMES = ("classic", "classic-swapped", "teamzy", "dujardin-2024", "dujardin-2025")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "score",
        help="score one hand record",
        description="Score one hand record (CONTRACT.md §1) and print the nine line items per side, "
        "the totals and the hand's winner as JSON. Exit status 2 and one line on stderr for an invalid record.",
    )
    p.add_argument("hand", metavar="HAND.json", help="the hand record; - reads stdin")
    p.add_argument("--rules", default="classic", choices=RULE_NAMES, help="rule set (default: classic)")
    p.set_defaults(func=_score)

    p = sub.add_parser(
        "game",
        help="score a whole game of hands",
        description='Score a game: GAME.json is {"sides": ["A", "B"], "hands": [HAND, ...]}. Prints the totals '
        "after each hand, the totals, the winner and the hand after which the game was won. "
        "Hands after the game was won are refused.",
    )
    p.add_argument("game", metavar="GAME.json", help="the game file; - reads stdin")
    p.add_argument("--rules", default="classic", choices=RULE_NAMES, help="rule set (default: classic)")
    p.add_argument(
        "--target", type=whole_number(1, 1_000_000), default=None,
        help="points that win the game (default 5000; for dujardin-2025, hand wins, default 1)",
    )
    p.set_defaults(func=_game)

    p = sub.add_parser(
        "export",
        help="export a stored game as JSON or CSV",
        description="Write a game stored by `borne serve` as JSON (set-up, hands, items, totals, audit trail) or CSV.",
    )
    p.add_argument("game_id", type=int, metavar="GAME_ID")
    p.add_argument("--db", default=None, help="the SQLite file (default: the one in your data folder)")
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.set_defaults(func=_export)


def _score(args: argparse.Namespace) -> int:
    from scoring.hand import HandRecord
    from scoring.rules import RuleSet
    from scoring.score import score_hand

    record = with_path(args.hand, lambda: HandRecord.from_json_text(read_text_input(args.hand)))
    result = score_hand(record, RuleSet.from_name(args.rules))
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0


def _game(args: argparse.Namespace) -> int:
    from scoring.errors import BorneError
    from scoring.game import Game, GameSetup, Side, parse_game_file
    from scoring.hand import HandRecord, decode_json
    from scoring.rules import RuleSet

    names, raw_hands = with_path(args.game, lambda: parse_game_file(decode_json(read_text_input(args.game), what="game file")))
    rules = RuleSet.from_name(args.rules)
    setup = GameSetup(
        sides=tuple(Side(name=n) for n in names),
        rules=rules,
        target=args.target if args.target is not None else rules.default_target,
    )
    game = Game(setup=setup)
    for i, raw in enumerate(raw_hands):
        try:
            game = game.add_hand(HandRecord.from_json(raw))
        except BorneError as e:
            raise CommandError(f"{_display(args.game)}: hands[{i}]: {e}") from None
    outcome = game.outcome()
    print(
        json.dumps(
            {
                "totals_after_each_hand": game.totals_after_each_hand(),
                "totals": game.totals(),
                "winner": outcome.winner,
                "finished_after_hand": outcome.finished_after_hand,
            },
            ensure_ascii=False,
        )
    )
    return 0


def _export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scoring.storage import GameStore, default_db_path

    path = Path(args.db) if args.db else default_db_path()
    if not path.exists():
        raise CommandError(f"{path}: no such database")
    with GameStore(path) as store:
        if args.format == "csv":
            sys.stdout.write(store.export_csv(args.game_id))
        else:
            print(json.dumps(store.export_json(args.game_id), ensure_ascii=False, indent=2))
    return 0
