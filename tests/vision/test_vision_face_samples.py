"""Views cut straight from face images: what they show, and that a recogniser learns faces from them."""

from __future__ import annotations

import numpy as np

from vision.read.crops import CROP_HEIGHT, CROP_WIDTH
from vision.read.mlp import fit_mlp
from vision.read.recogniser import face_features
from vision.training.face_samples import face_views

RED, BLUE, CREAM = (220, 30, 30), (30, 30, 220), (240, 230, 200)


def banded_face(top: tuple[int, int, int], bottom: tuple[int, int, int]) -> np.ndarray:
    """An RGB 600 × 932 face: a coloured band along the top, a cream middle, another band at the bottom."""
    face = np.full((932, 600, 3), CREAM, np.uint8)
    face[:200] = top
    face[-200:] = bottom
    return face


def test_views_are_crops_labelled_with_their_face_and_repeat_per_seed():
    faces = [banded_face(RED, RED), banded_face(BLUE, BLUE)]
    crops, labels = face_views(faces, 60, seed=3)
    assert crops.shape == (60, CROP_HEIGHT, CROP_WIDTH, 3) and crops.dtype == np.uint8
    assert set(labels.tolist()) == {0, 1}
    # BGR crops: a red face's top rows are red (more R than B), a blue face's blue, whatever part is shown.
    top = crops[:, :4].reshape(60, -1, 3).mean(axis=1)
    assert np.all((top[:, 2] > top[:, 0]) == (labels == 0))
    again, again_labels = face_views(faces, 60, seed=3)
    assert np.array_equal(again, crops) and np.array_equal(again_labels, labels)
    assert not np.array_equal(face_views(faces, 60, seed=4)[0], crops)


def test_askew_views_show_the_top_band_anywhere_but_on_top():
    faces = [banded_face(RED, CREAM)]
    upright, _ = face_views(faces, 80, seed=1)
    askew, _ = face_views(faces, 80, seed=1, askew=True)

    def red_on_top(crops: np.ndarray) -> np.ndarray:
        top = crops[:, :3].reshape(len(crops), -1, 3).mean(axis=1)
        return (top[:, 2] - top[:, 0]) > 60

    assert red_on_top(upright).mean() > 0.95
    assert red_on_top(askew).mean() < 0.5


def test_a_classifier_fitted_on_views_tells_two_faces_apart_by_their_small_print():
    """Two faces alike but for a mark in the top corner, as the values of a one-colour deck."""
    plain = banded_face(CREAM, CREAM)
    marked = plain.copy()
    marked[40:200, 40:160] = (20, 20, 20)
    crops, labels = face_views([plain, marked], 1200, seed=0)
    model = fit_mlp(face_features(crops), labels, 2, epochs=15, seed=0)
    test_crops, test_labels = face_views([plain, marked], 300, seed=99)
    said = model.probabilities(face_features(test_crops)).argmax(axis=1)
    assert (said == test_labels).mean() > 0.95


def test_face_views_include_the_back_under_every_turn():
    """A twentieth of the face views are the edition's back, half of them cut under a wrong quarter turn:
    a back is a back whichever way up (the runtime reads each box under its four turns)."""
    from datasets.edition import load_edition
    from vision.read.crops import cut_card
    from vision.training.face_fitting import BACK, BACK_VIEW_SHARE, CLASSES, TURNED, collect_face_views

    views = collect_face_views("generic", 400, seed=2)
    backs = views.crops[views.labels == BACK]
    assert len(backs) == round(400 * BACK_VIEW_SHARE)
    assert set(np.unique(views.labels)) <= set(range(len(CLASSES))) | {TURNED, BACK}
    back = np.ascontiguousarray(load_edition("generic").face("back")[..., ::-1])
    h, w = back.shape[:2]
    whole = cut_card(back, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)).astype(np.float32)
    blue = whole[..., 0].mean() - whole[..., 2].mean()  # the generic back is mostly blue
    assert blue > 30 and all(c[..., 0].mean() - c[..., 2].mean() > 0 for c in backs.astype(np.float32))


