"""``borne train detector``: render a data set, train YOLO11n-OBB from its YAML, export ONNX with a model card.

The recipe is small on purpose (two classes: a card face up, a card face down) so that a run fits
a 2-core CPU in an hour or two; the same recipe runs on an accelerator with more scenes and epochs.
Every run records its recipe, seed and metrics next to the exported model.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from vision.training.offline import prepare_offline
from vision.training.tiles import PHOTO_VAL_EVERY, is_photo_validation, tile_split

MODEL_YAML = "yolo11n-obb.yaml"
CLASS_NAMES = ("card_face_up", "card_face_down")
CALIBRATION_IMAGES = 128
"""2-D training tiles whose activations set the batch norms of a model rebuilt from ONNX (``from_onnx``)."""


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
    tile_shares: tuple[float, ...] = (1.0,)
    """Training images are the square tiles the runtime cuts from each frame (see ``vision.read.tiling``), at
    each of these sizes: 1.0 the video's two tiles, 0.67 the still photo's six, where strips are enlarged."""
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
    optimizer: str = "auto"
    """Ultralytics' optimiser. ``auto`` picks AdamW at its own learning rate (0.00167 for two classes) for
    runs under 10,000 iterations and ignores ``lr0`` (right from scratch); ``SGD`` takes ``lr0``, the usual
    way to fine-tune."""
    start_from: str = ""
    """A checkpoint (``.pt``) of an earlier run, or an exported model (``.onnx``, unfolded by
    :mod:`vision.training.from_onnx`), to continue from with this recipe's data and epochs; empty: from
    the model YAML, no weights."""
    photos: tuple[str, ...] = ()
    """Folders of photo-real scenes (``borne data photos``) added to the 2-D scenes, every scene of them."""
    photo_tile_shares: tuple[float, ...] = (1.0, 0.67)
    """Photo-real scenes are cut at both the video's and the still photo's tile size, so the thin strips of
    a column are learnt at the scale ``detect`` enlarges them to."""
    photo_val_every: int = PHOTO_VAL_EVERY
    """Every this-many-th photo-real scene goes to validation instead of training."""
    freeze_layers: int = 0
    """Hold the model's first this-many layers as they start (YOLO11n's backbone is layers 0–10): a fine-tune
    then learns only the neck and head, keeping the features the 2-D scenes taught; 0 trains every layer."""
    freeze_norms: bool = False
    """Keep every batch norm as it is in use (its running statistics, never the batch's) while training, so
    that a fine-tune starts from exactly the function the model computes (see :func:`hold_norms`)."""


def render_dataset(recipe: DetectorRecipe, data_dir: Path, *, progress: bool = True) -> Path:
    """Render train and validation scenes (kept between runs of the same recipe) and write the data YAML."""
    from datasets.generate import generate_scenes
    from datasets.scene import SceneSpec

    spec = SceneSpec(width=recipe.width, height=recipe.height, random_faces=recipe.random_faces)

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
            for share in recipe.tile_shares:
                suffix = f"t{share:g}" if len(recipe.tile_shares) > 1 else ""
                tile_split(folder, tiles, tile_share=share, suffix=suffix)
            (tiles / "complete").write_text("")
    train, val = [(data_dir / "tiles" / "train" / "images").resolve()], [(data_dir / "tiles" / "val" / "images").resolve()]
    for photo_folder in recipe.photos:
        photo_train, photo_val = photo_tiles(Path(photo_folder), data_dir.parent / "photo-tiles", recipe)
        train.append(photo_train)
        if photo_val.is_dir():  # a folder of fewer scenes than photo_val_every has none to validate on
            val.append(photo_val)
    yaml = data_dir / ("data.yaml" if not recipe.photos else f"data-{_photos_key(recipe)}.yaml")
    yaml.write_text(
        "train:\n" + "".join(f"  - {p}\n" for p in train) + "val:\n" + "".join(f"  - {p}\n" for p in val)
        + "names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES))
    )
    return yaml


def photo_tiles(folder: Path, tiles_root: Path, recipe: DetectorRecipe) -> tuple[Path, Path]:
    """Tiles of every photo-real scene in ``folder``, cut at each of the recipe's tile shares; kept while the
    folder's scenes are the same. Returns the train and validation image folders."""
    scenes = sorted(p.stem for p in (folder / "truth").glob("*.json"))
    shares = "-".join(f"{s:g}" for s in recipe.photo_tile_shares)
    where = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:6]  # two folders may share a name
    out = tiles_root / f"{folder.resolve().name}-{where}-n{len(scenes)}-t{shares}-v{recipe.photo_val_every}"
    if not (out / "complete").exists():
        shutil.rmtree(out, ignore_errors=True)
        for k, stem in enumerate(scenes):
            split = "val" if is_photo_validation(k, recipe.photo_val_every) else "train"
            for share in recipe.photo_tile_shares:
                tile_split(folder, out / split, tile_share=share, only=stem, relabel=face_up_or_down,
                           suffix=f"t{share:g}")
        (out / "complete").write_text("")
    return (out / "train" / "images").resolve(), (out / "val" / "images").resolve()


