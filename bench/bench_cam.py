"""The Raspberry Pi camera agent: what a frame costs it, how long a frame takes to reach the display,
and what the live pipeline would do on a Pi 5 and a Pi 4.

1. Agent (``python -m firmware_cam``) serving a 1280 × 720 rendered hand (a video file standing in for
   the camera) at 10 frames/s to one client: its CPU time per frame (from /proc, so the video decoding
   that a Pi camera does not need is counted in it; the decode alone is timed too and taken off), the
   JPEG encode alone, the bytes per frame at the configured quality, and the delay from a frame's capture
   to its arrival at a client over loopback.
2. End to end: ``borne run --source http://…/stream.mjpg?token=…`` reading the agent (the shipped detector,
   or ``--truth-boxes``): for each card counted, the delay from the agent capturing the frame in which the
   card landed to the display's Server-Sent Event that shows it counted. That includes the tracker's
   wait for a card seen in 3 of 5 frames; the pipeline's own frame rate is printed beside it.
3. Pi estimate: the bare detector on one 640-px tile and the whole frame reading here, scaled by the
   ratio of a published ONNX Runtime figure for the same model size on a Pi to this machine's measured one.

    python bench/bench_cam.py [--seconds 12] [--seed 5] [--frames 150] [--jpeg-quality 80] [--truth-boxes]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
from loopback import free_port, wait_until_answered

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.image import read_image  # noqa: E402
from vision.sources import MjpegCapture  # noqa: E402

TOKEN = "bench-camera-token"
DISPLAY_TOKEN = "bench-display-token"

PUBLISHED_MS = {
    # Ultralytics' Raspberry Pi guide, FP32, 640 px input, ONNX Runtime, ms per image
    "yolo11n_pi5": 168.082,  # YOLO11n on a Pi 5 (Ultralytics 8.3 benchmark table)
    "yolov8n_pi5": 198.69,   # YOLOv8n on a Pi 5 (earlier table, the one that also has a Pi 4)
    "yolov8n_pi4": 560.04,   # YOLOv8n on a Pi 4
}
"""Published figures the Pi estimate is scaled by (docs/en/guides/raspberry-pi.md in the ultralytics repository)."""


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def render(out: Path, seed: int, frames: int) -> Path:
    subprocess.run([sys.executable, "-m", "borne", "data", "sequences", "--count", "1", "--seed", str(seed),
                    "--width", "1280", "--height", "720", "--max-frames", str(frames), "--no-video", "--out", str(out)],
                   check=True, capture_output=True, text=True, cwd=REPO)
    (folder,) = sorted(out.glob("seq_*"))
    return folder


def make_video(seq: Path, out: Path, fps: float, hold_s: float) -> tuple[Path, list[np.ndarray]]:
    paths = sorted((seq / "frames").glob("*.jpg"))
    images: list[np.ndarray] = [read_image(p) for p in paths]
    h, w = images[0].shape[:2]
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*"MJPG"), fps, (w, h))
    for image in images + [images[-1]] * round(hold_s * fps):
        writer.write(image)
    writer.release()
    return out, images


def start_agent(video: Path, port: int, quality: int, log: Path) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "firmware_cam", "--source", str(video), "--host", "127.0.0.1", "--port", str(port),
            "--token", TOKEN, "--jpeg-quality", str(quality), "--stall-s", "60", "--no-announce"]
    return subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True, cwd=REPO)


def agent_status(port: int) -> dict[str, Any]:
    r = httpx.get(f"http://127.0.0.1:{port}/status", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=2)
    result: dict[str, Any] = r.json()
    return result


def wait_agent(port: int, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the agent exited ({process.returncode})")
        try:
            if agent_status(port)["frames"] > 0:
                return
        except (httpx.HTTPError, KeyError):
            pass
        time.sleep(0.05)
    raise SystemExit("the agent gave no frame")


class StreamClock(threading.Thread):
    """Reads the agent's stream as fast as it comes: the capture time of each frame and when it arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.captured: dict[int, float] = {}
        self.delays: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        capture = None
        while not self.stop.is_set():
            try:
                capture = capture or MjpegCapture(f"http://127.0.0.1:{self.port}/stream.mjpg?token={TOKEN}")
                ok, image = capture.read()
            except OSError:
                time.sleep(0.05)
                continue
            if not ok:
                capture.release()
                capture = None
                continue
            now = time.time()
            if capture.frame_number is not None and capture.captured_at is not None and image is not None:
                self.captured[capture.frame_number] = capture.captured_at
                self.delays.append(now - capture.captured_at)
        if capture is not None:
            capture.release()


def ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"median {1000 * statistics.median(values):.1f} ms, worst {1000 * max(values):.1f} ms"


