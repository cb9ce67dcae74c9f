"""One resumable face-reader training run: crops, training, ONNX export, the generic edition's prototypes.

Everything lands under ``BUILD/reader/``: ``shards/`` (the crops, shared by runs of one recipe) and
``NAME/`` (checkpoints, log, and the generic edition's prototypes made with the new reader). The model
and its record go to ``MODELS/reader.onnx`` and ``MODELS/reader.train.json``. The generic edition is
read by the reader only once ``prototypes-generic.npz`` is copied into ``MODELS/``: a decision made on
the benches (``bench/bench_reader.py`` against ``bench/bench_recogniser.py``), not by training.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path

from datasets.reader_crops import IDENTITIES_PER_EDITION, CropRecipe, build_shards, shard_path
from vision.training.reader import ReaderRecipe, export_reader, train_reader


def _one_shard(job: tuple[CropRecipe, str, int]) -> int:
    recipe, folder, index = job
    build_shards(recipe, Path(folder), only=range(index, index + 1))
    return index


@dataclass(frozen=True)
class ReaderRun:
    editions: int = 300
    shards: int = 18
    shard_size: int = 20_000
    epochs: int = 6
    seed: int = 13
    workers: int = 2
    threads: int = 2
    lr: float = ReaderRecipe.lr
    card_weight: float = ReaderRecipe.card_weight
    warm_start: str = ""
    name: str = "reader"
    build: Path = Path("build")
    models: Path = Path("models")

    @property
    def crops(self) -> CropRecipe:
        return CropRecipe(procedural_editions=self.editions, shards=self.shards, shard_size=self.shard_size,
                          seed=self.seed)

    def shard_folder(self) -> Path:
        r = self.crops
        return self.build / "reader" / f"shards-e{r.procedural_editions}-n{r.shard_size}-s{r.seed}"

    def draw_shards(self) -> list[Path]:
        from tqdm import tqdm

        from datasets.edition import load_edition

        load_edition("generic")  # drawn once here, not by each worker
        folder = self.shard_folder()
        missing = [i for i in range(self.shards) if not shard_path(folder, i).is_file()]
        with tqdm(total=self.shards, initial=self.shards - len(missing), desc="drawing crops", unit="shard") as bar:
            if self.workers > 1 and len(missing) > 1:
                with get_context("fork").Pool(self.workers) as pool:
                    for _ in pool.imap_unordered(_one_shard, [(self.crops, str(folder), i) for i in missing]):
                        bar.update(1)
            else:
                for i in missing:
                    _one_shard((self.crops, str(folder), i))
                    bar.update(1)
        return [shard_path(folder, i) for i in range(self.shards)]

    def train(self) -> Path:
        started = time.monotonic()
        shards = self.draw_shards()
        drawn = time.monotonic() - started
        run = self.build / "reader" / self.name
        recipe = ReaderRecipe(epochs=self.epochs, threads=self.threads, lr=self.lr, card_weight=self.card_weight,
                              warm_start=self.warm_start)
        log_path = run / "train.log"
        run.mkdir(parents=True, exist_ok=True)

        def log(line: str) -> None:
            print(line, flush=True)
            with log_path.open("a") as f:
                f.write(line + "\n")

        net = train_reader(shards, self.crops.editions * IDENTITIES_PER_EDITION, run, recipe, log=log)
        out = self.models / "reader.onnx"
        export_reader(net, out, self.crops.size)
        enrol_generic(self.models, run)
        record = {"crops": asdict(self.crops), "training": asdict(recipe), "shards": len(shards),
                  "seconds_drawing_crops": round(drawn), "seconds_total": round(time.monotonic() - started),
                  "command": f"borne train reader --editions {self.editions} --shards {self.shards} "
                             f"--shard-size {self.shard_size} --epochs {self.epochs} --seed {self.seed} "
                             f"--lr {self.lr} --card-weight {self.card_weight}"
                             + (f" --warm-start {self.warm_start}" if self.warm_start else "")}
        (self.models / "reader.train.json").write_text(json.dumps(record, indent=2) + "\n")
        return out


def enrol_generic(models: Path, out: Path) -> Path:
    """The generic edition's prototypes, made with the reader in ``models``, written into ``out``."""
    from datasets.edition import load_edition
    from datasets.prototypes import make_prototypes
    from vision.read.reader import CARDS, FaceReader

    reader = FaceReader(models / "reader.onnx")
    edition = load_edition("generic")
    prototypes = make_prototypes(reader, [edition.face(c) for c in CARDS], "generic")
    path = out / "prototypes-generic.npz"
    prototypes.save(path)
    return path
