"""Interface strings: one JSON file per language in ``strings/``, so a translation is a file, not a code change."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

DEFAULT_LANGUAGE = "en"


@lru_cache(maxsize=8)
def load_strings(language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The strings of ``language``, falling back to English for any key the translation lacks."""
    base = _read(DEFAULT_LANGUAGE)
    if language == DEFAULT_LANGUAGE:
        return base
    try:
        translated = _read(language)
    except FileNotFoundError:
        return base
    return _merge(base, translated)


def _read(language: str) -> dict[str, Any]:
    text = resources.files("scoring.web").joinpath(f"strings/{language}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out
