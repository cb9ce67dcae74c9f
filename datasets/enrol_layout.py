"""Enrolling a deck from one photo of its 19 card types laid out on the table, in any order, or from the
pages of its print-and-play sheet (a card printed again is kept once).

Each card is found in the photo (:mod:`vision.teach.finding`: card-shaped outlines that straighten into 56 × 87
rectangles of one size on the table's plane) and straightened. Then each is given a name to confirm: by its place
where the cards lie as the guide shows (:mod:`vision.teach.guide`), else by what is printed on it, its likeness to
the generic edition's faces last (:mod:`vision.teach.naming`), each name given once (the surest first). The person enrolling confirms or corrects the names (the
terminal shows them and draws a numbered sheet of the cards); nothing is stored before that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.edition import FACE_KEYS, Edition, write_edition
from datasets.enrol import _outer_frame, card_candidates, even_out, order_corners, same_faces, straighten
from datasets.errors import DuplicateFaceError, EnrolmentError
from scoring.cards import Card
from vision.teach.finding import CardsNotFoundError, find_cards
from vision.teach.guide import agrees, guide_places
from vision.teach.naming import FACE, Proposal, TextReader, evidence, names, proposed

SHEET_WORK_PX = 1600
"""A sheet's page is searched for cards on a copy this many pixels across."""
MIN_CARD_SHARE = 0.002
"""A card covers at least this share of the page."""
SIZE_SPREAD = 1.8
"""Cards of one page: each card's area within this factor of the median card's."""


@dataclass(frozen=True)
class LaidCard:
    """One card found in the layout photo, straightened, with the name proposed for it."""

    number: int
    """1-based, in reading order (rows top to bottom, left to right): how the person names it."""
    corners: np.ndarray
    face: np.ndarray
    """RGB, upright or upside down (a card's two ends are told apart by the reading, not here)."""
    proposed: Card
    reason: str
    """Why that name: what is printed on the card, or its likeness to the generic edition's faces."""
    page: int = 0
    """Which of the pictures given holds it (0: the first)."""


def find_laid_cards(image: np.ndarray) -> list[np.ndarray]:
    """The corners (face order) of each card in an RGB photo of cards laid apart, in reading order
    (:func:`vision.teach.finding.find_cards`).

    :raises EnrolmentError: no card found.
    """
    try:
        return [order_corners(card.corners) for card in find_cards(image)]
    except CardsNotFoundError as e:
        raise EnrolmentError(str(e)) from None


def find_sheet_cards(image: np.ndarray) -> list[np.ndarray]:
    """The corners (face order) of each card on a scanned page of a print-and-play sheet (flat, the cards edge to
    edge between cut marks), in reading order: card-shaped contours of about one size.

    :raises EnrolmentError: no card found.
    """
    cards, scale = card_candidates(image, min_share=MIN_CARD_SHARE, work_px=SHEET_WORK_PX)
    found = _one_per_card(cards)
    if not found:
        raise EnrolmentError("no card found on the page")
    # a quadrilateral round two cards side by side would take both: again, with cards of the typical size only
    typical = float(np.median([cv2.contourArea(q.astype(np.float32)) for q in found]))
    sized = [c for c in cards if typical / SIZE_SPREAD <= cv2.contourArea(c[2].astype(np.float32)) <= typical * SIZE_SPREAD]
    found = _one_per_card(sized)
    rows = sorted(found, key=lambda q: float(q[:, 1].mean()))
    height = float(np.sqrt(typical)) * 1.2
    ordered: list[np.ndarray] = []
    while rows:  # a row: the cards whose centres lie within about half a card of the first's
        top = float(rows[0][:, 1].mean())
        row = [q for q in rows if float(q[:, 1].mean()) - top < 0.6 * height]
        ordered += sorted(row, key=lambda q: float(q[:, 0].mean()))
        rows = [q for q in rows if not any(q is r for r in row)]
    return [q / scale for q in ordered]


def _one_per_card(cards: list[tuple[float, float, np.ndarray]]) -> list[np.ndarray]:
    """The best quadrilateral of each card (or the card's edge round a frame printed inside it): candidates
    whose centres lie inside one another are one card."""
    remaining = sorted(cards, key=lambda c: -c[0])
    found = []
    while remaining:
        best = remaining[0][2].astype(np.float32).reshape(-1, 1, 2)
        centre = remaining[0][2].mean(axis=0)

        def same(c: tuple[float, float, np.ndarray], best: np.ndarray = best, centre: np.ndarray = centre) -> bool:
            polygon = c[2].astype(np.float32).reshape(-1, 1, 2)
            inside = cv2.pointPolygonTest(best, tuple(float(v) for v in c[2].mean(axis=0)), False) >= 0
            return bool(inside or cv2.pointPolygonTest(polygon, (float(centre[0]), float(centre[1])), False) >= 0)

        group = [c for c in remaining if same(c)]
        found.append(_outer_frame(group))
        remaining = [c for c in remaining if not same(c)]
    return found