def part_agent(video: Path, images: list[np.ndarray], quality: int, seconds: float, tmp: Path) -> dict[str, float]:
    port = free_port()
    agent = start_agent(video, port, quality, tmp / "agent1.log")
    clock = StreamClock(port)
    try:
        wait_agent(port, agent)
        clock.start()
        time.sleep(1.0)
        c0, f0 = cpu_s(agent.pid), agent_status(port)["frames"]
        time.sleep(seconds)
        c1, status = cpu_s(agent.pid), agent_status(port)
    finally:
        clock.stop.set()
        agent.terminate()
        agent.wait(10)
    frames = status["frames"] - f0
    cpu_per_frame = (c1 - c0) / max(frames, 1)
    # what the stand-in camera costs: decoding the video file (a Pi camera hands over raw pictures)
    cap = cv2.VideoCapture(str(video))
    t0, n = time.process_time(), 0
    while n < 60 and cap.read()[0]:
        n += 1
    decode = (time.process_time() - t0) / max(n, 1)
    cap.release()
    encode = []
    for image in images[:40]:
        t0 = time.process_time()
        cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), quality])
        encode.append(time.process_time() - t0)
    sizes = [len(cv2.imencode(".jpg", im, [int(cv2.IMWRITE_JPEG_QUALITY), quality])[1]) for im in images[:40]]
    print(f"\n1. agent at 1280 × 720, JPEG quality {quality}, {status['fps']:g} frames/s asked, {frames} frames in "
          f"{seconds:g} s to one client")
    print(f"   agent CPU per frame (process total)       {1000 * cpu_per_frame:.1f} ms")
    print(f"   of which decoding the stand-in video       {1000 * decode:.1f} ms (a Pi camera needs none)")
    print(f"   agent CPU per frame without it             {1000 * (cpu_per_frame - decode):.1f} ms "
          f"({100 * (cpu_per_frame - decode) * status['fps']:.0f} % of one core at {status['fps']:g} frames/s)")
    print(f"   JPEG encode alone                          {1000 * statistics.median(encode):.1f} ms")
    print(f"   bytes per frame                            {status['mean_jpeg_bytes']:,} (served); "
          f"{int(statistics.mean(sizes)):,} (encoded here)")
    print(f"   network at {status['fps']:g} frames/s                     "
          f"{status['mean_jpeg_bytes'] * 8 * status['fps'] / 1e6:.1f} Mbit/s")
    print(f"   capture → a client has the picture         {ms(clock.delays)} (loopback, decoded)")
    return {"cpu_ms": 1000 * cpu_per_frame}


def part_end_to_end(seq: Path, video: Path, truth_boxes: bool, quality: int, tmp: Path) -> float | None:
    # the plays the tracker counts: distance cards and safeties (hazards and remedies go on piles it does not count)
    events = [e for e in json.loads((seq / "events.json").read_text()) if e["card"].startswith("distance_")
              or e["card"] in ("driving_ace", "extra_tank", "puncture_proof", "right_of_way")]
    port, display = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("BORNE_TOKEN", "BORNE_CAM_TOKEN")}
    run_args = [sys.executable, "-m", "borne", "run", "--source",
                f"http://127.0.0.1:{port}/stream.mjpg?token={TOKEN}", "--layout", str(seq / "layout.json"),
                "--port", str(display), "--db", str(tmp / "games.sqlite3"), "--token", DISPLAY_TOKEN]
    if truth_boxes:
        run_args += ["--truth-boxes", str(seq / "truth")]
    run = subprocess.Popen(run_args, stdout=(tmp / "run.log").open("w"), stderr=subprocess.STDOUT, text=True,
                           cwd=REPO, env=env)
    arrivals: list[tuple[float, dict[str, Any]]] = []
    stop = threading.Event()

    def listen() -> None:
        while not stop.is_set():
            try:
                with httpx.stream("GET", f"http://127.0.0.1:{display}/api/events", timeout=None) as r:
                    event = ""
                    for line in r.iter_lines():
                        if stop.is_set():
                            return
                        if line.startswith("event: "):
                            event = line[7:]
                        elif line.startswith("data: ") and event == "camera":
                            arrivals.append((time.time(), json.loads(line[6:])))
            except httpx.HTTPError:
                time.sleep(0.1)

    agent = None
    clock = StreamClock(port)
    try:
        try:
            wait_until_answered(f"http://127.0.0.1:{display}/api/camera", run, 60)
        except RuntimeError as failed:
            raise SystemExit(f"borne run did not start ({failed}):\n{(tmp / 'run.log').read_text()}") from None
        threading.Thread(target=listen, daemon=True).start()
        time.sleep(0.5)
        agent = start_agent(video, port, quality, tmp / "agent2.log")
        wait_agent(port, agent)
        clock.start()
        total = len(events)
        frames_in_video = int(cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_FRAME_COUNT))
        time.sleep(frames_in_video / 10.0 + 4.0)
        camera = httpx.get(f"http://127.0.0.1:{display}/api/camera", timeout=2).json()
    finally:
        stop.set()
        clock.stop.set()
        if agent is not None:
            agent.terminate()
            agent.wait(10)
        run.terminate()
        run.wait(20)
    # each card counted: the first SSE update with it, against the capture of the frame it landed in
    left = [dict(e) for e in events]
    delays: list[float] = []
    seen = 0
    for at, doc in arrivals:
        plays = doc.get("plays", 0)
        if plays <= seen:
            continue
        for e in doc.get("events", [])[-(plays - seen):]:
            # the latest landing of that card on that side captured before the update (an earlier copy that
            # the pipeline missed must not make this one look late); the agent numbers frames from 1
            landed = [(clock.captured[int(t["frame"]) + 1], t) for t in left
                      if t["side"] == e["side"] and t["card"] == e["card"]
                      and clock.captured.get(int(t["frame"]) + 1, at + 1) <= at]
            if not landed:
                continue
            captured, match = max(landed, key=lambda x: x[0])
            left.remove(match)
            delays.append(at - captured)
        seen = plays
    print(f"\n2. end to end over loopback ({'true boxes' if truth_boxes else 'the shipped detector'}), "
          f"1280 × 720 at 10 frames/s")
    print(f"   pipeline rate in borne run                 {camera['frames_per_second']:.1f} frames/s "
          f"({camera['frames']} frames read)")
    print(f"   cards counted and matched                  {len(delays)} of the hand's {total} distance cards "
          "and safeties")
    print(f"   card lands (frame captured) → display      {ms(delays)}")
    return float(camera["frames_per_second"]) or None


