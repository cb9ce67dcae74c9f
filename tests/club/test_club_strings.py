"""The board speaks the display's five languages: every language has every word, with the same placeholders."""

from __future__ import annotations

import re

import pytest

from scoring.club.pages import club_strings
from scoring.web.i18n import DEFAULT_LANGUAGE, LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_word_with_its_placeholders(language: str) -> None:
    english, words = club_strings(DEFAULT_LANGUAGE), club_strings(language)
    assert set(words) == set(english)
    for key, text in english.items():
        assert set(re.findall(r"\{\w+\}", words[key])) == set(re.findall(r"\{\w+\}", text)), key
        assert words[key].strip(), key
