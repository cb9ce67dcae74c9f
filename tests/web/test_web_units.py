"""The web package's parts on their own: strings, broadcaster, score sheet, settings."""

from __future__ import annotations

import asyncio
import io
import json
import re
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader

from scoring.score import ITEM_NAMES
from scoring.web.app import create_app
from scoring.web.events import SUBSCRIBER_QUEUE_SIZE, Broadcaster, GameEvent
from scoring.web.i18n import load_strings
from scoring.web.settings import WebSettings
from scoring.web.sheet import blank_sheet_pdf


def flatten(data: dict[str, object], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for k, v in data.items():
        keys |= flatten(v, f"{prefix}{k}.") if isinstance(v, dict) else {f"{prefix}{k}"}
    return keys


def test_every_string_the_page_uses_is_in_the_english_file() -> None:
    static = resources.files("scoring.web").joinpath("static")
    script = "".join(f.read_text(encoding="utf-8") for f in static.iterdir() if f.name.endswith(".js"))
    html = resources.files("scoring.web").joinpath("static/index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z_]+\.[a-z_0-9]+)"', script)) | set(re.findall(r'data-i18n="([^"]+)"', html))
    dynamic = {f"items.{i}" for i in ITEM_NAMES} | {f"entry.{h}" for h in ("none", "played", "coup_fourre")}
    keys = flatten(load_strings("en"))
    assert used and not (used | dynamic) - keys


def test_a_missing_translation_falls_back_to_english() -> None:
    assert load_strings("xx") == load_strings("en")


def test_a_slow_subscriber_is_dropped_and_the_others_still_get_every_event() -> None:
    async def scenario() -> tuple[int, int, int, object]:
        hub = Broadcaster()
        hub.bind(asyncio.get_running_loop())
        slow, fast, other_game = hub.subscribe(None), hub.subscribe(1), hub.subscribe(2)
        got = 0
        for n in range(SUBSCRIBER_QUEUE_SIZE + 5):
            hub.publish(GameEvent(kind="add", game_id=1, revision=n, game={}))
            await asyncio.sleep(0)
            while not fast.queue.empty():
                fast.queue.get_nowait()
                got += 1
        return got, hub.subscriber_count, other_game.queue.qsize(), slow.queue.get_nowait()

    # A thread of its own: Playwright's sync API may hold this thread's event loop during the session.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        got, remaining, other, slow_end = pool.submit(asyncio.run, scenario()).result()
    assert got == SUBSCRIBER_QUEUE_SIZE + 5 and remaining == 2 and other == 0
    assert slow_end is None  # the dropped stream ends; its browser reconnects and reloads


def test_blank_sheet_has_every_line_item() -> None:
    pdf = blank_sheet_pdf(["Ana", "Ben"], 2, load_strings("en"))
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    for item in ITEM_NAMES:
        assert load_strings("en")["items"][item] in text


def test_settings_take_the_token_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BORNE_TOKEN", "secret")
    settings, generated = WebSettings.resolve(host="127.0.0.1", port=0, token=None, db_path=tmp_path / "g.db")
    assert settings.token == "secret" and not generated
    monkeypatch.delenv("BORNE_TOKEN")
    settings, generated = WebSettings.resolve(host="127.0.0.1", port=0, token=None, db_path=tmp_path / "g.db")
    assert generated and len(settings.token.replace("-", "")) == 15  # about 74 bits, in three groups
    settings, _ = WebSettings.resolve(host="127.0.0.1", port=0, token="given", db_path=tmp_path / "g.db")
    assert settings.token == "given"


def test_in_process_app_serves_the_strings_and_an_empty_list(tmp_path: Path) -> None:
    app = create_app(WebSettings(token="t", db_path=tmp_path / "g.db"))
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/api/games").json() == []
        assert client.get("/api/strings").json()["items"]["coups_fourres"] == "Coups fourrés"
        r = client.post("/api/games", json={"sides": ["A", "B"]}, headers={"Authorization": "Bearer t"})
        assert r.status_code == 200 and r.headers["Location"] == f"/api/games/{r.json()['id']}"
        assert json.loads(client.get("/openapi.json").text)["info"]["title"] == "Borne"
