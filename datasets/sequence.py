"""Game sequences: one simulated hand rendered frame by frame for one table and camera.

Each play is shown as a hand reaching in, the card appearing under it, the hand leaving,
then a pause; the camera shakes now and then and the light drifts. Written as

    out/frames/000000.jpg …  out/truth/000000.json …  out/video.mp4 (or video.avi)
    out/layout.json  out/hand.json (final record)  out/events.json (frame of each play)
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from datasets.arrangement import arrange
from datasets.camera import sample_camera
from datasets.labels import layout_json, truth_json
from datasets.scene import SceneRenderer, SceneSpec, random_arm, sample_light
from datasets.simulator import simulate_hand
from datasets.table import TableState
from datasets.textures import sample_surface

FPS = 10


def _longest(table: TableState) -> int:
    from scoring.cards import DISTANCE_CARDS

    return max([1] + [sum(1 for c in s.distance if c is d) for s in table.sides for d in DISTANCE_CARDS])


def generate_sequence(
    out: Path,
    *,
    seed: int,
    spec: SceneSpec = SceneSpec(),
    sides: int = 2,
    max_frames: int | None = None,
    video: bool = True,
    progress: bool = True,
) -> dict[str, object]:
    """Render the hand of ``seed`` into ``out``; returns a summary (frames, plays, video path)."""
    rng = np.random.default_rng([seed, 7])
    hand = simulate_hand(seed, sides)
    renderer = SceneRenderer(spec)
    stable = int(rng.integers(2**31))
    final = hand.tables[-1] if hand.tables else hand.initial
    longest = _longest(final)
    final_arr = arrange(final, rng, stable_seed=stable, longest=longest)
    camera = sample_camera(rng, spec.width, spec.height, final_arr.extent(areas=True))
    surface = sample_surface(rng, spec.surfaces, spec.surface_folder)
    light = sample_light(rng)
    distractors = [final_arr.extent(areas=True).mean(axis=0) + rng.normal(0, 1, 2) * 350 for _ in range(int(rng.integers(0, 3)))]
    # the frame plan: (table to show, arm or None, play index that just happened or -1)
    plan: list[tuple[TableState, tuple[np.ndarray, np.ndarray] | None, int, int]] = []
    previous = hand.initial
    for _ in range(int(rng.integers(2, 5))):
        plan.append((previous, None, -1, -1))
    for i, (play, table) in enumerate(zip(hand.plays, hand.tables)):
        reach = int(rng.integers(2, 4))
        placed = next((c for c in reversed(arrange(table, rng, stable_seed=stable, longest=longest).cards) if c.card is play.card), None)
        for k in range(reach):
            plan.append((previous, ("reach", k / reach, placed), -1, i))  # type: ignore[arg-type]
        plan.append((table, ("reach", 1.0, placed), i, i))  # type: ignore[arg-type]
        plan.append((table, ("leave", 0.5, placed), -1, i))  # type: ignore[arg-type]
        for _ in range(int(rng.integers(0, 4))):
            plan.append((table, None, -1, i))
        previous = table
    # the players look at the finished hand for a second or two before anyone touches it
    # (a generator of its own, so that every frame before stays as it was)
    for _ in range(int(np.random.default_rng([seed, 8]).integers(FPS, 2 * FPS + 1))):
        plan.append((previous, None, -1, len(hand.plays) - 1))
    if max_frames is not None:
        plan = plan[:max_frames]
    frames_dir, truth_dir = out / "frames", out / "truth"
    frames_dir.mkdir(parents=True, exist_ok=True)
    truth_dir.mkdir(parents=True, exist_ok=True)
    writer = None
    video_path: Path | None = None
    if video:
        for name, fourcc in (("video.mp4", "mp4v"), ("video.avi", "MJPG")):
            w = cv2.VideoWriter(str(out / name), cv2.VideoWriter_fourcc(*fourcc), FPS, (spec.width, spec.height))  # type: ignore[attr-defined]
            if w.isOpened():
                writer, video_path = w, out / name
                break
    events = []
    layout = None
    steps = range(len(plan))
    if progress:
        from tqdm import tqdm

        steps = tqdm(steps, desc="frames", unit="frame")
    for f in steps:
        table, arm, happened, _ = plan[f]
        frng = np.random.default_rng([seed, 11, f])
        arr = arrange(table, frng, stable_seed=stable, longest=longest)
        cam = camera
        if frng.random() < 0.08:  # a knock on the table or the camera mount
            cam = replace(camera, target=(camera.target[0] + frng.normal(0, 4), camera.target[1] + frng.normal(0, 4)),
                          yaw_deg=camera.yaw_deg + frng.normal(0, 0.4))
        if frng.random() < 0.05:
            light = {**light, "gain": float(np.clip(light["gain"] * frng.uniform(0.9, 1.1), 0.6, 1.25))}
        arms = []
        if arm is not None and arm[2] is not None:  # type: ignore[misc]
            kind, t, target = arm  # type: ignore[misc]
            play = hand.plays[plan[f][3]]
            tip, towards = random_arm(np.random.default_rng([seed, 13, max(happened, plan[f][3])]), arr, camera.homography(), target,
                                      player=play.player)
            back = 1.0 - t if kind == "leave" else 1.0 - t
            looks = seed * 8 + [s.side for s in hand.initial.sides].index(play.player)  # one look per player
            arms.append((tip - towards / (np.linalg.norm(towards) + 1e-9) * back * 250, towards, looks))
        scene = renderer.render(table, frng, camera=cam, arrangement=arr, surface=surface, arms=arms,
                                distractors=distractors, light=light)
        name = f"{f:06d}"
        cv2.imwrite(str(frames_dir / f"{name}.jpg"), scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        truth = truth_json(scene, image=f"frames/{name}.jpg")
        truth["frame"] = f
        (truth_dir / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))
        if layout is None:
            layout = layout_json(scene)
        if happened >= 0:
            p = hand.plays[happened]
            events.append({"frame": f, "side": p.side, "card": p.card.value, "sideways": p.sideways, "pile": p.pile.value,
                           "player": p.player})
        if writer is not None:
            writer.write(np.ascontiguousarray(scene.image[..., ::-1]))
    if writer is not None:
        writer.release()
    shown = plan[-1][0] if plan else hand.initial
    (out / "layout.json").write_text(json.dumps(layout, indent=1))
    (out / "hand.json").write_text(json.dumps(shown.record().to_json(), indent=1))
    (out / "events.json").write_text(json.dumps(events, indent=1))
    return {"frames": len(plan), "plays": len(events), "video": str(video_path) if video_path else None}
