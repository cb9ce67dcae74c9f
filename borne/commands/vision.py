"""``borne detect`` and ``borne enrol``: what one photo of the table shows, and teaching a new deck edition."""

from __future__ import annotations

import argparse
from typing import Any

from borne.commands import whole_number


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "detect",
        help="say what each side has played in one photo of the table",
        description="Read one photo (JPEG/PNG) of the table and print, per side of the layout, the distance "
        "cards, the safeties (coups fourrés when laid sideways) and every card found, as JSON (CONTRACT.md §5). "
        "Without --layout the sides are found from the table (the draw pile in the middle, each side's cards "
        "around it) and printed with their zones and up.",
    )
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="the table layout (CONTRACT.md §4); without it the sides are found from the table")
    p.add_argument("--edition", default="generic",
                   help="deck edition: an enrolled one, or `unknown` (a deck nobody enrolled: distance cards by their "
                        "numerals, other cards unknown; default: the built-in generic edition)")
    p.add_argument("--draw", metavar="OUT.jpg", help="also write the picture with boxes, ids and zones drawn on it")
    p.set_defaults(func=_detect)

    p = sub.add_parser(
        "enrol",
        help="teach Borne a deck edition from one photo per card",
        description="FOLDER holds one photo or scan per card type, named by card id (distance_25.jpg, …, "
        "driving_ace.png; back.jpg optional): a photo holding the card (at an angle, on any background) or a plain "
        "scan or picture file of the card filling the image; or FOLDER is one photo of the 19 card types laid "
        "out apart on the table, in any order, or several pictures (the pages of the deck's print-and-play sheet, "
        "or photos of a part of the deck laid out each; a card printed again is kept once): their names are "
        "proposed and confirmed. "
        "Each card is found and straightened, and the faces "
        "are the edition: Borne reads a card by matching it against them, nothing is fitted (seconds). Faces "
        "that differ only in small print are named. Afterwards detect and replay take --edition NAME.",
    )
    p.add_argument("folder", metavar="FOLDER", nargs="+")
    p.add_argument("--edition", required=True, metavar="NAME", help="the name to give the edition")
    p.add_argument("--yes", action="store_true",
                   help="one photo of the cards laid out: take the names Borne proposes without asking")
    p.add_argument("--names", default=None, metavar="'3=stop 7=roll'",
                   help="one photo of the cards laid out: correct the proposed names of these cards (by number)")
    p.add_argument("--json", action="store_true",
                   help="one photo of the cards laid out: the last line printed is the cards as JSON (CONTRACT §7: "
                        "each card's number, id and corners in the photo's pixels) and the seconds it took")
    p.add_argument("--fitted", action="store_true",
                   help="also fit a recogniser on scenes rendered with the faces (about 90 s); detect and replay then "
                        "read the edition with it: a deck whose cards differ only in small print is read far better "
                        "so today")
    p.add_argument("--scenes", type=int, default=400, help="with --fitted: scenes rendered to fit it (default 400)")
    p.add_argument("--reader", action="store_true",
                   help="enrol with the learned face reader (models/reader.onnx) instead: about half a minute, "
                        "no scenes rendered; experimental, see models/reader.md for how it reads today")
    add_face_views_option(p)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=_enrol)


def _detect(args: argparse.Namespace) -> int:
    import json
    import sys

    from vision.image import read_image
    from vision.photo import PhotoCounter
    from vision.table.layout import TableLayout

    layout = TableLayout.from_file(args.layout) if args.layout is not None else None
    image = read_image(args.image)
    counted = PhotoCounter(args.edition).count(image, layout)
    if counted.too_small:
        print(
            f"borne detect: the cards are about {counted.card_px:.0f} px long in this picture, too small to "
            "read reliably: move the camera closer or use a higher resolution",
            file=sys.stderr,
        )
    if args.draw:
        from vision.drawing import draw_census

        draw_census(image, counted.census, counted.layout, args.draw)
    print(json.dumps(counted.to_json(), ensure_ascii=False))
    return 0


