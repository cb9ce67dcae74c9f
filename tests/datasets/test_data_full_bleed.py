"""Full-bleed editions: decks whose pictures run to the card's edge, so the detector cannot lean on a paper rim."""

from __future__ import annotations

import numpy as np

from datasets.art_random import full_bleed_edition, random_edition
from datasets.faces import random_face


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
