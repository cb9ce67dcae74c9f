"""Seating a tournament round: drawn at random (reproducibly) or seeded from the standings, as tables of cases."""

from __future__ import annotations

import pytest

from scoring.club.errors import SeatingError
from scoring.club.results import Standing
from scoring.club.seating import check_seating, draw_seating, seeded_seating, table_sizes

NAMES = [f"P{i}" for i in range(1, 13)]


@pytest.mark.parametrize(("count", "per_table", "sizes"), [
    (2, 2, [2]), (4, 2, [2, 2]), (5, 2, [3, 2]), (3, 2, [3]), (7, 2, [3, 2, 2]),
    (8, 4, [4, 4]), (9, 4, [3, 3, 3]), (10, 4, [4, 3, 3]), (5, 4, [3, 2]), (6, 3, [3, 3]),
    (12, 6, [6, 6]), (13, 6, [5, 4, 4]), (8, 8, [8]), (0, 2, []),
])
def test_table_sizes(count, per_table, sizes):
    assert table_sizes(count, per_table) == sizes
    assert sum(sizes) == count and all(2 <= s <= max(per_table, 3) for s in sizes)


@pytest.mark.parametrize(("count", "per_table"), [(n, p) for n in range(2, 13) for p in (2, 3, 4, 6)])
def test_a_draw_seats_everyone_once_and_the_same_seed_draws_the_same(count, per_table):
    players = NAMES[:count]
    seating = draw_seating(players, per_table, seed=42)
    assert sorted(p for table in seating for p in table) == sorted(players)
    assert [len(t) for t in seating] == table_sizes(count, per_table)
    assert draw_seating(players, per_table, seed=42) == seating


def test_different_seeds_draw_different_seatings():
    assert len({str(draw_seating(NAMES, 4, seed=s)) for s in range(10)}) > 1


STANDINGS = [Standing("Ana", 3, 1, 9000), Standing("Ben", 3, 2, 8000), Standing("Cleo", 3, 1, 9500),
             Standing("Dev", 3, 0, 100), Standing("Eve", 3, 0, 100), Standing("Fay", 1, 0, 0)]


@pytest.mark.parametrize(("per_table", "players", "seating"), [
    (2, None, [["Ben", "Cleo"], ["Ana", "Dev"], ["Eve", "Fay"]]),
    (3, None, [["Ben", "Cleo", "Ana"], ["Dev", "Eve", "Fay"]]),
    (4, None, [["Ben", "Cleo", "Ana"], ["Dev", "Eve", "Fay"]]),
    (2, ["Fay", "Zed", "Ana", "Ben"], [["Ben", "Ana"], ["Fay", "Zed"]]),  # Zed has no standing: last
    (2, ["Yan", "Zed", "Ana"], [["Ana", "Yan", "Zed"]]),
])
def test_seeded_seating_puts_players_of_like_standing_together(per_table, players, seating):
    assert seeded_seating(STANDINGS, per_table, players=players) == seating


@pytest.mark.parametrize(("call", "message"), [
    (lambda: draw_seating(["Ana"], 2), "at least 2 players"),
    (lambda: draw_seating(["Ana", "Ana", "Ben"], 2), "named twice"),
    (lambda: draw_seating(["Ana", " "], 2), "needs a name"),
    (lambda: draw_seating(NAMES, 1), "2 to 8"),
    (lambda: draw_seating(NAMES, 9), "2 to 8"),
    (lambda: seeded_seating(STANDINGS, 2, players=["Ana"]), "at least 2 players"),
    (lambda: check_seating([["Ana", "Ben"], ["Ben", "Cleo"]]), "'Ben' is seated twice"),
    (lambda: check_seating([["Ana"]]), "table 1 must seat"),
    (lambda: check_seating(["AnaBen"]), "table 1 must seat"),
    (lambda: check_seating([]), "at least one table"),
])
def test_seating_that_cannot_be_played_is_refused(call, message):
    with pytest.raises(SeatingError, match=message):
        call()
