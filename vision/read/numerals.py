"""Distance values read as text: a deck nobody enrolled still has its distance counted.

The printed numeral of a distance card is read by PP-OCRv4's text recogniser (the ONNX model that
``rapidocr-onnxruntime`` 1.4.4 ships in its wheel, Apache-2.0, run here by ONNX Runtime alone: none of that
package's code is imported). A deck may print its value anywhere, so the straightened card is cut into the
bands where decks print it (the top and bottom ends, the middle, the corners), each read upright and turned
half round; a band is read as digits and "km" only (:data:`NUMERAL_CHARACTERS`), and its text counts when it
is one of the five values, alone or followed by "km". The bands must not disagree, and at least
:data:`MIN_VOTES` must name the value: a number is said, or nothing, never a guess.

Used as ``NumeralReader.shipped().value(frame, corners)``: ``100``, or ``None``
(``tests/vision/test_vision_numerals.py`` reads the shipped pictures).
"""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.read.crops import CARD_ASPECT, clockwise, cut_card
from vision.read.onnx_runtime import cpu_session

if TYPE_CHECKING:
    from vision.read.recogniser import Reading

VALUES = (25, 50, 75, 100, 200)
"""The distance cards' values."""
MODEL = "models/ch_PP-OCRv4_rec_infer.onnx"
"""The recogniser's file inside the ``rapidocr_onnxruntime`` package."""
LINE_HEIGHT = 48
"""The recogniser reads a line of text 48 pixels high."""
CARD_HEIGHT = 240
"""The card is straightened to this many pixels long before its bands are cut (the frame's pixels enlarged:
the recogniser reads text 20–40 px high best)."""
BANDS: tuple[tuple[float, float, float, float], ...] = (
    (0.0, 0.0, 1.0, 0.22),  # the top end, the whole width
    (0.0, 0.30, 1.0, 0.70),  # the middle
    (0.0, 0.0, 0.55, 0.14),  # the top left corner
    (0.45, 0.0, 1.0, 0.14),  # the top right corner
)
"""Where decks print the value, as (left, top, right, bottom) shares of the upright card; each band is also
read with the card turned half round, which covers the bottom end and the other corners."""
NUMERAL_CHARACTERS = "0123456789kmKM"
"""What a line is read as: the recogniser's thousands of other characters are left out, so that a blurred
"100" is not "TOO" (development stills, whole distance cards 50 px long or more: the generic 85 → 87 of 101,
`lineart` 5 → 6 of 50, `midcard` 47 → 48 of 50, `photo` 6 of 50 both ways; no wrong value either way)."""
MIN_PROBABILITY = 0.8
"""A band's reading counts when the recogniser is at least this sure of each of its characters."""
MIN_VOTES = 1
"""Bands that must name the value (none naming another)."""
_TEXT = re.compile(rf"^({'|'.join(str(v) for v in sorted(VALUES, reverse=True))})(km)?$")


