"""The kill bench: ``borne run`` following recorded hands at camera pace, killed with ``-9`` at random moments and
started again on the same table (issue "Every play read once", §4).

    .venv/bin/python bench/kill_landings.py build/hands-2d-50/hand_00[0-9] [--kills 20] [--seed 1] [--fps 10]

Each hand is first followed once without a kill (its final count is the hand's as `borne run` counts it). Then,
``--kills`` times over the hands in turn, `borne run` follows the hand from its first frame and is killed with
SIGKILL at a random moment while cards are being laid (uniform over the hand's first to its last play). The camera
goes on filming while Borne is down: `borne run` is started again on the same SQLite file with the frames from
where the camera then is (the frame reached at the kill, plus the seconds the restart took at the camera's rate),
and follows the hand to its end. Counted per kill, by side and card (distance cards by value, safeties):

- **kept**: each count the display showed just before the kill (each landing is saved as it is shown, in the same
  step) is still there at the end;
- **lost** / **doubled**: the final count against the hand's count without a kill (under / over).

Prints one line a kill and the totals. Both runs read the first view with the hands' true boxes
(``--truth-boxes``: the census is not what is measured; the landings are read as in any run).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.camera_run import CameraRun  # noqa: E402


def counts(sides: list[dict]) -> dict[tuple[str, str], int]:
    """A hand's sides (the live hand's or a pending record's) as counts by side and card."""
    out = {(s["side"], f"{km} km"): int(n) for s in sides for km, n in s["distance"].items() if int(n)}
    out.update({(s["side"], safety): 1 for s in sides for safety in s["safeties"]})
    return out


def followed(run: CameraRun, *, timeout: float) -> dict[tuple[str, str], int]:
    """The hand's count once ``run`` has come to the end of its frames (not at the first pending: a 700-km hand
    reopens when the side at 700 plays on), pending or held for its flags."""
    deadline = time.monotonic() + timeout
    while not run.get("/api/camera").json()["ended"]:
        if time.monotonic() > deadline:
            raise AssertionError(f"the frames not ended within {timeout} s\n{run.log.read_text()}")
        time.sleep(0.2)
    done = run.wait_for(lambda h: h["pending"] is not None or bool(h["held"]), timeout=30,
                        what="the hand pending (or held for its flags) at the end of the frames")
    ended = done["held"][0] if done["held"] else done["pending"]
    return counts(ended["record"]["sides"])


def frames_from(hand: Path, first: int, out: Path) -> Path:
    """A folder of the hand's frames from ``first`` on (links), as the camera gives them after a restart."""
    (out / "frames").mkdir(parents=True)
    (out / "truth").symlink_to((hand / "truth").resolve())  # the first view's true boxes, found beside the frames
    for path in sorted((hand / "frames").glob("*.jpg"))[first:]:
        (out / "frames" / path.name).symlink_to(path.resolve())
    return out / "frames"


def kill_once(hand: Path, work: Path, fps: float, rng: random.Random) -> dict:
    """One kill of ``borne run`` following ``hand``; what was kept, lost and doubled against ``baseline``."""
    import json

    events = json.loads((hand / "events.json").read_text())
    at = rng.uniform(events[0]["frame"], events[-1]["frame"]) / fps
    db = work / "games.sqlite3"
    first = CameraRun(db, hand / "frames", hand, fps=fps).start()
    try:
        first.wait_for_frame(timeout=60)
        filming = time.monotonic()  # about when the camera's first frame came: it films on at fps from here
        time.sleep(max(0.0, at - (time.monotonic() - filming)))
        shown = first.hand()
        # where the camera is now: the frames the pipeline took, or more where it fell behind and skipped some
        reached = max(int(first.get("/api/camera").json()["frames"]), round((time.monotonic() - filming) * fps))
    finally:
        first.kill()
    killed = time.monotonic()
    stored = counts(shown["sides"]) if shown is not None else {}
    down = 2.0  # the seconds the restart takes before its first frame, filmed meanwhile (measured below)
    rest = frames_from(hand, reached + round(down * fps), work / "rest")
    second = CameraRun(db, rest, hand, fps=fps).start()
    try:
        second.wait_for_frame(timeout=60)
        restart_s = time.monotonic() - killed
        final = followed(second, timeout=len(list(rest.iterdir())) / fps + 120)
    finally:
        second.stop()
    return {"hand": hand.name, "killed_at_frame": reached, "stored": stored, "final": final, "restart_s": restart_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hands", nargs="+", type=Path)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fps", type=float, default=10.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    baseline = {}
    kept = lost = doubled = stored_total = 0
    with tempfile.TemporaryDirectory(prefix="borne-kill-") as tmp:
        for hand in args.hands:
            work = Path(tmp) / f"base-{hand.name}"
            work.mkdir()
            run = CameraRun(work / "games.sqlite3", hand / "frames", hand, fps=args.fps).start()
            try:
                baseline[hand.name] = followed(run, timeout=len(list((hand / "frames").iterdir())) / args.fps + 120)
            finally:
                run.stop()
        for k in range(args.kills):
            hand = args.hands[k % len(args.hands)]
            work = Path(tmp) / f"kill-{k:02d}"
            work.mkdir()
            got = kill_once(hand, work, args.fps, rng)
            want, final, stored = baseline[hand.name], got["final"], got["stored"]
            k_kept = sum(min(n, final.get(key, 0)) for key, n in stored.items())
            k_lost = sum(max(0, n - final.get(key, 0)) for key, n in want.items())
            k_doubled = sum(max(0, n - want.get(key, 0)) for key, n in final.items())
            kept, stored_total, lost, doubled = kept + k_kept, stored_total + sum(stored.values()), lost + k_lost, doubled + k_doubled
            print(f"kill {k:2d} {hand.name}: at frame {got['killed_at_frame']:4d}, restarted in {got['restart_s']:.1f} s; "
                  f"stored {sum(stored.values())}, kept {k_kept}; lost {k_lost}, doubled {k_doubled}", flush=True)
            shutil.rmtree(work, ignore_errors=True)
    print(f"all {args.kills} kills: kept {kept} of {stored_total} counts stored before the kill; "
          f"lost {lost}, doubled {doubled} against the hands followed without a kill")


if __name__ == "__main__":
    main()
