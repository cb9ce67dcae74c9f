"""``borne run`` killed in the middle of a hand takes the hand back when it starts again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scoring.storage import GameStore
from tests.web.camera_run import CameraRun, render_sequence

SEED = 11


def counts(hand: dict) -> dict[tuple[str, str], int]:
    out = {(s["side"], km): n for s in hand["sides"] for km, n in s["distance"].items()}
    out.update({(s["side"], safety): 1 for s in hand["sides"] for safety in s["safeties"]})
    return out


def test_a_hand_in_play_survives_sigkill_and_counting_goes_on_from_it(tmp_path: Path) -> None:
    seq = render_sequence(tmp_path / "seq", seed=SEED, frames=200)
    db = tmp_path / "games.sqlite3"
    # the sequence's own rate: a clear view is 0.3 s still, and a 10-frames/s hand played as 25 frames/s has
    # none between plays laid three frames apart
    first = CameraRun(db, seq / "frames", seq, fps=10).start()
    try:
        before = first.wait_for(lambda h: h["plays"] >= 4 and h["phase"] == "in_play", timeout=60,
                                what="four cards counted")
    finally:
        first.kill()
    with GameStore(db) as store:
        saved = store.load_camera_document(name="live_hand")
    assert saved is not None and saved["lifecycle"]["phase"] == "in_play"
    frame = saved["frame"]
    # the camera goes on from the frame the saved hand had reached
    rest = tmp_path / "rest"
    (rest / "frames").mkdir(parents=True)
    (rest / "truth").symlink_to(seq / "truth")
    for path in sorted((seq / "frames").iterdir())[frame + 1:]:
        (rest / "frames" / path.name).symlink_to(path)
    second = CameraRun(db, rest / "frames", seq, fps=10).start()
    try:
        back = second.hand()
        assert back is not None and back["hand"] == before["hand"]
        for key, n in counts(before).items():
            assert counts(back).get(key, 0) >= n, key
        done = second.wait_for(lambda h: h["pending"] is not None, timeout=60, what="the hand pending at the end")
    finally:
        second.stop()
    # the same as the pipeline reading the frames without a restart
    replay = subprocess.run([sys.executable, "-m", "borne", "replay", str(seq / "frames"), "--layout",
                             str(seq / "layout.json"), "--truth-boxes", str(seq / "truth")],
                            check=True, capture_output=True, text=True)
    want = counts(json.loads(replay.stdout))
    got = counts({"sides": done["pending"]["record"]["sides"]})
    assert got == want
    assert done["pending"]["score"] is not None


class DemoRun(CameraRun):
    """``borne run`` with no source: the demo deals and plays simulated hands."""

    def __init__(self, db: Path) -> None:
        super().__init__(db, db.parent, db.parent, fps=10.0, layout=None)

    def start(self) -> DemoRun:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "borne", "run", "--port", str(self.port), "--db", str(self.db)],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, text=True)
        self.await_route("/api/camera", seconds=30, output=self.log.read_text)
        return self


def test_the_demo_restarted_mid_hand_deals_a_new_hand_and_adds_nothing_to_the_game(tmp_path: Path) -> None:
    """The demo's table after a restart holds a new hand: the half-played hand saved before it must not be
    taken back (it would look cleared at once and go into the game as played)."""
    db = tmp_path / "games.sqlite3"
    first = DemoRun(db).start()
    try:
        first.wait_for(lambda h: h["plays"] >= 2 and h["phase"] == "in_play", timeout=90, what="two demo plays")
    finally:
        first.kill()
    with GameStore(db) as store:
        assert store.load_camera_document(name="live_hand") is not None
    second = DemoRun(db).start()
    try:
        second.wait_for_frame(timeout=60)
        second.wait_for(lambda h: h["hand"] == 1, timeout=30, what="the new demo hand")
        import time

        time.sleep(2.0)  # an empty table for more than the frames that clear it
        assert "the hand saved before the restart is set aside" in second.log.read_text()
        games = second.get("/api/games").json()
        assert all(g["hands"] == 0 for g in games), games
        assert second.hand()["hand"] == 1
    finally:
        second.stop()
