"""The training decks' art beyond the reader's editions: full-bleed editions (pictures to the card's edge, so the
detector cannot lean on a paper rim) and printed backs (the draw pile as real decks show it)."""

from __future__ import annotations

import numpy as np

from datasets.art_random import full_bleed_edition, printed_back, random_edition
from datasets.edition import BACK
from datasets.faces import random_face
from datasets.photoreal.decks import deck_faces


def _rim(face: np.ndarray, px: int = 3) -> np.ndarray:
    return np.concatenate([face[:px].reshape(-1, 3), face[-px:].reshape(-1, 3),
                           face[:, :px].reshape(-1, 3), face[:, -px:].reshape(-1, 3)])


def test_a_full_bleed_face_has_no_paper_rim_where_a_paper_edition_has_one():
    for seed in range(5):
        paper, bleed = random_edition(seed), full_bleed_edition(seed)
        for key in ("distance_25", "stop", "back"):
            assert _rim(bleed[key]).std(axis=0).max() > 8, (seed, key)  # a picture, not one colour
        assert _rim(paper["distance_25"]).std(axis=0).max() < 1  # the paper's own colour all round


def test_full_bleed_editions_leave_the_paper_editions_as_they_were():
    """The reader and the detector were trained on the paper editions: adding a family changes none of them."""
    again = random_edition(4)
    assert all(np.array_equal(again[k], v) for k, v in random_edition(4).items())
    assert not np.array_equal(full_bleed_edition(4)["distance_25"], again["distance_25"])


def test_random_faces_are_sometimes_photographs_to_their_edges():
    rng = np.random.default_rng(5)
    colours = [len(np.unique(random_face(rng).reshape(-1, 3), axis=0)) for _ in range(60)]
    photographs = sum(n > 5000 for n in colours)  # grain and soft shading: a colour nearly every pixel
    assert 5 <= photographs <= 30, sorted(colours)


def test_the_photo_real_mix_prints_a_back_on_its_procedural_decks_and_leaves_the_readers_editions_alone():
    drawn = deck_faces("procedural-12")
    own = random_edition(12)
    assert all(np.array_equal(drawn[k], own[k]) for k in own if k != BACK)
    assert not np.array_equal(drawn[BACK], own[BACK])
    assert np.array_equal(drawn[BACK], deck_faces("procedural-12")[BACK])  # the same deck, the same back
    backs = [printed_back(np.random.default_rng([seed, 4242])) for seed in range(12)]
    assert len({b.tobytes() for b in backs}) == 12 and all(b.shape == own[BACK].shape for b in backs)
