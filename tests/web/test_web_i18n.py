"""The five languages without a browser: complete strings, numbers as each language writes them, sheets, exports."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader

from scoring.cards import Card
from scoring.rules import RULE_SETS
from scoring.score import ITEM_NAMES
from scoring.web.app import create_app
from scoring.web.i18n import LANGUAGES, accepted_languages, choose_language, format_number, load_strings, missing_keys
from scoring.web.settings import WebSettings
from scoring.web.sheet import blank_sheet_pdf
from tests.examples import TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2

AUTH = {"Authorization": "Bearer t"}


def flat(data: dict[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        out |= flat(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}": value}  # type: ignore[arg-type]
    return out


def test_every_language_has_every_key() -> None:
    lacking = {language: missing_keys(language) for language in LANGUAGES}
    assert lacking == {language: [] for language in LANGUAGES}, f"keys each language lacks: {lacking}"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_a_translation_keeps_every_placeholder_and_changes_the_words(language: str) -> None:
    english, theirs = flat(load_strings("en")), flat(load_strings(language))
    wrong = [key for key, text in english.items() if isinstance(text, str)
             and set(re.findall(r"\{\w+\}", text)) != set(re.findall(r"\{\w+\}", str(theirs[key])))]
    assert wrong == []
    same = [key for key in ("app.no_games", "setup.start", "entry.save", "display.wins", "sheet.title")
            if english[key] == theirs[key]]
    assert same == []


def test_the_strings_name_every_card_item_and_rule_set() -> None:
    strings = load_strings("en")
    assert set(strings["cards"]) == {card.value for card in Card}
    assert set(strings["items"]) == set(ITEM_NAMES)
    assert {name: strings["rule_sets"][name] for name in RULE_SETS} == {n: r.description for n, r in RULE_SETS.items()}


def test_the_french_cards_are_the_french_editions() -> None:
    cards = load_strings("fr")["cards"]
    assert [cards[c] for c in ("stop", "speed_limit", "out_of_gas", "flat_tire", "accident", "roll", "end_of_limit",
                               "gasoline", "spare_tire", "repairs", "right_of_way", "extra_tank", "puncture_proof",
                               "driving_ace")] == [
        "Feu rouge", "Limite de vitesse", "Panne d'essence", "Crevaison", "Accident", "Feu vert", "Fin de limite",
        "Essence", "Roue de secours", "Réparations", "Véhicule prioritaire", "Citerne d'essence", "Increvable",
        "As du volant"]


@pytest.mark.parametrize(("language", "n", "written"), [
    ("en", 5100, "5,100"), ("en", 675, "675"), ("en", 12345, "12,345"),
    ("fr", 5100, "5\u202f100"), ("fr", 1000000, "1\u202f000\u202f000"),
    ("pt", 5100, "5.100"), ("pt", 1000, "1.000"),
    ("es", 5100, "5100"), ("es", 12345, "12.345"),  # Spanish groups from five digits (the seed writes 5000)
    ("it", 5100, "5.100"), ("it", 0, "0"), ("it", -2200, "-2.200"),
])
def test_numbers_as_each_language_writes_them(language: str, n: int, written: str) -> None:
    assert format_number(n, load_strings(language)) == written


def test_a_printed_french_number_uses_a_space_the_pdf_fonts_have() -> None:
    assert format_number(5100, load_strings("fr"), printable=True) == "5\u00a0100"


@pytest.mark.parametrize(("header", "chosen"), [
    ("pt-BR,pt;q=0.9,en;q=0.8", "pt"), ("de-DE, it;q=0.5, fr;q=0.7", "fr"), ("de", "en"), ("", "en"),
    ("es;q=0, it", "it"), ("garbage;;q=x, fr", "fr"),
])
def test_the_browsers_language_is_followed(header: str, chosen: str) -> None:
    assert choose_language(accepted_languages(header)) == chosen


def test_an_unknown_language_falls_back_to_english() -> None:
    assert load_strings("xx") == load_strings("en")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(WebSettings(token="t", db_path=tmp_path_factory.mktemp("i18n") / "g.db"))
    with TestClient(app, base_url="http://localhost") as c:
        yield c


@pytest.fixture(scope="module")
def won_game(client: TestClient) -> int:
    gid: int = client.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"], "target": 5000}, headers=AUTH).json()["id"]
    for hand in (TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2, TALLYNIGHT_HAND_1):
        assert client.post(f"/api/games/{gid}/hands", json=hand, headers=AUTH).status_code == 200
    return gid


def test_the_strings_route_follows_lang_then_the_browser(client: TestClient) -> None:
    assert client.get("/api/strings?lang=pt").json()["language"] == "pt"
    assert client.get("/api/strings", headers={"Accept-Language": "it-IT,it;q=0.9"}).json()["language"] == "it"
    assert client.get("/api/strings?lang=es", headers={"Accept-Language": "fr"}).json()["language"] == "es"
    assert client.get("/api/strings?lang=zz").json()["language"] == "en"
    assert client.get("/api/languages").json() == LANGUAGES


def spaced(text: str) -> str:
    """No-break spaces as plain ones: the PDF's text comes back with plain spaces where it printed no-break ones."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def pdf_text(content: bytes) -> str:
    return spaced("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_games_sheet_prints_in_any_language(client: TestClient, won_game: int, language: str) -> None:
    strings = load_strings(language)
    r = client.get(f"/api/games/{won_game}/sheet.pdf?lang={language}")
    assert r.status_code == 200
    text = pdf_text(r.content)
    number = lambda n: spaced(format_number(n, strings, printable=True))  # noqa: E731
    for words in (strings["sheet"]["title"], strings["sheet"]["hand"].format(n=3), strings["sheet"]["running_total"],
                  *strings["items"].values(),
                  strings["sheet"]["winner"].format(side="Ana & Cleo", hand=3)):
        assert spaced(words) in text, words
    # hand 1 + hand 2 + hand 1: 2,200 + 750 + 2,200 and 675 + 1,800 + 675
    assert number(5150) in text and number(3150) in text and number(5000) in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_blank_sheet_prints_in_any_language(client: TestClient, language: str) -> None:
    strings = load_strings(language)
    text = pdf_text(client.get(f"/api/sheets/blank.pdf?lang={language}&sides=Ana&sides=Ben&hands=2").content)
    assert spaced(strings["sheet"]["blank_title"]) in text and spaced(strings["sheet"]["blank_subtitle"][:30]) in text
    assert all(spaced(strings["items"][item]) in text for item in ITEM_NAMES)
    assert pdf_text(blank_sheet_pdf(["Ana"], 1, strings)).count(strings["sheet"]["hand"].format(n=1)) == 1


def test_the_sheet_follows_the_browser_without_lang(client: TestClient, won_game: int) -> None:
    text = pdf_text(client.get(f"/api/games/{won_game}/sheet.pdf", headers={"Accept-Language": "fr-FR"}).content)
    assert "Feuille de marque du Mille Bornes" in text and "5 150" in text


def test_csv_headings_in_a_language_and_by_id_without_one(client: TestClient, won_game: int) -> None:
    by_id = client.get(f"/api/games/{won_game}/export.csv").text.splitlines()[0]
    assert by_id.split(",")[:4] == ["hand", "side", "km", "distance"]
    italian = client.get(f"/api/games/{won_game}/export.csv?lang=it").text.splitlines()[0]
    assert italian.split(",")[:4] == ["Manche", "Squadra", "km", "Chilometri"]
    assert italian.endswith("Totale della manche,Totale progressivo")


def test_the_strings_files_are_all_that_a_language_is() -> None:
    """A language is a strings file: each one the menu offers exists and says which language it is."""
    for code in LANGUAGES:
        strings = load_strings(code)
        assert strings["language"] == code and strings["number"]["group"]
