"""Photo-real stills of the held-out test editions, rendered once and kept, for the reading benches.

    python bench/photo_editions.py --edition corner --seed 9960 --count 6 --out build/photos-dev-corner [--train-surfaces]

Each test edition (``datasets/art_test.py``: never in any training mix) is written as an edition folder
under ``build/test-editions/NAME`` and drawn by Blender in ``--count`` scenes of ``--seed``, on the test
split's surfaces and lights unless ``--train-surfaces`` (or the new test split's, ``--test-split``: measured on
only). Resumable, like `borne data photos`: scenes already
written are kept. Which seeds are development data and which are the test split is said where they are
used (docs/measured.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets.art_test import TEST_EDITIONS, held_out_edition  # noqa: E402
from datasets.edition import Edition, write_edition  # noqa: E402


def test_edition_folder(name: str, root: Path = ROOT / "build" / "test-editions") -> Edition:
    """The test edition ``name`` as an edition folder (written once; the faces are deterministic)."""
    folder = root / name
    if (folder / "edition.json").is_file():
        return Edition.open(folder)
    return write_edition(folder, name, held_out_edition(name))


def render(name: str, *, seed: int, count: int, out: Path, held_out: bool = True, test_split: bool = False) -> None:
    from tqdm import tqdm

    from datasets.photoreal.photos import generate_photos
    from datasets.photoreal.stage import PhotoSpec

    edition = test_edition_folder(name)
    with tqdm(total=count, desc=name, unit="scene") as bar:
        generate_photos(out, count=count, seed=seed, spec=PhotoSpec(edition=str(edition.folder), held_out=held_out,
                                                                   test_split=test_split),
                        progress=bar.update)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", required=True, choices=TEST_EDITIONS)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--train-surfaces", action="store_true", help="the training split's surfaces and lights")
    parser.add_argument("--test-split", action="store_true", help="the test split's surfaces and lights (measure only)")
    args = parser.parse_args()
    render(args.edition, seed=args.seed, count=args.count, out=args.out, held_out=not args.train_surfaces,
           test_split=args.test_split)


if __name__ == "__main__":
    main()
