"""The training path cannot rot: a tiny end-to-end run (four scenes, one epoch), exported and run with ONNX Runtime."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

from vision.read.detector import DecodeSettings, OnnxCardDetector
from vision.training.detector import CLASS_NAMES


def test_a_tiny_training_run_exports_a_model_the_runtime_can_use(tmp_path):
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from vision.training.detector import DetectorRecipe, train_detector
        recipe = DetectorRecipe(name="smoke", train_scenes=4, val_scenes=2, epochs=1, imgsz=320, batch=2,
                                workers=0, width=640, height=480, freeze_layers=2)
        print(train_detector(recipe, build_dir=Path({str(tmp_path / 'build')!r}),
                             models_dir=Path({str(tmp_path / 'models')!r}), progress=False))
        """
    )
    # A separate process, as `borne train` is: ultralytics and torch never enter the test runner's runtime.
    env = {**os.environ, "HOME": str(tmp_path)}  # nothing written to the user's home
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    model = tmp_path / "models" / "smoke.onnx"
    assert model.is_file()
    record = json.loads((tmp_path / "models" / "smoke.train.json").read_text())
    assert record["recipe"]["epochs"] == 1 and record["model_yaml"] == "yolo11n-obb.yaml"
    assert record["frozen_layers"] == ["model.0", "model.1"]  # held as they started; the rest learnt
    assert (tmp_path / "build" / "ultralytics-config").is_dir()
    assert not (tmp_path / ".config" / "Ultralytics").exists()
    detector = OnnxCardDetector(model, DecodeSettings(conf_threshold=0.0))
    assert detector.class_names == CLASS_NAMES and detector.size == 320
    found = detector.detect(np.zeros((480, 640, 3), np.uint8))
    assert found.corners.shape[1:] == (4, 2)
    assert "torch" not in sys.modules
