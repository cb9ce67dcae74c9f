"""The photo-real renderer: stages decided from a seed, Blender's camera the same as the labels', labels from the index pass."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.arrangement import PlacedCard, place_key
from datasets.camera import Camera, project
from datasets.errors import SceneSpecError
from datasets.frame_plan import plan_hand
from datasets.generate import moment
from datasets.occluders import OCCLUDER
from datasets.photoreal.decks import MIXED, deck_files
from datasets.photoreal.photos import SCRIPT, generate_photos, id_buffer
from datasets.photoreal.sequences import frame_stage, generate_photo_sequence
from datasets.photoreal.stage import (
    GRID,
    LAYER_MM,
    OCCLUDER_INDEX,
    PhotoSpec,
    camera_json,
    card_vertices,
    draw_set,
    make_stage,
    stack,
)
from datasets.photoreal.surfaces import HELD_OUT, TRAINING, pattern_path, read_pattern
from datasets.scene import EMPTY, SceneSpec
from datasets.sequence import generate_sequence
from scoring.cards import Card


def _blender_pixel(cam: Camera, point_mm: np.ndarray) -> np.ndarray:
    """Where Blender's camera (as the stage gives it) puts a table point: pinhole maths on its matrix and lens."""
    spec = camera_json(cam)
    m = np.array(spec["matrix"])
    local = m[:3, :3].T @ (np.append(point_mm / 1000.0, 0.0) - m[:3, 3])
    f_px = spec["lens_mm"] / spec["sensor_mm"] * cam.width
    return np.array([cam.width / 2 + f_px * local[0] / -local[2], cam.height / 2 - f_px * local[1] / -local[2]])


def test_blenders_camera_sees_the_table_where_the_labels_say():
    cam = Camera(1280, 720, 70.0, 1000.0, 25.0, 40.0, 30.0, (20.0, -30.0))
    points = np.array([[0.0, 0.0], [250.0, -120.0], [-300.0, 200.0]])
    expected = project(cam.homography(), points)
    for p, q in zip(points, expected):
        assert np.allclose(_blender_pixel(cam, p), q, atol=1e-6)


def test_cards_in_a_column_stack_and_only_uncovered_cards_bend():
    column = [PlacedCard(Card.DISTANCE_25, (0.0, -25.0 * k), 0.0, "South", pile="distance") for k in range(3)]
    apart = PlacedCard(Card.STOP, (300.0, 0.0), 0.0, "South", pile="battle")
    layers, covered = stack([*column, apart])
    assert layers == [0, 1, 2, 0] and covered == [True, True, False, False]
    flat = np.array(card_vertices(column[0], 0, None))
    assert flat.shape == (GRID[0] * GRID[1], 3) and np.ptp(flat[:, 2]) == 0
    for seed in range(20):
        bent = np.array(card_vertices(column[2], 2, np.random.default_rng(seed)))
        assert bent[:, 2].min() >= flat[0, 2] + 2 * LAYER_MM / 1000 - 1e-9  # never dips into the card below


def test_a_stage_depends_only_on_its_seed(tmp_path):
    spec = PhotoSpec(width=320, height=180, samples=2)
    stages = []
    for _ in range(2):
        table, rng = moment(5, 3)
        stages.append(make_stage(table, rng, spec, tmp_path / "p", tmp_path / "tex"))
    assert json.dumps(stages[0].json) == json.dumps(stages[1].json)
    assert 0 < len(stages[0].json["cards"]) == len(stages[0].arrangement.cards)


def test_a_phone_photo_is_hand_held_either_way_up_with_the_whole_table_in_frame(tmp_path):
    spec = PhotoSpec(width=400, height=300, samples=1, phone=True)
    sizes = set()
    for i in range(16):
        table, rng = moment(8, i)
        stage = make_stage(table, rng, spec, tmp_path / "p", tmp_path / "tex")
        cam = stage.camera
        sizes.add((stage.json["width"], stage.json["height"]))
        assert (cam.width, cam.height) == (stage.json["width"], stage.json["height"])
        assert 500 <= cam.height_mm <= 1200 and cam.tilt_deg <= 35 and cam.hfov_deg >= 63
        corners = project(cam.homography(), stage.arrangement.extent())
        assert ((corners >= 0) & (corners <= [cam.width, cam.height])).all()
    assert sizes == {(400, 300), (300, 400)}


