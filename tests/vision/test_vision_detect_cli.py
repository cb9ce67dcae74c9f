"""`borne detect` as a user runs it (CONTRACT §5): a photo and a layout in, each side's cards out; bad input refused."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from datasets.generate import scene_for
from datasets.labels import layout_json
from datasets.scene import SceneRenderer, SceneSpec


def borne(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "borne", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table")
    scene = scene_for(4242, 0, SceneRenderer(SceneSpec(width=1280, height=720)))
    cv2.imwrite(str(folder / "table.jpg"), scene.image[..., ::-1])
    (folder / "layout.json").write_text(json.dumps(layout_json(scene)))
    return folder


def test_detect_prints_the_contract_form_and_draws(table):
    out = borne("detect", str(table / "table.jpg"), "--layout", str(table / "layout.json"),
                "--draw", str(table / "drawn.jpg"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"sides", "draw_pile"} and isinstance(result["draw_pile"], bool)
    layout = json.loads((table / "layout.json").read_text())
    assert [s["side"] for s in result["sides"]] == [s["side"] for s in layout["sides"]]
    for side in result["sides"]:
        assert set(side["distance"]) == {"25", "50", "75", "100", "200"}
        assert all(v in ("played", "coup_fourre") for v in side["safeties"].values())
        for card in side["cards"]:
            assert set(card) == {"card", "sideways", "corners", "confidence"}
            assert len(card["corners"]) == 4 and 0 <= card["confidence"] <= 1
    assert sum(len(s["cards"]) for s in result["sides"]) > 0
    drawn = cv2.imread(str(table / "drawn.jpg"))
    assert drawn is not None and drawn.shape == (720, 1280, 3)


def test_a_photo_with_no_table_gives_an_empty_result(tmp_path, table):
    blank = np.full((720, 1280, 3), (40, 90, 160), np.uint8)
    cv2.imwrite(str(tmp_path / "wall.png"), blank)
    out = borne("detect", str(tmp_path / "wall.png"), "--layout", str(table / "layout.json"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert all(not s["cards"] for s in result["sides"]) and result["draw_pile"] is False


def test_a_huge_photo_is_read_without_crashing(tmp_path, table):
    big = cv2.resize(cv2.imread(str(table / "table.jpg")), (8000, 6000), interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(tmp_path / "big.jpg"), big, [cv2.IMWRITE_JPEG_QUALITY, 70])
    out = borne("detect", str(tmp_path / "big.jpg"), "--layout", str(table / "layout.json"))
    assert out.returncode == 0, out.stderr
    assert "sides" in json.loads(out.stdout)


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"not a picture at all", "not a JPEG or PNG"), (None, "truncated")],
)
def test_what_is_not_a_readable_image_exits_2_with_one_line(tmp_path, table, content, message):
    path = tmp_path / "bad.jpg"
    if content is None:
        data = (table / "table.jpg").read_bytes()
        content = data[: len(data) // 4]
    path.write_bytes(content)
    out = borne("detect", str(path), "--layout", str(table / "layout.json"))
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr


def test_a_bad_layout_exits_2(tmp_path, table):
    (tmp_path / "layout.json").write_text('{"sides": []}')
    out = borne("detect", str(table / "table.jpg"), "--layout", str(tmp_path / "layout.json"))
    assert out.returncode == 2 and "1 to 8 sides" in out.stderr


def test_without_a_layout_the_sides_are_found_and_printed_with_their_zones(table):
    out = borne("detect", str(table / "table.jpg"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["found_sides"] is True
    with_layout = json.loads(borne("detect", str(table / "table.jpg"), "--layout", str(table / "layout.json")).stdout)
    assert len(result["sides"]) == len(with_layout["sides"])
    for side in result["sides"]:
        assert side["side"] in ("North", "East", "South", "West")
        assert len(side["zone"]) >= 3 and abs(np.hypot(*side["up"]) - 1) < 1e-4
    # the same cards counted, side for side
    found = sorted((json.dumps(s["distance"]), json.dumps(s["safeties"], sort_keys=True)) for s in result["sides"])
    true = sorted((json.dumps(s["distance"]), json.dumps(s["safeties"], sort_keys=True)) for s in with_layout["sides"])
    assert found == true
