"""Photo-real game sequences: the hand of a seed filmed as :mod:`datasets.sequence` films it, rendered by Blender.

The same files as a 2-D sequence, so ``borne replay`` and ``bench/bench_replay.py`` read either:

    out/frames/000000.jpg …  out/truth/000000.json …  out/video.mp4 (or video.avi)
    out/layout.json  out/hand.json  out/events.json
    out/sequence.json (the settings, the deck the cards are printed from, the locked exposure)

The frames follow the 2-D plan of the seed (:func:`datasets.frame_plan.plan_hand`): the same table
states, the same camera, knocks and reaches, so the events and the final record are the 2-D ones.
What stays put over a hand is drawn once (a :class:`~datasets.photoreal.stage.PhotoSet`: deck, table
top, objects, world light and lamps, Cycles' seed), and each card keeps its bend and gloss from the
frame it lands on (drawn from its place, :func:`~datasets.arrangement.place_key`) until a card covers it
and presses it flat; only the cards and the arms change from frame to frame. The phone, like a phone
filming, meters the bare table of the first frame and holds that exposure; each frame has its own grain.

Frames whose truth exists are skipped, so an interrupted hand resumes; Blender renders a few frames
per start, as for stills (:func:`~datasets.photoreal.photos.render_stages`). A frame whose stage is the
frame before's (the table lying still between plays) is not drawn again: the same stage and Cycles seed
make the same render, so it is finished from the passes already drawn, with its own grain.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.arrangement import place_key
from datasets.errors import SceneSpecError
from datasets.frame_plan import FPS, HandPlan, Shot, plan_hand
from datasets.labels import layout_of, truth_json
from datasets.photoreal.finish import meter, photo_from_passes, read_pass
from datasets.photoreal.photos import BLENDER, batches, blender_available, id_buffer, labelled_scene, render_stages
from datasets.photoreal.stage import PhotoSet, PhotoSpec, Stage, arm_json, card_json, draw_set, stack, stage_json
from datasets.scene import SceneSpec
from datasets.sequence import open_video, write_hand_files, write_if_changed

BATCH_FRAMES = 6
"""Frames one Blender process renders: more frames per start, fewer starts (a few seconds each)."""
REACH_MM = 300.0
"""How far a hand a whole reach away (:attr:`~datasets.frame_plan.Reach.back` 1) is from its card."""
JPEG_QUALITY = 90
SETTINGS = ("seed", "sides", "width", "height", "samples", "edition", "objects", "held_out", "test_split", "fps", "drift")
"""What a frame depends on: a folder is resumed only with the same (``max_frames`` only cuts the plan short)."""


def generate_photo_sequence(
    out: Path, *, seed: int, spec: PhotoSpec = PhotoSpec(), sides: int = 2, max_frames: int | None = None,
    progress: Callable[[int, int], None] | None = None, video: bool = True, blender: str = BLENDER,
    cache: Path | None = None, batch: int = BATCH_FRAMES, fps: int = FPS, drift: bool = False,
) -> dict[str, object]:
    """Render the hand of ``seed`` photo-real into ``out``, filmed at ``fps`` (a camera at 5 frames a second films
    one frame in two of the plan: half the rendering); returns a summary (frames, plays, rendered, video path).

    ``progress(done, total)`` is called once the frames are planned and after each frame; ``cache``
    holds textures and decks (several hands may share one). ``spec.hands`` plays no part: the plan
    says when a hand is over the table. ``drift``: the camera's exposure wanders from the metered one and in some
    hands the camera is nudged once for good (:attr:`~datasets.frame_plan.HandPlan.drift`; ``sequence.json`` says
    from which frame, ``nudged_at``).

    :raises SceneSpecError: a bad spec, ``max_frames`` below 1, no Blender, Blender failing, or a folder
        rendered with other settings.
    """
    spec.check()
    if max_frames is not None and max_frames < 1:
        raise SceneSpecError(f"max_frames must be at least 1, not {max_frames}")
    if not blender_available(blender):
        raise SceneSpecError(f"{blender}: not found; photo-real sequences need Blender (apt-get install blender)")
    plan = plan_hand(seed, SceneSpec(width=spec.width, height=spec.height), sides=sides, max_frames=max_frames, fps=fps,
                     drift=drift)
    passes = out / ".passes"
    for folder in (out / "frames", out / "truth", passes):
        folder.mkdir(parents=True, exist_ok=True)
    shot_on = draw_set(np.random.default_rng([seed, 17]), spec, cache or passes / "textures", plan.final, plan.camera)
    settings = _settings(out, {"seed": seed, "sides": sides, "width": spec.width, "height": spec.height, "samples": spec.samples,
                               "edition": spec.edition, "objects": spec.objects, "held_out": spec.held_out, "test_split": spec.test_split,
                               "fps": fps, "drift": drift, "deck": shot_on.deck})
    nudge = plan.nudge()
    if nudge is not None and "nudged_at" not in settings:  # the first filmed frame from the nudged camera
        settings["nudged_at"] = -(-nudge[0] // plan.every)
        write_if_changed(out / "sequence.json", json.dumps(settings, indent=1))
    shots = list(plan.shots())
    todo = [s for s in shots if not _truth(out, s.index).is_file()]
    done = len(shots) - len(todo)
    if todo and "exposure" not in settings and todo[0].index != 0:
        todo.insert(0, shots[0])  # the frame the exposure is metered on, rendered again to meter it
    if progress is not None:
        progress(done, len(shots))
    written = reused = 0
    held = _HeldPasses(passes / "held")
    for group in batches(todo, max(batch, 1)):
        work = [(shot, frame_stage(plan, shot, shot_on, spec, passes / f"{shot.index:06d}")) for shot in group]
        looks = [_look(stage) for _, stage in work]
        repeats = [look == before for look, before in zip(looks, [held.look, *looks[:-1]])]
        fresh = [stage for (_, stage), again in zip(work, repeats) if not again]
        if fresh:
            render_stages(fresh, passes / "jobs.json", blender, passes / "blender.log")
        for (shot, stage), look, again in zip(work, looks, repeats):
            if not again:
                held.keep(passes / f"{shot.index:06d}", look)
            if "exposure" not in settings:  # frame 0 comes first: the bare table sets the exposure for the hand
                settings["exposure"] = meter(read_pass(held.folder, "image"), read_pass(held.folder, "albedo"))
                write_if_changed(out / "sequence.json", json.dumps(settings, indent=1))
            if not _truth(out, shot.index).is_file():
                _write_frame(out, shot, stage, held.folder, plan.seed, settings["exposure"] * shot.exposure)
                written += 1
                reused += again
                if progress is not None:
                    progress(done + written, len(shots))
    held.drop()
    first = shots[0] if shots else None
    write_hand_files(out, plan, layout_of(first.arrangement, first.camera.homography()) if first else None)
    video_path = _video(out, len(shots), spec, fps, again=written > 0) if video else None
    return {"frames": len(shots), "plays": len(plan.events()), "rendered": written, "reused": reused,
            "video": str(video_path) if video_path else None}


def frame_stage(plan: HandPlan, shot: Shot, shot_on: PhotoSet, spec: PhotoSpec, folder: Path) -> Stage:
    """The stage of one frame: the hand's set, as the frame's camera and light have it, with that frame's cards and arm."""
    arr = shot.arrangement
    layers, covered = stack(arr.cards)
    cards = []
    for i, card in enumerate(arr.cards):
        place = place_key(card)
        bend = None if covered[i] else np.random.default_rng([plan.seed, 19, place, 0])
        cards.append(card_json(i, card, layers[i], shot_on.faces, bend, np.random.default_rng([plan.seed, 19, place, 1])))
    arms = []
    reach = shot.frame.reach
    if reach is not None:
        tip, seat = plan.fingertips_and_seat(reach, arr)
        away = (tip - seat) / (np.linalg.norm(tip - seat) + 1e-9) * reach.back * REACH_MM  # the whole arm slides back
        arms.append(arm_json(np.random.default_rng([plan.seed, 23, plan.player_index(reach)]), tip - away, seat - away))
    gain = shot.light["gain"] / plan.light["gain"]  # the 2-D plan's light drift, as the lamps' and the sky's power
    lit = replace(shot_on, camera=shot.camera,
                  world={**shot_on.world, "strength": round(shot_on.world["strength"] * gain, 4)},
                  lights=[{**lamp, "power": round(lamp["power"] * gain, 3)} for lamp in shot_on.lights])
    return Stage(stage_json(lit, spec, folder, cards, arms), shot.camera, arr, shot_on.surface, covered, shot_on.deck)


