"""The face reader on held-out test editions, given the true boxes: enrolled from scans and from photos.

    python bench/bench_reader.py [--scenes 40] [--seed 9700] [--editions corner,midcard,photo,lineart]

The four test editions (datasets/art_test.py) were designed only for this measure: no training run of
the reader saw them. Each is enrolled twice, as `borne enrol` does — from flat scans (the face files
themselves) and from angled phone photos on a table surface no training used — and read on held-out
scenes drawn with the original faces (another seed, held-out surfaces). Boxes are the true boxes of
each card's visible part, corners jittered by 1.5 px and in a random order, as a detector gives them.

Prints, per edition and enrolment: accuracy, the share answered (not "unknown") and precision for
cards with at least a quarter of the face visible, for column strips (25–50 % visible) and for whole
cards; and the most frequent mistakes. The generic edition (in training) is measured the same way for
comparison with `bench/bench_recogniser.py`.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.art_test import TEST_EDITIONS, test_edition  # noqa: E402
from datasets.edition import load_edition, write_edition  # noqa: E402
from datasets.enrol import enrol_folder  # noqa: E402
from datasets.generate import scene_for  # noqa: E402
from datasets.photos import write_photo_folder  # noqa: E402
from datasets.prototypes import look_alikes, make_prototypes  # noqa: E402
from datasets.scene import SceneRenderer, SceneSpec  # noqa: E402
from datasets.textures import HELD_OUT_KINDS  # noqa: E402
from vision.face_fitting import MIN_BOX_FILL, MIN_VISIBLE, box_fill  # noqa: E402
from vision.models import reader_path  # noqa: E402
from vision.reader import CARDS, EditionPrototypes, EmbeddingRecogniser, FaceReader  # noqa: E402

BANDS = (("at least 1/4 visible", 0.25, 1.01), ("strips (25–50 % visible)", 0.25, 0.5), ("whole (≥ 90 %)", 0.9, 1.01))


def enrolled(reader: FaceReader, faces: dict[str, np.ndarray], root: Path, name: str, how: str) -> EditionPrototypes:
    """Enrol the faces as `borne enrol` would, from their scans or from photos of them."""
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
    alike = look_alikes(prototypes)
    print(f"  enrolled {name} from {how} in {time.monotonic() - started:.0f} s"
          + (f"; look-alikes: {', '.join(f'{a.value}/{b.value} {s:.2f}' for a, b, s in alike[:4])}" if alike else ""))
    return prototypes


def read_scenes(recognisers: dict[str, EmbeddingRecogniser], scene_edition: str, *, scenes: int, seed: int) -> None:
    renderer = SceneRenderer(SceneSpec(edition=scene_edition, surfaces=HELD_OUT_KINDS))
    rng = np.random.default_rng(seed)
    rows: dict[str, list[tuple[str, str, float]]] = {k: [] for k in recognisers}
    for i in range(scenes):
        scene = scene_for(seed, i, renderer)
        image = np.ascontiguousarray(scene.image[..., ::-1])
        views = [v for v in scene.views
                 if v.placed.card is not None and v.visible_corners is not None and v.visible >= MIN_VISIBLE
                 and box_fill(v.corners, v.visible_corners, v.visible) >= MIN_BOX_FILL]
        boxes = [np.roll(v.visible_corners, int(rng.integers(4)), axis=0) + rng.normal(0, 1.5, (4, 2)) for v in views]
        for key, recogniser in recognisers.items():
            readings = recogniser.read(image, boxes)
            rows[key] += [(v.placed.card.value, r.card.value if r.card else "unknown", v.visible)
                          for v, r in zip(views, readings, strict=True)]
    for key, found in rows.items():
        truth = np.array([t for t, _, _ in found])
        said = np.array([s for _, s, _ in found])
        visible = np.array([v for _, _, v in found])
        right, answered = truth == said, said != "unknown"
        print(f"  {key}: {len(found)} readable cards in {scenes} scenes")
        for name, low, high in BANDS:
            m = (visible >= low) & (visible < high)
            if m.any():
                print(f"    {name:<26} n={int(m.sum()):>5}  accuracy {right[m].mean():.4f}  "
                      f"answered {answered[m].mean():.4f}  precision {right[m & answered].mean():.4f}")
        wrong = collections.Counter(zip(truth[~right], said[~right], strict=True)).most_common(6)
        if wrong:
            print("    most frequent misses:", ", ".join(f"{a}→{b} ×{n}" for (a, b), n in wrong))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=40, help="held-out scenes per edition (default 40)")
    parser.add_argument("--seed", type=int, default=9700, help="scene seed (default 9700; training draws no scenes)")
    parser.add_argument("--editions", default=",".join(TEST_EDITIONS) + ",generic")
    args = parser.parse_args()
    reader = FaceReader(reader_path())
    print(f"face reader {reader.path.name} ({reader.size} px crops)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in args.editions.split(","):
            print(f"\nedition {name}")
            if name == "generic":
                generic = load_edition("generic")
                prototypes = make_prototypes(reader, [generic.face(c) for c in CARDS], "generic")
                read_scenes({"generic (shipped faces)": EmbeddingRecogniser(reader, prototypes)}, "generic",
                            scenes=args.scenes, seed=args.seed)
                continue
            faces = test_edition(name)
            original = write_edition(root / "editions" / f"{name}-original", f"{name}-original", faces)
            recognisers = {f"enrolled from {how}": EmbeddingRecogniser(reader, enrolled(reader, faces, root, name, how))
                           for how in ("scans", "photos")}
            read_scenes(recognisers, str(original.folder), scenes=args.scenes, seed=args.seed)


if __name__ == "__main__":
    main()