@dataclass
class NumeralReader:
    """PP-OCR's text recogniser, asked for distance values."""

    session: object = field(repr=False)
    characters: list[str] = field(repr=False)
    allowed: NDArray[np.bool_] | None = field(default=None, repr=False)
    """The characters a line may be read as (CTC's blank, the digits, "km"); ``None``: all of the model's."""

    @classmethod
    def shipped(cls) -> NumeralReader:
        """The recogniser from the installed ``rapidocr-onnxruntime`` wheel (``make install`` puts it there).

        :raises ModelError: the wheel is not installed.
        """
        spec = importlib.util.find_spec("rapidocr_onnxruntime")
        if spec is None or spec.origin is None:
            raise ModelError("reading numerals needs the rapidocr-onnxruntime wheel's models "
                             "(`pip install --no-deps rapidocr-onnxruntime==1.4.4`, which `make install` does)")
        return cls.from_file(Path(spec.origin).parent / MODEL)

    @classmethod
    def from_file(cls, path: Path) -> NumeralReader:
        """:raises ModelError: missing or not PP-OCR's recogniser."""
        if not path.is_file():
            raise ModelError(f"{path}: the text recogniser is missing")
        session = cpu_session(path, threads=1, what="PP-OCR's text recogniser")
        meta = session.get_modelmeta().custom_metadata_map
        if "character" not in meta:
            raise ModelError(f"{path}: not PP-OCR's text recogniser (no character list)")
        # index 0 is CTC's blank and the last a space, as PP-OCR decodes
        characters = ["", *meta["character"].splitlines(), " "]
        allowed = np.array([k == 0 or (c != "" and c in NUMERAL_CHARACTERS) for k, c in enumerate(characters)])
        return cls(session, characters, allowed)

    def read_lines(self, lines: list[NDArray[np.uint8]]) -> list[tuple[str, float]]:
        """Each BGR line of text as the recogniser reads it, with its least sure character's probability."""
        if not lines:
            return []
        width = max(LINE_HEIGHT, *(round(LINE_HEIGHT * line.shape[1] / max(line.shape[0], 1)) for line in lines))
        batch = np.zeros((len(lines), 3, LINE_HEIGHT, width), np.float32)
        for k, line in enumerate(lines):
            w = max(1, min(width, round(LINE_HEIGHT * line.shape[1] / max(line.shape[0], 1))))
            resized = cv2.resize(line, (w, LINE_HEIGHT), interpolation=cv2.INTER_CUBIC).astype(np.float32)
            batch[k, :, :, :w] = (resized.transpose(2, 0, 1) / 255.0 - 0.5) / 0.5
        (probabilities,) = self.session.run(None, {"x": batch})  # type: ignore[attr-defined]
        if self.allowed is not None and len(self.allowed) >= probabilities.shape[-1]:
            # only a numeral is asked for: the other characters' share goes to the digits and the blank
            probabilities = np.where(self.allowed[: probabilities.shape[-1]], probabilities, 0.0)
            probabilities = probabilities / (probabilities.sum(axis=-1, keepdims=True) + 1e-9)
        out = []
        for p in probabilities:
            best = p.argmax(axis=1)
            keep = np.r_[True, best[1:] != best[:-1]] & (best != 0)
            text = "".join(self.characters[i] for i in best[keep] if i < len(self.characters))
            out.append((text, float(p.max(axis=1)[keep].min()) if keep.any() else 0.0))
        return out

    def value(self, image: NDArray[np.uint8], corners: NDArray[np.floating]) -> int | None:
        """The distance value printed on the card outlined by ``corners`` (any first corner, clockwise or not;
        a whole card), or ``None`` when no band names one or two bands name different ones."""
        votes = Counter(self.band_values(image, corners))
        if len(votes) != 1:
            return None
        (value, count), = votes.items()
        return value if count >= MIN_VOTES else None

    def band_values(self, image: NDArray[np.uint8], corners: NDArray[np.floating]) -> list[int]:
        """The value each band of the card names (bands naming none left out), both ways up and both ways round."""
        q = clockwise(corners)
        sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
        if sides[0] + sides[2] > sides[1] + sides[3]:
            q = np.roll(q, -1, axis=0)  # the first side a short one: the card upright or upside down
        width = round(CARD_HEIGHT * CARD_ASPECT)
        lines = []
        for turned in (q, np.roll(q, -2, axis=0)):
            card = cut_card(image, turned, width=width, height=CARD_HEIGHT)
            for left, top, right, bottom in BANDS:
                lines.append(card[round(top * CARD_HEIGHT):round(bottom * CARD_HEIGHT), round(left * width):round(right * width)])
        values = []
        for text, probability in self.read_lines(lines):
            found = _TEXT.match(text.replace(" ", "").lower())
            if found is not None and probability >= MIN_PROBABILITY:
                values.append(int(found.group(1)))
        return values


UNKNOWN_DECK = "unknown"
"""The edition name of a deck nobody enrolled: its distance cards are counted by their numerals."""
WHOLE_PROPORTIONS = (0.8, 1.3)
"""A box whose length over its width, against a card's, lies in this range may hold a whole card."""


@dataclass
class NumeralRecogniser:
    """The reading of a deck nobody enrolled (implements :class:`~vision.read.recogniser.Recogniser`): a whole
    card that prints one of the five values is that distance card; every other card is "unknown" (which
    safety, which hazard: a face nobody enrolled cannot say). A speed limit printing "50" reads as a 50."""

    numerals: NumeralReader
    edition: str = UNKNOWN_DECK
    kept_confidence: ClassVar[float] = 0.25
    """A value the recogniser names is sure (:data:`NUMERAL_SURE`): kept on any box the detector is 0.27 sure of."""

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        from scoring.cards import Card
        from vision.read.recogniser import Reading

        readings = []
        for box in boxes:
            q = clockwise(box)
            sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
            short, long = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
            whole = short > 0 and WHOLE_PROPORTIONS[0] <= long * CARD_ASPECT / short <= WHOLE_PROPORTIONS[1]
            value = self.numerals.value(image, q) if whole else None
            readings.append(Reading(None, 0.0) if value is None else Reading(Card(f"distance_{value}"), NUMERAL_SURE))
        return readings


NUMERAL_SURE = 0.95
"""The confidence of a value the recogniser named (it names one of the five values or nothing)."""

