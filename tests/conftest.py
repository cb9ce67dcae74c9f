"""Fixtures shared by every part of the test suite."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from scoring.hand import HandRecord

HandMaker = Callable[..., HandRecord]


def build_hand(
    *sides: tuple[str, dict[int, int], dict[str, str]] | tuple[str, dict[int, int]],
    goal: int = 1000,
    empty: bool = False,
    caller: str | None = None,
) -> HandRecord:
    """A validated hand from ``(name, {km: count}, {safety: how})`` tuples."""
    data: dict[str, Any] = {
        "goal": goal,
        "draw_pile_empty_at_finish": empty,
        "extension_called_by": caller,
        "sides": [
            {
                "side": s[0],
                "distance": {str(k): v for k, v in s[1].items()},
                "safeties": dict(s[2]) if len(s) > 2 else {},  # type: ignore[misc]
            }
            for s in sides
        ],
    }
    return HandRecord.from_json(data)


@pytest.fixture
def make_hand() -> HandMaker:
    return build_hand
