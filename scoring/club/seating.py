"""Who sits at which table for a tournament round: drawn at random, or seeded from the standings.

Pure functions: names in, tables of names out. A table seats ``per_table`` sides (players, or teams
named as one side); when the names do not divide evenly, the tables differ by at most one seat and none
has fewer than two (an odd one out two to a table makes one table of three).

>>> draw_seating(["Ana", "Ben", "Cleo", "Dev"], per_table=2, seed=7) == draw_seating(["Ana", "Ben", "Cleo", "Dev"], 2, 7)
True
>>> seeded_seating([Standing("Ana", 2, 1, 5000), Standing("Ben", 2, 2, 9000), Standing("Cleo", 2, 0, 1200)], 2)
[['Ben', 'Ana', 'Cleo']]
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.club.errors import SeatingError
from scoring.club.results import Standing, ranked

MIN_AT_TABLE = 2
"""Mille Bornes needs two sides at a table."""
MAX_AT_TABLE = 8
"""…and takes at most eight."""


def table_sizes(count: int, per_table: int) -> list[int]:
    """How many sit at each table: as few tables as ``per_table`` allows, sizes differing by at most one.

    Nobody sits alone: where that would happen (an odd count two to a table), the odd one out makes
    one table of three.

    >>> table_sizes(8, 4), table_sizes(10, 4), table_sizes(5, 4), table_sizes(5, 2), table_sizes(1, 2)
    ([4, 4], [4, 3, 3], [3, 2], [3, 2], [])

    :raises SeatingError: ``per_table`` outside 2–8.
    """
    if isinstance(per_table, bool) or not isinstance(per_table, int) or not MIN_AT_TABLE <= per_table <= MAX_AT_TABLE:
        raise SeatingError(f"a table seats {MIN_AT_TABLE} to {MAX_AT_TABLE} sides, not {per_table!r}")
    tables = -(-count // per_table)
    if tables and count // tables < MIN_AT_TABLE:
        tables -= 1
    return [count // tables + (1 if i < count % tables else 0) for i in range(tables)] if tables else []


def draw_seating(players: Sequence[str], per_table: int, seed: int | None = None) -> list[list[str]]:
    """The players shuffled (reproducibly for a ``seed``) and seated ``per_table`` to a table.

    :raises SeatingError: a name twice or empty, fewer than two players, ``per_table`` outside 2–8.
    """
    order = _checked(players)
    random.Random(seed).shuffle(order)
    return _seat(order, per_table)


def seeded_seating(
    standings: Sequence[Standing], per_table: int, *, players: Sequence[str] | None = None
) -> list[list[str]]:
    """The players seated by rank: the best ``per_table`` at the first table, the next at the second, ….

    ``players`` are those present this round (by default everyone in ``standings``); one with no standing
    yet comes after everyone ranked, in the order given.

    :raises SeatingError: as :func:`draw_seating`.
    """
    order = [s.name for s in ranked(standings)]
    if players is not None:
        present = _checked(players)
        rank = {name: i for i, name in enumerate(order)}
        order = sorted(present, key=lambda n: rank.get(n, len(rank)))
    return _seat(_checked(order), per_table)


def check_seating(seating: Sequence[Sequence[str]]) -> list[list[str]]:
    """``seating`` as lists, when every table seats 2–8 different names and nobody sits twice.

    :raises SeatingError: naming the table (1-based) or the name.
    """
    if not seating:
        raise SeatingError("a round seats at least one table")
    seen: set[str] = set()
    out = []
    for number, table in enumerate(seating, start=1):
        if isinstance(table, str) or not MIN_AT_TABLE <= len(table) <= MAX_AT_TABLE:
            raise SeatingError(f"table {number} must seat {MIN_AT_TABLE} to {MAX_AT_TABLE} sides")
        for name in table:
            if not isinstance(name, str) or not name.strip():
                raise SeatingError(f"table {number}: every seat needs a name")
            if name in seen:
                raise SeatingError(f"{name!r} is seated twice")
            seen.add(name)
        out.append(list(table))
    return out


def _checked(players: Sequence[str]) -> list[str]:
    names = list(players)
    if len(names) < MIN_AT_TABLE:
        raise SeatingError(f"a round needs at least {MIN_AT_TABLE} players, not {len(names)}")
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SeatingError("every player needs a name")
        if name in seen:
            raise SeatingError(f"{name!r} is named twice")
        seen.add(name)
    return names


def _seat(order: list[str], per_table: int) -> list[list[str]]:
    tables, start = [], 0
    for size in table_sizes(len(order), per_table):
        tables.append(order[start : start + size])
        start += size
    return tables
