"""``borne train detector|recogniser``: the detector needs torch and ultralytics (the ``train`` extra); the recogniser does not."""

from __future__ import annotations

import argparse

from borne.commands.vision import add_face_views_option


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    train = sub.add_parser(
        "train",
        help="train Borne's models (needs the train extra: pip install -e '.[train]')",
        description="Train Borne's models from synthetic data, offline, and export them to ONNX in models/.",
    )
    tsub = train.add_subparsers(dest="train_command", metavar="MODEL", required=True)
    p = tsub.add_parser(
        "detector",
        help="render scenes, train YOLO11n-OBB from its YAML, export models/NAME.onnx",
        description="Render synthetic scenes (cut into the tiles the runtime sees), train YOLO11n-OBB from "
        "its model YAML (no downloaded weights), export ONNX and record the recipe and metrics. "
        "Re-running the same command resumes an interrupted run.",
    )
    p.add_argument("--name", default="detector", help="model name: writes models/NAME.onnx (default: detector)")
    p.add_argument("--scenes", type=int, default=800,
                   help="training scenes (each gives two tiles at --tile-share 1.0, six at 0.67; default 800)")
    p.add_argument("--val-scenes", type=int, default=100, help="validation scenes, another seed (default 100)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--imgsz", type=int, default=640, help="model input size (default 640)")
    p.add_argument("--tile-share", type=float, action="append", default=None,
                   help="tile side as a share of a frame's shorter side: 1.0 the video tiles (default), "
                        "0.67 the still photo's (vision.read.tiling); repeat to cut each scene at both")
    p.add_argument("--lr0", type=float, default=0.01, help="initial learning rate (default 0.01; lower to fine-tune)")
    p.add_argument("--warmup-epochs", type=float, default=3.0,
                   help="epochs of learning-rate warm-up (default 3; 0 to fine-tune from --start-from)")
    p.add_argument("--optimizer", default="auto", choices=("auto", "SGD", "AdamW"),
                   help="auto: AdamW at ultralytics' own rate, lr0 ignored (default); SGD to fine-tune at --lr0")
    p.add_argument("--freeze-layers", type=int, default=0, metavar="N",
                   help="hold the model's first N layers as they start (11: YOLO11n's backbone; default 0: none)")
    p.add_argument("--freeze-norms", action="store_true",
                   help="keep the batch norms as they are in use while training (to fine-tune from --start-from)")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", default="cpu", help="cpu, or a CUDA device index such as 0")
    p.add_argument("--start-from", default="", metavar="CHECKPOINT.pt|MODEL.onnx",
                   help="continue from an earlier run's weights, or from an exported model such as "
                        "models/detector.onnx (default: from the model YAML, no weights)")
    p.add_argument("--photos", action="append", default=[], metavar="FOLDER",
                   help="also train on the photo-real scenes in FOLDER (borne data photos), cut at the video's and "
                        "the still photo's tile sizes; every 20th scene validates; repeatable")
    p.add_argument("--build", default="build", help="folder for data and runs (default: build)")
    p.add_argument("--models", default="models", help="folder for the exported model (default: models)")
    p.set_defaults(func=_detector)

    p = tsub.add_parser(
        "recogniser",
        help="fit the face recogniser of a deck edition (numpy only; no torch needed)",
        description="Render scenes with the edition's faces, cut every card as the runtime does and fit the "
        "recogniser. For the generic edition it writes models/recogniser-generic.npz; for an enrolled edition, "
        "the edition's folder.",
    )
    p.add_argument("--edition", default="generic")
    p.add_argument("--scenes", type=int, default=1000, help="scenes rendered (default 1000)")
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--epochs", type=int, default=40)
    add_face_views_option(p)
    p.add_argument("--photos", action="append", default=[], metavar="FOLDER",
                   help="also cut the cards of the photo-real scenes in FOLDER (borne data photos) printed from this "
                        "edition, each taught twice; repeatable")
    p.add_argument("--models", default="models", help="folder for the generic edition's recogniser")
    p.set_defaults(func=_recogniser)

    p = tsub.add_parser(
        "reader",
        help="train the face reader (a small CNN for every edition) and export models/reader.onnx",
        description="Draw crops of many editions' faces (the generic, the retro and procedural ones) into "
        "shards, train the face reader's embedding with torch, export it to ONNX and enrol the generic edition "
        "with it. Re-running the same command resumes: shards already drawn are kept, training goes on from "
        "its last finished epoch.",
    )
    p.add_argument("--editions", type=int, default=300, help="procedural editions besides the generic and retro (default 300)")
    p.add_argument("--shards", type=int, default=18, help="shards of crops (default 18)")
    p.add_argument("--shard-size", type=int, default=20_000, help="crops per shard (default 20,000)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--seed", type=int, default=13, help="seed of the crops (default 13)")
    p.add_argument("--workers", type=int, default=2, help="processes drawing crops (default 2)")
    p.add_argument("--threads", type=int, default=2, help="torch threads while training (default 2)")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 0.003)")
    p.add_argument("--card-weight", type=float, default=1.0,
                   help="weight of the every-edition (card, turn) loss beside the identities' (default 1; 0: off)")
    p.add_argument("--warm-start", default="", metavar="CHECKPOINT",
                   help="start a new run from another run's last.pt (network and proxies, not its optimiser)")
    p.add_argument("--name", default="reader", help="run name under BUILD/reader/ (default: reader)")
    p.add_argument("--build", default="build", help="folder for crops and runs (default: build)")
    p.add_argument("--models", default="models", help="folder for reader.onnx and the generic prototypes")
    p.set_defaults(func=_reader)


