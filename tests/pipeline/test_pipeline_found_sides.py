"""A rendered hand followed without a layout: ``borne replay`` and ``borne run`` find the sides from the table
and count the hand as they do with the true zones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from borne.cli import main
from scoring.game import GameSetup, Side
from scoring.rules import RuleSet
from scoring.storage import GameStore
from tests.web.camera_run import CameraRun, render_sequence
from vision.table.layout import TableLayout

SEED = 5005
"""A two-side hand whose sides sit left and right in the picture (found as East and West)."""


@pytest.fixture(scope="module")
def sequence(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_sequence(tmp_path_factory.mktemp("found-seq"), seed=SEED, frames=400)


@pytest.fixture(scope="module")
def with_true_zones(sequence: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "borne", "replay", str(sequence / "frames"), "--layout",
                           str(sequence / "layout.json"), "--truth-boxes", str(sequence / "truth")],
                          check=True, capture_output=True, text=True)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def found_name(found: TableLayout, true: TableLayout, side: str) -> str | None:
    """The side found where the true layout puts ``side`` (the middle of its zone)."""
    return found.side_at(np.asarray(true.zone_of(side).zone).mean(axis=0))


def by_true_side(sides: list[dict[str, Any]], found: TableLayout, true: TableLayout) -> dict[str, Any]:
    named = {s["side"]: (s["distance"], s["safeties"]) for s in sides}
    return {t.side: named.get(found_name(found, true, t.side) or "") for t in true.sides}


def test_replay_without_a_layout_counts_the_hand_as_with_the_true_zones(sequence, with_true_zones, capsys):
    assert main(["replay", str(sequence / "frames"), "--truth-boxes", str(sequence / "truth")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found_sides"] is True
    found = TableLayout.from_json({"sides": [{k: s[k] for k in ("side", "zone", "up")} for s in out["sides"]]})
    true = TableLayout.from_file(sequence / "layout.json")
    assert [s.side for s in found.sides] == ["East", "West"]
    assert by_true_side(out["sides"], found, true) == by_true_side(with_true_zones["sides"], true, true)
    assert all(found_name(found, true, t.side) is not None for t in true.sides)
    assert len(out["events"]) == len(with_true_zones["events"])

    def doubts(flags: list[dict[str, Any]]) -> list[tuple[int, str]]:  # a change left unread near a zone's edge aside
        return [(f["frame"], f["reason"]) for f in flags if f["reason"] != "unread"]

    assert doubts(out["flags"]) == doubts(with_true_zones["flags"])


def test_run_without_a_layout_or_saved_zones_counts_the_hand_as_with_the_true_zones(sequence, with_true_zones,
                                                                                    tmp_path):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:  # the game's set-up names the sides, in seat order
        store.create_game(GameSetup(sides=(Side(name="Ana"), Side(name="Ben")), rules=RuleSet.from_name("classic"),
                                    target=5000), author="test")
    run = CameraRun(db, sequence / "frames", sequence, fps=10, layout=None, find_sides=True).start()  # its own rate
    try:
        run.wait_for_frame(timeout=60)
        done = run.wait_for(lambda h: h["pending"] is not None, timeout=240, what="the hand pending at the end")
        view = run.get("/api/camera/layout").json()
    finally:
        run.stop()
    assert view["origin"] == "found" and not view["saved"] and view["sides"] == ["Ana", "Ben"]
    found = TableLayout.from_json(view["layout"])
    true = TableLayout.from_file(sequence / "layout.json")
    assert {found_name(found, true, t.side) for t in true.sides} == {"Ana", "Ben"}
    assert by_true_side(done["pending"]["record"]["sides"], found, true) == \
        by_true_side(with_true_zones["sides"], true, true)
    assert "the sides found on the table: Ana, Ben" in run.log.read_text()
