"""``borne train detector``: render a data set, train YOLO11n-OBB from its YAML, export ONNX with a model card.

The recipe is small on purpose (two classes: a card face up, a card face down) so that a run fits
a 2-core CPU in an hour or two; the same recipe runs on an accelerator with more scenes and epochs.
Every run records its recipe, seed and metrics next to the exported model.
"""

from __future__ import annotations

import json
import platform
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from vision.training.offline import prepare_offline

MODEL_YAML = "yolo11n-obb.yaml"
CLASS_NAMES = ("card_face_up", "card_face_down")


@dataclass(frozen=True)
class DetectorRecipe:
    """Everything that decides what a training run produces."""

    name: str = "detector"
    train_scenes: int = 2000
    val_scenes: int = 200
    seed: int = 1
    """Training scenes use this seed; validation scenes use ``seed + 1000`` (never the same scenes)."""
    width: int = 1280
    height: int = 720
    random_faces: float = 0.3
    """Share of cards drawn with random art, so that the detector learns what a card is, not one edition."""
    tile_share: float = 1.0
    """Training images are the square tiles the runtime cuts from each frame (see ``vision.read.tiling``)."""
    imgsz: int = 640
    epochs: int = 30
    batch: int = 8
    workers: int = 2
    device: str = "cpu"
    patience: int = 10
    lr0: float = 0.01
    warmup_epochs: float = 3.0
    """Fine-tuning from ``start_from`` wants a lower ``lr0`` and no warm-up (a restarted warm-up undid a
    continued run's progress for its first epochs)."""
    start_from: str = ""
    """A checkpoint (``.pt``) of an earlier run to continue from, with this recipe's data and epochs;
    empty: from the model YAML, no weights."""


def render_dataset(recipe: DetectorRecipe, data_dir: Path, *, progress: bool = True) -> Path:
    """Render train and validation scenes (kept between runs of the same recipe) and write the data YAML."""
    from datasets.generate import generate_scenes
    from datasets.scene import SceneSpec

    spec = SceneSpec(width=recipe.width, height=recipe.height, random_faces=recipe.random_faces)
    from vision.training.tiles import tile_split

    for split, count, seed in (
        ("train", recipe.train_scenes, recipe.seed),
        ("val", recipe.val_scenes, recipe.seed + 1000),
    ):
        folder = data_dir / "scenes" / split
        tiles = data_dir / "tiles" / split
        done = len(list((folder / "images").glob("*.jpg"))) if folder.exists() else 0
        if done < count:
            generate_scenes(folder, count=count - done, start=done, seed=seed, spec=spec, scheme="cards",
                            progress=progress)
        if not (tiles / "complete").exists() or done < count:
            shutil.rmtree(tiles, ignore_errors=True)
            tile_split(folder, tiles, tile_share=recipe.tile_share)
            (tiles / "complete").write_text("")
    yaml = data_dir / "data.yaml"
    yaml.write_text(
        f"path: {(data_dir / 'tiles').resolve()}\ntrain: train/images\nval: val/images\nnames:\n"
        + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES))
    )
    return yaml


def train_detector(recipe: DetectorRecipe, *, build_dir: Path, models_dir: Path, progress: bool = True) -> Path:
    """Run the recipe end to end; returns the exported ONNX file in ``models_dir``.

    Resumes an interrupted run of the same recipe from its last checkpoint.
    """
    prepare_offline(build_dir)
    run_dir = build_dir / "runs" / recipe.name
    data_yaml = render_dataset(recipe, build_dir / "data" / _data_key(recipe), progress=progress)

    from ultralytics import YOLO

    last = run_dir / "weights" / "last.pt"
    started = time.monotonic()
    common: dict[str, Any] = dict(
        data=str(data_yaml), epochs=recipe.epochs, imgsz=recipe.imgsz, batch=recipe.batch, workers=recipe.workers,
        device=recipe.device, seed=recipe.seed, deterministic=True, amp=False, plots=False,
        project=str(run_dir.parent.resolve()), name=recipe.name, exist_ok=True, patience=recipe.patience,
        verbose=False, pretrained=bool(recipe.start_from), lr0=recipe.lr0, warmup_epochs=recipe.warmup_epochs,
    )
    if last.exists():
        model = YOLO(str(last))
        results = model.train(resume=True)
    else:
        model = YOLO(recipe.start_from or MODEL_YAML, task="obb")
        results = model.train(**common)
    seconds = time.monotonic() - started
    best = run_dir / "weights" / "best.pt"
    trained = YOLO(str(best if best.exists() else last))
    exported = Path(trained.export(format="onnx", imgsz=recipe.imgsz, simplify=False, opset=17, dynamic=False))
    models_dir.mkdir(parents=True, exist_ok=True)
    target = models_dir / f"{recipe.name}.onnx"
    shutil.copyfile(exported, target)
    metrics = {k: round(float(v), 4) for k, v in getattr(results, "results_dict", {}).items()} if results else {}
    record = {
        "recipe": asdict(recipe),
        "model_yaml": MODEL_YAML,
        "classes": list(CLASS_NAMES),
        "ultralytics_val_metrics": metrics,
        "train_seconds": round(seconds),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "onnx_bytes": target.stat().st_size,
    }
    (models_dir / f"{recipe.name}.train.json").write_text(json.dumps(record, indent=2) + "\n")
    return target


def _data_key(recipe: DetectorRecipe) -> str:
    return (
        f"scenes-s{recipe.seed}-n{recipe.train_scenes}-v{recipe.val_scenes}-{recipe.width}x{recipe.height}"
        f"-rf{recipe.random_faces}-t{recipe.tile_share}"
    )
