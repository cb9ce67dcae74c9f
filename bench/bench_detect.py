"""What `borne detect` gets right on held-out scenes, and how fast it is at 1280 × 720.

    python bench/bench_detect.py [--scenes 100] [--seed 9100] [--edition generic]
    python bench/bench_detect.py --photos FOLDER [--scenes N]   # photo-real scenes of `borne data photos`
    python bench/bench_detect.py ... --detector build/models/detector-photo.onnx   # a newly trained detector
    python bench/bench_detect.py ... --misses build/misses   # a picture of each card not found, misread or boxed on no card

Held out: scene seed 9100 (training used seeds 1 and 1001 for the detector, 21 for the recogniser)
and table surfaces no training run used (tiles and laminate).
Prints, for cards with at least a quarter of the face visible: card recall (by visible share and by the
card's length in the picture) and precision of the cards
`detect` lists (a found box matches a true box of the visible part at rotated IoU ≥ 0.5); the share of cards the
detector boxed at all, read or not (reading drops a box it cannot read that the detector is not sure of: this is
the detector's own recall, by visible share); face
accuracy on matched cards, sideways accuracy on safeties; whether the draw pile is reported right; the exact census per side (distance per
value, safeties and coups fourrés all right), over all sides and over the sides whose distance cards
and safeties all show at least a quarter of the face (a hand reaching over a column hides the rest);
the time per image (median and worst) with peak memory, and the bare detector
inference beside it.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.generate import scene_for
from datasets.labels import truth_json
from datasets.scene import SceneRenderer, SceneSpec
from datasets.textures import HELD_OUT_KINDS
from scoring.cards import Card
from vision.geometry import iou
from vision.read.frame_reader import FrameReader
from vision.read.sighting import Sighting
from vision.read.tiling import tile_windows
from vision.table.census import take_census
from vision.table.layout import TableLayout

MATCH_IOU = 0.5
NO_COLUMN_ENDS = False
"""``--no-column-ends``: the census without the strips found past a column's first box."""


SIZE_BANDS = ((0, 50, "under 50 px long"), (50, 80, "50–80 px"), (80, 130, "80–130 px"), (130, 10_000, "130 px or longer"))
"""A card's size in the picture: the long side of its whole face (hidden parts too), in pixels."""
VISIBLE_BANDS = ((0.25, 0.5, "25–50 % visible (strips)"), (0.5, 0.9, "50–90 % visible"), (0.9, 1.01, "whole cards (≥ 90 %)"))


def all_scoring_cards_show(side: dict[str, Any]) -> bool:
    """Every distance card and safety of a side's truth shows at least a quarter of its face."""
    return all(c["visible"] >= 0.25 for c in side["cards"]
               if c["card"] != "back" and (Card(c["card"]).is_distance or Card(c["card"]).is_safety))


