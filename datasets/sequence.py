"""Game sequences: one simulated hand rendered frame by frame for one table and camera.

Each play is shown as a hand reaching in, the card appearing under it, the hand leaving,
then a pause; the camera shakes now and then and the light drifts (the plan of the frames is
:func:`datasets.frame_plan.plan_hand`'s). The objects on the table stay as they are from frame to frame (until
2026-12-07 each frame drew them anew: a glass became a phone at the same spot, which no table does and every
change detector takes for a card laid). Written as

    out/frames/000000.jpg …  out/truth/000000.json …  out/video.mp4 (or video.avi)
    out/layout.json  out/hand.json (final record)  out/events.json (frame of each play)
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from datasets.camera import project
from datasets.frame_plan import FPS, HandPlan, Shot, plan_hand
from datasets.labels import layout_json, truth_json
from datasets.scene import SceneRenderer, SceneSpec

__all__ = ["FPS", "generate_sequence", "open_video", "write_hand_files", "write_if_changed"]

REACH_PX = 250
"""How far (pixels) a hand a whole reach away (:attr:`~datasets.frame_plan.Reach.back` 1) is from its card."""


def open_video(out: Path, width: int, height: int, fps: int = FPS) -> tuple[cv2.VideoWriter | None, Path | None]:
    """A video writer for ``out/video.mp4``, else ``out/video.avi`` (MJPEG), else none (OpenCV without codecs)."""
    for name, fourcc in (("video.mp4", "mp4v"), ("video.avi", "MJPG")):
        w = cv2.VideoWriter(str(out / name), cv2.VideoWriter_fourcc(*fourcc), fps, (width, height))  # type: ignore[attr-defined]
        if w.isOpened():
            return w, out / name
    return None, None


def write_hand_files(out: Path, plan: HandPlan, layout: dict[str, object] | None) -> None:
    """``layout.json``, ``hand.json`` (the record of the last frame's table) and ``events.json``; a file already so is left alone."""
    write_if_changed(out / "layout.json", json.dumps(layout, indent=1))
    write_if_changed(out / "hand.json", json.dumps(plan.shown().record().to_json(), indent=1))
    write_if_changed(out / "events.json", json.dumps(plan.events(), indent=1))


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (a resumed render leaves finished files untouched)."""
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def _arms(plan: HandPlan, shot: Shot) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """The hand over the table in image pixels (fingertips, reach direction, look seed), seen by the unknocked camera."""
    reach = shot.frame.reach
    if reach is None:
        return []
    tip_mm, seat = plan.fingertips_and_seat(reach, shot.arrangement)
    q = project(plan.camera.homography(), np.array([seat, tip_mm]))
    tip, towards = q[1], q[1] - q[0]
    looks = plan.seed * 8 + plan.player_index(reach)  # one look per player
    return [(tip - towards / (np.linalg.norm(towards) + 1e-9) * reach.back * REACH_PX, towards, looks)]


def generate_sequence(
    out: Path,
    *,
    seed: int,
    spec: SceneSpec = SceneSpec(),
    sides: int = 2,
    max_frames: int | None = None,
    video: bool = True,
    progress: bool = True,
    fps: int = FPS,
    drift: bool = False,
) -> dict[str, object]:
    """Render the hand of ``seed`` into ``out``, filmed at ``fps`` (:data:`~datasets.frame_plan.CAMERA_RATES`), with
    ``drift`` a real camera's wandering exposure and lasting nudge (:attr:`~datasets.frame_plan.HandPlan.drift`);
    returns a summary (frames, plays, video path)."""
    renderer = SceneRenderer(spec)
    plan = plan_hand(seed, spec, sides=sides, max_frames=max_frames, fps=fps, drift=drift)
    frames_dir, truth_dir = out / "frames", out / "truth"
    frames_dir.mkdir(parents=True, exist_ok=True)
    truth_dir.mkdir(parents=True, exist_ok=True)
    writer, video_path = open_video(out, spec.width, spec.height, fps) if video else (None, None)
    layout = None
    objects = int(np.random.default_rng([plan.seed, 37]).integers(2**31))  # the hand's objects, the same every frame
    shots = plan.shots()
    if progress:
        from tqdm import tqdm

        shots = tqdm(shots, total=plan.filmed, desc="frames", unit="frame")
    for shot in shots:
        scene = renderer.render(shot.frame.table, shot.rng, camera=shot.camera, arrangement=shot.arrangement, surface=plan.surface,
                                arms=_arms(plan, shot), distractors=list(plan.distractors),
                                light={**shot.light, "gain": shot.light["gain"] / shot.exposure}, objects_seed=objects)
        name = f"{shot.index:06d}"
        cv2.imwrite(str(frames_dir / f"{name}.jpg"), scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        truth = truth_json(scene, image=f"frames/{name}.jpg")
        truth["frame"] = shot.index
        (truth_dir / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))
        if layout is None:
            layout = layout_json(scene)
        if writer is not None:
            writer.write(np.ascontiguousarray(scene.image[..., ::-1]))
    if writer is not None:
        writer.release()
    write_hand_files(out, plan, layout)
    return {"frames": plan.filmed, "plays": len(plan.events()), "video": str(video_path) if video_path else None}