def face_up_or_down(cls: str) -> str:
    """A photo-real label's class (one per card id, the back last: ``datasets.labels.CLASS_SETS["ids"]``) as
    the detector's: ``0`` a face, ``1`` the back."""
    from datasets.labels import CLASS_SETS

    return "1" if int(cls) == len(CLASS_SETS["ids"]) - 1 else "0"


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
        optimizer=recipe.optimizer,
    )
    if recipe.freeze_layers:
        common["freeze"] = recipe.freeze_layers
    start = recipe.start_from
    if start.endswith(".onnx"):
        from vision.training.from_onnx import checkpoint_from_onnx

        images = sorted(Path(data_yaml.parent / "tiles" / "train" / "images").glob("*.jpg"))
        calibration = images[:: max(1, len(images) // CALIBRATION_IMAGES)][:CALIBRATION_IMAGES]
        start = str(checkpoint_from_onnx(Path(start), run_dir.parent / f"{recipe.name}-start.pt", model_yaml=MODEL_YAML,
                                         names=CLASS_NAMES, build_dir=build_dir, calibration=calibration,
                                         imgsz=recipe.imgsz))
    model = YOLO(str(last)) if last.exists() else YOLO(start or MODEL_YAML, task="obb")
    if recipe.freeze_norms:
        model.add_callback("on_train_batch_start", lambda trainer: hold_norms(trainer.model))
    held: set[str] = set()
    model.add_callback("on_train_start", lambda trainer: held.update(frozen_layers(trainer.model)))
    results = model.train(resume=True) if last.exists() else model.train(**common)
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
        "frozen_layers": sorted(held, key=lambda name: int(name.split(".")[1])),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "onnx_bytes": target.stat().st_size,
    }
    (models_dir / f"{recipe.name}.train.json").write_text(json.dumps(record, indent=2) + "\n")
    return target


def frozen_layers(model: Any) -> set[str]:
    """The layers (``model.N``) of ``model`` whose weights do not learn: ultralytics' ``freeze`` (its head's fixed
    distribution-focal convolution, ``.dfl``, never learns and is left out)."""
    return {".".join(name.split(".")[:2]) for name, p in model.named_parameters()
            if not p.requires_grad and ".dfl." not in name}


def hold_norms(model: Any) -> int:
    """Put every batch norm of ``model`` in its use mode; returns how many.

    In training a batch norm normalises by the batch's own statistics and updates its running ones, so
    the model being trained is not the model in use until the statistics settle again. Ultralytics sets
    the whole model to training at each epoch; called before each batch, this keeps the norms as they
    are in use (their scale and shift still learn). Fine-tuning from ``models/*.onnx`` (whose norms are
    folded, :mod:`vision.training.from_onnx`) then starts from exactly the exported function.
    """
    import torch

    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for m in norms:
        m.eval()
    return len(norms)


def _data_key(recipe: DetectorRecipe) -> str:
    # str(1.0) == "1.0": a one-size recipe keeps the folder name of the runs before tile_shares
    return (
        f"scenes-s{recipe.seed}-n{recipe.train_scenes}-v{recipe.val_scenes}-{recipe.width}x{recipe.height}"
        f"-rf{recipe.random_faces}-t{'-'.join(str(s) for s in recipe.tile_shares)}"
    )


def _photos_key(recipe: DetectorRecipe) -> str:
    return hashlib.sha1(repr((recipe.photos, recipe.photo_tile_shares, recipe.photo_val_every)).encode()).hexdigest()[:10]
