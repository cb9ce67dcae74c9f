"""Reading a card by matching it against the faces of its edition: no training, an honest "unknown".

An edition is its faces. Each box is first made the card's own outline (:meth:`FaceMatcher.outline`: the face
it shows aligned with the frame), then straightened, long side down, in both turns (upright and upside down),
and compared with every face of the edition on the part that shows: the whole face for a whole card (or a card
seen at a slant), the face's end band for a column's strip (the outline's proportions say how much shows).
The comparison is a correlation in Lab at ``TEMPLATE_WIDTH`` × ``TEMPLATE_HEIGHT`` pixels of pictures
white-balanced on their own paper, the channels centred and scaled together, hue weighing more than lightness
(so a pink band and an orange one differ, whatever the lamp's colour). Where faces fit almost equally (distance
cards sharing their art, told apart by the numeral), each pair duels where those two differ, at the
resolution the frame has. The reading is the best face when it correlates well and clearly better than the
next card; otherwise "unknown" — and, on a whole distance card, the printed numeral may still name it
(:mod:`vision.read.numerals`). The confidence is a logistic model of being right, fitted on development stills.

>>> blocks = np.random.default_rng(0).integers(0, 256, (2, 6, 4, 3), dtype=np.uint8)
>>> faces = np.stack([cv2.resize(b, (80, 124), interpolation=cv2.INTER_NEAREST) for b in blocks])
>>> matcher = FaceMatcher("toy", (Card.DISTANCE_25, Card.DISTANCE_50), faces)
>>> image = np.zeros((100, 100, 3), np.uint8); image[20:82, 30:70] = cv2.resize(faces[1], (40, 62))
>>> box = np.array([[70, 82], [30, 82], [30, 20], [70, 20.0]])  # any corner first: here the bottom right
>>> [r.card for r in matcher.read(image, [box])]
[<Card.DISTANCE_50: 'distance_50'>]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.errors import ModelError
from vision.geometry import iou
from vision.read.crops import CARD_ASPECT, clockwise, cut_card
from vision.read.likeness import SOFTEN, lab, normalised, standard
from vision.read.numerals import NumeralReader
from vision.read.recogniser import Reading

TEMPLATE_WIDTH = 40
TEMPLATE_HEIGHT = 62
"""The size faces are compared at (a card's proportions, 56 × 87 mm)."""
REFERENCE_WIDTH = 120
REFERENCE_HEIGHT = 186
"""The size an edition's faces are kept at (three times the template's, for the closer look)."""
WHOLE_SHARE = 0.85
"""An outline at least this share of a card's length is compared as a whole card."""
PERSPECTIVE_SHARE = 0.7
"""An outline whose proportions say it shows this share of a card's length or more may be a whole card seen
at a slant (a camera 30° from the vertical shortens a card by up to an eighth), so it is also read whole."""
MIN_SHARE = 0.18
"""Bands shorter than this share of a card's length are not read (a sliver under a pile)."""
MIN_CORRELATION = 0.45
"""Below this best correlation the card is "unknown": raising it trades readings for certainty."""
MIN_BAND_CORRELATION = 0.3
"""The same for a band of a card (a column's strip): a band correlates less, and its neighbours' print is
close by (development stills of the generic edition: strips read right 0.882 at 0.45, 0.913 at 0.3, with
the same precision)."""
MIN_MARGIN = 0.04
"""The best card must correlate at least this much better than the next card, else "unknown"."""
DETAIL_MARGIN = 0.15
"""When the two best cards are closer than this, the region where their faces differ is compared again
at the frame's resolution."""
MIN_DETAIL_MARGIN = 0.05
"""After the closer look, the best face must win its every duel by this much (:func:`_duel_margin`), else
"unknown"."""
DUEL_SCALE = 0.01
"""A duel's margin per unit of its signal-to-residual ratio: 0.05 asks the region to sit five times its
unexplained spread towards the winner. Development stills, whole faces read right (precision), the
correlation margin before → this: `midcard` 0.667 (1.000) → 0.791 (0.990), `corner` 0.279 (0.900) → 0.395
(0.981), `lineart` 0.271 (0.921) → 0.411 (0.946), the generic 0.994 (1.000) both."""
MIN_DETAIL_FIT = 0.3
"""... and the region must depart from what the faces share the way the best face does, at least this
well (a correlation): where the print that tells them apart is too small to show, it is "unknown"."""
ALIGN_CANDIDATES = 3
"""Faces tried when aligning a card's outline (the best correlating first)."""
SLIDE_START = 0.1
"""The best face is also aligned from the outline moved this share of a card's length along it, each way, the
best fit kept: a box short of the card's end (a deck whose cards all share a printed header, the header taken
for the strip above) or past it. Development stills, corner error median (90th percentile) from the single
start to three: `midcard` 6.1 % (17.0 %) → 3.2 % (12.7 %), `photo` 2.4 % (15.9 %) → 2.7 % (15.2 %), the generic
1.6 % (3.0 %) → 1.6 % (2.9 %); faces read right through `detect` `midcard` 0.750 → 0.814, `photo` 0.929 → 0.954,
the generic 0.989 both (its exact census 51 → 50 of 69 sides)."""
MIN_ALIGNED_FIT = 0.5
"""An alignment whose correlation with the face stays under this is no alignment."""
MIN_ALIGNED_OVERLAP = 0.6
"""An aligned outline that overlaps its box less than this (rotated IoU) has slid onto a neighbour: in a
column, the card below shows the same face."""
LOOK_ALIKE = 0.97
"""Faces correlating this well at the first look's size are look-alikes (the test editions' distance cards
told apart by a corner numeral: 1.00; the generic's closest pair: 0.88)."""
NUMERAL_CONFIDENCE = 0.95
"""The confidence of a distance card named by its numeral (the recogniser says a value or nothing)."""
KEPT_CONFIDENCE = 0.25
"""The frame reader keeps a matched reading when the detector's confidence times the reading's is at least
this (:data:`vision.read.frame_reader.READ_KEPT_CONFIDENCE`, 0.4, was set for the fitted recogniser).
Development stills: 0.25 keeps more of a column's strips (generic photo-real 0.889 → 0.897 of strips, 51 → 52
of 69 sides exact; 2-D scenes 0.923 → 0.949, 47 → 48 of 54) for 1 and 3 more boxes on no card."""
MAX_GROUP = 6
"""At most this many near-equal faces are compared again."""
BACK = "back"


@dataclass(frozen=True)
class Match:
    """The face that fits an outline best, and the evidence for it."""

    face: int
    """Index into the edition's cards; one past them: the card back."""
    corners: NDArray[np.float64] = field(repr=False)
    """The outline's corners from the face's top left, as it fitted."""
    whole: bool
    """Compared as a whole card (else as a band at one end)."""
    correlation: float
    margin: float
    """Over the next face (after the closer look, where one was taken)."""
    sure: bool
    """Past every threshold: a reading, not "unknown"."""
    candidates: tuple[int, ...] = ()
    """The faces that fit almost as well (those compared again where they differ), the chosen one first."""

    @property
    def confidence(self) -> float:
        """The chance that the face is right, from the correlation and the margin (:func:`_confidence`)."""
        return _confidence(self.correlation, self.margin, self.whole)


@dataclass
class FaceMatcher:
    """The faces of one edition, ready to be matched (implements :class:`~vision.read.recogniser.Recogniser`)."""

    edition: str
    cards: tuple[Card, ...]
    faces: NDArray[np.uint8] = field(repr=False)
    """``(len(cards), H, W, 3)`` BGR faces at a reference size (at least twice the template's)."""
    back: NDArray[np.uint8] | None = field(default=None, repr=False)
    """The edition's card back (BGR, the faces' size), read as a face-down card; ``None``: no back known."""
    min_correlation: float = MIN_CORRELATION
    min_margin: float = MIN_MARGIN
    min_band_correlation: float = MIN_BAND_CORRELATION
    min_detail_margin: float = MIN_DETAIL_MARGIN
    min_detail_fit: float = MIN_DETAIL_FIT
    outline_first: bool = True
    """Read each box on the card's own outline (:meth:`outline`) rather than on the box as given."""
    numerals: NumeralReader | None = field(default=None, repr=False)
    """Where the face is unsure on a whole distance card, its printed numeral is read (``None``: not asked)."""
    kept_confidence: ClassVar[float] = KEPT_CONFIDENCE
    _bands: dict[int, NDArray[np.float32]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_folder(cls, folder: Path, name: str | None = None) -> FaceMatcher:
        """The matcher of an edition folder (``edition.json`` naming a face file per card id, ``back`` optional).

        :raises ModelError: no edition there, or a face missing or unreadable.
        """
        import json

        try:
            meta = json.loads((folder / "edition.json").read_text(encoding="utf-8"))
            files = {key: folder / str(file) for key, file in meta["faces"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise ModelError(f"{folder}: not an edition folder ({e})") from None
        return cls.from_files(name or str(meta.get("name", folder.name)), files)

    @classmethod
    def from_files(cls, name: str, files: dict[str, Path]) -> FaceMatcher:
        """The matcher of the face files of an edition, by card id (and ``back``, optional).

        :raises ModelError: a card's face missing or unreadable.
        """
        faces = []
        for card in Card:
            if card.value not in files:
                raise ModelError(f"edition {name}: no face for {card.value}")
            faces.append(_reference(_read(files[card.value])))
        back = _reference(_read(files[BACK])) if BACK in files else None
        return cls(name, tuple(Card), same_way_up(np.stack(faces)), back)

    def look_alikes(self, threshold: float = LOOK_ALIKE) -> list[tuple[Card, ...]]:
        """Groups of faces that correlate at least ``threshold`` at the first look's size: only the closer look
        (their small print, at the frame's resolution) tells them apart."""
        templates = self._templates(TEMPLATE_HEIGHT)[: len(self.cards)]
        flat = templates.reshape(len(templates), -1)
        alike = (flat @ flat.T) >= threshold
        groups: list[set[int]] = []
        for i, j in zip(*np.nonzero(np.triu(alike, 1)), strict=True):
            joined = [g for g in groups if i in g or j in g]
            merged = {int(i), int(j)}.union(*joined)
            groups = [g for g in groups if g not in joined] + [merged]
        return [tuple(self.cards[k] for k in sorted(g)) for g in sorted(groups, key=min)]

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        """The reading of each box in a BGR frame: with :attr:`outline_first`, on the card's own outline
        (:meth:`outline`), which the reading carries; else on the box as given."""
        if not self.outline_first:
            return [self._read_one(image, box) for box in boxes]
        readings = []
        for box in boxes:
            outline = self.outline(image, box)
            readings.append(self._read_one(image, box) if outline is None else self.read_outlined(image, outline, box))
        return readings

    def read_outlined(self, image: NDArray[np.uint8], outline: NDArray[np.floating], box: NDArray[np.floating]) -> Reading:
        """The reading of a card on its own ``outline`` (:meth:`outline` of the detector's ``box``), which it
        carries; its turn counted from the box's corner order."""
        return replace(self._read_one(image, outline, turn_from=box), outline=np.asarray(outline, dtype=np.float64))

    def outline(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> NDArray[np.float64] | None:
        """The card's own corners from a detector's box: a box with a whole card's proportions gets the face it
        shows aligned with the frame (:meth:`aligned`); ``None`` where that does not settle, and for a band of
        a card (a column's strip: aligned as a whole card, it slid onto the card below; fitted to its edges,
        `vision/read/outline.py`, the development stills' outlines came out worse than the boxes): the box
        stands."""
        scores, views = self.scores(image, box)
        if any(share >= WHOLE_SHARE for _, share in views):  # a whole card's proportions, or one seen at a slant
            aligned = self.aligned(image, box, (scores, views))
            if aligned is not None and iou(aligned, box) >= MIN_ALIGNED_OVERLAP:
                return aligned
        return None

    def scores(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> tuple[NDArray[np.float64], list[tuple[NDArray[np.float64], float]]]:
        """Correlations ``(views, len(cards) [+ 1 for the back])`` of each way the outline can show a card
        (:func:`_views`, slivers left out) with every face, and those views."""
        views = [(q, share) for q, share in _views(box) if share >= MIN_SHARE]
        rows = np.zeros((len(views), len(self.cards) + (self.back is not None)))
        for n, (q, share) in enumerate(views):
            height = _rows(share)
            crop = normalised(cut_card(image, q, width=TEMPLATE_WIDTH, height=height))
            templates = self._templates(height)
            rows[n] = templates.reshape(len(templates), -1) @ crop.ravel()
        return rows, views

    def aligned(self, image: NDArray[np.uint8], box: NDArray[np.floating],
                scored: tuple[NDArray[np.float64], list[tuple[NDArray[np.float64], float]]] | None = None,
                ) -> NDArray[np.float64] | None:
        """The outline of a whole card, found by aligning the faces it may show with the frame
        (:func:`vision.read.alignment.align_face`; the :data:`ALIGN_CANDIDATES` faces that correlate best,
        the best fit kept); ``None`` where the box is no whole card or no face settles. ``scored``: the box's
        :meth:`scores`, where already computed."""
        from vision.read.alignment import align_face

        scores, views = scored if scored is not None else self.scores(image, box)
        whole = [n for n, (_, share) in enumerate(views) if share >= WHOLE_SHARE]
        if not whole:
            return None
        per_card = scores[whole].max(axis=0)  # the back too: the draw pile's top card has an outline
        best: tuple[float, NDArray[np.float64] | None] = (MIN_ALIGNED_FIT, None)
        for rank, k in enumerate(np.argsort(-per_card)[:ALIGN_CANDIDATES]):
            view = whole[int(scores[whole, k].argmax())]
            face = self.faces[int(k)] if k < len(self.cards) else self.back
            assert face is not None  # a column past the faces is the back's
            starts = [views[view][0]] + (_slid(views[view][0], SLIDE_START) if rank == 0 else [])
            for start in starts:
                fitted = align_face(image, start, face)
                if fitted is not None and fitted[1] > best[0]:
                    best = (fitted[1], fitted[0])
        return best[1]

    def _read_one(self, image: NDArray[np.uint8], box: NDArray[np.floating],
                  turn_from: NDArray[np.floating] | None = None) -> Reading:
        """The reading of one outline; its turn counted from ``turn_from``'s corner order (default: ``box``'s)."""
        match = self.match(image, box)
        if match is None:
            return Reading(None, 0.0)
        turn = _turn(clockwise(box if turn_from is None else turn_from), match.corners)
        confidence = match.confidence
        if not match.sure:
            card = self._numeral(image, match)
            return Reading(None, confidence, turn) if card is None else Reading(card, NUMERAL_CONFIDENCE, turn)
        if match.face == len(self.cards):
            return Reading(None, confidence, turn, back=True)
        return Reading(self.cards[match.face], confidence, turn)

    def _numeral(self, image: NDArray[np.uint8], match: Match) -> Card | None:
        """The second opinion of the printed numeral (:attr:`numerals`) on a whole card that looks like a distance
        card but whose face is unsure: the distance card it names, when that is one of the faces that fit."""
        if self.numerals is None or not match.whole or match.face >= len(self.cards) or not self.cards[match.face].is_distance:
            return None
        value = self.numerals.value(image, match.corners)
        if value is None:
            return None
        card = Card(f"distance_{value}")
        return card if card in {self.cards[k] for k in match.candidates} else None

    def match(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> Match | None:
        """The face that fits an outline best and how well (``None``: the outline is a sliver)."""
        scores, views = self.scores(image, box)
        if not views:
            return None
        view = _telling_view(scores, views)
        per_card = scores[view]
        order = np.argsort(-per_card)
        first, second = int(order[0]), int(order[1])
        best, margin = float(per_card[first]), float(per_card[first] - per_card[second])
        group = [int(k) for k in order[:MAX_GROUP] if per_card[k] >= best - DETAIL_MARGIN and k < len(self.cards)]
        needed = self.min_margin
        if len(group) >= 2 and first < len(self.cards):
            closer, detail_margin, fit = self._duels(image, views[view], group)
            if fit < self.min_detail_fit:
                needed = np.inf
            elif closer == first and detail_margin > 0:  # both looks agree: the first look's margin stands
                margin = max(margin, detail_margin)
            else:  # the closer look overrules the first only when it is clearly sure
                first, margin, needed = closer, detail_margin, self.min_detail_margin
        whole = views[view][1] >= WHOLE_SHARE
        floor = self.min_correlation if whole else self.min_band_correlation
        return Match(first, views[view][0], whole, best, margin, best >= floor and margin >= needed,
                     tuple(group) if first in group else (first, *group))

    def _duels(self, image: NDArray[np.uint8], view: tuple[NDArray[np.float64], float],
               group: list[int]) -> tuple[int, float, float]:
        """Of faces that correlate almost equally, the one that wins its duel with every other: two faces are
        compared where those two differ (widened a little), at the frame's resolution, on the card as
        :meth:`_placed` puts it (:func:`_duel_margin`); returns the face whose worst duel is best, that duel's
        margin and the face's fit there."""
        q, share = view
        whole = min(share, 1.0) >= WHOLE_SHARE
        length = float(np.linalg.norm(q[3] - q[0])) / max(min(share, 1.0), 1e-6)
        height = int(np.clip(round(length * 1.5), TEMPLATE_HEIGHT, self.faces.shape[1]))
        width = round(height * CARD_ASPECT)
        rows = height if whole else max(8, round(height * share))
        faces = [self.faces[k][: None if whole else max(2, round(self.faces.shape[1] * share))] for k in group]
        templates = np.stack([cv2.GaussianBlur(lab(cv2.resize(f, (width, rows), interpolation=cv2.INTER_AREA)), (0, 0), SOFTEN)
                              for f in faces]).astype(np.float32)
        pad = max(2, round(height * 0.03))
        seen = self._placed(image, q, templates, pad=pad)
        n = len(group)
        margins, fits = np.full((n, n), np.inf), np.full((n, n), -1.0)
        for i, j in itertools.combinations(range(n), 2):
            apart = np.linalg.norm(templates[i] - templates[j], axis=2)
            if float(apart.max()) < 8.0:  # the same face twice: neither wins
                margins[i, j] = margins[j, i] = 0.0
                continue
            mask = cv2.dilate((apart >= 0.25 * float(apart.max())).astype(np.uint8), np.ones((2 * pad + 1,) * 2, np.uint8)) > 0
            ys, xs = np.nonzero(mask)
            pair = standard(templates[[i, j]][:, ys, xs]).reshape(2, -1)
            here = standard(seen[ys, xs]).ravel()
            margins[i, j] = _duel_margin(here, pair[0], pair[1])
            margins[j, i] = -margins[i, j]
            fits[i, j], fits[j, i] = pair @ here / here.size  # each face's correlation with the region
        worst = margins.min(axis=1)
        winner = int(worst.argmax())
        duel = int(margins[winner].argmin())
        return group[winner], float(worst[winner]), float(fits[winner, duel])

    @staticmethod
    def _placed(image: NDArray[np.uint8], q: NDArray[np.float64], templates: NDArray[np.float32], *, pad: int) -> NDArray[np.float32]:
        """The card cut along ``q`` (either turn) at the templates' size, blurred Lab, moved by the few pixels
        and turned the way that fits the templates' mean face best (thin print is a miss a pixel off)."""
        mean = templates.mean(axis=0)[..., 0]
        best: tuple[float, NDArray[np.float32] | None] = (-np.inf, None)
        for turned in (q, np.roll(q, -2, axis=0)):  # faces alike are often alike upside down too
            soft = cv2.GaussianBlur(lab(cut_card(image, turned, width=templates.shape[2], height=templates.shape[1])), (0, 0), SOFTEN)
            crop: NDArray[np.float32] = cv2.copyMakeBorder(soft, pad, pad, pad, pad, cv2.BORDER_REPLICATE).astype(np.float32)
            fit = cv2.matchTemplate(np.ascontiguousarray(crop[..., 0]), np.ascontiguousarray(mean), cv2.TM_CCOEFF_NORMED)
            _, score, _, (dx, dy) = cv2.minMaxLoc(fit)
            if score > best[0]:
                best = (score, crop[dy : dy + templates.shape[1], dx : dx + templates.shape[2]])
        assert best[1] is not None
        return best[1]

    def _templates(self, rows: int) -> NDArray[np.float32]:
        """Every face (and the back) as the top ``rows`` of a ``TEMPLATE_HEIGHT`` card, normalised."""
        if rows not in self._bands:
            faces = list(self.faces) + ([self.back] if self.back is not None else [])
            share = rows / TEMPLATE_HEIGHT
            self._bands[rows] = np.stack([
                normalised(cv2.resize(f[: max(2, round(f.shape[0] * share))], (TEMPLATE_WIDTH, rows),
                                       interpolation=cv2.INTER_AREA)) for f in faces])
        return self._bands[rows]


def same_way_up(faces: NDArray[np.uint8], rounds: int = 3) -> NDArray[np.uint8]:
    """The faces, each turned half round where that makes it agree better with the others (the mean face): a
    card photographed or laid upside down is stored the way its edition's other faces are, so that the
    closer look compares like with like where they differ.

    >>> faces = np.zeros((3, 6, 4, 3), np.uint8); faces[:, :2] = 200; faces[1] = faces[1, ::-1, ::-1]
    >>> bool((same_way_up(faces)[1, :2] == 200).all())
    True
    """
    def template(face: NDArray[np.uint8]) -> NDArray[np.float32]:
        small: NDArray[np.uint8] = cv2.resize(face, (TEMPLATE_WIDTH, TEMPLATE_HEIGHT), interpolation=cv2.INTER_AREA)  # type: ignore[assignment]
        return normalised(small).ravel()

    small = np.stack([template(f) for f in faces])
    turned = np.stack([template(np.ascontiguousarray(f[::-1, ::-1])) for f in faces])
    flip = np.zeros(len(faces), bool)
    for _ in range(rounds):
        mean = np.where(flip[:, None], turned, small).mean(axis=0)
        now = turned @ mean > small @ mean
        if np.array_equal(now, flip):
            break
        flip = now
    out = faces.copy()
    out[flip] = faces[flip][:, ::-1, ::-1]
    return out


def _views(box: NDArray[np.floating]) -> list[tuple[NDArray[np.float64], float]]:
    """The ways an outline can show a card, each as its corners from the face's top left (clockwise) and the
    share of the card's length it shows: its long side along the card (a whole card, or most of one), or
    across it (a band at one end: a column's strip); each upright and turned half round. A box shaped like
    a whole card may be a strip of 40 %, so both are tried where both fit."""
    q = clockwise(box)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = np.roll(q, -1, axis=0)  # the first side is now a short one
        sides = np.roll(sides, -1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if short <= 0:
        return []
    views = []
    along = float(long * CARD_ASPECT / short)
    if along <= 1.3:
        views += [(q, along), (np.roll(q, -2, axis=0), along)]
    if PERSPECTIVE_SHARE <= along < WHOLE_SHARE:  # a whole card seen at a slant is squat too: both are tried
        views += [(q, 1.0), (np.roll(q, -2, axis=0), 1.0)]
    across = float(short * CARD_ASPECT / long)
    if across < WHOLE_SHARE:
        band = np.roll(q, -1, axis=0)  # the long side first: the card's width
        views += [(band, across), (np.roll(band, -2, axis=0), across)]
    return views


def _duel_margin(seen: NDArray[np.float32], first: NDArray[np.float32], second: NDArray[np.float32]) -> float:
    """How clearly a region (standardised, :func:`~vision.read.likeness.standard`) shows the first of two faces
    rather than the second: the region, less the faces' middle, projected on their difference, in units of what
    neither face explains (the residual's spread), times :data:`DUEL_SCALE`. What the two faces share counts for
    neither; where the difference barely rises above the rest (a numeral a few pixels high, blurred), the
    margin is near zero either way."""
    apart, middle = first - second, (first + second) / 2
    square = float(apart @ apart) + 1e-9
    toward = float((seen - middle) @ apart) / square
    residual = seen - middle - toward * apart
    return DUEL_SCALE * toward * float(np.sqrt(square)) / (float(np.sqrt((residual**2).mean())) + 1e-6)


def _slid(q: NDArray[np.float64], share: float) -> list[NDArray[np.float64]]:
    """The outline moved along the card's length by ``share`` of it, each way (corners from the face's top left)."""
    along = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    return [q + share * along, q - share * along]


def _telling_view(scores: NDArray[np.float64], views: list[tuple[NDArray[np.float64], float]]) -> int:
    """The view the outline is read in: the one whose best face correlates best, unless a whole card's view
    makes one face stand out more from the edition's others (its best correlation over the median face's). A
    whole card and a band of 40 % have the same proportions, and where every face of an edition shares a
    printed frame, the band view of a whole card correlates well with any face, none better than the rest."""
    best = int(scores.max(axis=1).argmax())
    standing = scores.max(axis=1) - np.median(scores, axis=1)
    telling = int(standing.argmax())
    return telling if views[telling][1] >= WHOLE_SHARE > views[best][1] else best


def _rows(share: float) -> int:
    """The template rows a view showing ``share`` of a card's length is compared on."""
    return TEMPLATE_HEIGHT if share >= WHOLE_SHARE else max(6, round(TEMPLATE_HEIGHT * share))


def _turn(box: NDArray[np.float64], view: NDArray[np.float64]) -> int:
    """Quarter turns of the box's corner order that give the view's."""
    return min(range(4), key=lambda k: float(np.abs(np.roll(box, -k, axis=0) - view).sum()))


CONFIDENCE_WEIGHTS = (-4.978, 6.087, 15.866, -0.361)
"""The logistic model of a reading being right: intercept, correlation, margin, whole. Fitted on 2,115 boxes
of the shipped detector on development stills (generic photo-real and 2-D, and the four test editions
photo-real) by ``bench/dev_match_confidence.py``, after the duels' margins became signal over residual:
readings given 0.9 or more were right 98.6 % of the time, 0.8–0.9 92 %, under 0.1 5 %."""


def _confidence(best: float, margin: float, whole: bool) -> float:
    """The chance a reading is right, from the best correlation, its margin over the next face and whether the
    card was compared whole (a logistic model, :data:`CONFIDENCE_WEIGHTS`)."""
    b0, b1, b2, b3 = CONFIDENCE_WEIGHTS
    return float(1.0 / (1.0 + np.exp(-(b0 + b1 * best + b2 * margin + b3 * whole))))


def _reference(rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A face as BGR at the reference size, portrait."""
    if rgb.shape[1] > rgb.shape[0]:
        rgb = np.ascontiguousarray(np.rot90(rgb))
    return cv2.resize(rgb[..., ::-1], (REFERENCE_WIDTH, REFERENCE_HEIGHT), interpolation=cv2.INTER_AREA)  # type: ignore[return-value]



def _read(path: Path) -> NDArray[np.uint8]:
    """An image file as RGB.

    :raises ModelError: missing or unreadable.
    """
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ModelError(f"{path}: missing or not a readable image")
    return np.ascontiguousarray(image[..., ::-1])
