"""A name proposed for each card of a deck laid out in one photo, the surest first, each with its reason.

Most decks print their cards' names. Each straightened card is read as text by PP-OCR (the text detector and
recogniser that the ``rapidocr-onnxruntime`` wheel ships, run by ONNX Runtime alone), upright and turned half round;
what it reads is matched against the names the cards go by (:data:`NAMES`: the display's five languages, the
publisher's English and French printings, Borne's generic edition's words). A distance card's value is read the
same way, and counts where the card names nothing else (a speed limit prints 50 in its sign). Only a card that
prints nothing readable is named by its likeness to the generic edition's faces. Each name is given once: the
surest evidence first.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.errors import ModelError
from vision.read.numerals import VALUES, NumeralReader
from vision.read.onnx_runtime import cpu_session

PRINTED: dict[Card, tuple[str, ...]] = {
    Card.STOP: ("stop", "feu rouge", "arret"),
    Card.SPEED_LIMIT: ("limit", "limite", "limite de vitesse", "speed limit"),
    Card.OUT_OF_GAS: ("no gas", "panne d essence", "out of gas", "panne"),
    Card.FLAT_TIRE: ("flat", "crevaison", "flat tire"),
    Card.ACCIDENT: ("crash", "accident"),
    Card.ROLL: ("roll", "roulez", "feu vert", "go"),
    Card.END_OF_LIMIT: ("end", "fin de limite", "fin de limitation", "end of limit"),
    Card.GASOLINE: ("gas", "essence", "gasoline"),
    Card.SPARE_TIRE: ("spare", "roue de secours", "spare tire"),
    Card.REPAIRS: ("repair", "repairs", "reparations", "reparation"),
    Card.RIGHT_OF_WAY: ("right", "right of way", "vehicule prioritaire", "prioritaire"),
    Card.EXTRA_TANK: ("tank", "extra tank", "citerne", "citerne d essence"),
    Card.PUNCTURE_PROOF: ("proof", "puncture proof", "increvable"),
    Card.DRIVING_ACE: ("ace", "driving ace", "as du volant"),
}
"""Names printed on decks beside the display's own (:func:`names`): the publisher's English and French printings,
Borne's generic edition's short words."""
SMALL_WORDS = frozenset({"de", "d", "du", "of", "the", "del", "di", "da", "do", "a", "la", "le", "l"})
DETECTOR = "models/ch_PP-OCRv4_det_infer.onnx"
FACE = (320, 480)
"""A card is straightened to this size (width, height; the text detector takes sides in 32s) to be read."""
TEXT_THRESHOLD = 0.3
"""The detector's text probability a pixel needs to belong to a line."""
WORD_SURE = 0.6
"""A line counts when the recogniser is this sure of its least sure character."""


@dataclass(frozen=True)
class Proposal:
    """A name proposed for one card and why."""

    card: Card
    reason: str
    """``"printed 'CREVAISON'"``, ``"numeral 75"``, ``"looks like the generic Stop"``, ``"left over"``."""
    sure: float


def names() -> dict[Card, tuple[tuple[str, ...], ...]]:
    """Each card's names as word tuples (folded: upper case, accents and punctuation gone, small words left out)."""
    out: dict[Card, set[tuple[str, ...]]] = {card: set() for card in Card if not card.is_distance}
    strings = importlib.resources.files("scoring.web") / "strings"
    for path in sorted((p for p in strings.iterdir() if p.name.endswith(".json")), key=lambda p: p.name):
        cards = json.loads(path.read_text(encoding="utf-8")).get("cards", {})
        for key, text in cards.items():
            card = Card(key)
            if not card.is_distance:
                out[card].add(_words(text))
    for card, texts in PRINTED.items():
        out[card].update(_words(t) for t in texts)
    return {card: tuple(sorted(w for w in words if w)) for card, words in out.items()}


def _words(text: str) -> tuple[str, ...]:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().upper()
    return tuple(w for w in re.split(r"[^A-Z0-9]+", folded) if w and w.lower() not in SMALL_WORDS)


