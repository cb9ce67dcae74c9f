"""Training on photo-real scenes, from the shipped model: tiles at two sizes with the detector's classes, and
a checkpoint rebuilt from ``models/detector.onnx`` that computes what the ONNX model computes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from datasets.generate import generate_scenes
from datasets.labels import CLASS_SETS
from datasets.scene import SceneSpec
from vision.training.detector import DetectorRecipe, face_up_or_down, photo_tiles, render_dataset

ROOT = Path(__file__).resolve().parents[2]


def test_photo_scenes_become_tiles_at_both_sizes_with_face_up_and_face_down_labels(tmp_path):
    scenes = tmp_path / "photos"  # the same folder layout and "ids" labels as `borne data photos` writes
    generate_scenes(scenes, count=4, seed=5, spec=SceneSpec(width=640, height=360), scheme="ids", progress=False)
    recipe = DetectorRecipe(photos=(str(scenes),), photo_val_every=4)
    train, val = photo_tiles(scenes, tmp_path / "tiles", recipe)
    # six still tiles (0.67) and two video tiles (1.0) per scene; scene 3 of 4 validates
    assert len(list(train.glob("*.jpg"))) == 3 * 8 and len(list(val.glob("*.jpg"))) == 8
    assert sorted(p.name for p in val.glob("*_0.jpg")) == ["000003t0.67_0.jpg", "000003t1_0.jpg"]
    classes = {line.split()[0] for p in (train.parent / "labels").glob("*.txt") for line in p.read_text().splitlines()}
    assert classes == {"0", "1"} or classes == {"0"}
    assert face_up_or_down(str(len(CLASS_SETS["ids"]) - 1)) == "1" and face_up_or_down("0") == "0"
    stamp = (train.parent.parent / "complete").stat().st_mtime_ns
    assert photo_tiles(scenes, tmp_path / "tiles", recipe) == (train, val)  # kept, not cut again
    assert (train.parent.parent / "complete").stat().st_mtime_ns == stamp



def test_2d_scenes_are_cut_at_every_tile_size_of_the_recipe(tmp_path):
    recipe = DetectorRecipe(train_scenes=2, val_scenes=1, width=640, height=360, tile_shares=(1.0, 0.67))
    yaml = render_dataset(recipe, tmp_path, progress=False)
    train = sorted(p.name for p in (tmp_path / "tiles" / "train" / "images").glob("*.jpg"))
    assert len(train) == 2 * 8 and "000001t0.67_5.jpg" in train and "000001t1_1.jpg" in train
    assert len(list((tmp_path / "tiles" / "val" / "images").glob("*.jpg"))) == 8
    assert str((tmp_path / "tiles" / "train" / "images").resolve()) in yaml.read_text()
    one = DetectorRecipe(train_scenes=2, val_scenes=1, width=640, height=360)
    render_dataset(one, tmp_path / "one", progress=False)
    assert sorted(p.name for p in (tmp_path / "one" / "tiles" / "val" / "images").glob("*.jpg")) == [
        "000000_0.jpg", "000000_1.jpg"]  # one size: the names of earlier runs' tiles

def test_a_checkpoint_rebuilt_from_the_shipped_onnx_detector_computes_the_same(tmp_path):
    """Unfolded and calibrated batch norms (``from_onnx``): in use, the model computes the ONNX file's outputs."""
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        import numpy as np, onnxruntime as ort, torch
        from vision.training.detector import CLASS_NAMES, MODEL_YAML
        from vision.training.from_onnx import checkpoint_from_onnx
        import cv2
        onnx_path = Path({str(ROOT / 'models' / 'detector.onnx')!r})
        tiles = []
        for k in range(4):  # calibration images: anything card-like will do for the statistics
            image = np.full((320, 320, 3), 60 + 40 * k, np.uint8)
            cv2.rectangle(image, (40 + 10 * k, 60), (120 + 10 * k, 190), (240, 240, 235), -1)
            cv2.imwrite({str(tmp_path)!r} + f"/tile{{k}}.jpg", image)
            tiles.append(Path({str(tmp_path)!r} + f"/tile{{k}}.jpg"))
        pt = checkpoint_from_onnx(onnx_path, Path({str(tmp_path / 'start.pt')!r}), model_yaml=MODEL_YAML,
                                  names=CLASS_NAMES, build_dir=Path({str(tmp_path / 'build')!r}), calibration=tiles)
        from ultralytics import YOLO
        model = YOLO(str(pt)).model.float().eval()
        x = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
        with torch.no_grad():
            ours = model(torch.from_numpy(x))[0].numpy()
        session = ort.InferenceSession(str(onnx_path))
        theirs = session.run(None, {{session.get_inputs()[0].name: x}})[0]
        print(float(np.abs(ours[0, 4:] - theirs[0, 4:]).max()), float(np.abs(ours[0, :4] - theirs[0, :4]).max()))
        """
    )
    env = {**os.environ, "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    scores, boxes = (float(v) for v in out.stdout.split()[-2:])
    assert scores < 1e-4 and boxes < 0.05  # class scores and angle, and box pixels in a 640 input


def test_held_norms_train_the_model_that_is_in_use(tmp_path):
    """``--freeze-norms``: in training mode the held model computes what it computes in use, and its norms'
    statistics stay as they were (without holding, a training pass does neither)."""
    script = textwrap.dedent(
        """
        import torch
        from vision.training.detector import CLASS_NAMES, MODEL_YAML, hold_norms
        from vision.training.offline import prepare_offline
        from pathlib import Path
        prepare_offline(Path("build-test"))
        from ultralytics.nn.tasks import OBBModel
        torch.manual_seed(0)
        model = OBBModel(MODEL_YAML, nc=len(CLASS_NAMES), verbose=False)
        for m in model.modules():  # statistics unlike a fresh batch's, as a trained model's are
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5); m.running_var.uniform_(0.5, 2.0)
        seen = {}
        model.model[-1].register_forward_pre_hook(lambda mod, args: seen.__setitem__("x", [t.detach().clone() for t in args[0]]))
        x = torch.rand(2, 3, 256, 256)
        model.eval()
        with torch.no_grad():
            model(x)
        in_use = seen["x"]
        import copy
        before = copy.deepcopy(model.state_dict())
        for held in (False, True):
            model.train()
            count = hold_norms(model) if held else 0
            with torch.no_grad():
                model(x)
            gap = max(float((a - b).abs().max()) for a, b in zip(seen["x"], in_use))
            state = model.state_dict()
            moved = max(float((state[k].double() - before[k].double()).abs().max()) for k in before if "running" in k)
            print(held, count, gap, moved)
            model.load_state_dict(before)
        """
    )
    env = {**os.environ, "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    free, held = (line.split() for line in out.stdout.strip().splitlines()[-2:])
    assert float(free[2]) > 1e-2 and float(free[3]) > 0  # a plain training pass: another function, statistics moved
    assert int(held[1]) > 50 and float(held[2]) < 1e-5 and float(held[3]) == 0.0
