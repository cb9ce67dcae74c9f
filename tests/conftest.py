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


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Any:
    """Debian's Chromium (or ``$BORNE_CHROMIUM``) driven by Playwright, one for every browser test of the session.

    It lives here, not in a package's conftest, so that no module imports a second copy: two session
    Playwrights at once make the second refuse to start ("Sync API inside the asyncio loop").
    """
    from playwright.sync_api import sync_playwright

    executable = _os.environ.get("BORNE_CHROMIUM", CHROMIUM)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()
