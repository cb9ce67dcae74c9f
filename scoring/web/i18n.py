"""Interface strings: one JSON file per language in ``strings/``, so a translation is a file, not a code change.

Each file also says how its language writes numbers (``number.group``, ``number.min_grouping``), so the
score sheet prints 5,100 in English, 5 100 in French and 5.100 in Portuguese, as the display does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

DEFAULT_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "pt": "Português",
    "es": "Español",
    "it": "Italiano",
}
"""The languages the display speaks, each named in its own words (as the language menu shows them)."""

_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


@lru_cache(maxsize=8)
def load_strings(language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The strings of ``language``, falling back to English for any key the translation lacks."""
    base = _read(DEFAULT_LANGUAGE)
    if language == DEFAULT_LANGUAGE or language not in LANGUAGES:
        return base
    return _merge(base, _read(language))


def missing_keys(language: str) -> list[str]:
    """Dotted keys that English has and ``language``'s own file lacks (each shows in English instead).

    >>> missing_keys("en")
    []
    """
    theirs = _keys(_read(language))
    return sorted(k for k in _keys(_read(DEFAULT_LANGUAGE)) if k not in theirs)


def choose_language(wanted: Iterable[str | None]) -> str:
    """The first supported language among ``wanted`` (codes like ``pt-BR``), else English.

    >>> choose_language(["de", "pt-BR", "fr"]), choose_language([None, "xx"])
    ('pt', 'en')
    """
    for code in wanted:
        primary = (code or "").split("-")[0].strip().lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def accepted_languages(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first.

    >>> accepted_languages("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5")
    ['fr', 'fr', 'en']
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            weight = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        if weight > 0:
            ranked.append((-weight, i, match.group(1).lower()))
    return [code for _, _, code in sorted(ranked)]


def format_number(n: int, strings: dict[str, Any], *, printable: bool = False) -> str:
    """``n`` as the language writes it; ``printable`` swaps the narrow no-break space (not in PDF fonts) for a plain one.

    >>> format_number(5100, load_strings("pt")), format_number(5100, load_strings("es")), format_number(-12345, load_strings("en"))
    ('5.100', '5100', '-12,345')
    """
    number = strings.get("number") or {}
    group = str(number.get("group", ","))
    if printable:
        group = group.replace("\u202f", "\u00a0")
    digits = str(abs(n))
    if len(digits) >= 4 + int(number.get("min_grouping", 1)) - 1:
        head = len(digits) % 3 or 3
        digits = digits[:head] + "".join(group + digits[i:i + 3] for i in range(head, len(digits), 3))
    return ("-" if n < 0 else "") + digits


def _read(language: str) -> dict[str, Any]:
    text = resources.files("scoring.web").joinpath(f"strings/{language}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _keys(data: dict[str, Any], prefix: str = "") -> set[str]:
    out: set[str] = set()
    for key, value in data.items():
        out |= _keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}"}
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out
