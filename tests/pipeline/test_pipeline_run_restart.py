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
    first = CameraRun(db, seq / "frames", seq, fps=25).start()
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
    second = CameraRun(db, rest / "frames", seq, fps=25).start()
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
