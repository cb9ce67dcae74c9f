"""Whole hands replayed through the live pipeline: exact records, phantom events, delay, speed, memory.

    python bench/bench_replay.py [--hands 10] [--seed 31337] [--width 1280 --height 720] [--fps 10] [--truth-detector] [--truth-ids]
    python bench/bench_replay.py --photos DIR [--truth-detector] [--truth-ids]

Renders held-out hands (seeds nobody trained or tuned on, on the table surfaces no training run
used) with the data engine, replays each
through the pipeline exactly as ``borne replay`` does, and compares with the hand's truth:

- exact record: the final hand record (distance per value, safeties, coups fourrés, extension)
  equals ``hand.json``; a wrong hand that raised a flag is counted apart (a person was warned);
- phantom events: cards the pipeline counted that were never played, per hand;
- late plays: cards counted from a frame well after they landed (more than ``ON_TIME_FRAMES`` later,
  matched to the latest earlier play of that card on that side left unmatched: unread for a while);
  their delay counts in the delay figures;
- missed events: distance and safety plays in ``events.json`` the pipeline never counted;
- delay: frames and seconds (at the sequence's frames per second, and at the pipeline's own
  rate) from the frame a card landed to the frame the pipeline counted it;
- frames per second and peak memory (RSS) of the bench process (with ``--replay-memory``, also of ``borne
  replay`` run alone on the longest hand); the time per stage of a frame (decode, detect,
  read, track) and one bare inference of the tiled detector on a whole frame in the same run, since speed is a
  figure of the machine and of what else runs on it. Frames are read as `replay` reads them, again only where
  they moved (`vision/read/motion.py`); ``--read-all`` reads every frame whole, as before.

A hand is filmed at 10 frames a second, or at 5 (``--fps 5`` for 2-D hands; ``borne data photo-sequences --fps 5``:
one frame in two of the same hand, half the rendering); the pipeline is told the rate, as ``borne replay`` is.

``--photos DIR`` replays the photo-real hands already rendered in ``DIR/hand_*`` instead of rendering
2-D ones; the report is the same (``borne data photo-sequences --seed 31337 --held-out --out DIR``
renders the hands of the 2-D default, at the size it is given).

``--record FILE`` keeps each hand's row (by seed) in a JSON file with the models it was replayed
with, and prints the exact records and flags over every hand the file holds: photo-real hands take
hours to render on a small machine, so a bench over 20 of them may be replayed a few hands at a time.
Each row also keeps its delays, its own frames per second, the replay's peak memory and the machine
(CPU model and cores) it ran on, since speed is a figure of the machine.
Rows replayed with other models, another mode or other settings are dropped, never mixed in.

``--readings`` replays, for each hand that has one, the detector's and recogniser's readings of its frames
saved by an earlier run (``readings.pkl`` in the hand's folder, kept with ``--keep``; every run that reads
the frames saves them): the reconciler, the lifecycle and the rule checks are measured again on exactly the
same readings, in seconds a hand instead of minutes (speed and delay figures are then the reconciler's).

``--truth-detector`` replays the true boxes instead of running ``models/detector.onnx`` (the
recogniser still reads every face); ``--truth-ids`` also replaces the recogniser with the true ids,
which measures the reconciler alone. Without ``--truth-detector`` the trained detector must exist.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.frame_plan import CAMERA_RATES  # noqa: E402
from datasets.scene import SceneSpec  # noqa: E402
from datasets.sequence import FPS, generate_sequence  # noqa: E402
from datasets.textures import HELD_OUT_KINDS  # noqa: E402
from scoring.cards import Card  # noqa: E402
from vision.errors import ModelError  # noqa: E402
from vision.feeding import run_source  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.read import onnx_runtime  # noqa: E402
from vision.read.editions import enrolled_folder  # noqa: E402
from vision.read.frame_reader import FrameReader  # noqa: E402
from vision.read.models import detector_path, load_video_recogniser, recogniser_path  # noqa: E402
from vision.read.recogniser import Reading, Recogniser  # noqa: E402
from vision.read.replay_detector import TruthReplayDetector  # noqa: E402
from vision.sources import FolderSource  # noqa: E402
from vision.sources.frames import frames_for  # noqa: E402
from vision.table.layout import TableLayout  # noqa: E402

SCORED_PILES = ("distance", "safeties")
ON_TIME_FRAMES = 6
"""A counted card first seen within this many frames (at 10 frames a second; the same time at another rate) of a
play of that card on that side is that play."""
RECORDED_SETTINGS = ("width", "height", "sides", "samples", "held_out", "test_split", "edition", "surfaces", "fps")
"""What hands in one record share (with the models and the mode): rows of other hands are never mixed in."""


class SavedReadings:
    """Answers each frame with the reading an earlier run saved for it, in order (``--readings``)."""

    def __init__(self, path: Path) -> None:
        self.readings = pickle.loads(path.read_bytes())  # our own file, written by this bench
        self.next = 0

    def read(self, image: object) -> object:
        reading = self.readings[self.next]
        self.next += 1
        return reading


def stage_times(stages: dict[str, list[float]], result: Any, reader: Any) -> None:
    """Adds one frame's time per stage: the reader's detect and read, and the rest of the pipeline (census,
    tracker, lifecycle, flags) as track."""
    seconds = getattr(reader, "seconds", {})
    detect, read = seconds.get("detect", 0.0), seconds.get("read", 0.0)
    stages["detect"].append(detect)
    stages["read"].append(read)
    stages["track"].append(max(0.0, result.seconds - detect - read))


def timing(stages: dict[str, list[float]], reader: Any) -> Callable[[Any], None]:
    """The pipeline's ``on_result``: adds each frame's time per stage (:func:`stage_times`)."""
    def on_result(result: Any) -> None:
        stage_times(stages, result, reader)
    return on_result


def bare_inference(detector: Any, frames: Path, count: int = 5) -> list[float]:
    """The time of the tiled detector run whole (every tile, nothing kept) on a few of the hand's frames."""
    import cv2

    out, runs = [], detector.tiles_run
    paths = sorted(frames.glob("*.jpg"))
    for path in paths[:: max(1, len(paths) // count)][:count]:
        image = cv2.imread(str(path))
        t0 = time.perf_counter()
        detector.detect(image)
        out.append(time.perf_counter() - t0)
    detector.tiles_run = runs  # the bare runs are not the replay's
    return out


def keeping(read: Callable[[Any], Any], kept: list[object]) -> Callable[[Any], Any]:
    """``read`` that also keeps each reading in ``kept`` (saved as the hand's ``readings.pkl``)."""
    def read_and_keep(image: object) -> object:
        reading = read(image)
        kept.append(reading)
        return reading
    return read_and_keep


class TruthIdRecogniser:
    """Answers the true id of each box the truth detector gave (the reconciler alone is measured)."""

    def __init__(self, detector: TruthReplayDetector) -> None:
        self.detector = detector

    def read(self, image: object, boxes: list[object]) -> list[Reading]:
        ids = self.detector.cards_read
        return [Reading(Card(ids[i]) if i < len(ids) else None, 0.99) for i in range(len(boxes))]


def compare(out: dict, folder: Path, fps: float = FPS) -> dict:
    """How the replay's output differs from the sequence's truth (filmed at ``fps``)."""
    on_time = frames_for(ON_TIME_FRAMES, fps)
    truth = json.loads((folder / "hand.json").read_text())
    played = [e for e in json.loads((folder / "events.json").read_text()) if e["pile"] in SCORED_PILES]
    record = out["hand"]
    exact = (
        {s["side"]: (s["distance"], s["safeties"]) for s in record["sides"]}
        == {s["side"]: (s["distance"], s["safeties"]) for s in truth["sides"]}
        and record["extension_called_by"] == truth["extension_called_by"]
        and record["draw_pile_empty_at_finish"] == truth["draw_pile_empty_at_finish"]
    )
    facts = {s["side"]: (s["distance"], s["safeties"]) for s in record["sides"]} == {
        s["side"]: (s["distance"], s["safeties"]) for s in truth["sides"]}
    unmatched = list(played)
    delays, left = [], []
    for e in out["events"]:
        match = next((t for t in unmatched if t["side"] == e["side"] and t["card"] == e["card"]
                      and abs(t["frame"] - e["frame"]) <= on_time), None)
        if match is None:
            left.append(e)
            continue
        unmatched.remove(match)
        delays.append(e["decided_frame"] - match["frame"])
    late = 0
    for e in left:  # first seen long after it landed (unread for a while): a late play, not a phantom
        earlier = [t for t in unmatched if t["side"] == e["side"] and t["card"] == e["card"] and t["frame"] < e["frame"]]
        if earlier:
            match = max(earlier, key=lambda t: t["frame"])
            unmatched.remove(match)
            delays.append(e["decided_frame"] - match["frame"])
            late += 1
    return {"exact": exact, "facts": facts, "flagged": bool(out["flags"]), "phantoms": len(left) - late,
            "late": late, "missed": len(unmatched), "delays": delays, "plays": len(played)}


def photo_folders(root: Path) -> list[Path]:
    """The finished hands of ``borne data photo-sequences`` in ``root``, in order."""
    return sorted(p for p in root.glob("hand_*") if (p / "hand.json").is_file())


def rendered_with(folder: Path) -> dict:
    """A photo-real hand's settings (``sequence.json``: seed, sides, size …); empty when missing."""
    path = folder / "sequence.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def hand_fps(folder: Path, default: int = FPS) -> int:
    """The frames a second a hand was filmed at: a photo-real hand's ``sequence.json`` says, a 2-D hand is ``default``."""
    return int(rendered_with(folder).get("fps", default)) if (folder / "sequence.json").is_file() else default


def hand_edition(folder: Path) -> str:
    """The edition a hand's cards are printed from, which reads them: the generic for a 2-D hand, else the one its
    ``sequence.json`` names (an enrolled edition's name or folder, such as a test edition's)."""
    return str(rendered_with(folder).get("edition") or "generic")


def model_ids(truth_detector: bool, edition: str = "generic") -> dict[str, str]:
    """The models a replay ran with, by the first 16 hex digits of each file's SHA-256: an edition with no
    fitted recogniser is read by its faces, named by its ``edition.json``."""
    try:
        recogniser = recogniser_path(edition)
    except ModelError:  # read by its faces
        recogniser = enrolled_folder(edition) / "edition.json"
    paths = {"recogniser": recogniser}
    if not truth_detector:
        paths["detector"] = detector_path()
    return {name: hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] for name, path in paths.items()}


def peak_rss_mb() -> float:
    """The replay's peak memory so far (RSS), in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def replay_peak_mb(folder: Path) -> float:
    """The peak memory (RSS, MB) of ``borne replay`` run alone, in a process of its own, on the hand in ``folder``.

    The bench's own peak grows with every hand it keeps; this is what a table's replay or ``run`` needs.
    """
    borne = Path(sys.executable).with_name("borne")
    command = [str(borne)] if borne.is_file() else [sys.executable, "-c", "from borne.cli import main; main()"]
    layout = ["--layout", str(folder / "layout.json")] if (folder / "layout.json").is_file() else []
    # the child's own high-water mark, read while it runs: its rusage would count the pages it shared with this
    # process between fork and exec
    child = subprocess.Popen([*command, "replay", *layout, "--edition", hand_edition(folder), "--fps", str(hand_fps(folder)),
                              str(folder / "frames")],
                             stdout=subprocess.DEVNULL)
    status, peak_kb = Path(f"/proc/{child.pid}/status"), 0
    while child.poll() is None:
        try:
            hwm = next((ln for ln in status.read_text().splitlines() if ln.startswith("VmHWM:")), "VmHWM: 0 kB")
        except OSError:  # it ended between the poll and the read
            break
        peak_kb = max(peak_kb, int(hwm.split()[1]))
        time.sleep(0.1)
    if child.wait() != 0:
        raise subprocess.CalledProcessError(child.returncode, child.args)
    return peak_kb / 1024


def machine() -> str:
    """The machine a row was replayed on, as its speed depends on it: CPU model and core count."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.is_file() else []
    model = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")), platform.processor() or "?")
    return f"{model}, {os.cpu_count()} cores"


def code_commit() -> str | None:
    """The commit the replay's code is at (each recorded row names it; the models are what rows must share)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                              capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() or None


def record_rows(path: Path, rows: list[dict], how: dict) -> list[dict]:
    """Merge this run's rows (by seed) into the record at ``path``; returns every row it now holds.

    Rows recorded ``how`` differently (models, mode, frame size, sides) are dropped: a figure over the
    record is always one set of models on one kind of hand.
    """
    kept: list[dict] = []
    if path.is_file():
        old = json.loads(path.read_text())
        if old.get("how") == how:
            seeds = {r["seed"] for r in rows}
            kept = [r for r in old["rows"] if r["seed"] not in seeds]
        else:
            print(f"{path}: its {len(old.get('rows', []))} hands were replayed otherwise ({old.get('how')}); dropped",
                  file=sys.stderr)
    every = sorted(kept + rows, key=lambda r: str(r["seed"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"how": how, "rows": every}, indent=1) + "\n")
    return every


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--seed", type=int, default=31337, help="held-out: no test or tuning used seeds from here on")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--sides", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--fps", type=int, default=FPS, choices=CAMERA_RATES,
                    help="2-D hands filmed at this many frames a second (photo-real hands: as rendered)")
    ap.add_argument("--surfaces", default=",".join(HELD_OUT_KINDS),
                    help="table surfaces (default: the ones no training run used)")
    ap.add_argument("--truth-detector", action="store_true", help="replay the true boxes instead of the trained detector")
    ap.add_argument("--truth-ids", action="store_true", help="with --truth-detector: also the true ids (reconciler alone)")
    ap.add_argument("--keep", metavar="DIR", default=None, help="render the hands into DIR and keep them")
    ap.add_argument("--onnx-spinning", action="store_true",
                    help="let ONNX Runtime's workers spin between runs, its own default (Borne turns it off), to compare")
    ap.add_argument("--photos", metavar="DIR", default=None,
                    help="replay the photo-real hands rendered in DIR (borne data photo-sequences) instead of rendering 2-D hands")
    ap.add_argument("--readings", action="store_true",
                    help="replay the readings an earlier run saved in each hand's folder (readings.pkl) instead of reading the frames")
    ap.add_argument("--read-all", action="store_true",
                    help="read every frame whole, as before (default: read again only what moved, as replay does)")
    ap.add_argument("--replay-memory", action="store_true",
                    help="also run `borne replay` alone on the longest hand and print its peak memory")
    ap.add_argument("--record", metavar="FILE", default=None,
                    help="keep each hand's result in FILE (by seed) and report over every hand it holds")
    args = ap.parse_args()
    if args.truth_ids and not args.truth_detector:
        ap.error("--truth-ids needs --truth-detector")
    if args.photos and args.keep:
        ap.error("--photos replays hands already rendered; --keep renders 2-D ones")
    photo_hands = photo_folders(Path(args.photos)) if args.photos else []
    if args.photos and not photo_hands:
        ap.error(f"{args.photos}: no rendered hands (hand_*/ with hand.json); render them with borne data photo-sequences")
    kinds = {tuple(rendered_with(f).get(k) for k in RECORDED_SETTINGS) for f in photo_hands}
    if args.record and len(kinds) > 1:
        ap.error(f"--record: the hands in {args.photos} were rendered with different settings {sorted(kinds, key=str)} "
                 f"({', '.join(RECORDED_SETTINGS)}); record one kind of hand at a time")
    onnx_runtime.allow_spinning = args.onnx_spinning
    recognisers: dict[str, Recogniser] = {}
    onnx = None
    tiles_run = 0
    detecting = not args.truth_detector and not args.readings
    if detecting:
        from vision.read.detector import OnnxCardDetector
        from vision.read.tiling import TiledDetector

        base = OnnxCardDetector(detector_path())
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-replay-"))
    rows = []
    frames = 0
    busy = 0.0
    stages: dict[str, list[float]] = {"decode": [], "detect": [], "read": [], "track": []}
    bare: list[float] = []
    readings_kept = [0, 0]  # face-up boxes whose reading was kept, and read, over every hand
    folders = photo_hands or [root / f"hand_{h:03d}" for h in range(args.hands)]
    seeds = [rendered_with(f).get("seed", "?") for f in photo_hands] or [args.seed + h for h in range(args.hands)]
    for h, folder in enumerate(folders):
        if not photo_hands and not (folder / "hand.json").is_file():
            spec = SceneSpec(width=args.width, height=args.height, surfaces=tuple(args.surfaces.split(",")))
            generate_sequence(folder, seed=args.seed + h, spec=spec,
                              sides=args.sides, video=False, progress=False, fps=args.fps)
        layout = TableLayout.from_file(folder / "layout.json")
        edition = hand_edition(folder)
        if edition not in recognisers:
            recognisers[edition] = load_video_recogniser(edition)  # as `borne replay --edition` reads a video
        recogniser = recognisers[edition]
        before = None
        if not detecting:
            truth = TruthReplayDetector(folder / "truth")
            reader = FrameReader(truth, TruthIdRecogniser(truth) if args.truth_ids else recogniser)  # type: ignore[arg-type]
            before = truth.seek
        else:  # each hand from a fresh table, as `borne replay` reads it: no tile kept from the hand before
            onnx = TiledDetector(base)
            reader = FrameReader(onnx, recogniser, moved_only=not args.read_all)
        saved = folder / "readings.pkl"
        if args.readings:
            if not saved.is_file():
                ap.error(f"--readings: {saved} is missing (replay the hand once without --readings, with --keep)")
            reader, before = SavedReadings(saved), None  # type: ignore[assignment]
        rate = hand_fps(folder, args.fps)
        pipeline = Pipeline(reader, layout, before_read=before, fps=rate)
        source = FolderSource(folder / "frames", fps=rate)
        readings: list[object] = []
        if not args.readings:
            reader.read = keeping(reader.read, readings)  # type: ignore[method-assign,assignment]
        t0 = time.perf_counter()
        run_source(source, pipeline, on_result=timing(stages, reader))
        seconds = time.perf_counter() - t0
        if not args.readings:
            saved.write_bytes(pickle.dumps(readings))
        stages["decode"].append(max(0.0, seconds - sum(stages["detect"][-pipeline.frames:]) - sum(
            stages["read"][-pipeline.frames:]) - sum(stages["track"][-pipeline.frames:])) / max(pipeline.frames, 1))
        if detecting and onnx is not None:
            tiles_run += onnx.tiles_run
            bare.extend(bare_inference(onnx, folder / "frames"))
            readings_kept[0] += getattr(reader, "readings_kept", 0)
            readings_kept[1] += getattr(reader, "readings_made", 0)
        busy += seconds
        frames += pipeline.frames
        out = pipeline.replay_json()
        out["events"] = [{**e.to_json(), "decided_frame": e.decided_frame} for e in pipeline.state.events]  # type: ignore[union-attr]
        row = {"seed": seeds[h], "frames": pipeline.frames, **compare(out, folder, rate),
               "frames_per_s": round(pipeline.frames / seconds, 2) if seconds else None, "peak_mb": round(peak_rss_mb())}
        rows.append(row)
        mark = ("exact" + (", flagged" if row["flagged"] else "")) if row["exact"] else (
            "WRONG, flagged" if row["flagged"] else "WRONG, silent")
        reasons = ", ".join(f["reason"] for f in out["flags"])
        print(f"hand {h} (seed {seeds[h]}): {pipeline.frames} frames, {row['plays']} scored plays, {mark}, "
              f"{row['phantoms']} phantom, {row['late']} late, {row['missed']} missed"
              + (f"; flags: {reasons}" if reasons else ""), file=sys.stderr)
    n = len(rows)
    delays = [d for r in rows for d in r["delays"]]
    fps = frames / busy if busy else 0.0
    peak_mb = peak_rss_mb()
    mode = "truth boxes + true ids" if args.truth_ids else ("truth boxes + recogniser" if args.truth_detector else "detector.onnx + recogniser")
    if args.readings:
        mode += ", readings saved by an earlier run"
    if args.onnx_spinning:
        mode += ", ONNX Runtime's workers spinning"
    if photo_hands:
        first = rendered_with(photo_hands[0])
        print(f"replay of {n} photo-real hands in {args.photos} (seeds {', '.join(str(s) for s in seeds)}), "
              f"{first.get('width', '?')}×{first.get('height', '?')} at {first.get('fps', FPS)} frames/s, {first.get('sides', '?')} sides, "
              f"{first.get('samples', '?')} samples a pixel, edition {hand_edition(photo_hands[0])}"
              f"{', test split' if first.get('test_split') else ''}, {mode}")
    else:
        print(f"replay of {n} held-out hands (seeds {args.seed}–{args.seed + n - 1}, surfaces {args.surfaces}), "
              f"{args.width}×{args.height} at {args.fps} frames/s, {args.sides} sides, {mode}")
    print(f"  exact hand record: {sum(r['exact'] for r in rows)}/{n} ({sum(r['exact'] for r in rows) / n:.0%}); "
          f"facts right (distance, safeties): {sum(r['facts'] for r in rows)}/{n}; "
          f"wrong and silent (no flag): {sum(1 for r in rows if not r['exact'] and not r['flagged'])}; "
          f"exact but flagged (a right hand a person is asked to look at): {sum(1 for r in rows if r['exact'] and r['flagged'])}")
    print(f"  phantom events: {sum(r['phantoms'] for r in rows) / n:.2f} per hand "
          f"(hands with any: {sum(1 for r in rows if r['phantoms'])}/{n}); "
          f"late plays: {sum(r['late'] for r in rows)}; "
          f"missed plays: {sum(r['missed'] for r in rows)}/{sum(r['plays'] for r in rows)}")
    if delays:
        med = statistics.median(delays)
        print(f"  delay landing → counted: median {med:g} frames = {med / rate:.2f} s at the sequence's {rate} frames/s, "
              f"{med / fps if fps else float('nan'):.2f} s at the pipeline's {fps:.1f} frames/s; max {max(delays)} frames")
    print(f"  speed: {fps:.2f} frames/s end to end over {frames} frames"
          + (f" (median of the hands: {statistics.median(r['frames_per_s'] for r in rows):.2f})" if rows else "")
          + ("" if args.read_all or not detecting else " reading again only what moved (--read-all: every frame whole)"))
    print("  per frame, median (mean) ms: " + ", ".join(
        f"{k} {1000 * statistics.median(v):.1f} ({1000 * statistics.mean(v):.1f})" for k, v in stages.items() if v)
          + "; decode: a hand's mean")
    if bare:
        one = statistics.median(bare)
        print(f"  one bare inference of the tiled detector on a whole frame (every tile): median {1000 * one:.1f} ms; "
              f"a frame end to end took {1 / fps / one:.2f} times that" if fps else "")
    if detecting and not args.read_all:
        print(f"  tiles the model ran on: {tiles_run} for {frames} frames; readings kept where nothing moved: "
              f"{readings_kept[0]} of {readings_kept[0] + readings_kept[1]}")
    print(f"  peak memory (RSS) of the bench process, which keeps every hand's readings: {peak_mb:.0f} MB")
    if args.replay_memory and rows:
        longest = max(zip(folders, rows), key=lambda fr: fr[1]["frames"])[0]
        print(f"  peak memory (RSS) of `borne replay` alone on the longest hand ({longest.name}, "
              f"{max(r['frames'] for r in rows)} frames): {replay_peak_mb(longest):.0f} MB")
    if args.record:
        settings = rendered_with(photo_hands[0]) if photo_hands else {"width": args.width, "height": args.height,
                                                                      "sides": args.sides, "surfaces": args.surfaces,
                                                                      "fps": args.fps}
        how = {"mode": mode, "models": model_ids(args.truth_detector, hand_edition(folders[0])), "photo_real": bool(photo_hands),
               **{k: settings.get(k) for k in RECORDED_SETTINGS}}
        commit = code_commit()
        every = record_rows(Path(args.record), [{**r, "commit": commit, "machine": machine()} for r in rows], how)
        m = len(every)
        exact = sum(r["exact"] for r in every)
        print(f"record {args.record}: {m} hands (seeds {', '.join(str(r['seed']) for r in every)}), {m - n} of them "
              f"replayed before with the same models; exact hand record {exact}/{m} ({exact / m:.0%}), wrong and silent "
              f"{sum(1 for r in every if not r['exact'] and not r['flagged'])}, phantom events "
              f"{sum(r['phantoms'] for r in every)}, missed plays {sum(r['missed'] for r in every)}/"
              f"{sum(r['plays'] for r in every)}")
        timed_rows = [r for r in every if "delays" in r]  # rows recorded before delays were kept have none
        kept_delays = [d for r in timed_rows for d in r["delays"]]
        if kept_delays:
            print(f"  delay over the {len(timed_rows)} hands that keep theirs: median {statistics.median(kept_delays):g} frames, "
                  f"max {max(kept_delays)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
