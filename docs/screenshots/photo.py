"""Draws docs/screenshots/photo-hand.png: "Score from a photo" on a phone, the hand it proposes over the photo.

Run from the repository root: ``.venv/bin/python docs/screenshots/photo.py PHOTO`` (needs Chromium, as the
browser tests do). It starts ``borne serve`` on a temporary database with a two-side game, gives the display's
file input PHOTO as the phone's camera would, and photographs the proposed hand on a 390 × 844 phone screen.
The README's picture used the last frame (000152.jpg) of the development hand ``build/landings-dev/generic-55000``
(``bench/render_landing_sets.sh`` renders it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from docs.screenshots.languages import TOKEN, display  # noqa: E402

OUT = ROOT / "docs" / "screenshots" / "photo-hand.png"


def main(photo: Path) -> None:
    with display() as url:
        gid = httpx.post(url + "/api/games", json={"sides": ["Ana", "Ben"], "rules": "classic", "target": 5000},
                         headers={"Authorization": f"Bearer {TOKEN}"}).json()["id"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.add_init_script(f"localStorage.setItem('borne.token', '{TOKEN}')")
            page.goto(f"{url}/games/{gid}")
            page.set_input_files("#photo-input", str(photo))
            page.wait_for_selector("#photo-hand", timeout=120_000)
            page.wait_for_function("document.getElementById('photo-image').complete")
            page.screenshot(path=str(OUT))
            browser.close()
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
