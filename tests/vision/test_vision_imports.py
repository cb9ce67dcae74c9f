"""The runtime fits a Raspberry Pi: it never imports torch, ultralytics or the data engine (`datasets`)."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys

import vision


def test_importing_every_runtime_module_imports_no_training_framework():
    modules = sorted(m.name for m in pkgutil.walk_packages(vision.__path__, "vision.") if "train" not in m.name)
    assert "vision.read.detector" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in ('torch', 'ultralytics', 'torchvision') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_detect_and_replay_with_an_enrolled_edition_need_no_data_engine(tmp_path):
    """``borne detect``, ``borne replay`` of a folder and an enrolled edition run on the camera runtime alone:
    neither torch, ultralytics nor the data engine (``datasets``) is imported."""
    import json
    import shutil

    import cv2

    from datasets.generate import scene_for
    from datasets.labels import layout_json
    from datasets.scene import SceneRenderer, SceneSpec
    from vision.read.models import models_dir

    scene = scene_for(4242, 0, SceneRenderer(SceneSpec(width=640, height=360)))
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:06d}.jpg"), scene.image[..., ::-1])
    (tmp_path / "layout.json").write_text(json.dumps(layout_json(scene)))
    # an enrolled edition: a folder of its faces, as `borne enrol` writes it
    shutil.copytree(models_dir() / "faces-generic", tmp_path / "data" / "editions" / "mydeck")
    code = (
        "import json, sys\n"
        "from borne.cli import main\n"
        f"layout = {str(tmp_path / 'layout.json')!r}\n"
        f"assert main(['detect', {str(frames / '000000.jpg')!r}, '--layout', layout, '--edition', 'mydeck']) == 0\n"
        f"assert main(['replay', {str(frames)!r}, '--layout', layout, '--edition', 'mydeck']) == 0\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'ultralytics', 'torchvision', 'datasets'))), file=sys.stderr)\n"
    )
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stderr.strip().splitlines()[-1]) == []