def _enrol(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tqdm import tqdm

    from borne.commands import CommandError
    from datasets.enrol import enrol_folder
    from vision.read.models import PROTOTYPES_FILE, RECOGNISER_FILE, reader_path
    from vision.read.reader import HEAD_FILE

    if args.reader:
        reader_path_ = reader_path()
        if not reader_path_.is_file():
            raise CommandError(f"--reader: {reader_path_} is missing (train it with `borne train reader`)")
    started = time.monotonic()
    paths = [Path(p) for p in args.folder]
    laid: list[dict[str, Any]] | None = None
    if len(paths) == 1 and not paths[0].is_file():  # a folder of one picture per card type
        if args.json:
            raise CommandError("--json is for one photo of the cards laid out, not a folder of a picture per card")
        with tqdm(total=19, desc="finding cards", unit="card") as bar:
            edition = enrol_folder(paths[0], args.edition, progress=lambda key: bar.update(1))
    else:  # one photo of the 19 cards laid out, or the pages of a print-and-play sheet
        folders = [p for p in paths if p.is_dir()]
        if folders:
            raise CommandError(f"{folders[0]}: give one folder of a picture per card, or pictures of cards laid out")
        edition, waited, laid = _enrol_layout(paths, args)
        started += waited
    # an edition enrolled again keeps nothing of the way it was read before
    for stale in (RECOGNISER_FILE, HEAD_FILE, PROTOTYPES_FILE):
        (edition.folder / stale).unlink(missing_ok=True)
    _warn_look_alikes(edition.folder, edition.name)
    if args.reader:
        _learn_faces(edition, seed=args.seed)
    elif args.fitted:
        recogniser, _ = fit_with_progress(edition.name, scenes=args.scenes, views=args.face_views, seed=args.seed)
        recogniser.save(edition.folder / RECOGNISER_FILE)
    seconds = time.monotonic() - started
    print(f"enrolled edition {edition.name!r} in {seconds:.1f} s; use --edition {edition.name}")
    if args.json and laid is not None:
        import json

        print(json.dumps({"cards": laid, "seconds": round(seconds, 1)}))
    return 0


def _enrol_layout(photo: Any, args: argparse.Namespace) -> tuple[Any, float, list[dict[str, Any]]]:
    """One photo of the 19 card types laid out, or several pictures holding them (a print-and-play sheet's
    pages): the cards found, straightened and named, the names confirmed
    (``--yes``, ``--names`` or at the terminal), then stored; the seconds spent waiting for the person (the
    time printed is Borne's); and the cards as CONTRACT §7's ``--json`` gives them."""
    import sys
    import tempfile
    import time
    from pathlib import Path

    from borne.commands import CommandError
    from datasets.edition import data_dir
    from datasets.enrol import enrolment_name
    from datasets.enrol_layout import draw_sheet, enrol_layout, lay_out, parse_corrections
    from datasets.errors import EnrolmentError

    name = enrolment_name(args.edition)
    cards = lay_out(photo)
    sheet = draw_sheet(cards, Path(tempfile.gettempdir()) / f"borne-enrol-{name}.png")
    print(f"found {len(cards)} cards; their names as proposed (also drawn in {sheet}):", file=sys.stderr)
    for c in cards:
        print(f"  {c.number:2d}  {c.proposed.value:<15} ({c.reason})", file=sys.stderr)
    corrections = parse_corrections(args.names or "")
    waited = 0.0
    if not args.yes and not args.names:
        if not sys.stdin.isatty():
            raise CommandError("confirm the names: --yes if they are right, or --names '3=stop 7=roll' to correct them")
        while True:
            asked = time.monotonic()
            answer = input("Enter if they are right, or corrections (e.g. 3=stop 7=roll): ").strip()
            waited += time.monotonic() - asked
            try:
                corrections = parse_corrections(answer)
                edition = enrol_layout(cards, name, corrections, out_root=data_dir() / "editions")
                break
            except EnrolmentError as e:
                print(f"  {e}", file=sys.stderr)
    else:
        edition = enrol_layout(cards, name, corrections, out_root=data_dir() / "editions")
    laid = [{"number": c.number, "card": corrections.get(c.number, c.proposed).value,
             "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in c.corners]} for c in cards]
    return edition, waited, laid


def _warn_look_alikes(folder: Any, name: str) -> None:
    """Say which faces differ only in small print (the matcher tells them apart from close up only)."""
    import sys

    from vision.read.matcher import FaceMatcher

    for group in FaceMatcher.from_folder(folder, name).look_alikes():
        names = [c.value for c in group]
        print(f"note: {', '.join(names[:-1])} and {names[-1]} differ only in small print: Borne tells them apart "
              "where the camera sees a card large enough (about 60 px long or more); enrolling with --fitted "
              "(about 90 s) reads such cards better today", file=sys.stderr)


def _learn_faces(edition: Any, *, seed: int) -> None:
    """The face reader's prototypes of a freshly enrolled edition, with a warning for cards it may confuse."""
    import sys

    from tqdm import tqdm

    from datasets.prototypes import fit_head, look_alikes, make_prototypes
    from vision.read.models import PROTOTYPES_FILE, reader_path
    from vision.read.reader import CARDS, HEAD_FILE, FaceReader

    reader = FaceReader(reader_path())
    faces = [edition.face(c) for c in CARDS]
    with tqdm(total=2 * len(CARDS) + 1, desc="learning faces", unit="step") as bar:
        prototypes = make_prototypes(reader, faces, edition.name, seed=seed, progress=lambda done, total: bar.update(1))
        head = fit_head(reader, faces, edition.name, seed=seed, progress=lambda done, total: bar.update(1))
    prototypes.save(edition.folder / PROTOTYPES_FILE)
    head.save(edition.folder / HEAD_FILE)
    for a, b, similarity in look_alikes(prototypes):
        print(f"warning: {a.value} and {b.value} look alike at table size (similarity {similarity:.2f}); check "
              "that their photos show different cards, and expect them mistaken for one another now and then",
              file=sys.stderr)


FACE_VIEWS = 25_000
PHOTO_WEIGHT = 2
"""Each crop of a photo-real scene is taught this many times: they are few beside the 2-D scenes' and
the face views', and they are the only ones with a photograph's light, gloss and white rims."""


def add_face_views_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--face-views", type=whole_number(0, 1_000_000), default=FACE_VIEWS, metavar="N",
                   help=f"views cut straight from the face images, added to the scenes' crops (default {FACE_VIEWS:,})")


def fit_with_progress(
    edition: str, *, scenes: int, views: int, seed: int, epochs: int = 40, photos: tuple[str, ...] = (),
    photo_weight: int = PHOTO_WEIGHT,
) -> tuple[Any, Any]:
    """Render scenes, draw face views, cut the cards of photo-real scenes printed from ``edition`` (each
    crop taught ``photo_weight`` times) and fit the edition's recogniser, with a progress bar for each step."""
    from pathlib import Path

    from tqdm import tqdm

    from vision.training.face_fitting import collect_crops, collect_face_views, collect_photo_crops, fit_recogniser

    with tqdm(total=scenes, desc="rendering scenes", unit="scene") as bar:
        crops = collect_crops(edition, scenes=scenes, seed=seed, progress=lambda n: bar.update(1))
    if views > 0:
        with tqdm(total=views, desc="drawing face views", unit="view") as bar:
            crops = crops.joined(collect_face_views(edition, views, seed=seed, progress=lambda n: bar.update(n - bar.n)))
    if photos:
        with tqdm(desc="cutting photo-real cards", unit="scene") as bar:
            photo = collect_photo_crops([Path(f) for f in photos], edition, seed=seed, progress=lambda n: bar.update(1))
        for _ in range(photo_weight):
            crops = crops.joined(photo)
    with tqdm(total=epochs, desc="fitting recogniser", unit="epoch") as bar:
        def epoch_done(epoch: int, loss: float) -> None:
            bar.update(1)
            bar.set_postfix(loss=f"{loss:.4f}")

        recogniser = fit_recogniser(edition, crops, epochs=epochs, seed=seed, progress=epoch_done)
    return recogniser, crops
