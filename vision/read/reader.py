"""The learned face reader: one small CNN for every edition, each edition a set of prototypes.

The network (``models/reader.onnx``, trained by ``borne train reader``) turns a crop of a card into a
unit embedding and says whether the crop shows a face at all. An edition is a handful of prototype
embeddings per card and quarter turn (:class:`EditionPrototypes`), made by enrolment from views of its
faces with ONNX Runtime alone. A box is cut once; the nearest prototypes name its card and the turn
under which it reads upright, and a crop close to no prototype, or as close to two cards, is
"unknown", never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.errors import ModelError
from vision.read.crops import clockwise, cut_card
from vision.read.mlp import Mlp
from vision.read.onnx_runtime import cpu_session
from vision.read.recogniser import SECOND_LOOK_DEGREES, Reading, read_with_second_look

READER_FILE = "reader.onnx"
PROTOTYPES_FILE = "prototypes.npz"
HEAD_FILE = "reader-head.npz"
PROTOTYPES_VERSION = 1
HEAD_VERSION = 1
CARDS: tuple[Card, ...] = tuple(Card)
SIMILARITY_SCALE = 24.0
"""The cosine softmax's scale in training: confidences are the same softmax over the cards' best
similarities."""


class FaceReader:
    """The ONNX face reader: crops → embeddings and the probability that each shows a face."""

    def __init__(self, path: Path, *, threads: int = 0) -> None:
        if not path.is_file():
            raise ModelError(f"{path}: the face reader is missing (train it with `borne train reader`)")
        self.session = cpu_session(path, threads=threads, what="a face reader model")
        shape = self.session.get_inputs()[0].shape
        self.size = int(shape[1])
        self.path = path

    def embed(self, crops: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Unit embeddings ``(N, D)`` and face probabilities ``(N,)`` of BGR crops ``(N, size, size, 3)``."""
        if len(crops) == 0:
            dim = int(self.session.get_outputs()[0].shape[1])
            return np.zeros((0, dim), np.float32), np.zeros(0, np.float32)
        embedding, readable = self.session.run(None, {"crops": np.ascontiguousarray(crops, dtype=np.uint8)})
        return embedding.astype(np.float32), (1.0 / (1.0 + np.exp(-readable))).astype(np.float32)

    def cut(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> NDArray[np.uint8]:
        """A box of a frame cut as the reader reads it (its corners in clockwise order, as they come)."""
        return cut_card(image, clockwise(box), width=self.size, height=self.size)


@dataclass
class EditionPrototypes:
    """An edition as the reader knows it: prototype embeddings, each of one card under one quarter turn."""

    edition: str
    vectors: NDArray[np.float32]
    """``(P, D)`` unit vectors."""
    cards: NDArray[np.int64]
    """``(P,)`` index into :data:`CARDS` of each prototype's card."""
    turns: NDArray[np.int64]
    """``(P,)`` quarter turns by which the prototype's box corners were rolled from the face's upright order."""
    min_similarity: float = 0.55
    """Below this cosine similarity to every prototype a crop is "unknown" (a face of no card of this edition)."""
    min_margin: float = 0.04
    """The best card must be this much closer than the next card, or the crop is "unknown"."""
    min_readable: float = 0.5
    """Below this probability of showing a face at all a crop is "unknown"."""
    notes: dict[str, str] = field(default_factory=dict)

    def match(self, embeddings: NDArray[np.float32], readable: NDArray[np.float32]) -> list[Reading]:
        """The reading of each embedding: the card of its nearest prototypes, or unknown."""
        if len(embeddings) == 0:
            return []
        sims = embeddings @ self.vectors.T
        per_card = np.full((len(embeddings), len(CARDS)), -1.0, np.float32)
        best_turn = np.zeros((len(embeddings), len(CARDS)), np.int64)
        for k in range(len(CARDS)):
            mine = np.flatnonzero(self.cards == k)
            if len(mine):
                j = sims[:, mine].argmax(axis=1)
                per_card[:, k] = sims[np.arange(len(sims)), mine[j]]
                best_turn[:, k] = self.turns[mine[j]]
        order = np.argsort(-per_card, axis=1)
        out = []
        for i in range(len(embeddings)):
            first, second = order[i, 0], order[i, 1]
            s = per_card[i] * SIMILARITY_SCALE
            p = np.exp(s - s.max())
            confidence = float(p[first] / p.sum()) * float(readable[i])
            sure = (readable[i] >= self.min_readable and per_card[i, first] >= self.min_similarity
                    and per_card[i, first] - per_card[i, second] >= self.min_margin)
            turn = (4 - int(best_turn[i, first])) % 4
            out.append(Reading(CARDS[first] if sure else None, confidence if sure else min(confidence, 0.49), turn))
        return out

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(
                f, version=np.array(PROTOTYPES_VERSION), edition=np.array(self.edition),
                vectors=self.vectors.astype(np.float16), cards=self.cards, turns=self.turns,
                card_ids=np.array([c.value for c in CARDS]),
                thresholds=np.array([self.min_similarity, self.min_margin, self.min_readable]),
            )

    @classmethod
    def load(cls, path: Path) -> EditionPrototypes:
        """:raises ModelError: missing, or not a prototypes file of this format."""
        try:
            with np.load(path, allow_pickle=False) as d:
                if int(d["version"]) != PROTOTYPES_VERSION:
                    raise ModelError(f"{path}: prototypes format {int(d['version'])}, expected {PROTOTYPES_VERSION}")
                if tuple(str(c) for c in d["card_ids"]) != tuple(c.value for c in CARDS):
                    raise ModelError(f"{path}: prototypes of another card list")
                vectors = d["vectors"].astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
                sim, margin, readable = (float(v) for v in d["thresholds"])
                return cls(str(d["edition"]), vectors, d["cards"].astype(np.int64), d["turns"].astype(np.int64),
                           min_similarity=sim, min_margin=margin, min_readable=readable)
        except FileNotFoundError:
            raise ModelError(f"{path}: no such prototypes file") from None
        except (KeyError, ValueError, OSError) as e:
            raise ModelError(f"{path}: not a prototypes file ({e})") from None


class EditionModel(Protocol):
    """An edition as the reader knows it: readings from embeddings."""

    edition: str

    def match(self, embeddings: NDArray[np.float32], readable: NDArray[np.float32]) -> list[Reading]: ...


NOTHING = len(CARDS) * 4
"""The edition head's last class: nothing to read (bare table, a sliver of a card)."""


@dataclass
class EditionHead:
    """A small perceptron over the reader's embeddings, fitted at enrolment on views of the edition's faces.

    Its classes are each card under each quarter turn, and "nothing to read". Where prototypes compare
    whole embeddings, the head learns which of their directions tell this edition's cards apart (a
    deck whose distance cards differ only by their numerals).
    """

    edition: str
    mlp: Mlp
    min_confidence: float = 0.6
    """Below this probability of its card (summed over turns) a crop is "unknown"."""

    def match(self, embeddings: NDArray[np.float32], readable: NDArray[np.float32]) -> list[Reading]:
        if len(embeddings) == 0:
            return []
        p = self.mlp.probabilities(embeddings)
        by_card = p[:, :NOTHING].reshape(len(p), len(CARDS), 4)
        cards = by_card.sum(axis=2)
        out = []
        for i in range(len(p)):
            k = int(cards[i].argmax())
            confidence = float(cards[i, k]) * min(1.0, 2.0 * float(readable[i]))
            turn = (4 - int(by_card[i, k].argmax())) % 4
            sure = confidence >= self.min_confidence and cards[i, k] > p[i, NOTHING]
            out.append(Reading(CARDS[k] if sure else None, confidence if sure else min(confidence, 0.49), turn))
        return out

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        m = self.mlp
        with path.open("wb") as f:
            np.savez_compressed(f, version=np.array(HEAD_VERSION), edition=np.array(self.edition),
                                card_ids=np.array([c.value for c in CARDS]), min_confidence=np.array(self.min_confidence),
                                mean=m.mean, scale=m.scale, w1=m.w1, b1=m.b1, w2=m.w2, b2=m.b2)

    @classmethod
    def load(cls, path: Path) -> EditionHead:
        """:raises ModelError: missing, or not an edition head of this format."""
        try:
            with np.load(path, allow_pickle=False) as d:
                if int(d["version"]) != HEAD_VERSION:
                    raise ModelError(f"{path}: edition head format {int(d['version'])}, expected {HEAD_VERSION}")
                if tuple(str(c) for c in d["card_ids"]) != tuple(c.value for c in CARDS):
                    raise ModelError(f"{path}: an edition head of another card list")
                mlp = Mlp(*(d[k].astype(np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2")))
                return cls(str(d["edition"]), mlp, float(d["min_confidence"]))
        except FileNotFoundError:
            raise ModelError(f"{path}: no such edition head") from None
        except (KeyError, ValueError, OSError) as e:
            raise ModelError(f"{path}: not an edition head ({e})") from None


@dataclass
class EmbeddingRecogniser:
    """Reads boxes of a frame with the face reader and one edition's prototypes (the recogniser's interface)."""

    reader: FaceReader
    prototypes: EditionModel
    """The edition's prototypes or its head."""
    second_look_degrees: tuple[float, ...] = SECOND_LOOK_DEGREES
    """A readable box left unknown is cut again turned by each of these angles about its centre."""

    @property
    def edition(self) -> str:
        return self.prototypes.edition

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        """Read each box of a BGR frame, once; a readable box left unknown gets a second look at other angles."""
        return read_with_second_look(self.read_boxes, image, boxes, self.second_look_degrees)

    def read_boxes(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        if not boxes:
            return []
        crops = np.asarray([self.reader.cut(image, box) for box in boxes], dtype=np.uint8)
        return self.prototypes.match(*self.reader.embed(crops))
