"""Reading by matching the edition's faces, given each card's true outline, on photo-real stills.

    python bench/bench_match.py --photos FOLDER [--photos FOLDER ...] [--scenes N] [--jitter 1.0] [--misses DIR]

Each scene's deck (its truth's ``edition``: the generic, a test edition of ``bench/photo_editions.py``, or
a deck of the training mix kept in the folder's texture cache) is enrolled "from scans": its face files as
they are. Every card at least a quarter visible is read by `vision/read/matcher.py` from its true outline
(the visible part's corners, in a random order, jittered by ``--jitter`` pixels). Prints per folder and
per share visible: accuracy, the share answered (not "unknown") and precision, for faces and, apart, for
the card back (the draw pile's top card, which the detector mostly boxes face down); whole faces by the
card's length in pixels; the most frequent mistakes; the time per card. ``--misses DIR`` draws each misread or unknown card to look at.

With ``--enrolled-from photos``, each deck is enrolled instead as a user photographing their cards would: one
angled photo per card id on a wooden table (``datasets.photos.write_photo_folder``, seed 5150), through
`borne enrol`'s folder path (``datasets.enrol.enrol_folder``: each card found, straightened, evened out).

With ``--compare-fitted``, the recogniser `borne enrol` fits today (hand-made features, 400 scenes rendered
with the edition's faces plus 25,000 face views; the generic's is the shipped one) reads the same outlines
beside the matcher, for folders of one deck.

With ``--detect``, each folder (one deck per folder) is then read as `borne detect` reads a photo — the
shipped detector on the still's six tiles — with the matcher in place of the recogniser, and bench_detect's
figures are printed (recall, precision, face accuracy, exact census).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import card_length, folder_stills  # noqa: E402
from bench_reader import report  # noqa: E402
from photo_editions import test_edition_folder  # noqa: E402

from datasets.art_test import TEST_EDITIONS  # noqa: E402
from datasets.edition import FACE_KEYS, ensure_generic  # noqa: E402
from vision.read.matcher import FaceMatcher  # noqa: E402
from vision.read.numerals import NumeralReader  # noqa: E402
from vision.read.recogniser import Reading, Recogniser  # noqa: E402

LENGTHS = ((0, 50), (50, 80), (80, 9999))
"""Card lengths in pixels the whole faces are also counted by: small print shows only on longer cards."""
NUMERALS: list[NumeralReader] = []
"""The numeral reader the matchers ask, when ``--numerals`` (empty: none)."""


ENROLMENT_PHOTOS_SEED = 5150
"""The seed of the angled photos a deck is enrolled from with ``--enrolled-from photos`` (bench_enrolment's)."""
ENROLLED_FROM: list[Path] = []
"""With ``--enrolled-from photos``: a folder the decks are photographed and enrolled into (empty: from scans)."""


def matcher_for(deck: str, folder: Path, cache: dict[str, FaceMatcher]) -> FaceMatcher:
    """The matcher of a scene's deck, enrolled from its face files (or from angled photos of them)."""
    if deck not in cache:
        if deck == "generic":
            scans = ensure_generic().folder
        elif deck in TEST_EDITIONS or Path(deck).name in TEST_EDITIONS:
            scans = test_edition_folder(Path(deck).name).folder
        else:
            scans = folder / ".passes" / "textures" / "decks" / deck
        if ENROLLED_FROM:
            cache[deck] = FaceMatcher.from_folder(enrolled_from_photos(deck, scans, ENROLLED_FROM[0]))
        elif (scans / "edition.json").is_file():
            cache[deck] = FaceMatcher.from_folder(scans)
        else:
            cache[deck] = FaceMatcher.from_files(deck, {k: scans / f"{k}.png" for k in FACE_KEYS})
    cache[deck].numerals = NUMERALS[0] if NUMERALS else None
    return cache[deck]


def enrolled_from_photos(deck: str, scans: Path, root: Path) -> Path:
    """The edition folder of ``deck`` enrolled from one angled photo of each of its card faces (in ``scans``)."""
    from datasets.edition import Edition, read_rgb
    from datasets.enrol import enrol_folder
    from datasets.photos import write_photo_folder

    name = Path(deck).name
    if (scans / "edition.json").is_file():
        edition = Edition.open(scans)
        faces = {k: edition.face(k) for k in FACE_KEYS if k != "back"}
    else:
        faces = {k: read_rgb(scans / f"{k}.png") for k in FACE_KEYS if k != "back"}
    photos = write_photo_folder(faces, root / "photos" / name, seed=ENROLMENT_PHOTOS_SEED)
    return enrol_folder(photos, f"{name}-photographed", out_root=root / "editions").folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", required=True)
    parser.add_argument("--scenes", type=int, default=None)
    parser.add_argument("--jitter", type=float, default=1.0, help="pixels of noise on each true corner (default 1)")
    parser.add_argument("--misses", type=Path, default=None)
    parser.add_argument("--detect", action="store_true", help="then read each folder as `borne detect` does")
    parser.add_argument("--numerals", action="store_true",
                        help="a whole distance card whose face is unsure gets its printed numeral read (OCR)")
    parser.add_argument("--enrolled-from", choices=("scans", "photos"), default="scans",
                        help="enrol each deck from its face files as they are (scans), or from an angled photo of each")
    parser.add_argument("--compare-fitted", action="store_true",
                        help="also read with the recogniser `borne enrol` fits (minutes per edition)")
    args = parser.parse_args()
    if args.enrolled_from == "photos":
        import tempfile

        ENROLLED_FROM.append(Path(tempfile.mkdtemp(prefix="bench-match-enrolled-")))
    rng = np.random.default_rng(0)
    cache: dict[str, FaceMatcher] = {}
    if args.numerals:
        NUMERALS.append(NumeralReader.shipped())
    seconds: list[float] = []
    if args.misses:
        args.misses.mkdir(parents=True, exist_ok=True)
    for folder in args.photos:
        rows: list[tuple[str, str, float]] = []
        backs: list[tuple[str, str, float]] = []
        lengths: list[tuple[float, bool, bool]] = []
        fitted_rows: list[tuple[str, str, float]] = []
        fitted = fitted_recogniser(folder) if args.compare_fitted else None
        for n, still in enumerate(folder_stills(folder, args.scenes)):
            matcher = replace(matcher_for(str(still.truth.get("edition", "generic")), folder, cache), outline_first=False)
            for v in still.views():
                if v["visible"] < 0.25:
                    continue
                box = np.roll(np.asarray(v["visible_corners"]), int(rng.integers(4)), axis=0) + rng.normal(0, args.jitter, (4, 2))
                started = time.perf_counter()
                reading = matcher.read(still.image, [box])[0]
                seconds.append(time.perf_counter() - started)
                said = _said(reading)
                (backs if v["card"] == "back" else rows).append((v["card"], said, v["visible"]))
                if v["visible"] >= 0.9 and v["card"] != "back":
                    lengths.append((card_length(v["corners"]), said == v["card"], said != "unknown"))
                if fitted is not None:
                    fitted_rows.append((v["card"], _said(fitted.read(still.image, [box])[0]), v["visible"]))
                if args.misses and said != v["card"]:
                    _draw_miss(args.misses / f"{folder.name}_{n:03d}_{v['card']}_as_{said}_{round(100 * v['visible'])}.png",
                               still.image, box)
        readers = {"the matcher": rows} | ({"the recogniser `borne enrol` fits": fitted_rows} if fitted is not None else {})
        report(readers, str(folder))
        report({"the matcher, the card back (the draw pile's top card boxed face up)": backs}, str(folder))
        _by_length(lengths)
    print(f"time per card: median {1000 * np.median(seconds):.2f} ms, worst {1000 * max(seconds):.2f} ms")
    for folder in args.photos if args.detect else ():
        from bench_detect import measure_stills

        from vision.read.detector import OnnxCardDetector
        from vision.read.frame_reader import FrameReader
        from vision.read.models import detector_path
        from vision.read.tiling import STILL_TILE_SHARE, TiledDetector

        stills = list(folder_stills(folder, args.scenes))
        decks = {str(still.truth.get("edition", "generic")) for still in stills}
        if len(decks) != 1:
            print(f"{folder}: {len(decks)} decks; --detect reads folders of one deck")
            continue
        detector = TiledDetector(OnnxCardDetector(detector_path()), tile_share=STILL_TILE_SHARE)
        reader = FrameReader(detector, matcher_for(decks.pop(), folder, cache))
        measure_stills(reader, stills, f"{folder}, as `borne detect` reads it, with the matcher")


def _by_length(lengths: list[tuple[float, bool, bool]]) -> None:
    """Whole faces read right (precision) by how long the card is in the picture."""
    for low, high in LENGTHS:
        here = [(r, a) for length, r, a in lengths if low <= length < high]
        if here:
            right, answered = sum(r for r, _ in here), sum(a for _, a in here)
            print(f"    whole faces {low}–{high} px long".replace("–9999", " or more") +
                  f"  n={len(here):>4}  read right {right / len(here):.4f}  precision {right / max(answered, 1):.4f}")


def _said(reading: Reading) -> str:
    return "back" if reading.back else (reading.card.value if reading.card else "unknown")


def fitted_recogniser(folder: Path) -> Recogniser:
    """The recogniser `borne enrol` fits for the one deck of a folder of stills (the shipped one for the generic)."""
    from vision.read.models import load_fitted_recogniser
    from vision.training.face_fitting import collect_crops, collect_face_views, fit_recogniser

    decks = {str(s.truth.get("edition", "generic")) for s in folder_stills(folder)}
    if len(decks) != 1:
        raise SystemExit(f"{folder}: --compare-fitted reads folders of one deck, not {len(decks)}")
    deck = decks.pop()
    if deck == "generic":
        return load_fitted_recogniser("generic")
    edition = str(test_edition_folder(Path(deck).name).folder)
    started = time.monotonic()
    crops = collect_crops(edition, scenes=400, seed=0).joined(collect_face_views(edition, 25_000, seed=0))
    recogniser = fit_recogniser(edition, crops, seed=0)
    print(f"fitted the recogniser of {deck} in {time.monotonic() - started:.0f} s")
    return recogniser


def _draw_miss(path: Path, image: np.ndarray, box: np.ndarray) -> None:
    length = max(float(np.ptp(box[:, 0])), float(np.ptp(box[:, 1])), 20.0)
    cx, cy = box.mean(axis=0)
    x0, y0 = max(int(cx - length), 0), max(int(cy - length), 0)
    x1, y1 = min(int(cx + length), image.shape[1]), min(int(cy + length), image.shape[0])
    out = cv2.resize(image[y0:y1, x0:x1], None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
    cv2.polylines(out, [np.round((box - [x0, y0]) * 4).astype(np.int32)], True, (0, 230, 255), 1, cv2.LINE_AA)
    cv2.imwrite(str(path), out)


if __name__ == "__main__":
    main()
