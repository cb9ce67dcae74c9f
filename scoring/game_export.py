"""A stored game as the outside sees it: the JSON document of ``GET /api/games/{id}`` and the CSV export.

The table's SQLite store and the club's PostgreSQL store both export through these.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scoring.game import Game
from scoring.score import ITEM_NAMES

if TYPE_CHECKING:
    from scoring.storage import StoredGame


CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet reads a cell starting with one of these as a formula (``=HYPERLINK(...)``)."""


def csv_text(text: str) -> str:
    """A name as a CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP's advice).

    >>> csv_text("=HYPERLINK(1)"), csv_text("@SUM(A1)"), csv_text("Ana & Cleo")
    ("'=HYPERLINK(1)", "'@SUM(A1)", 'Ana & Cleo')
    """
    return "'" + text if text.startswith(CSV_FORMULA_STARTS) else text


def game_document(stored: StoredGame) -> dict[str, Any]:
    """The JSON form of a stored game served by ``GET /api/games/{id}`` and exported by ``export_json``."""
    game = stored.game
    outcome = game.outcome()
    hands = []
    for number, (record, score, totals) in enumerate(
        zip(game.hands, game.scores(), game.totals_after_each_hand()), start=1
    ):
        hands.append(
            {
                "number": number,
                "record": record.to_json(),
                "score": score.to_json(),
                "points": game.hand_points(score),
                "totals": totals,
            }
        )
    setup = game.setup.to_json()
    return {
        "id": stored.id,
        "revision": stored.revision,
        "created_at": stored.created_at,
        **setup,
        "counting": game.setup.rules.counting.value,
        "hands": hands,
        "totals": game.totals(),
        "winner": outcome.winner,
        "finished_after_hand": outcome.finished_after_hand,
    }


def game_csv(game: Game, *, headings: Mapping[str, str] | None = None) -> str:
    """One row per hand and side: the facts' km, each line item, the hand total and the running total.

    The first row names the columns by id (``hand``, ``side``, ``km``, the items, ``hand_total``,
    ``running_total``), or by ``headings[id]`` where given (a language's words).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = ["hand", "side", "km", *ITEM_NAMES, "hand_total", "running_total"]
    writer.writerow([(headings or {}).get(c, c) for c in columns])
    for number, (hand, score, totals) in enumerate(zip(game.hands, game.scores(), game.totals_after_each_hand()),
                                                   start=1):
        for side in score.sides:
            items = side.items.to_json()
            writer.writerow([number, csv_text(side.side), hand.side(side.side).km, *(items[n] for n in ITEM_NAMES),
                             side.total, totals[side.side]])
    return out.getvalue()
