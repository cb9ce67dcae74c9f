"""``borne run``'s link to the display: a final hand from the camera lands in the current game."""

from __future__ import annotations

from borne.live import GameKeeper
from scoring.hand import HandRecord
from scoring.web.app import create_app
from scoring.web.settings import WebSettings
from vision.table.layout import TableLayout


def test_final_hands_go_to_a_game_of_the_layout_sides(tmp_path):
    app = create_app(WebSettings(token="t", db_path=str(tmp_path / "games.sqlite3")))
    keeper = GameKeeper(app, TableLayout.default(640, 360, ("Ana", "Ben")), None)
    hand = HandRecord.from_json({"goal": 700, "sides": [
        {"side": "Ana", "distance": {"200": 2, "100": 3}}, {"side": "Ben", "distance": {"75": 2}}]})
    keeper.add(hand)
    keeper.add(hand)
    store = app.state.store
    (game_id,) = store.game_ids()
    stored = store.load(game_id)
    assert [s.name for s in stored.game.setup.sides] == ["Ana", "Ben"]
    assert [h for h in stored.game.hands] == [hand, hand]
    again = GameKeeper(app, TableLayout.default(640, 360, ("Ana", "Ben")), None)
    again.add(hand)
    assert store.game_ids() == [game_id] and len(store.load(game_id).game.hands) == 3
    store.close()