def test_held_out_surfaces_are_gimp_photographs_no_training_scene_uses():
    assert not {p.name for p in TRAINING} & {p.name for p in HELD_OUT}
    for pattern in (TRAINING[0], HELD_OUT[0]):
        rgb = read_pattern(pattern_path(pattern))
        assert rgb.ndim == 3 and rgb.shape[2] == 3 and rgb.std() > 5


def test_the_index_pass_becomes_the_id_buffer_of_2d_scenes():
    index = np.array([[0, 1, 2], [OCCLUDER_INDEX, 3, 0.0]], np.float32)
    assert id_buffer(index, cards=2).tolist() == [[EMPTY, 0, 1], [OCCLUDER, EMPTY, EMPTY]]


def test_bad_photo_specs_are_refused_before_anything_is_written(tmp_path):
    with pytest.raises(SceneSpecError, match="samples"):
        generate_photos(tmp_path / "out", count=1, seed=0, spec=PhotoSpec(samples=0))
    with pytest.raises(SceneSpecError, match="count"):
        generate_photos(tmp_path / "out", count=0, seed=0)
    with pytest.raises(SceneSpecError, match="not found"):
        generate_photos(tmp_path / "out", count=1, seed=0, blender="no-such-blender")
    assert not (tmp_path / "out").exists()