def card_length(corners: list[list[float]]) -> float:
    """The long side of a card's whole face in the picture, in pixels."""
    c = np.asarray(corners, dtype=np.float64)
    return float(max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--photos", default=None, metavar="FOLDER",
                        help="read the scenes of FOLDER (written by `borne data photos --held-out`) instead of 2-D renders")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--edition", default="generic", help="the recogniser's edition")
    parser.add_argument("--scene-edition", default=None,
                        help="the faces the scenes are drawn with (default: --edition's)")
    parser.add_argument("--surfaces", default=",".join(HELD_OUT_KINDS),
                        help="table surfaces (default: the ones no training run used)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--detector", default=None, metavar="MODEL.onnx",
                        help="another detector than models/detector.onnx (a newly trained one)")
    parser.add_argument("--conf", type=float, default=None, help="detector confidence threshold (default: the runtime's)")
    parser.add_argument("--nms-iou", type=float, default=None, help="tile merge's rotated-NMS IoU (default: the runtime's)")
    parser.add_argument("--tile-share", type=float, default=None,
                        help="tile side as a share of the frame's shorter side (default: `borne detect`'s, "
                             "vision.read.tiling.STILL_TILE_SHARE; the live pipeline uses 1.0)")
    parser.add_argument("--duplicate-overlap", type=float, default=None,
                        help="tile merge's duplicate overlap (default: the runtime's; 1 turns it off)")
    parser.add_argument("--faces", action="store_true",
                        help="read by matching the edition's faces even where it has a fitted recogniser (the generic)")
    parser.add_argument("--no-outline", action="store_true",
                        help="the matcher reads each box as the detector gives it, not the card's own outline")
    parser.add_argument("--misses", default=None, metavar="DIR",
                        help="write the neighbourhood of each card not found to DIR (red: its visible part; "
                             "green: the face-up boxes `detect` lists; yellow: boxes it set aside), and each "
                             "scene whose draw pile was reported wrong (blue: the face-down boxes); each card "
                             "misread (*_read_as_*: green, the box read) and each face-up box on no card "
                             "(*_on_no_card_*: red, the box; green, the true visible boxes)")
    parser.add_argument("--no-fine-tiles", action="store_true",
                        help="no second pass on tiles sized by the cards found (vision.read.fine_tiles)")
    parser.add_argument("--no-column-ends", action="store_true",
                        help="count no strip past a column's first box (vision.table.column_ends): the census before it")
    args = parser.parse_args()
    global NO_COLUMN_ENDS
    NO_COLUMN_ENDS = args.no_column_ends

    detector = Path(args.detector) if args.detector else None
    misses = Path(args.misses) if args.misses else None
    reader = FrameReader.from_models(args.edition, still=True, detector=detector)  # as `borne detect` reads a photo
    if args.faces:
        from vision.read.models import load_recogniser

        reader.recogniser = load_recogniser(args.edition, outline_first=True, faces=True)
        reader.outliner = None  # the matched faces outline their cards themselves
    if args.no_outline:
        reader.recogniser.outline_first = False  # type: ignore[attr-defined]
    if args.nms_iou is not None:
        reader.detector.iou_threshold = args.nms_iou  # type: ignore[attr-defined]
    if args.duplicate_overlap is not None:
        reader.detector.duplicate_overlap = args.duplicate_overlap  # type: ignore[attr-defined]
    if args.tile_share is not None:
        reader.detector.tile_share = args.tile_share  # type: ignore[attr-defined]
    if args.no_fine_tiles:
        reader.detector.smallest_in_model = 0.0  # type: ignore[attr-defined]
    if args.conf is not None:
        from vision.read.detector import DecodeSettings

        reader.detector.base.settings = DecodeSettings(conf_threshold=args.conf)  # type: ignore[attr-defined]
    if args.photos:
        folder = Path(args.photos)
        measure_stills(reader, folder_stills(folder, args.scenes), f"photo-real scenes of {folder}", misses=misses)
        return
    surfaces = tuple(args.surfaces.split(","))
    renderer = SceneRenderer(SceneSpec(width=args.width, height=args.height, edition=args.scene_edition or args.edition,
                                       surfaces=surfaces))
    measure(reader, renderer, scenes=args.scenes, seed=args.seed, misses=misses)


