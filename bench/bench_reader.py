"""The face reader on held-out test editions, given the true boxes: enrolled from scans and from photos.

    python bench/bench_reader.py [--scenes 40] [--seed 9700] [--editions corner,midcard,photo,lineart,generic]
                                 [--detect-scenes 0] [--photos 0 --photo-seed 9800] [--compare-features]

The four test editions (datasets/art_test.py) were designed only for this measure: no training run of
the reader saw them. Each is enrolled twice, as `borne enrol` does — from flat scans (the face files
themselves) and from angled phone photos on a table surface no training used — and read on held-out
scenes drawn with the original faces (another seed, held-out surfaces). Boxes are the true boxes of
each card's visible part, corners jittered by 1.5 px and in a random order, as a detector gives them.

Prints, per edition and enrolment: accuracy, the share answered (not "unknown") and precision for
cards with at least a quarter of the face visible, for column strips (25–50 % visible) and for whole
cards; and the most frequent mistakes. The generic edition (in training) is measured the same way for
comparison with `bench/bench_recogniser.py`.

With ``--detect-scenes N``, each enrolled edition then reads N more held-out scenes as
`borne detect --edition NAME` does (the shipped detector on the still photo's six tiles, the census
with the columns read as a whole), and prints bench_detect's figures: recall, precision, face accuracy,
exact census over all sides and over the sides whose scoring cards all show.

With ``--photos N``, each test edition is also drawn in N photo-real held-out scenes (Blender: the
test split's surfaces and lights; rendered once and kept in ``build/reader-photos/``), read given the
true boxes and then as `borne detect` does.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import Still, measure_stills  # noqa: E402

from datasets.art_test import TEST_EDITIONS, held_out_edition  # noqa: E402
from datasets.edition import load_edition, write_edition  # noqa: E402
from datasets.enrol import enrol_folder  # noqa: E402
from datasets.errors import EnrolmentError  # noqa: E402
from datasets.generate import scene_for  # noqa: E402
from datasets.photos import write_photo_folder  # noqa: E402
from datasets.prototypes import fit_head, look_alikes, make_prototypes  # noqa: E402
from datasets.scene import SceneRenderer, SceneSpec  # noqa: E402
from datasets.textures import HELD_OUT_KINDS  # noqa: E402
from vision.read.frame_reader import FrameReader  # noqa: E402
from vision.read.models import reader_path  # noqa: E402
from vision.read.reader import CARDS, EditionHead, EditionPrototypes, EmbeddingRecogniser, FaceReader  # noqa: E402
from vision.read.recogniser import Recogniser  # noqa: E402
from vision.training.face_fitting import MIN_BOX_FILL, MIN_VISIBLE, box_fill, readable_faces  # noqa: E402

BANDS = (("at least 1/4 visible", 0.25, 1.01), ("strips (25–50 % visible)", 0.25, 0.5), ("whole (≥ 90 %)", 0.9, 1.01))


def enrolled(reader: FaceReader, faces: dict[str, np.ndarray], root: Path, name: str,
             how: str) -> tuple[EditionPrototypes, EditionHead]:
    """Enrol the faces as `borne enrol --reader` would, from their scans or from photos of them."""
    folder = root / f"{name}-{how}-input"
    folder.mkdir(parents=True, exist_ok=True)
    if how == "scans":
        import cv2

        for key, face in faces.items():
            cv2.imwrite(str(folder / f"{key}.png"), face[..., ::-1])
    else:
        write_photo_folder(faces, folder, seed=77, surface=HELD_OUT_KINDS[0])
    started = time.monotonic()
    edition = enrol_folder(folder, f"{name}-{how}", out_root=root / "editions")
    prototypes = make_prototypes(reader, [edition.face(c) for c in CARDS], edition.name)
    head = fit_head(reader, [edition.face(c) for c in CARDS], edition.name)
    alike = look_alikes(prototypes)
    print(f"  enrolled {name} from {how} in {time.monotonic() - started:.0f} s"
          + (f"; look-alikes: {', '.join(f'{a.value}/{b.value} {s:.2f}' for a, b, s in alike[:4])}" if alike else ""))
    return prototypes, head


def read_scenes(recognisers: dict[str, Recogniser], scene_edition: str, *, scenes: int, seed: int) -> None:
    renderer = SceneRenderer(SceneSpec(edition=scene_edition, surfaces=HELD_OUT_KINDS))
    rng = np.random.default_rng(seed)
    rows: dict[str, list[tuple[str, str, float]]] = {k: [] for k in recognisers}
    for i in range(scenes):
        scene = scene_for(seed, i, renderer)
        image = np.ascontiguousarray(scene.image[..., ::-1])
        views = readable_faces(scene.views)
        boxes: list[NDArray[np.floating]] = [np.roll(v.visible_corners, int(rng.integers(4)), axis=0) + rng.normal(0, 1.5, (4, 2)) for v in views]
        for key, recogniser in recognisers.items():
            readings = recogniser.read(image, boxes)
            rows[key] += [(v.card.value, r.card.value if r.card else "unknown", v.visible)
                          for v, r in zip(views, readings, strict=True)]
    report(rows, f"{scenes} scenes")


def read_stills(recognisers: dict[str, Recogniser], stills: list[Still]) -> None:
    """The same reading of true boxes, on stills with their truth JSON (photo-real scenes)."""
    rng = np.random.default_rng(0)
    rows: dict[str, list[tuple[str, str, float]]] = {k: [] for k in recognisers}
    for still in stills:
        views = [v for v in still.views() if v["card"] != "back" and v["visible"] >= MIN_VISIBLE
                 and box_fill(np.array(v["corners"]), np.array(v["visible_corners"]), v["visible"]) >= MIN_BOX_FILL]
        boxes: list[NDArray[np.floating]] = [np.roll(np.array(v["visible_corners"]), int(rng.integers(4)), axis=0) + rng.normal(0, 1.5, (4, 2))
                 for v in views]
        for key, recogniser in recognisers.items():
            readings = recogniser.read(still.image, boxes)
            rows[key] += [(v["card"], r.card.value if r.card else "unknown", v["visible"])
                          for v, r in zip(views, readings, strict=True)]
    report(rows, f"{len(stills)} photo-real scenes")


def photo_stills(edition_folder: Path, name: str, count: int, seed: int) -> list[Still]:
    """``count`` photo-real held-out scenes of an edition, rendered once into ``build/reader-photos/NAME``."""
    from bench_detect import folder_stills

    from datasets.photoreal.photos import generate_photos
    from datasets.photoreal.stage import PhotoSpec

    out = Path(__file__).resolve().parent.parent / "build" / "reader-photos" / name
    started = time.monotonic()
    generate_photos(out, count=count, seed=seed, spec=PhotoSpec(edition=str(edition_folder), held_out=True))
    print(f"  {count} photo-real held-out scenes of {name} (seed {seed}) ready in {time.monotonic() - started:.0f} s")
    return list(folder_stills(out, count))


def report(rows: dict[str, list[tuple[str, str, float]]], what: str) -> None:
    for key, found in rows.items():
        truth = np.array([t for t, _, _ in found])
        said = np.array([s for _, s, _ in found])
        visible = np.array([v for _, _, v in found])
        right, answered = truth == said, said != "unknown"
        print(f"  {key}: {len(found)} readable cards in {what}")
        for name, low, high in BANDS:
            m = (visible >= low) & (visible < high)
            if m.any():
                print(f"    {name:<26} n={int(m.sum()):>5}  accuracy {right[m].mean():.4f}  "
                      f"answered {answered[m].mean():.4f}  precision {right[m & answered].mean():.4f}")
        wrong = collections.Counter(zip(truth[~right], said[~right], strict=True)).most_common(6)
        if wrong:
            print("    most frequent misses:", ", ".join(f"{a}→{b} ×{n}" for (a, b), n in wrong))


def still_reader(recogniser: Recogniser) -> FrameReader:
    """A frame reader as `borne detect` has one: the shipped detector on a still's six tiles, this recogniser."""
    from vision.read.detector import OnnxCardDetector
    from vision.read.models import detector_path
    from vision.read.tiling import STILL_TILE_SHARE, TiledDetector

    return FrameReader(TiledDetector(OnnxCardDetector(detector_path()), tile_share=STILL_TILE_SHARE), recogniser)


