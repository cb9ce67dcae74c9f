"""``borne run`` without ``--layout`` and without saved zones: the sides proposed from the table as the hand
starts (:mod:`vision.table.seating`), named by the game's set-up, shown on the display for a one-tap confirm.

The game's set-up is the game named by ``--game``, else the latest game that is not over (the one the
camera's hands go to); its sides, 2 to 4, are waited for and named in seat order. Without such a game the
sides are named by where they sit in the picture (North at the top, then East, South, West).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from borne.live.keeper import GameKeeper
    from borne.live.zones import TableZones
    from scoring.storage import GameStore
    from vision.pipeline import Pipeline
    from vision.table.layout import TableLayout


def set_up_sides(store: GameStore, game_id: int | None) -> tuple[str, ...] | None:
    """The sides of the game the camera's hands go to, in the set-up's order (``None``: no such game, or
    one of a number of sides the table cannot be found for)."""
    if game_id is not None:
        names = tuple(s.name for s in store.load(game_id).game.setup.sides)
    else:
        names = ()
        for gid in reversed(store.game_ids()):
            stored = store.load(gid)
            if not stored.game.outcome().is_over:
                names = tuple(s.name for s in stored.game.setup.sides)
                break
    return names if 2 <= len(names) <= 4 else None


def propose_sides(pipeline: Pipeline, zones: TableZones, keeper: GameKeeper, *, store: GameStore,
                  game_id: int | None) -> tuple[str, ...] | None:
    """Have ``pipeline`` find the sides from the table as the hand starts; once found, they are the table's
    sides (the zones' and the game's), proposed on the display. Returns the set-up's names, if any."""
    from vision.table.seating import Seating
    from vision.table.widening import ZoneWidening

    names = set_up_sides(store, game_id)
    pipeline.seating = Seating(names=names)
    pipeline.widening = ZoneWidening()

    def seated(layout: TableLayout) -> None:
        keeper.sides = [s.side for s in layout.sides]
        zones.found(layout)
        where = ", ".join(s.side for s in layout.sides)
        print(f"camera: the sides found on the table: {where}; confirm them on the display", file=sys.stderr,
              flush=True)

    pipeline.on_seated = seated
    zones.start_finding()
    return names