def propose_names(faces: list[np.ndarray], corners: list[np.ndarray] | None = None) -> list[Proposal]:
    """A name for each straightened face (RGB), each card id once, with its reason: where the cards (``corners``,
    in one photo) lie as the guide shows and what is printed on them agrees, each card's place
    (:mod:`vision.teach.guide`); else (:mod:`vision.teach.naming`) what is printed on it (its name in any of the
    display's languages or the publishers' printings, a distance value), then its likeness to the generic faces.

    :raises EnrolmentError: more than 19 faces.
    """
    from vision.read.matcher import FaceMatcher
    from vision.read.models import faces_folder

    if len(faces) > len(Card):
        raise EnrolmentError(f"found {len(faces)} different cards, not {len(Card)}: lay each card type once, face up "
                             "and apart from the others, and keep other card-sized things (a phone, a notebook) away")
    reader = TextReader.shipped()
    vocabulary = names()
    readings = []
    for face in faces:
        bgr = np.ascontiguousarray(cv2.resize(face, FACE, interpolation=cv2.INTER_AREA)[..., ::-1], np.uint8)
        readings.append(evidence(reader.lines(bgr), vocabulary))
    places = guide_places(corners) if corners is not None else None
    printed = [max(r, key=lambda c: r[c][0]) if r else None for r in readings]
    if places is not None and agrees(places, printed):
        return [Proposal(card, f"its place in the guide (row {1 + list(Card).index(card) // 5}, card "
                               f"{1 + list(Card).index(card) % 5})", 0.97) for card in places]
    generic = FaceMatcher.from_folder(faces_folder("generic"), "generic")
    likeness = np.zeros((len(faces), len(Card)))
    for k, face in enumerate(faces):
        bgr = np.ascontiguousarray(cv2.resize(face, (120, 186), interpolation=cv2.INTER_AREA)[..., ::-1], np.uint8)
        rows, _ = generic.scores(bgr, np.array([[0, 0], [120, 0], [120, 186], [0, 186]], np.float64))
        likeness[k] = rows[:, : len(Card)].max(axis=0)
    return proposed(readings, likeness)


def lay_out(photos: Path | np.ndarray | Sequence[Path | np.ndarray]) -> list[LaidCard]:
    """The cards of a layout photo (a file, or an RGB array), or of several pictures — the pages of a
    print-and-play sheet, or layout photos of a part of the deck each — straightened, each card type once
    (:func:`distinct_faces`: a sheet prints a deck's 25s ten times), and named for confirmation.

    :raises EnrolmentError: an unreadable picture, one with no card, or not 19 different cards in all.
    """
    pictures: list[Path | np.ndarray] = list(photos) if isinstance(photos, list | tuple) else [photos]  # type: ignore[list-item]
    found: list[tuple[int, np.ndarray, np.ndarray]] = []
    for page, picture in enumerate(pictures):
        image = _picture(picture)
        try:
            quads = find_laid_cards(image) if len(pictures) == 1 else find_sheet_cards(image)
        except EnrolmentError as e:
            raise EnrolmentError(f"{picture}: {e}" if isinstance(picture, Path) else str(e)) from None
        found += [(page, q, straighten(image, order_corners(q))) for q in quads]
    if len(pictures) > 1:  # a print-and-play sheet prints a card many times; one photo holds each card once
        found = [found[k] for k in distinct_faces([face for _, _, face in found])]
    proposals = propose_names([face for _, _, face in found], [q for _, q, _ in found] if len(pictures) == 1 else None)
    if len(found) < len(Card):
        missing = [c.value for c in Card if all(p.card is not c for p in proposals)]
        raise EnrolmentError(f"found {len(found)} different cards, not {len(Card)}: none reads as "
                             f"{', '.join(missing)}; lay each card type once, face up and apart from the others, and "
                             "photograph them all (or give every page of the deck's print-and-play sheet, without the "
                             "backs' page)")
    return [LaidCard(k + 1, q, f, name.card, name.reason, page)
            for k, ((page, q, f), name) in enumerate(zip(found, proposals, strict=True))]


def _picture(picture: Path | np.ndarray) -> np.ndarray:
    """An RGB picture from a file (or as given).

    :raises EnrolmentError: not a readable picture.
    """
    if not isinstance(picture, Path):
        return picture
    from datasets.edition import read_rgb

    try:
        return read_rgb(picture)
    except Exception as e:  # noqa: BLE001 - any unreadable file is the user's picture, not our bug
        raise EnrolmentError(f"{picture}: not a readable picture ({e})") from None


def distinct_faces(faces: list[np.ndarray]) -> list[int]:
    """The index of the first of each group of faces that are one card printed again (:func:`same_print`,
    either way up), in order."""
    kept: list[int] = []
    greys: list[np.ndarray] = []
    for k, face in enumerate(faces):
        grey = _print_grey(face)
        if any(same_print(grey, g) or same_print(np.ascontiguousarray(grey[::-1, ::-1]), g) for g in greys):
            continue
        kept.append(k)
        greys.append(grey)
    return kept