def detect(recogniser: Recogniser, scene_edition: str, *, scenes: int, seed: int) -> None:
    from bench_detect import measure as measure_detect

    renderer = SceneRenderer(SceneSpec(width=1280, height=720, edition=scene_edition, surfaces=HELD_OUT_KINDS))
    measure_detect(still_reader(recogniser), renderer, scenes=scenes, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=40, help="held-out scenes per edition (default 40)")
    parser.add_argument("--seed", type=int, default=9700, help="scene seed (default 9700; training draws no scenes)")
    parser.add_argument("--editions", default=",".join(TEST_EDITIONS) + ",generic")
    parser.add_argument("--detect-scenes", type=int, default=0,
                        help="then read this many held-out scenes per enrolment as `borne detect` does (default 0)")
    parser.add_argument("--enrol-from", default="scans,photos", help="scans, photos or both (default both)")
    parser.add_argument("--photos", type=int, default=0, metavar="N",
                        help="also read N photo-real held-out scenes per test edition (rendered once by Blender into "
                             "build/reader-photos/, seed --photo-seed): true boxes, then as `borne detect` does")
    parser.add_argument("--photo-seed", type=int, default=9800)
    parser.add_argument("--compare-features", action="store_true",
                        help="also fit the recogniser of hand-made features on each enrolment (as `borne enrol` "
                             "did before the face reader: 400 scenes, 25,000 face views) and read the same scenes")
    args = parser.parse_args()
    reader = FaceReader(reader_path())
    print(f"face reader {reader.path.name} ({reader.size} px crops)")
    crops = np.random.default_rng(0).integers(0, 256, (40, reader.size, reader.size, 3), dtype=np.uint8)
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        reader.embed(crops)
        times.append(time.perf_counter() - t0)
    print(f"reader cost for a frame with 40 cards (one crop per box, batched): median "
          f"{1000 * float(np.median(times)):.1f} ms, worst {1000 * max(times):.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in args.editions.split(","):
            print(f"\nedition {name}")
            if name == "generic":
                generic = load_edition("generic")
                prototypes = make_prototypes(reader, [generic.face(c) for c in CARDS], "generic")
                recogniser: Recogniser = EmbeddingRecogniser(reader, prototypes)
                read_scenes({"generic (shipped faces)": recogniser}, "generic", scenes=args.scenes, seed=args.seed)
                if args.detect_scenes:
                    detect(recogniser, "generic", scenes=args.detect_scenes, seed=args.seed + 1)
                continue
            faces = held_out_edition(name)
            original = write_edition(root / "editions" / f"{name}-original", f"{name}-original", faces)
            recognisers: dict[str, Recogniser] = {}
            for how in args.enrol_from.split(","):
                try:
                    prototypes, head = enrolled(reader, faces, root, name, how)
                except EnrolmentError as e:
                    print(f"  enrolment of {name} from {how} FAILED: {e}")
                    continue
                recognisers[f"reader head, enrolled from {how}"] = EmbeddingRecogniser(reader, head)
                recognisers[f"reader prototypes, enrolled from {how}"] = EmbeddingRecogniser(reader, prototypes)
            if args.compare_features:
                from vision.training.face_fitting import collect_crops, collect_face_views, fit_recogniser

                for how in args.enrol_from.split(","):
                    folder = str(root / "editions" / f"{name}-{how}")
                    if not Path(folder).is_dir():
                        continue
                    started = time.monotonic()
                    crop_set = collect_crops(folder, scenes=400, seed=0).joined(collect_face_views(folder, 25_000, seed=0))
                    recognisers[f"hand-made features, enrolled from {how}"] = fit_recogniser(folder, crop_set, seed=0)
                    print(f"  fitted the recogniser of hand-made features on {name} from {how} in "
                          f"{time.monotonic() - started:.0f} s")
            read_scenes(recognisers, str(original.folder), scenes=args.scenes, seed=args.seed)
            if args.photos:
                stills = photo_stills(original.folder, name, args.photos, args.photo_seed)
                read_stills(recognisers, stills)
                for key, recogniser in recognisers.items():
                    if "prototypes" not in key:
                        print(f"\n  borne detect on the photo-real scenes, {name} {key}:")
                        measure_stills(still_reader(recogniser), stills, f"  {len(stills)} photo-real scenes")
            for key, recogniser in recognisers.items() if args.detect_scenes else ():
                if "prototypes" in key:
                    continue
                print(f"\n  borne detect, {name} {key}:")
                detect(recogniser, str(original.folder), scenes=args.detect_scenes, seed=args.seed + 1)


if __name__ == "__main__":
    main()
