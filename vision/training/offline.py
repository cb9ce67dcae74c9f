"""Ultralytics without internet: settings inside the build tree, never a download."""

from __future__ import annotations

import os
from pathlib import Path


def prepare_offline(build_dir: Path) -> None:
    """Set the environment ultralytics reads at import so that it never reaches for the network.

    Call before importing ultralytics. ``YOLO_CONFIG_DIR`` keeps its settings file (and any font
    cache) inside ``build_dir`` rather than in the user's home.
    """
    config = build_dir / "ultralytics-config"
    config.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_CONFIG_DIR"] = str(config.resolve())
    os.environ.setdefault("YOLO_VERBOSE", "False")
    os.environ["HUB_OFFLINE"] = "1"
    os.environ.setdefault("WANDB_DISABLED", "true")
