"""Development figures of a face reader: procedural editions no training drew (seeds 5000 …), views only.

    python bench/dev_reader_editions.py MODEL.onnx [EDITIONS]   # default 3 editions: seeds 5000-5002

This is the development split that chose each training round (whole faces, top strips, faces partly
covered, bare table), read with an edition head fitted on views of each edition's faces and with
prototypes. It is not the held-out measure: `bench_reader.py` reads the test editions in scenes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from datasets.art_random import random_edition
from datasets.face_views import Shown, face_view
from datasets.prototypes import make_prototypes
from vision.read.mlp import fit_mlp
from vision.read.reader import CARDS, FaceReader

FIRST_SEED = 5000


def views(reader: FaceReader, bgr: list[np.ndarray], rng: np.random.Generator, kinds: tuple[Shown, ...], per: int
          ) -> tuple[np.ndarray, np.ndarray]:
    crops, classes = [], []
    for k in range(len(CARDS)):
        for turn in range(4):
            for kind in kinds:
                for _ in range(per):
                    crops.append(face_view(bgr, k, rng, shown=kind, turn=turn, size=reader.size))
                    classes.append(k * 4 + turn)
    return np.array(crops), np.array(classes)


def main() -> None:
    reader = FaceReader(Path(sys.argv[1]))
    editions = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    res: dict[str, list[int]] = {}
    for seed in range(FIRST_SEED, FIRST_SEED + editions):
        drawn = random_edition(seed)
        faces = [drawn[c.value] for c in CARDS]
        bgr = [np.ascontiguousarray(x[..., ::-1]) for x in faces]
        rng = np.random.default_rng(seed)
        t0 = time.time()
        x, y = views(reader, bgr, rng, (Shown.WHOLE, Shown.STRIP, Shown.COVERED), 12)
        nothing = np.array([face_view(bgr, int(rng.integers(19)), rng, shown=s, turn=int(rng.integers(4)), size=reader.size)
                            for s in [Shown.TABLE, Shown.SLIVER] * 300])
        e, _ = reader.embed(x)
        en, _ = reader.embed(nothing)
        mlp = fit_mlp(np.vstack([e, en]), np.concatenate([y, np.full(len(nothing), 76)]), 77, epochs=60, seed=0, hidden=128)
        fitted = time.time() - t0
        protos = make_prototypes(reader, faces, "dev", views=12)
        rng2 = np.random.default_rng(seed + 77)
        for kind in (Shown.WHOLE, Shown.STRIP, Shown.COVERED, Shown.TABLE):
            n = 200
            cards, turns = rng2.integers(0, 19, n), rng2.integers(0, 4, n)
            crops = np.array([face_view(bgr, int(c), rng2, shown=kind, turn=int(t), size=reader.size) for c, t in zip(cards, turns)])
            emb, readable = reader.embed(crops)
            p = mlp.probabilities(emb)
            by_card = np.concatenate([p[:, :76].reshape(n, 19, 4).sum(2), p[:, 76:]], 1)
            pred, conf = by_card.argmax(1), by_card.max(1)
            answered = (pred < 19) & (conf >= 0.6)
            truth = cards if kind != Shown.TABLE else np.full(n, 19)
            proto = np.array([CARDS.index(r.card) if r.card else 19 for r in protos.match(emb, readable)])
            d = res.setdefault(kind.value, [0, 0, 0, 0, 0])
            d[0] += n
            d[1] += int(((pred == truth) & answered).sum()) if kind != Shown.TABLE else int(answered.sum())
            d[2] += int(answered.sum())
            d[3] += int((proto == truth).sum()) if kind != Shown.TABLE else int((proto < 19).sum())
            d[4] += int((proto < 19).sum())
        print(f"edition {seed}: head fitted in {fitted:.0f} s", flush=True)
    for shown, (n, head_right, head_answered, proto_right, proto_answered) in res.items():
        print(f"{shown}: head acc {head_right / n:.3f} answered {head_answered / n:.3f} | prototypes acc "
              f"{proto_right / n:.3f} answered {proto_answered / n:.3f}  (table: 'acc' = answered as a card)")


if __name__ == "__main__":
    main()