@dataclass
class TextReader:
    """PP-OCR's text detector and recogniser, reading every line printed on a straightened card."""

    detector: object = field(repr=False)
    recogniser: NumeralReader = field(repr=False)

    @classmethod
    def shipped(cls) -> TextReader:
        """:raises ModelError: the ``rapidocr-onnxruntime`` wheel (its models) is not installed."""
        spec = importlib.util.find_spec("rapidocr_onnxruntime")
        if spec is None or spec.origin is None:
            raise ModelError("reading the cards' names needs the rapidocr-onnxruntime wheel's models "
                             "(`pip install --no-deps rapidocr-onnxruntime==1.4.4`, which `make install` does)")
        detector = cpu_session(Path(spec.origin).parent / DETECTOR, threads=2, what="PP-OCR's text detector")
        recogniser = NumeralReader.shipped()
        recogniser.allowed = None  # every character: names, not only numerals
        return cls(detector, recogniser)

    def lines(self, face: NDArray[np.uint8]) -> list[str]:
        """The lines of text on a card (BGR, straightened to :data:`FACE`), each read upright and turned half round
        (a card may lie either way), folded to upper case without accents."""
        x = (face[..., ::-1].astype(np.float32) / 255 - (0.485, 0.456, 0.406)) / (0.229, 0.224, 0.225)
        (probability,) = self.detector.run(None, {"x": x.transpose(2, 0, 1)[None].astype(np.float32)})  # type: ignore[attr-defined]
        mask = (probability[0, 0] > TEXT_THRESHOLD).astype(np.uint8)
        crops: list[Any] = []
        for contour in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            x0, y0, w, h = cv2.boundingRect(contour)
            if w * h < 30 or h < 4:
                continue
            pad = int(h * 0.6) + 2
            crop: Any = face[max(0, y0 - pad): y0 + h + pad, max(0, x0 - pad): x0 + w + pad]
            if crop.shape[0] < 4 or crop.shape[1] < 4:
                continue
            if crop.shape[0] > 1.5 * crop.shape[1]:  # a line printed along the card's length
                crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
            crops += [crop, cv2.rotate(crop, cv2.ROTATE_180)]
        read = self.recogniser.read_lines(crops) if crops else []
        return [" ".join(_words(text)) for text, sure in read if sure >= WORD_SURE and _words(text)]


def straightened(image: NDArray[np.uint8], corners: NDArray[np.floating]) -> NDArray[np.uint8]:
    """The card inside ``corners`` (its first corner beginning a short side, clockwise) at :data:`FACE`."""
    w, h = FACE
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    return np.asarray(cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA), np.uint8)


def evidence(lines: Sequence[str], vocabulary: dict[Card, tuple[tuple[str, ...], ...]]) -> dict[Card, tuple[float, str]]:
    """How surely the lines read on one card name each card, and the words that do: a whole name read scores by
    its length, a word read that begins a name's word (``RIGH`` for RIGHT: decks cut words) less; a distance
    value read twice is sure, once fairly."""
    words = [w for line in lines for w in line.split()]
    out: dict[Card, tuple[float, str]] = {}
    for card, phrases in vocabulary.items():
        for phrase in phrases:
            hits = [next((w for w in words if _same_word(w, p)), None) for p in phrase]
            found = [h for h in hits if h is not None]
            if not found:
                continue
            share = len(found) / len(phrase)
            letters = sum(len(h) for h in found)
            sure = share * min(1.0, 0.55 + 0.07 * letters)
            if sure > out.get(card, (0.0, ""))[0]:
                out[card] = (sure, " ".join(found))
    for value in VALUES:
        times = sum(w == str(value) for w in words)
        if times:
            out[Card(f"distance_{value}")] = (0.8 if times >= 2 else 0.6, str(value))
    return out


def _same_word(read: str, word: str) -> bool:
    """A word read is a name's word when equal, when it begins it (at least three letters), or when one letter
    differs in a word of six or more."""
    if read == word:
        return True
    if len(read) >= 3 and word.startswith(read):
        return True
    if len(word) >= 6 and len(read) == len(word):
        return sum(a != b for a, b in zip(read, word, strict=True)) <= 1
    return False


def proposed(readings: Sequence[dict[Card, tuple[float, str]]], likeness: NDArray[np.float64] | None) -> list[Proposal]:
    """A name for each card, each name once, the surest evidence first: what is printed on it, then its likeness
    to the generic faces (``likeness``: cards × :class:`Card`, correlations), then what is left over."""
    pairs = [(sure, k, card, f"printed '{text}'" if not card.is_distance else f"numeral {text}")
             for k, reading in enumerate(readings) for card, (sure, text) in reading.items()]
    if likeness is not None:
        pairs += [(0.5 * float(likeness[k, j]), k, card, f"looks like the generic {card.value.replace('_', ' ')}")
                  for k in range(len(readings)) for j, card in enumerate(Card)]
    out: dict[int, Proposal] = {}
    taken: set[Card] = set()
    for sure, k, card, reason in sorted(pairs, key=lambda p: -p[0]):
        if k not in out and card not in taken:
            out[k] = Proposal(card, reason, sure)
            taken.add(card)
    left = [c for c in Card if c not in taken]
    for k in range(len(readings)):
        if k not in out and left:
            out[k] = Proposal(left.pop(0), "left over", 0.0)
    return [out[k] for k in range(len(readings))]