def _require_train_extra(module: str) -> None:
    """Refuse to train on an install without the train extra (torch, ultralytics), before anything is written."""
    import importlib

    from borne.commands import CommandError

    try:
        importlib.import_module(module)
    except ModuleNotFoundError:
        raise CommandError("training needs the train extra: pip install -e '.[train]'") from None


def _reader(args: argparse.Namespace) -> int:
    _require_train_extra("torch")
    from pathlib import Path

    from vision.training.reader_run import ReaderRun

    run = ReaderRun(
        editions=args.editions, shards=args.shards, shard_size=args.shard_size, epochs=args.epochs, seed=args.seed,
        workers=args.workers, threads=args.threads, lr=args.lr, card_weight=args.card_weight,
        warm_start=args.warm_start, name=args.name, build=Path(args.build), models=Path(args.models),
    )
    out = run.train()
    print(f"wrote {out}")
    return 0


def _recogniser(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    from borne.commands.vision import PHOTO_WEIGHT, fit_with_progress
    from vision.read.models import GENERIC, RECOGNISER_FILE

    started = time.monotonic()
    recogniser, crops = fit_with_progress(args.edition, scenes=args.scenes, views=args.face_views, seed=args.seed,
                                          epochs=args.epochs, photos=tuple(args.photos))
    if args.edition == GENERIC:
        target = Path(args.models) / f"recogniser-{GENERIC}.npz"
    else:
        from datasets.edition import load_edition

        target = load_edition(args.edition).folder / RECOGNISER_FILE
    recogniser.save(target)
    record = {"edition": args.edition, "scenes": args.scenes, "face_views": args.face_views, "seed": args.seed,
              "epochs": args.epochs, "photos": args.photos, "photo_weight": PHOTO_WEIGHT,
              # a photo-real folder may still be growing (a resumable render): how far it was, to redo the fit
              "photo_scenes": {f: len(list((Path(f) / "truth").glob("*.json"))) for f in args.photos},
              "crops": int(len(crops.labels)), "seconds": round(time.monotonic() - started)}
    target.with_suffix(".train.json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {target} from {len(crops.labels)} crops in {record['seconds']} s")
    return 0


def _detector(args: argparse.Namespace) -> int:
    _require_train_extra("ultralytics")
    from pathlib import Path

    from vision.training.detector import DetectorRecipe, train_detector

    recipe = DetectorRecipe(
        name=args.name, train_scenes=args.scenes, val_scenes=args.val_scenes, seed=args.seed, imgsz=args.imgsz,
        epochs=args.epochs, batch=args.batch, workers=args.workers, device=args.device, start_from=args.start_from,
        tile_shares=tuple(args.tile_share or [1.0]), lr0=args.lr0, warmup_epochs=args.warmup_epochs,
        photos=tuple(str(Path(f)) for f in args.photos), optimizer=args.optimizer,
        freeze_norms=args.freeze_norms, freeze_layers=args.freeze_layers,
    )
    out = train_detector(recipe, build_dir=Path(args.build), models_dir=Path(args.models))
    print(f"wrote {out}")
    return 0