def dev_parser(doc: str | None) -> argparse.ArgumentParser:
    """The arguments of a development script over a folder of stills: ``--photos FOLDER [--scenes N]``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", required=True, metavar="FOLDER")
    parser.add_argument("--scenes", type=int, default=None)
    return parser


def on_a_card(sighting: Sighting, boxes: list[np.ndarray]) -> bool:
    """Whether a box overlaps the visible box of a card of the truth at IoU ≥ 0.3 (else it lies on no card)."""
    return any(iou(b, sighting.corners) >= 0.3 for b in boxes)


def best_match(box: np.ndarray, found: list[Sighting], used: set[int]) -> int | None:
    """The index of the found box not yet used that overlaps ``box`` most, at rotated IoU ≥ :data:`MATCH_IOU`."""
    best, best_iou = None, MATCH_IOU
    for k, s in enumerate(found):
        if k not in used and (overlap := iou(box, s.corners)) >= best_iou:
            best, best_iou = k, overlap
    return best


@dataclass
class Still:
    """One picture to read and its truth (the JSON that `borne data scenes|photos` writes)."""

    image: np.ndarray
    """BGR, as `borne detect` reads a file."""
    truth: dict[str, Any]

    def views(self) -> list[dict[str, Any]]:
        """Every card of the truth whose visible part was boxed."""
        cards = [c for side in self.truth["sides"] for c in side["cards"]] + self.truth["table_cards"]
        return [c for c in cards if c["visible_corners"] is not None]


def rendered_stills(renderer: SceneRenderer, *, scenes: int, seed: int) -> Iterator[Still]:
    for i in range(scenes):
        scene = scene_for(seed, i, renderer)
        yield Still(np.ascontiguousarray(scene.image[..., ::-1]), truth_json(scene))


def folder_stills(folder: Path, limit: int | None = None) -> Iterator[Still]:
    """The scenes of a folder written by `borne data photos` (or `scenes`), in name order."""
    for path in sorted((folder / "truth").glob("*.json"))[:limit]:
        truth = json.loads(path.read_text())
        image = cv2.imread(str(folder / truth["image"]))
        if image is None:
            raise SystemExit(f"{folder / truth['image']}: missing or unreadable")
        yield Still(image, truth)


def measure(reader: FrameReader, renderer: SceneRenderer, *, scenes: int, seed: int, misses: Path | None = None) -> None:
    """Read ``scenes`` 2-D scenes of ``seed`` as `borne detect` does and print what it got right, and how fast."""
    spec = renderer.spec
    measure_stills(reader, rendered_stills(renderer, scenes=scenes, seed=seed),
                   f"{scenes} held-out scenes at {spec.width}×{spec.height} (seed {seed}, surfaces "
                   f"{', '.join(spec.surfaces)}), faces of edition {spec.edition}", misses=misses)


def draw_miss(image: np.ndarray, box: np.ndarray, listed: list[np.ndarray], aside: list[np.ndarray]) -> np.ndarray:
    """The neighbourhood of a card not found (three card lengths across, enlarged 3×), boxes drawn on."""
    length = max(float(np.linalg.norm(box[1] - box[0])), float(np.linalg.norm(box[2] - box[1])), 20.0)
    cx, cy = box.mean(axis=0)
    x0, y0 = max(int(cx - 1.5 * length), 0), max(int(cy - 1.5 * length), 0)
    x1, y1 = min(int(cx + 1.5 * length), image.shape[1]), min(int(cy + 1.5 * length), image.shape[0])
    out = cv2.resize(image[y0:y1, x0:x1], None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    for boxes, colour in ((aside, (0, 220, 255)), (listed, (0, 200, 0)), ([box], (0, 0, 255))):
        for b in boxes:
            cv2.polylines(out, [((b - [x0, y0]) * 3).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
    return out


def read_as(sighting: Sighting) -> str:
    """What a face-up box was read as, for a file name."""
    return sighting.card.value if sighting.card else "unknown"


def draw_face_down(image: np.ndarray, boxes: list[np.ndarray]) -> np.ndarray:
    """A scene whose draw pile was reported wrong, with every face-down box the detector gave (blue)."""
    out = image.copy()
    for b in boxes:
        cv2.polylines(out, [np.asarray(b).astype(np.int32)], True, (255, 80, 0), 2, cv2.LINE_AA)
    return out


def measure_stills(reader: FrameReader, stills: Iterable[Still], title: str, *, misses: Path | None = None) -> None:
    """Read each still as `borne detect` does and print what it got right, and how fast."""
    true_cards = found_true = predictions = false_found = 0
    faces_right = faces_total = sideways_right = sideways_total = 0
    sides_exact = sides_total = shown_exact = shown_total = 0
    times: list[float] = []
    by_visible: list[tuple[float, bool]] = []
    by_size: list[tuple[float, bool]] = []
    by_detector: list[tuple[float, bool]] = []  # each card: boxed by the detector, read or not
    piles_right = stills_read = 0
    bare: list[float] = []
    base = reader.detector.base  # type: ignore[attr-defined]
    size = (0, 0)
    if misses is not None:
        misses.mkdir(parents=True, exist_ok=True)
    for index, still in enumerate(stills):
        image = still.image
        size = (image.shape[1], image.shape[0])
        layout = TableLayout.from_json(still.truth["layout"])
        t0 = time.perf_counter()
        reading = reader.read(image)
        census = take_census(list(reading.sightings), layout, None if NO_COLUMN_ENDS else image)
        times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for win in tile_windows(image.shape[1], image.shape[0], tile_share=reader.detector.tile_share):  # type: ignore[attr-defined]
            base.raw(image[win.y : win.y + win.size, win.x : win.x + win.size])
        bare.append(time.perf_counter() - t0)

        detected = reader.detected
        raw = ([] if detected is None else
               [Sighting(detected.corners[i], True, None, float(detected.confidence[i])) for i in range(len(detected))])
        raw_used: set[int] = set()
        placed = {id(p.sighting): p for s in census.sides for p in s.cards}
        listed = [p.sighting for s in census.sides for p in s.cards] + list(census.unassigned)  # what `detect` prints
        face_up = [s for s in listed if s.face_up]
        used: set[int] = set()
        views = still.views()
        for v in views:
            if v["card"] == "back" or v["random_face"] or v["visible"] < 0.25:
                continue
            card = Card(v["card"])
            box = np.asarray(v["visible_corners"], dtype=np.float64)
            true_cards += 1
            best = best_match(box, face_up, used)
            boxed = best_match(box, raw, raw_used)
            if boxed is not None:
                raw_used.add(boxed)
            by_detector.append((v["visible"], boxed is not None))
            by_visible.append((v["visible"], best is not None))
            by_size.append((card_length(v["corners"]), best is not None))
            if best is None:
                if misses is not None:
                    listed_boxes = [np.asarray(x.corners) for x in face_up]
                    aside = [np.asarray(x.corners) for x in reading.sightings if not any(x is y for y in listed)]
                    cv2.imwrite(str(misses / f"{index:04d}_{v['card']}_{round(100 * v['visible']):02d}.png"),
                                draw_miss(image, box, listed_boxes, aside))
                continue
            used.add(best)
            found_true += 1
            s = face_up[best]
            faces_total += 1
            faces_right += s.card == card
            if misses is not None and s.card != card:
                cv2.imwrite(str(misses / f"{index:04d}_{v['card']}_read_as_{read_as(s)}_{best:02d}.png"),
                            draw_miss(image, box, [np.asarray(s.corners)], []))
            if card.is_safety and id(s) in placed:
                sideways_total += 1
                sideways_right += placed[id(s)].sideways == v["sideways"]
        boxes = [np.asarray(v["visible_corners"], dtype=np.float64) for v in views]
        for k, s in enumerate(face_up):
            predictions += 1
            if k not in used and not on_a_card(s, boxes):
                false_found += 1
                if misses is not None:
                    cv2.imwrite(str(misses / f"{index:04d}_on_no_card_{k:02d}_{read_as(s)}.png"),
                                draw_miss(image, np.asarray(s.corners), boxes, []))
        stills_read += 1
        piles_right += census.draw_pile == still.truth["draw_pile"]
        if misses is not None and census.draw_pile != still.truth["draw_pile"]:
            cv2.imwrite(str(misses / f"{index:04d}_draw_pile_{'missed' if still.truth['draw_pile'] else 'seen'}.jpg"),
                        draw_face_down(image, [s.corners for s in reading.sightings if not s.face_up]))
        truth = {t["side"]: t for t in still.truth["sides"]}
        for side in census.to_json(with_cards=False)["sides"]:
            t = truth[side["side"]]
            right = (side["distance"], side["safeties"]) == (t["distance"], t["safeties"])
            sides_total += 1
            sides_exact += right
            if all_scoring_cards_show(t):
                shown_total += 1
                shown_exact += right

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{title}, recogniser {reader.recogniser.edition!r}")
    print(f"  cards with ≥ 1/4 of the face visible: {true_cards}")
    print(f"  card recall     {found_true / max(true_cards, 1):.4f}")
    for low, high, name in VISIBLE_BANDS:
        found = [f for vis, f in by_visible if low <= vis < high]
        if found:
            print(f"    recall, {name:<28} {sum(found) / len(found):.4f}  (n={len(found)})")
    for low, high, name in SIZE_BANDS:
        found = [f for length, f in by_size if low <= length < high]
        if found:
            print(f"    recall, cards {name:<22} {sum(found) / len(found):.4f}  (n={len(found)})")
    if by_detector:
        bands = ", ".join(f"{name.split(' (')[0]} {sum(f) / len(f):.4f}" for low, high, name in VISIBLE_BANDS
                          if (f := [b for vis, b in by_detector if low <= vis < high]))
        print(f"  boxed by the detector, read or not: {sum(b for _, b in by_detector) / len(by_detector):.4f}  ({bands})")
    print(f"  card precision  {(predictions - false_found) / max(predictions, 1):.4f}  ({false_found} boxes on no card)")
    print(f"  face accuracy   {faces_right / max(faces_total, 1):.4f}  (matched cards)")
    print(f"  sideways        {sideways_right / max(sideways_total, 1):.4f}  ({sideways_total} safeties)")
    print(f"  draw pile right {piles_right / max(stills_read, 1):.4f}  ({piles_right} of {stills_read} stills: "
          "seen where there is one, none where there is none)")
    print(f"  exact census    {sides_exact / max(sides_total, 1):.4f}  ({sides_exact} of {sides_total} sides)")
    print(f"    sides whose distance cards and safeties all show ≥ 1/4 of the face: "
          f"{shown_exact / max(shown_total, 1):.4f}  ({shown_exact} of {shown_total}; the others have a card under a hand)")
    if times:
        print(f"  time per image  median {1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms "
              f"(detector on {len(tile_windows(size[0], size[1], tile_share=reader.detector.tile_share))} tiles "  # type: ignore[attr-defined]
              "+ recogniser + census)")
        print(f"  bare detector   median {1000 * statistics.median(bare):.0f} ms per image (ONNX Runtime, tiles only)")
    print(f"  peak memory     {peak:.0f} MiB (whole process)")


if __name__ == "__main__":
    main()
