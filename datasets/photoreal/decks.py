"""Which deck a photo-real scene's cards are printed from: one edition by name, or a training mix of many.

A detector trained on one edition's art learns that edition; tables play many. With
``--edition mixed`` each scene draws its deck: the generic edition (:data:`MIX_GENERIC`), the retro
design (:data:`MIX_RETRO`, with the generic back), or one of the reader's procedural training editions
(:func:`datasets.art_random.random_edition`, seeds ``0 … PROCEDURAL_EDITIONS - 1``) with a printed back, or
one of as many full-bleed editions (:func:`datasets.art_random.full_bleed_edition`). None of the test editions
(``datasets.art_test``) or the reader's development seeds is ever drawn.
Faces are written once as PNG files under the shared texture cache, where Blender reads them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.edition import BACK, FACE_KEYS, GENERIC, Edition, load_edition
from datasets.reader_crops import CropRecipe

MIXED = "mixed"
"""The edition name that asks for a deck drawn per scene."""
MIX_GENERIC = 0.4
MIX_RETRO = 0.15
MIX_FULL_BLEED = 0.15
"""Chances of the generic deck, the retro deck and a full-bleed procedural edition
(:func:`datasets.art_random.full_bleed_edition`: photographs to the card's edge, no paper rim); the rest
of the scenes get a procedural edition on paper. Scenes of ``--seed 2`` from 332 on were drawn with the
full-bleed share (before: none), and from scene 336 on the procedural decks on paper show a printed back
(:func:`datasets.art_random.printed_back`; before: their own back of shapes on a plain ground)."""
PROCEDURAL_EDITIONS = CropRecipe().procedural_editions
"""Procedural editions drawn from: the face reader's training editions."""


def deck_files(edition: str, rng: np.random.Generator, cache: Path) -> tuple[str, dict[str, Path]]:
    """The deck a scene's cards wear, as ``(name, face file by card id and "back")``.

    Draws from ``rng`` only when ``edition`` is :data:`MIXED`, so scenes of one named edition are the same
    with or without this module.
    """
    if edition != MIXED:
        return edition, _edition_files(load_edition(edition))
    roll = rng.random()
    if roll < MIX_GENERIC:
        return GENERIC, _edition_files(load_edition(GENERIC))
    if roll < MIX_GENERIC + MIX_RETRO:
        name = "retro"
    else:
        family = "bleed" if roll >= 1 - MIX_FULL_BLEED else "procedural"
        name = f"{family}-{int(rng.integers(PROCEDURAL_EDITIONS))}"
    return name, _drawn_files(name, cache / "decks" / name)


def _edition_files(edition: Edition) -> dict[str, Path]:
    generic = load_edition(GENERIC)
    files = {}
    for key in FACE_KEYS:
        source = edition if key in edition.meta["faces"] else generic
        files[key] = (source.folder / str(source.meta["faces"][key])).resolve()
    return files


def _drawn_files(name: str, folder: Path) -> dict[str, Path]:
    files = {key: (folder / f"{key}.png").resolve() for key in FACE_KEYS}
    if all(f.is_file() for f in files.values()):
        return files
    folder.mkdir(parents=True, exist_ok=True)
    for key, rgb in deck_faces(name).items():
        part = folder / f"{key}.part.png"
        cv2.imwrite(str(part), np.ascontiguousarray(rgb[..., ::-1]))
        part.replace(folder / f"{key}.png")
    return files


def deck_faces(name: str) -> dict[str, np.ndarray]:
    """The faces and back (RGB, by card id and ``back``) of a drawn deck: ``retro``, ``procedural-N`` or ``bleed-N``."""
    if name == "retro":
        from datasets.art_retro import render_retro_face
        from scoring.cards import Card

        faces = {c.value: np.asarray(render_retro_face(c)) for c in Card}
        return faces | {BACK: load_edition(GENERIC).face(BACK)}
    from datasets.art_random import full_bleed_edition, printed_back, random_edition

    family, seed = name.rsplit("-", 1)
    if family == "bleed":
        return full_bleed_edition(int(seed))
    # a printed back (a pattern, a rim, the game's name) for the procedural decks on paper: the reader's own
    # training editions keep theirs, and the draw pile looks like the backs real decks have
    return random_edition(int(seed)) | {BACK: printed_back(np.random.default_rng([int(seed), 4242]))}
