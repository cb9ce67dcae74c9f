"""A table's game document (``GET /api/games/{id}``'s form, carried by each club event) read back as a game.

The hub trusts nothing in it: the set-up and every hand are checked as the table's own game would check
them, so a bad document is refused before anything is written. Also the CSV export shared with the
table's store.
"""

from __future__ import annotations

from scoring.club.errors import BadEventError
from scoring.club.events import TableEvent
from scoring.errors import BorneError
from scoring.game import Game, GameSetup
from scoring.hand import HandRecord, parse_side_name

SETUP_FIELDS = ("name", "sides", "rules", "target", "goal", "extension")
"""The fields of a game document (:func:`scoring.storage.game_document`) that hold its set-up."""


def read_document(event: TableEvent) -> tuple[GameSetup, Game]:
    """The set-up and the game of an event's document, every hand checked as the table's game would.

    :raises BadEventError: naming the table, the game and what is wrong.
    """
    document = event.document
    where = f"table {event.table}, game {event.game}"
    try:
        if "id" in document and document["id"] != event.game:
            raise BadEventError(f"{where}: the document is of game {document['id']!r}")
        data = {name: document[name] for name in SETUP_FIELDS if name in document}
        data.setdefault("name", "")
        if not isinstance(data["sides"], list):
            raise BadEventError(f"{where}: sides is not a list")
        for i, side in enumerate(data["sides"]):
            parse_side_name(side["name"], field=f"sides[{i}].name")
            if not isinstance(side["players"], list):
                raise BadEventError(f"{where}: sides[{i}].players is not a list")
            for j, player in enumerate(side["players"]):
                parse_side_name(player, field=f"sides[{i}].players[{j}]")
        setup = GameSetup.from_json(data)
        hands = document["hands"]
        if not isinstance(hands, list):
            raise BadEventError(f"{where}: hands is not a list")
    except BadEventError:
        raise
    except (BorneError, KeyError, TypeError, AttributeError) as error:
        raise BadEventError(f"{where}: the game's set-up cannot be read ({_reason(error)})") from error
    game = Game(setup=setup)
    for number, hand in enumerate(hands, start=1):
        try:
            game = game.add_hand(HandRecord.from_json(hand["record"]))
        except (BorneError, KeyError, TypeError) as error:
            raise BadEventError(f"{where}: hand {number}: {_reason(error)}") from error
    return setup, game


def _reason(error: BaseException) -> str:
    return f"missing field {error}" if isinstance(error, KeyError) else str(error) or type(error).__name__