def part_pi(images: list[np.ndarray]) -> None:
    from vision.read.detector import OnnxCardDetector
    from vision.read.frame_reader import FrameReader
    from vision.read.models import detector_path

    detector = OnnxCardDetector(detector_path())
    tile = np.ascontiguousarray(images[len(images) // 2][:, :720])
    for _ in range(3):
        detector.detect(tile)
    tiles = []
    for _ in range(15):
        t0 = time.perf_counter()
        detector.detect(tile)
        tiles.append(time.perf_counter() - t0)
    reader = FrameReader.from_models()
    for image in images[:3]:
        reader.read(image)
    frames = []
    for image in images[:: max(1, len(images) // 15)][:15]:
        t0 = time.perf_counter()
        reader.read(image)
        frames.append(time.perf_counter() - t0)
    tile_ms, frame_ms = 1000 * statistics.median(tiles), 1000 * statistics.median(frames)
    pi5 = PUBLISHED_MS["yolo11n_pi5"]
    pi4 = pi5 * PUBLISHED_MS["yolov8n_pi4"] / PUBLISHED_MS["yolov8n_pi5"]
    print("\n3. the live pipeline on a Raspberry Pi (an estimate, not a measurement)")
    print(f"   here: detector on one 640-px tile          {tile_ms:.0f} ms; a whole 1280 × 720 frame read "
          f"(two tiles + faces) {frame_ms:.0f} ms ({1000 / frame_ms:.1f} frames/s)")
    print(f"   published ONNX Runtime, YOLO11n at 640     Pi 5 {pi5:.0f} ms; Pi 4 {pi4:.0f} ms "
          f"(Pi 5 × {PUBLISHED_MS['yolov8n_pi4']:.0f}/{PUBLISHED_MS['yolov8n_pi5']:.0f}, YOLOv8n on both)")
    for name, published in (("Pi 5", pi5), ("Pi 4", pi4)):
        ratio = published / tile_ms
        est = frame_ms * ratio
        print(f"   {name}: ×{ratio:.1f} this machine → {est:.0f} ms a frame, {1000 / est:.1f} frames/s "
              f"(a card counted after 3 frames read: about {3 * est / 1000:.1f} s)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=12.0, help="how long the agent is measured")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--frames", type=int, default=150, help="frames of the rendered hand")
    p.add_argument("--jpeg-quality", type=int, default=80)
    p.add_argument("--truth-boxes", action="store_true", help="borne run replays the true boxes (no detector)")
    p.add_argument("--skip-pi", action="store_true", help="leave out the Pi estimate")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cam-") as d:
        tmp = Path(d)
        print(f"rendering a 1280 × 720 hand (seed {args.seed}, {args.frames} frames) …", flush=True)
        seq = render(tmp / "seq", args.seed, args.frames)
        video, images = make_video(seq, tmp / "hand.avi", 10.0, hold_s=3.0)
        part_agent(video, images, args.jpeg_quality, args.seconds, tmp)
        part_end_to_end(seq, video, args.truth_boxes, args.jpeg_quality, tmp)
        if not args.skip_pi:
            part_pi(images)
    print(f"\nload average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
