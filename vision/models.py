"""Where the runtime finds its models: the detector and the recogniser of each deck edition."""

from __future__ import annotations

import os
from pathlib import Path

from vision.errors import ModelError

GENERIC = "generic"
DETECTOR_FILE = "detector.onnx"
RECOGNISER_FILE = "recogniser.npz"


def models_dir() -> Path:
    """The shipped models: ``$BORNE_MODELS_DIR``, else the repository's ``models/`` folder."""
    env = os.environ.get("BORNE_MODELS_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "models"


def detector_path() -> Path:
    path = models_dir() / DETECTOR_FILE
    if not path.is_file():
        raise ModelError(f"{path}: the card detector is missing (train it with `borne train detector`)")
    return path


def recogniser_path(edition: str) -> Path:
    """The recogniser of an edition: shipped for ``generic``, next to the edition's faces for an enrolled one."""
    if edition == GENERIC:
        path = models_dir() / f"recogniser-{GENERIC}.npz"
    else:
        from datasets.edition import load_edition

        path = load_edition(edition).folder / RECOGNISER_FILE
    if not path.is_file():
        raise ModelError(f"{path}: edition {edition!r} has no recogniser (run `borne enrol` or `borne train recogniser`)")
    return path
