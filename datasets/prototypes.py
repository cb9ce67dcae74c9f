"""Enrolling an edition with the face reader: prototypes from views of its faces (numpy and ONNX Runtime only).

For every card and quarter turn, views of the face as the pipeline cuts it — whole, as a column's
strip, with an edge covered — are embedded by the reader; the mean of each kind is one prototype.
That is all an edition is to the reader, so enrolment takes a minute, not a training run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from datasets.face_views import Shown, face_view
from scoring.cards import Card
from vision.read.mlp import fit_mlp
from vision.read.reader import CARDS, NOTHING, EditionHead, EditionPrototypes, FaceReader

PROTOTYPE_KINDS: tuple[Shown, ...] = (Shown.WHOLE, Shown.STRIP, Shown.COVERED)
VIEWS_PER_PROTOTYPE = 24
LOOK_ALIKE_SIMILARITY = 0.92
"""Two cards whose whole faces' prototypes are this close may be mistaken for one another at table size."""


def make_prototypes(
    reader: FaceReader, faces: Sequence[NDArray[np.uint8]], edition: str, *, views: int = VIEWS_PER_PROTOTYPE,
    seed: int = 0, progress: Callable[[int, int], None] | None = None,
) -> EditionPrototypes:
    """Prototypes of an edition from its 19 RGB faces (in :data:`vision.read.reader.CARDS` order)."""
    if len(faces) != len(CARDS):
        raise ValueError(f"{len(faces)} faces given, one per card ({len(CARDS)}) expected")
    bgr = [np.ascontiguousarray(_fit(f)[..., ::-1]) for f in faces]
    rng = np.random.default_rng([seed, 29])
    vectors, cards, turns = [], [], []
    total = len(CARDS)
    for k in range(len(CARDS)):
        crops = np.array([face_view(bgr, k, rng, shown=kind, turn=turn, size=reader.size)
                          for turn in range(4) for kind in PROTOTYPE_KINDS for _ in range(views)])
        emb, _ = reader.embed(crops)
        emb = emb.reshape(4, len(PROTOTYPE_KINDS), views, -1).mean(axis=2)
        emb /= np.linalg.norm(emb, axis=-1, keepdims=True) + 1e-12
        for turn in range(4):
            for j in range(len(PROTOTYPE_KINDS)):
                vectors.append(emb[turn, j])
                cards.append(k)
                turns.append(turn)
        if progress is not None:
            progress(k + 1, total)
    return EditionPrototypes(edition, np.asarray(vectors, np.float32), np.asarray(cards, np.int64),
                             np.asarray(turns, np.int64))


HEAD_VIEWS = 16
"""Views of each card under each turn and each kind (whole, strip, covered) the edition head is fitted on."""
NOTHING_VIEWS = 600


def fit_head(
    reader: FaceReader, faces: Sequence[NDArray[np.uint8]], edition: str, *, views: int = HEAD_VIEWS, seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> EditionHead:
    """An edition head fitted on the reader's embeddings of views of the edition's 19 RGB faces."""
    if len(faces) != len(CARDS):
        raise ValueError(f"{len(faces)} faces given, one per card ({len(CARDS)}) expected")
    bgr = [np.ascontiguousarray(_fit(f)[..., ::-1]) for f in faces]
    rng = np.random.default_rng([seed, 31])
    embeddings, labels = [], []
    for k in range(len(CARDS)):
        crops = np.array([face_view(bgr, k, rng, shown=kind, turn=turn, size=reader.size)
                          for turn in range(4) for kind in PROTOTYPE_KINDS for _ in range(views)])
        embeddings.append(reader.embed(crops)[0])
        labels += [k * 4 + turn for turn in range(4) for _ in range(len(PROTOTYPE_KINDS) * views)]
        if progress is not None:
            progress(k + 1, len(CARDS) + 1)
    nothing = np.array([face_view(bgr, int(rng.integers(len(CARDS))), rng, shown=kind, turn=int(rng.integers(4)),
                                  size=reader.size) for kind in (Shown.TABLE, Shown.SLIVER) * (NOTHING_VIEWS // 2)])
    embeddings.append(reader.embed(nothing)[0])
    labels += [NOTHING] * len(nothing)
    mlp = fit_mlp(np.vstack(embeddings), np.asarray(labels, np.int64), NOTHING + 1, hidden=128, epochs=60, seed=seed)
    if progress is not None:
        progress(len(CARDS) + 1, len(CARDS) + 1)
    return EditionHead(edition, mlp)


def look_alikes(prototypes: EditionPrototypes, threshold: float = LOOK_ALIKE_SIMILARITY) -> list[tuple[Card, Card, float]]:
    """Pairs of cards whose whole, upright faces the reader finds this close (most alike first)."""
    whole = [np.flatnonzero((prototypes.cards == k) & (prototypes.turns == 0))[0] for k in range(len(CARDS))]
    v = prototypes.vectors[whole]
    sims = v @ v.T
    pairs = [(CARDS[a], CARDS[b], float(sims[a, b])) for a in range(len(CARDS)) for b in range(a + 1, len(CARDS))
             if sims[a, b] >= threshold]
    return sorted(pairs, key=lambda p: -p[2])


def _fit(face: NDArray[np.uint8], height: int = 311) -> NDArray[np.uint8]:
    import cv2

    h, w = face.shape[:2]
    if h == height:
        return face
    return cv2.resize(face, (round(w * height / h), height), interpolation=cv2.INTER_AREA if h > height else cv2.INTER_CUBIC)  # type: ignore[return-value]
