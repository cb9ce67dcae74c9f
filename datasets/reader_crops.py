"""The face reader's training crops: views of many editions' faces, written as resumable shards.

Edition 0 is the generic edition, 1 the retro one, the rest are procedural editions
(:func:`datasets.art_random.random_edition` with seeds ``0, 1, …``). A crop's identity is
``(edition, card, turn)`` packed as :func:`identity`; views with nothing to read have identity ``-1``.
Each shard is an ``.npz`` of ``crops`` (``N × size × size × 3`` BGR), ``identity`` and ``shown``,
written once and never rewritten, so an interrupted build resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.face_views import Shown, ViewMix, face_view
from scoring.cards import Card

CARDS: tuple[Card, ...] = tuple(Card)
TURNS = 4
IDENTITIES_PER_EDITION = len(CARDS) * TURNS
FIXED_EDITIONS = ("generic", "retro")
"""Editions drawn by hand before the procedural ones, and taught more often (they are the ones tables use)."""
FIXED_SHARE = 0.15
SHOWN_CODES = {s: i for i, s in enumerate(Shown)}
SOURCE_FACE_HEIGHT = 311
"""Faces are brought to this height before views are cut: more than a table camera ever sees."""


def identity(edition: int, card: int, turn: int) -> int:
    """``(edition, card, turn)`` as one class number.

    >>> identity(2, 3, 1)
    165
    """
    return (edition * len(CARDS) + card) * TURNS + turn


@dataclass(frozen=True)
class CropRecipe:
    """What a shard build draws; recorded with the model so the data can be made again."""

    procedural_editions: int = 300
    shards: int = 18
    shard_size: int = 20_000
    size: int = 48
    seed: int = 13
    first_procedural_seed: int = 0

    @property
    def editions(self) -> int:
        return len(FIXED_EDITIONS) + self.procedural_editions


@lru_cache(maxsize=512)
def edition_faces(edition: int, first_procedural_seed: int = 0) -> tuple[NDArray[np.uint8], ...]:
    """The 19 BGR faces of training edition ``edition``, :data:`SOURCE_FACE_HEIGHT` tall."""
    if edition < len(FIXED_EDITIONS):
        name = FIXED_EDITIONS[edition]
        if name == "generic":
            from datasets.edition import load_edition

            rgb = [load_edition("generic").face(c) for c in CARDS]
        else:
            from datasets.art_retro import render_retro_face

            rgb = [np.asarray(render_retro_face(c)) for c in CARDS]
    else:
        from datasets.art_random import random_edition

        drawn = random_edition(first_procedural_seed + edition - len(FIXED_EDITIONS))
        rgb = [drawn[c.value] for c in CARDS]
    out = []
    for face in rgb:
        h, w = face.shape[:2]
        if h != SOURCE_FACE_HEIGHT:
            face = cv2.resize(face, (round(w * SOURCE_FACE_HEIGHT / h), SOURCE_FACE_HEIGHT), interpolation=cv2.INTER_AREA)
        out.append(np.ascontiguousarray(face[..., ::-1]))
    return tuple(out)


VIEW_MIX = ViewMix()


def make_shard(recipe: CropRecipe, index: int, mix: ViewMix = VIEW_MIX) -> dict[str, NDArray[np.generic]]:
    """Shard ``index`` of a recipe, the same on every machine."""
    rng = np.random.default_rng([recipe.seed, index])
    n = recipe.shard_size
    crops = np.zeros((n, recipe.size, recipe.size, 3), np.uint8)
    ident = np.full(n, -1, np.int64)
    shown = np.zeros(n, np.uint8)
    for i in range(n):
        if rng.random() < FIXED_SHARE:
            edition = int(rng.integers(len(FIXED_EDITIONS)))
        else:
            edition = int(rng.integers(len(FIXED_EDITIONS), recipe.editions))
        faces = edition_faces(edition, recipe.first_procedural_seed)
        card, turn = int(rng.integers(len(CARDS))), int(rng.integers(TURNS))
        kind = mix.draw(rng)
        crops[i] = face_view(faces, card, rng, shown=kind, turn=turn, size=recipe.size)
        shown[i] = SHOWN_CODES[kind]
        if kind not in (Shown.SLIVER, Shown.TABLE):
            ident[i] = identity(edition, card, turn)
    return {"crops": crops, "identity": ident, "shown": shown}


def shard_path(folder: Path, index: int) -> Path:
    return folder / f"shard-{index:03d}.npz"


def build_shards(recipe: CropRecipe, folder: Path, *, only: range | None = None,
                 progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write every missing shard of a recipe (or those of ``only``) into ``folder``; the existing ones are kept."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for index in only if only is not None else range(recipe.shards):
        path = shard_path(folder, index)
        if not path.is_file():
            data = make_shard(recipe, index)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **data)  # type: ignore[arg-type]
            tmp.replace(path)
        out.append(path)
        if progress is not None:
            progress(index)
    return out