PRINT_WIDTH = 300
"""Faces are compared for repeats at this width (a card's numeral in a corner is still 10 px high)."""
REPEAT_DIFFERENCE = 40.0
"""Two prints of one card, laid on each other (a shift and a slight scale: where each was cut from its page),
differ nowhere by more than this many grey levels once softened; two cards told apart by a small corner
numeral differ by far more there."""


def _print_grey(face: np.ndarray) -> np.ndarray:
    height = round(PRINT_WIDTH * face.shape[0] / face.shape[1])
    grey = cv2.cvtColor(cv2.resize(face, (PRINT_WIDTH, height), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
    return grey.astype(np.float32)


ROUGH_LIKENESS = 0.9
"""Two faces correlating less than this at a glance (30 px wide) are not compared closely."""


def _rough_likeness(a: np.ndarray, b: np.ndarray) -> float:
    small = [cv2.resize(x, (30, round(30 * x.shape[0] / x.shape[1])), interpolation=cv2.INTER_AREA).ravel() for x in (a, b)]
    small = [(x - x.mean()) / (np.linalg.norm(x - x.mean()) + 1e-6) for x in small]
    return float(small[0] @ small[1])


def same_print(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two grey faces (:func:`_print_grey`) are one print: ``b`` aligned on ``a`` (an affine map found
    by OpenCV's enhanced correlation), their softened difference stays under :data:`REPEAT_DIFFERENCE`."""
    if a.shape != b.shape or _rough_likeness(a, b) < ROUGH_LIKENESS:
        return False
    warp = np.eye(2, 3, dtype=np.float32)
    try:
        _, warp = cv2.findTransformECC(a, b, warp, cv2.MOTION_AFFINE,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-5), None, 3)  # type: ignore[call-overload]
    except cv2.error:
        return False
    h, w = a.shape
    laid = cv2.warpAffine(b, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    m = PRINT_WIDTH // 30  # the cut edges aside
    difference = cv2.GaussianBlur(np.abs(a - laid), (0, 0), 1.5)[m:-m, m:-m]
    return float(difference.max()) < REPEAT_DIFFERENCE


def parse_corrections(text: str) -> dict[int, Card]:
    """``"3=stop, 7=roll"`` as card numbers and the ids they are.

    >>> parse_corrections("3=stop, 7=roll")
    {3: <Card.STOP: 'stop'>, 7: <Card.ROLL: 'roll'>}

    :raises EnrolmentError: anything else.
    """
    out: dict[int, Card] = {}
    for part in text.replace(",", " ").split():
        number, _, name = part.partition("=")
        try:
            out[int(number)] = Card(name.strip())
        except ValueError:
            raise EnrolmentError(f"{part!r}: write NUMBER=CARD_ID, e.g. 3=stop (ids: {', '.join(c.value for c in Card)})") from None
    return out


def named(cards: list[LaidCard], corrections: dict[int, Card]) -> dict[str, np.ndarray]:
    """The faces by card id once the corrections are applied.

    :raises EnrolmentError: a number not in the photo, or a card id given to two cards or to none.
    """
    unknown = sorted(set(corrections) - {c.number for c in cards})
    if unknown:
        raise EnrolmentError(f"no card numbered {unknown[0]} in the photo (1–{len(cards)})")
    ids = {c.number: corrections.get(c.number, c.proposed) for c in cards}
    twice = sorted({card.value for card in ids.values() if list(ids.values()).count(card) > 1})
    if twice:
        numbers = [n for n, card in ids.items() if card.value == twice[0]]
        raise EnrolmentError(f"cards {' and '.join(map(str, numbers))} are both named {twice[0]}: each card id once")
    return {ids[c.number].value: c.face for c in cards}


def draw_sheet(cards: list[LaidCard], path: Path) -> Path:
    """A numbered sheet of the straightened cards with their proposed names, for the person to check."""
    tiles = []
    for c in cards:
        tile = cv2.resize(c.face[..., ::-1], (150, 233), interpolation=cv2.INTER_AREA)
        tile = cv2.copyMakeBorder(tile, 0, 46, 4, 4, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, f"{c.number}", (6, 256), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(tile, c.proposed.value, (6, 274), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 160), 1, cv2.LINE_AA)
        tiles.append(tile)
    while len(tiles) % 5:
        tiles.append(np.full_like(tiles[0], 255))
    sheet = np.vstack([np.hstack(tiles[i : i + 5]) for i in range(0, len(tiles), 5)])
    cv2.imwrite(str(path), sheet)
    return path


def enrol_layout(
    cards: list[LaidCard], name: str, corrections: dict[int, Card], *, out_root: Path,
    progress: Callable[[str], None] | None = None,
) -> Edition:
    """Store the confirmed faces as edition ``name``.

    :raises EnrolmentError: names given twice, or two cards that are one picture.
    """
    faces = even_out(named(cards, corrections))
    for a, b in same_faces(faces):
        raise DuplicateFaceError(f"the cards named {a} and {b} show the same face: lay each card type once")
    if progress is not None:
        for key in FACE_KEYS:
            if key in faces:
                progress(key)
    return write_edition(out_root / name, name, faces, source="enrolled from pictures of the cards laid out")