def _look(stage: Stage) -> str:
    """What Blender draws for a stage: everything in its JSON but the folder its passes go to."""
    return json.dumps({k: v for k, v in stage.json.items() if k != "folder"}, sort_keys=True)


class _HeldPasses:
    """The passes of the last frame Blender drew, kept while the frames after it show the same stage.

    Between plays the table lies still (a pause, the finished hand looked at): the same stage, and with
    the hand's one Cycles seed the same render, so those frames are finished from the passes already
    drawn, each with its own grain, instead of being drawn again.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.look: str | None = None

    def keep(self, rendered: Path, look: str) -> None:
        self.drop()
        rendered.rename(self.folder)
        self.look = look

    def drop(self) -> None:
        if self.folder.exists():
            shutil.rmtree(self.folder)
        self.look = None


def _write_frame(out: Path, shot: Shot, stage: Stage, folder: Path, seed: int, exposure: float) -> None:
    """Finish a rendered frame: the phone's settings fixed for the hand, its grain drawn per frame; the truth last."""
    image = photo_from_passes(folder, np.random.default_rng([seed, 29]), key=exposure,
                              noise=np.random.default_rng([seed, 31, shot.index]))
    idbuf = id_buffer(read_pass(folder, "index"), len(stage.arrangement.cards))
    scene = labelled_scene(stage, shot.frame.table, image, idbuf)
    name = f"{shot.index:06d}"
    cv2.imwrite(str(out / "frames" / f"{name}.jpg"), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    truth = truth_json(scene, image=f"frames/{name}.jpg")
    truth["frame"] = shot.index
    _truth(out, shot.index).write_text(json.dumps(truth, separators=(",", ":")))


def _truth(out: Path, index: int) -> Path:
    return out / "truth" / f"{index:06d}.json"


def _settings(out: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """The folder's recorded settings (with the exposure once metered), written when new.

    :raises SceneSpecError: the folder holds frames rendered with other settings.
    """
    path = out / "sequence.json"
    if path.is_file():
        recorded = json.loads(path.read_text())
        recorded.setdefault("test_split", False)  # folders rendered before the test split existed
        recorded.setdefault("fps", FPS)  # and before a hand could be filmed at another rate
        recorded.setdefault("drift", False)  # and before the camera's drift
        changed = [k for k in SETTINGS if recorded.get(k) != settings[k]]
        if changed:
            differ = ", ".join(f"{k} {recorded.get(k)} there, {settings[k]} now" for k in changed)
            raise SceneSpecError(f"{out}: rendered with other settings ({differ}); render into another folder")
        return recorded
    write_if_changed(path, json.dumps(settings, indent=1))
    return dict(settings)


def _video(out: Path, frames: int, spec: PhotoSpec, fps: int, *, again: bool) -> Path | None:
    """The frames as a video (kept when no frame is new)."""
    existing = next((p for p in (out / "video.mp4", out / "video.avi") if p.is_file()), None)
    if existing is not None and not again:
        return existing
    writer, path = open_video(out, spec.width, spec.height, fps)
    if writer is None:
        return None
    for f in range(frames):
        image = cv2.imread(str(out / "frames" / f"{f:06d}.jpg"))
        if image is not None:
            writer.write(image)
    writer.release()
    return path
