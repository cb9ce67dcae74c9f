"""The runtime fits a Raspberry Pi: importing it never imports torch or ultralytics."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import vision


def test_importing_every_runtime_module_imports_no_training_framework():
    modules = sorted(m.name for m in pkgutil.walk_packages(vision.__path__, "vision.") if "train" not in m.name)
    assert "vision.detector" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in ('torch', 'ultralytics', 'torchvision') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