def test_scene_crops_teach_slivers_and_askew_reads_as_nothing_to_read():
    """Every readable card gives an upright crop and the same box under a wrong turn; a sliver of a
    card mostly under others is kept too, as "nothing to read" (the detector boxes slivers); the top
    card of the draw pile is a back, under two turns."""
    from vision.training.face_fitting import BACK, CLASSES, SLIVER_VISIBLE, TURNED, collect_crops

    crops = collect_crops("generic", scenes=6, seed=3)
    readable = crops.labels < len(CLASSES)
    nothing = crops.labels == TURNED
    backs = crops.labels == BACK
    assert readable.sum() > 50 and readable.sum() + nothing.sum() + backs.sum() == len(crops.labels)
    assert 2 <= backs.sum() <= 4 * 6 and backs.sum() % 2 == 0
    assert crops.visible[backs].min() >= SLIVER_VISIBLE
    slivers = nothing & (crops.visible < SLIVER_VISIBLE)
    assert slivers.sum() > 0
    assert nothing.sum() > readable.sum()  # one askew read per readable card, and the slivers besides
    assert crops.visible[readable].min() >= SLIVER_VISIBLE


def test_table_boxes_lie_where_no_card_shows_and_are_taught_as_nothing_to_read():
    """Boxes of a card's shape on the bare table, a hand, a mug or coins: the detector boxes a few of
    those, and a recogniser that has never seen one reads a floor tile as a card."""
    import cv2

    from datasets.generate import scene_for
    from datasets.occluders import OCCLUDER
    from datasets.scene import SceneRenderer, SceneSpec
    from vision.training.face_fitting import (
        TABLE_BOX_MAX_CARD,
        TABLE_BOXES_PER_SCENE,
        TURNED,
        collect_crops,
        table_boxes,
    )

    renderer = SceneRenderer(SceneSpec(width=640, height=360))
    rng = np.random.default_rng(5)
    on_occluder = 0
    for i in range(4):
        scene = scene_for(4, i, renderer)
        boxes = table_boxes(scene, rng, 12)
        assert len(boxes) >= 6
        for box in boxes:
            inside = np.zeros(scene.idbuf.shape, np.uint8)
            cv2.fillPoly(inside, [np.round(box).astype(np.int32)], 1)
            under = scene.idbuf[inside.astype(bool)]
            assert (under >= 0).mean() <= TABLE_BOX_MAX_CARD + 0.02
            on_occluder += bool((under == OCCLUDER).any())
            assert box.min() >= 0 and box[:, 0].max() < 640 and box[:, 1].max() < 360
    assert on_occluder > 0
    crops = collect_crops("generic", scenes=3, seed=3)
    table = crops.visible == 0
    assert TABLE_BOXES_PER_SCENE <= table.sum() <= 3 * TABLE_BOXES_PER_SCENE
    assert (crops.labels[table] == TURNED).all()


def test_photo_real_crops_are_cut_from_the_scenes_printed_from_the_edition(tmp_path):
    """`borne train recogniser --photos`: each readable card of a scene whose deck is the edition, upright
    and read askew; scenes of another deck give their boxes on no card alone."""
    import json

    from datasets.generate import generate_scenes
    from vision.training.face_fitting import BACK, CLASSES, TURNED, collect_photo_crops

    folder = tmp_path / "photos"  # the layout and truth of `borne data photos`
    generate_scenes(folder, count=3, seed=4, scheme="ids", progress=False)
    truths = sorted((folder / "truth").glob("*.json"))
    other = json.loads(truths[2].read_text()) | {"edition": "procedural-7"}
    truths[2].write_text(json.dumps(other))
    crops = collect_photo_crops([folder], "generic", seed=1)
    shown = [c for t in truths[:2] for s in json.loads(t.read_text())["sides"] for c in s["cards"]
             if c["card"] != "back" and c["visible"] >= 0.3 and c["visible_corners"] is not None]
    readable = crops.labels < len(CLASSES)
    assert readable.sum() >= 0.8 * len(shown) and (crops.labels == TURNED).sum() >= readable.sum()
    backs = [c for t in truths[:2] for c in json.loads(t.read_text())["table_cards"]
             if c["card"] == "back" and c["visible"] >= 0.3 and c["visible_corners"] is not None]
    assert len(backs) > 0 and (crops.labels == BACK).sum() >= 2
    assert {CLASSES[k].value for k in crops.labels[readable]} <= {c["card"] for c in shown} | {
        c["card"] for t in truths[:2] for c in json.loads(t.read_text())["table_cards"]}
    other_deck = collect_photo_crops([folder], "retro", seed=1)
    assert len(other_deck.labels) > 0 and (other_deck.labels == TURNED).all() and (other_deck.visible == 0).all()


