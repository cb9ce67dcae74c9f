"""The storage of games as one interface: a table's SQLite file and the club's PostgreSQL keep it alike.

:class:`GameStorage` is what the web display, the camera and the club hub may ask of a store of games.
:class:`~scoring.storage.GameStore` (SQLite, the embedded default for one table) implements it, and so
does :class:`scoring.club.database.ClubStore` (PostgreSQL, the club hub). Both raise the same errors:
:class:`~scoring.errors.GameNotFoundError`, :class:`~scoring.errors.StaleRevisionError`,
:class:`~scoring.errors.NothingToUndoError`, and the :class:`~scoring.game.Game` value's own
(:class:`~scoring.errors.GameOverError`, :class:`~scoring.errors.HandNotFoundError`,
:class:`~scoring.errors.IllegalHandError`). Every change is one transaction: committed whole or not at all.

This module imports no database driver, so a lone table never loads PostgreSQL's.

>>> from scoring.storage import GameStore
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     store: GameStorage = GameStore(pathlib.Path(folder) / "borne.sqlite3")
...     isinstance(store, GameStorage), store.game_ids()
...     store.close()
(True, [])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from scoring.game import GameSetup
from scoring.hand import HandRecord
from scoring.storage import Change, StoredGame


@runtime_checkable
class GameStorage(Protocol):
    """Games, their hands, their audit trail and undo, as :class:`~scoring.storage.GameStore` keeps them."""

    def load(self, game_id: int) -> StoredGame:
        """The game with its hands and revision. :raises GameNotFoundError:"""
        ...

    def game_ids(self) -> list[int]:
        """Every game's id, newest first."""
        ...

    def history(self, game_id: int) -> list[Change]:
        """The audit trail of a game, oldest first. :raises GameNotFoundError:"""
        ...

    def create_game(self, setup: GameSetup, *, author: str = "borne") -> StoredGame:
        """A new game with no hands, at revision 0."""
        ...

    def add_hand(
        self, game_id: int, record: HandRecord, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Append a hand. :raises GameOverError, IllegalHandError, StaleRevisionError, GameNotFoundError:"""
        ...

    def replace_hand(
        self,
        game_id: int,
        number: int,
        record: HandRecord,
        *,
        author: str = "borne",
        expected_revision: int | None = None,
    ) -> StoredGame:
        """Replace hand ``number`` (1-based). :raises HandNotFoundError, GameOverError, IllegalHandError:"""
        ...

    def delete_hand(
        self, game_id: int, number: int, *, author: str = "borne", expected_revision: int | None = None
    ) -> StoredGame:
        """Delete hand ``number`` (1-based). :raises HandNotFoundError, GameOverError:"""
        ...

    def undo(self, game_id: int, *, author: str = "borne", expected_revision: int | None = None) -> StoredGame:
        """Take back the last change to the hands not already undone. :raises NothingToUndoError:"""
        ...

    def export_json(self, game_id: int) -> dict[str, Any]:
        """The whole game (``GET /api/games/{id}``'s document) with its history."""
        ...

    def export_csv(self, game_id: int, *, headings: Mapping[str, str] | None = None) -> str:
        """One row per hand and side: km, each line item, the hand total and the running total."""
        ...

    def close(self) -> None:
        """Let go of the database; the store is not used afterwards."""
        ...
