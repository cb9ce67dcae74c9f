"""Draws docs/screenshots/display-languages.png: the same game on the display in each of its languages.

Run from the repository root: ``.venv/bin/python docs/screenshots/languages.py`` (needs Chromium, as the
browser tests do). It starts ``borne serve`` on a temporary database, plays two hands, photographs the
display in each language (the browser's locale picks it) and the French hand entry, and tiles them.
"""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.examples import TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2  # noqa: E402

OUT = ROOT / "docs" / "screenshots" / "display-languages.png"
LOCALES = {"en": "en-GB", "fr": "fr-FR", "pt": "pt-BR", "es": "es-ES", "it": "it-IT"}
VIEW = {"width": 1280, "height": 800}
TILE = 640
TOKEN = "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def display() -> Iterator[str]:
    """A ``borne serve`` on a temporary database and a free port, answering: its address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "borne", "serve", "--port", str(port), "--token", TOKEN,
                                   "--db", str(Path(folder) / "g.sqlite3")], stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    httpx.get(url + "/api/rules", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            yield url
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    with display() as url:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        gid = httpx.post(url + "/api/games", json={"players": ["Ana", "Ben", "Cleo", "Dev"],
                                                  "teams": [["Ana", "Cleo"], ["Ben", "Dev"]], "name": "Tallynight"},
                         headers=auth).json()["id"]
        for hand in (TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2):
            httpx.post(f"{url}/api/games/{gid}/hands", json=hand, headers=auth).raise_for_status()
        shots = photograph(url, gid)
    tiles = [Image.open(io.BytesIO(s)).convert("RGB").resize((TILE, TILE * VIEW["height"] // VIEW["width"])) for s in shots]
    w, h = tiles[0].size
    sheet = Image.new("RGB", (3 * w + 4 * 8, 2 * h + 3 * 8), "#9aa3ad")
    for i, tile in enumerate(tiles):
        sheet.paste(tile, (8 + (i % 3) * (w + 8), 8 + (i // 3) * (h + 8)))
    sheet.save(OUT, optimize=True)
    print(f"wrote {OUT.relative_to(ROOT)} ({sheet.width}×{sheet.height})")


def photograph(url: str, gid: int) -> list[bytes]:
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for language, locale in LOCALES.items():
            context = browser.new_context(locale=locale, viewport=VIEW, color_scheme="dark" if language == "fr" else "light")
            context.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
            page = context.new_page()
            page.goto(f"{url}/games/{gid}")
            page.wait_for_selector("#score-pad")
            page.wait_for_function(f"document.documentElement.lang === '{language}'")
            shots.append(page.screenshot())
            if language == "fr":
                page.click("#fix-1")
                page.wait_for_selector("#hand-dialog[open]")
                entry = page.screenshot()
            context.close()
        browser.close()
    return shots + [entry]


if __name__ == "__main__":
    main()