def test_photo_real_table_boxes_lie_on_no_card_of_the_truth_and_are_taught_as_nothing_to_read(tmp_path):
    """A photograph keeps no object-index image: the boxes where no card lies come from the truth's card
    outlines, covered parts included, and are taught as nothing to read."""
    import json

    import cv2

    from datasets.generate import generate_scenes
    from vision.training.face_fitting import (
        PHOTO_TABLE_BOXES_PER_SCENE,
        TABLE_BOX_MAX_CARD,
        TURNED,
        collect_photo_crops,
        photo_table_boxes,
    )

    folder = tmp_path / "photos"
    generate_scenes(folder, count=2, seed=6, scheme="ids", progress=False)
    rng = np.random.default_rng(2)
    for path in sorted((folder / "truth").glob("*.json")):
        truth = json.loads(path.read_text())
        cards = [c for side in truth["sides"] for c in side["cards"]] + truth["table_cards"]
        outlines = np.zeros((truth["height"], truth["width"]), np.uint8)
        cv2.fillPoly(outlines, [np.round(np.asarray(c["corners"])).astype(np.int32) for c in cards], 1)
        boxes = photo_table_boxes(cards, (truth["height"], truth["width"]), rng, 12)
        assert len(boxes) >= 6
        for box in boxes:
            inside = np.zeros_like(outlines)
            cv2.fillPoly(inside, [np.round(box).astype(np.int32)], 1)
            assert outlines[inside.astype(bool)].mean() <= TABLE_BOX_MAX_CARD + 0.02
    crops = collect_photo_crops([folder], "generic", seed=1)
    table = crops.visible == 0
    assert PHOTO_TABLE_BOXES_PER_SCENE <= table.sum() <= 2 * PHOTO_TABLE_BOXES_PER_SCENE
    assert (crops.labels[table] == TURNED).all()


def test_photo_real_crops_leave_out_the_scenes_the_detector_validates_on(tmp_path):
    """Scene 19 of every 20 judges the detector and the recogniser alike: neither learns from it."""
    from datasets.generate import generate_scenes
    from datasets.scene import SceneSpec
    from vision.training.face_fitting import collect_photo_crops

    folder = tmp_path / "photos"
    generate_scenes(folder, count=1, seed=4, spec=SceneSpec(width=640, height=360), scheme="ids", progress=False)
    twenty = tmp_path / "twenty"
    (twenty / "truth").mkdir(parents=True)
    (twenty / "images").symlink_to(folder / "images")
    for k in range(20):  # twenty copies of one scene: the last is left out
        (twenty / "truth" / f"{k:06d}.json").write_text((folder / "truth" / "000000.json").read_text())
    def cards_cut(f):
        return int((collect_photo_crops([f], "generic", seed=1).visible > 0).sum())

    one = cards_cut(folder)
    assert one > 0 and cards_cut(twenty) == 19 * one


def test_a_lamps_highlight_washes_part_of_a_face_towards_white():
    """Glare on the gloss: pixels only ever go towards white, never past it nor further than the strongest
    highlight, and not all alike (a highlight, not a tint over the whole face)."""
    from vision.training.face_samples import GLARE_STRENGTH, _glare

    face = np.full((60, 40, 3), 100.0, np.float64)
    rng = np.random.default_rng(4)
    for _ in range(20):
        washed = _glare(face, rng)
        assert washed.shape == face.shape
        assert (washed >= face - 1e-3).all() and (washed <= 255.0 + 1e-3).all()
        assert washed.max() - 100.0 <= GLARE_STRENGTH[1] * 155.0 + 1e-3
        assert washed.max() > washed.min()


def test_train_recogniser_writes_a_recogniser_that_reads_backs_and_records_its_photo_scenes(tmp_path):
    """`borne train recogniser --photos DIR`: the file knows the back, and the run's record says how many
    photo-real scenes the folder held (a resumable render may still be adding to it)."""
    import json
    import subprocess
    import sys

    from datasets.generate import generate_scenes
    from vision.read.recogniser import FaceRecogniser

    photos = tmp_path / "photos"
    generate_scenes(photos, count=2, seed=4, scheme="ids", progress=False)
    models = tmp_path / "models"
    done = subprocess.run([sys.executable, "-m", "borne", "train", "recogniser", "--scenes", "2", "--face-views", "300",
                           "--epochs", "1", "--photos", str(photos), "--models", str(models)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert FaceRecogniser.load(models / "recogniser-generic.npz").reads_backs
    record = json.loads((models / "recogniser-generic.train.json").read_text())
    assert record["photo_scenes"] == {str(photos): 2}