def test_blender_renders_a_card_exactly_where_its_corners_project(tmp_path):
    """One card under a camera tilted 20°: the index pass covers the card's projected outline."""
    cam = Camera(320, 180, 60.0, 600.0, 20.0, 90.0, 15.0, (0.0, 0.0))
    card = PlacedCard(Card.DISTANCE_100, (10.0, 5.0), math.radians(30), "South", pile="distance")
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), np.full((8, 8, 3), 90, np.uint8))
    face = deck_files("generic", np.random.default_rng(0), tmp_path)[1][card.card.value]
    stage = {"width": 320, "height": 180, "samples": 2, "threads": 2, "seed": 1, "folder": str(tmp_path / "p"),
             "camera": camera_json(cam),
             "table": {"image": str(table), "tile_m": 1.0, "roughness": 0.5, "variation": 0.1,
                       "rotation": 0.0, "bump": 0.1},
             "cards": [{"pass_index": 1, "image": str(face), "grid": list(GRID), "vertices": card_vertices(card, 0, None),
                        "thickness": 0.0003, "roughness": 0.3, "clearcoat": 0.1}],
             "arms": [], "objects": [], "world": {"hdri": "studio.exr", "strength": 1.0, "rotation": 0.0},
             "lights": []}
    (tmp_path / "jobs.json").write_text(json.dumps({"stages": [stage]}))
    done = subprocess.run(["blender", "-b", "--factory-startup", "--python", str(SCRIPT), "--", str(tmp_path / "jobs.json")],
                          capture_output=True, text=True, timeout=300)
    assert (tmp_path / "p" / "done").is_file(), done.stdout[-2000:]
    index = np.load(tmp_path / "p" / "index.npy")[..., 0]
    corners = project(cam.homography() @ card.face_to_table(1, 1), np.array([[0, 0], [1, 0], [1, 1], [0, 1.0]]))
    outline = np.zeros(index.shape, np.uint8)
    cv2.fillConvexPoly(outline, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    rendered = np.rint(index) == 1
    iou = (rendered & (outline > 0)).sum() / (rendered | (outline > 0)).sum()
    assert iou > 0.93, iou


def test_a_photo_batch_writes_labels_that_agree_with_the_render_and_resumes(tmp_path):
    out = tmp_path / "photos"
    spec = PhotoSpec(width=256, height=144, samples=2, hands=1.0)
    generate_photos(out, count=1, seed=11, spec=spec)
    truth = json.loads((out / "truth" / "000000.json").read_text())
    image = cv2.imread(str(out / "images" / "000000.jpg"))
    assert image.shape == (144, 256, 3) and image.std() > 10
    cards = [c for s in truth["sides"] for c in s["cards"]] + truth["table_cards"]
    assert cards and all(0 <= c["visible"] <= 1 for c in cards)
    assert any(c["visible"] > 0.9 for c in cards)
    labels = (out / "labels" / "000000.txt").read_text().splitlines()
    assert 0 < len(labels) <= sum(1 for c in cards if c["visible_corners"] is not None)
    assert not (out / ".passes" / "000000").exists()  # the passes are gone once the photo is finished
    stamp = (out / "truth" / "000000.json").stat().st_mtime_ns
    generate_photos(out, count=1, seed=11, spec=spec)
    assert (out / "truth" / "000000.json").stat().st_mtime_ns == stamp


def test_mixed_decks_draw_many_editions_each_with_its_own_faces_and_back(tmp_path):
    """`--edition mixed`: scenes wear the generic, retro, procedural and full-bleed decks; a named edition draws nothing."""
    rng = np.random.default_rng(3)
    assert deck_files("generic", rng, tmp_path)[0] == "generic"
    assert rng.random() == np.random.default_rng(3).random()  # a named edition left the generator alone
    names = [deck_files(MIXED, np.random.default_rng([7, i]), tmp_path)[0] for i in range(40)]
    assert "generic" in names and "retro" in names and any(n.startswith("bleed-") for n in names)
    procedural = sorted({n for n in names if n.startswith("procedural-")})
    assert len(procedural) >= 10
    name, files = deck_files(MIXED, np.random.default_rng([7, names.index(procedural[0])]), tmp_path)
    assert name == procedural[0] and set(files) == {c.value for c in Card} | {"back"}
    faces = {k: cv2.imread(str(f)) for k, f in files.items()}
    assert all(f is not None and f.shape[0] > f.shape[1] > 100 for f in faces.values())
    assert not np.array_equal(faces["distance_25"], faces["distance_200"]) and not np.array_equal(faces["back"], faces["distance_25"])
    generic = deck_files("generic", rng, tmp_path)[1]
    assert cv2.imread(str(generic["distance_25"])).shape != faces["distance_25"].shape or not np.array_equal(
        cv2.imread(str(generic["distance_25"])), faces["distance_25"])


def test_a_mixed_stage_prints_its_cards_from_the_deck_it_drew(tmp_path):
    table, rng = moment(11, 0)
    stage = make_stage(table, rng, PhotoSpec(edition=MIXED), tmp_path / "p", tmp_path / "cache")
    images = {Path(c["image"]).parent for c in stage.json["cards"]}
    assert len(images) == 1
    if stage.deck != "generic":
        assert images == {(tmp_path / "cache" / "decks" / stage.deck).resolve()}


def test_the_denoiser_gives_the_same_picture_every_time():
    """Open Image Denoise only borrows its buffers: each must outlive the filter (a freed temporary made every call differ)."""
    from datasets.photoreal.finish import denoise

    rng = np.random.default_rng(4)
    image, albedo = rng.random((40, 64, 3), dtype=np.float32), rng.uniform(-0.2, 1.2, (40, 64, 3)).astype(np.float32)
    normal = rng.uniform(-1, 1, (40, 64, 3)).astype(np.float32)
    first = denoise(image, albedo, normal)
    for _ in range(3):
        assert np.array_equal(denoise(image, albedo, normal), first)


# Photo-real sequences: a hand filmed on one table. Seed 3's first six frames: two of the bare table,
# a hand reaching in over three, then the first card landing under it.
HAND_SEED = 3
HAND_SPEC = PhotoSpec(width=160, height=90, samples=1)
HAND_FRAMES = 6


def _frame_files(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def photo_hand(tmp_path_factory):
    out = tmp_path_factory.mktemp("photo-hand") / "hand_000"
    summary = generate_photo_sequence(out, seed=HAND_SEED, spec=HAND_SPEC, max_frames=HAND_FRAMES)
    return out, summary


def test_a_photo_real_hand_is_the_2d_hand_of_its_seed_in_the_same_files(photo_hand, tmp_path):
    out, summary = photo_hand
    assert summary["frames"] == summary["rendered"] == HAND_FRAMES and summary["plays"] == 1
    assert summary["reused"] == 1  # the second frame of the bare table is the first's stage, finished again
    flat = tmp_path / "2d"
    generate_sequence(flat, seed=HAND_SEED, spec=SceneSpec(width=160, height=90), max_frames=HAND_FRAMES, progress=False)
    for name in ("events.json", "hand.json", "layout.json"):
        assert (out / name).read_text() == (flat / name).read_text(), name
    for f in range(HAND_FRAMES):
        image = cv2.imread(str(out / "frames" / f"{f:06d}.jpg"))
        assert image.shape == (90, 160, 3) and image.std() > 3
        photo, drawn = (json.loads((d / "truth" / f"{f:06d}.json").read_text()) for d in (out, flat))
        assert photo.keys() == drawn.keys() and photo["frame"] == f and photo["image"] == f"frames/{f:06d}.jpg"
        assert photo["camera"] == drawn["camera"] and photo["hand"] == drawn["hand"]
        cards = [[(c["card"], c["corners"]) for c in s["cards"]] for s in photo["sides"]] + [
            [(c["card"], c["corners"]) for c in photo["table_cards"]]]
        assert cards == [[(c["card"], c["corners"]) for c in s["cards"]] for s in drawn["sides"]] + [
            [(c["card"], c["corners"]) for c in drawn["table_cards"]]]
    assert any(p.name.startswith("video.") for p in out.iterdir())
    recorded = json.loads((out / "sequence.json").read_text())
    assert recorded["seed"] == HAND_SEED and recorded["deck"] == "generic" and recorded["exposure"] > 0


def test_the_frames_of_a_photo_real_hand_show_one_table(photo_hand):
    """Not a slideshow: the table, its light and its objects stay; only the cards and the arm change."""
    out, _ = photo_hand
    frames = [cv2.GaussianBlur(cv2.imread(str(out / "frames" / f"{f:06d}.jpg")).astype(np.float32), (0, 0), 1.5)
              for f in range(HAND_FRAMES)]
    assert np.abs(frames[0] - frames[1]).mean() < 2.5  # the same bare table: only the grain differs
    for f in range(2, HAND_FRAMES):  # an arm and a new card cover a corner of the picture; the rest stays
        assert np.median(np.abs(frames[0] - frames[f])) < 3, f
    assert np.abs(frames[0] - frames[4]).max() > 40  # but the arm is there


def test_resuming_a_photo_real_hand_writes_nothing_new_and_redraws_a_lost_frame_the_same(photo_hand):
    out, _ = photo_hand
    before = _frame_files(out)
    assert generate_photo_sequence(out, seed=HAND_SEED, spec=HAND_SPEC, max_frames=HAND_FRAMES)["rendered"] == 0
    assert _frame_files(out) == before
    truth = (out / "truth" / "000004.json").read_bytes()
    image = cv2.imread(str(out / "frames" / "000004.jpg")).astype(np.float32)
    (out / "truth" / "000004.json").unlink()
    assert generate_photo_sequence(out, seed=HAND_SEED, spec=HAND_SPEC, max_frames=HAND_FRAMES)["rendered"] == 1
    assert (out / "truth" / "000004.json").read_bytes() == truth
    assert np.abs(cv2.imread(str(out / "frames" / "000004.jpg")).astype(np.float32) - image).max() <= 2  # JPEG's rounding
    with pytest.raises(SceneSpecError, match="other settings"):
        generate_photo_sequence(out, seed=HAND_SEED + 1, spec=HAND_SPEC, max_frames=HAND_FRAMES)


def test_a_still_frame_finished_from_the_frame_before_is_the_frame_drawn_afresh(photo_hand):
    """Frame 1 shows frame 0's stage and was finished from its passes; drawn alone by Blender, it comes out the same."""
    out, _ = photo_hand
    reused = cv2.imread(str(out / "frames" / "000001.jpg")).astype(np.float32)
    (out / "truth" / "000001.json").unlink()
    summary = generate_photo_sequence(out, seed=HAND_SEED, spec=HAND_SPEC, max_frames=HAND_FRAMES)
    assert summary["rendered"] == 1 and summary["reused"] == 0
    assert np.abs(cv2.imread(str(out / "frames" / "000001.jpg")).astype(np.float32) - reused).max() <= 2


def test_the_same_seed_films_the_same_photo_real_hand(photo_hand, tmp_path):
    out, _ = photo_hand
    again = tmp_path / "again"
    generate_photo_sequence(again, seed=HAND_SEED, spec=HAND_SPEC, max_frames=3, video=False)
    for f in range(3):
        assert (again / "truth" / f"{f:06d}.json").read_bytes() == (out / "truth" / f"{f:06d}.json").read_bytes()
    assert json.loads((again / "sequence.json").read_text()) == json.loads((out / "sequence.json").read_text())


def test_a_filmed_hand_keeps_its_set_and_each_card_its_bend_until_a_card_covers_it(tmp_path):
    """Decided without Blender: one set for the hand, a card's look drawn from its place, arms from the player's seat."""
    spec = PhotoSpec(width=320, height=180, samples=1)
    plan = plan_hand(7, SceneSpec(width=320, height=180))
    shot_on = draw_set(np.random.default_rng([7, 17]), spec, tmp_path / "tex", plan.final, plan.camera)
    looks: dict[int, tuple[list, float]] = {}
    flattened = arms = 0
    for shot in plan.shots():
        stage = frame_stage(plan, shot, shot_on, spec, tmp_path / "p").json
        assert (stage["table"], stage["objects"], stage["seed"]) == (shot_on.table, shot_on.objects, shot_on.seed)
        assert stage["camera"] == camera_json(shot.camera)
        _, covered = stack(shot.arrangement.cards)
        for card, placed, under in zip(stage["cards"], shot.arrangement.cards, covered):
            z = np.array(card["vertices"])[:, 2]
            if under:
                assert np.ptp(z) == 0  # pressed flat by the card on it
                flattened += place_key(placed) in looks and np.ptp(looks[place_key(placed)][0]) > 0
            else:
                z0 = looks.setdefault(place_key(placed), (z, card["roughness"]))
                assert np.array_equal(z0[0], z) and z0[1] == card["roughness"]
        assert len(stage["arms"]) == (shot.frame.reach is not None)
        if shot.frame.reach is not None:
            arms += 1
            tip, seat = plan.fingertips_and_seat(shot.frame.reach, shot.arrangement)
            shoulder = np.array(stage["arms"][0]["skin_bones"][0][:2]) * 1000
            # the arm lies along the line from the player's seat to the card, the shoulder on the seat's side
            along, reach = shoulder - tip, seat - tip
            assert along @ reach / (np.linalg.norm(along) * np.linalg.norm(reach)) > 0.999
    assert arms > 20 and flattened > 3


def test_photo_sequences_refuse_bad_settings_in_one_line(tmp_path, capsys):
    from borne.cli import main

    assert main(["data", "photo-sequences", "--count", "0", "--out", str(tmp_path / "o")]) == 2
    assert main(["data", "photo-sequences", "--count", "1", "--max-frames", "0", "--out", str(tmp_path / "o")]) == 2
    assert main(["data", "photo-sequences", "--count", "1", "--samples", "0", "--out", str(tmp_path / "o")]) == 2
    assert main(["data", "photo-sequences", "--count", "1", "--start", "-1", "--out", str(tmp_path / "o")]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 4 and "--count" in errors[0] and "--max-frames" in errors[1] and "samples" in errors[2]
    assert "--start" in errors[3]
    assert not (tmp_path / "o").exists()


def test_photo_sequences_start_at_a_later_hand_of_the_seed(photo_hand, tmp_path):
    """`--start 1` writes hand_001 only, and it is the hand of SEED + 1 (a split resumed where its record ends)."""
    from borne.cli import main

    out = tmp_path / "hands"
    assert main(["data", "photo-sequences", "--seed", str(HAND_SEED - 1), "--start", "1", "--count", "1", "--max-frames", "1",
                 "--width", str(HAND_SPEC.width), "--height", str(HAND_SPEC.height), "--samples", str(HAND_SPEC.samples),
                 "--no-video", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["hand_001"]
    assert json.loads((out / "hand_001" / "sequence.json").read_text())["seed"] == HAND_SEED
    first, _ = photo_hand
    assert (out / "hand_001" / "truth" / "000000.json").read_bytes() == (first / "truth" / "000000.json").read_bytes()
