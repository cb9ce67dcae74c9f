"""Score from a photo (CONTRACT §9, ``POST /api/photos``) against a real ``borne serve``: a rendered table
counted in §5's form with the hand it proposes; every refusal; nothing stored until a hand is confirmed.

The display's flow in Chromium is in test_web_photo_browser.py; the figures of how well photos are counted
come from bench/, not from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.generate import scene_for
from datasets.scene import SceneRenderer, SceneSpec
from tests.web.conftest import Server, raw_exchange


def table_photo(folder: Path, seed: int = 4242) -> Path:
    """A rendered table of the generic edition, two sides playing, as the phone would send it (JPEG)."""
    renderer = SceneRenderer(SceneSpec(width=1600, height=1200))
    scene = scene_for(seed, 0, renderer)
    while len(scene.table.sides) != 2:
        seed += 1
        scene = scene_for(seed, 0, renderer)
    path = folder / f"table-{seed}.jpg"
    cv2.imwrite(str(path), scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return table_photo(tmp_path_factory.mktemp("photo"))


def new_game(server: Server, sides: list[str]) -> int:
    created = server.post("/api/games", json={"sides": sides, "rules": "classic", "target": 5000})
    assert created.status_code == 200, created.text
    return int(created.json()["id"])


def send(server: Server, data: bytes, name: str = "table.jpg", *, game: int | None = None, **kw: object) -> object:
    fields = {"game": str(game)} if game is not None else None
    return server.post("/api/photos", files={"photo": (name, data, "image/jpeg")}, data=fields, timeout=120, **kw)


def test_a_photo_is_counted_in_detects_form_with_the_hand_it_proposes(server: Server, photo: Path) -> None:
    game = new_game(server, ["Ana", "Ben"])
    answer = send(server, photo.read_bytes(), game=game)
    assert answer.status_code == 200, answer.text
    counted = answer.json()
    assert counted["found_sides"] is True and isinstance(counted["draw_pile"], bool)
    assert (counted["width"], counted["height"]) == (1600, 1200)
    assert len(counted["sides"]) == 2
    for side in counted["sides"]:
        assert set(side["distance"]) == {"25", "50", "75", "100", "200"}
        for card in side["cards"]:
            assert len(card["corners"]) == 4
            assert all(0 <= x <= 1600 and 0 <= y <= 1200 for x, y in card["corners"])
    proposal = counted["proposal"]
    assert proposal["game"] == game and proposal["problem"] is None
    assert list(proposal["seats"].values()) == ["Ana", "Ben"]
    for found, name in proposal["seats"].items():
        side = next(s for s in counted["sides"] if s["side"] == found)
        record = next(s for s in proposal["record"]["sides"] if s["side"] == name)
        assert record["distance"] == side["distance"] and record["safeties"] == side["safeties"]
    assert proposal["record"]["draw_pile_empty_at_finish"] is (not counted["draw_pile"])
    assert [s["side"] for s in proposal["score"]["sides"]] == ["Ana", "Ben"]
    # counting stored nothing; the proposed record is what the game takes
    assert server.get(f"/api/games/{game}").json()["hands"] == []
    stored = server.post(f"/api/games/{game}/hands", json=proposal["record"])
    assert stored.status_code == 200, stored.text
    assert [s["total"] for s in stored.json()["score"]["sides"]] == [s["total"] for s in proposal["score"]["sides"]]


def test_without_a_game_the_count_alone_comes_back(server: Server, photo: Path) -> None:
    answer = send(server, photo.read_bytes())
    assert answer.status_code == 200, answer.text
    assert "proposal" not in answer.json() and answer.json()["sides"]


def test_a_phone_photo_held_upright_is_counted_upright(server: Server, photo: Path, tmp_path: Path) -> None:
    """A phone stores a portrait photo sideways with an EXIF orientation: Borne counts it as the browser shows it."""
    from PIL import Image

    sideways = tmp_path / "sideways.jpg"
    image = Image.open(photo).transpose(Image.Transpose.ROTATE_90)  # stored turned a quarter…
    exif = Image.Exif()
    exif[0x0112] = 6  # …and the EXIF orientation says to turn it back 90° clockwise
    image.save(sideways, quality=92, exif=exif)
    answer = send(server, sideways.read_bytes())
    assert answer.status_code == 200, answer.text
    assert (answer.json()["width"], answer.json()["height"]) == (1600, 1200)


def test_refusals_say_why_and_store_nothing(server: Server, photo: Path, tmp_path: Path) -> None:
    game = new_game(server, ["Cleo", "Dan"])
    not_an_image = send(server, b"just some text, not a picture", "notes.txt", game=game)
    assert not_an_image.status_code == 415 and "JPEG or PNG" in not_an_image.json()["message"]
    ok, blank = cv2.imencode(".png", np.full((900, 1200, 3), 96, np.uint8))
    no_cards = send(server, blank.tobytes(), "blank.png", game=game)
    assert no_cards.status_code == 422 and "no card" in no_cards.json()["message"]
    too_many_pixels = send(server, huge_png(), "huge.png", game=game)
    assert too_many_pixels.status_code == 413 and "megapixels" in too_many_pixels.json()["message"]
    too_many_bytes = raw_exchange(server, f"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                                          f"Authorization: Bearer {server.token}\r\n"
                                          f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {64 * 2**20}\r\n\r\n")
    assert too_many_bytes.startswith("HTTP/1.1 413"), too_many_bytes[:200]
    assert send(server, photo.read_bytes(), game=99999).status_code == 404
    no_photo = server.post("/api/photos", data={"game": str(game)})
    assert no_photo.status_code == 422 and "photo" in no_photo.json()["message"]
    no_token = send(server, photo.read_bytes(), auth=False)
    assert no_token.status_code == 401
    assert server.get(f"/api/games/{game}").json()["hands"] == []


def huge_png() -> bytes:
    """A PNG whose header says 10,000 × 10,000 (refused from the header, before anything is decoded)."""
    ok, small = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    data = bytearray(small.tobytes())
    data[16:24] = (10_000).to_bytes(4, "big") + (10_000).to_bytes(4, "big")
    return bytes(data)


def test_the_api_document_lists_the_photo_route(server: Server) -> None:
    paths = json.loads(server.get("/openapi.json").text)["paths"]
    assert "multipart/form-data" in paths["/api/photos"]["post"]["requestBody"]["content"]
