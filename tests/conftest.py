"""Fixtures shared by every part of the test suite."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


# Property tests are reproducible by default (the same examples on every run and in CI);
# HYPOTHESIS_PROFILE=explore draws new random examples, many more of them, to hunt for bugs.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("default", derandomize=True)
_hypothesis_settings.register_profile("explore", max_examples=3000, derandomize=False)
import os as _os  # noqa: E402

_hypothesis_settings.load_profile(_os.environ.get("HYPOTHESIS_PROFILE", "default"))
