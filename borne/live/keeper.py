"""The game each final hand from the camera goes to."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from scoring.hand import HandRecord
    from scoring.storage import StoredGame
    from vision.table.layout import TableLayout


class GameKeeper:
    """Adds each final hand to the display's current game (creating one for the layout's sides).

    The current game is the one named at start (``borne run --game``), else the latest game of the
    layout's sides that is not over, else a new classic game of those sides.
    """

    def __init__(self, app: FastAPI, layout: TableLayout, game_id: int | None) -> None:
        self.app = app
        self.sides = [s.side for s in layout.sides]
        self.game_id = game_id
        """The game final hands go to (``None``: found or created at the next hand)."""

    def _game(self) -> int:
        from scoring.game import GameSetup, Side
        from scoring.rules import RuleSet

        store = self.app.state.store
        if self.game_id is None:
            for gid in reversed(store.game_ids()):
                stored = store.load(gid)
                if [s.name for s in stored.game.setup.sides] == self.sides and not stored.game.outcome().is_over:
                    self.game_id = gid
                    break
        if self.game_id is None:
            setup = GameSetup(sides=tuple(Side(name=n) for n in self.sides), rules=RuleSet.from_name("classic"),
                              target=5000)
            stored = store.create_game(setup, author="camera")
            self._publish("created", stored, None)
            self.game_id = stored.id
        return self.game_id

    def add(self, record: HandRecord) -> None:
        """Add a final hand; a hand the game refuses is reported on stderr and the next goes to a new game."""
        from scoring.errors import BorneError

        store = self.app.state.store
        try:
            stored = store.add_hand(self._game(), record, author="camera")
        except BorneError as e:
            print(f"borne run: the camera's hand was not added to game {self.game_id}: {e}", file=sys.stderr)
            self.game_id = None
            return
        self._publish("add", stored, len(stored.game.hands))

    def _publish(self, kind: str, stored: StoredGame, hand: int | None) -> None:
        from scoring.storage import game_document
        from scoring.web.events import GameEvent

        self.app.state.broadcaster.publish(
            GameEvent(kind=kind, game_id=stored.id, revision=stored.revision, game=game_document(stored), hand=hand))
