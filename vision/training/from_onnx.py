"""A trainable checkpoint from an exported detector: continue training when only ``models/*.onnx`` survives.

Runs are kept in ``build/``, which a new machine may not have; the repository keeps only the exported
ONNX model. Ultralytics' export folds each convolution's batch norm into the convolution (weight and
bias), and keeps the parameter names. This rebuilds the model from its YAML and unfolds every
convolution back into convolution + batch norm that computes the same function, in training as in use.

A batch norm in training normalises by the batch's own statistics, not its running ones, so a batch norm
that only passes the folded bias through (scale 1, mean 0, variance 1) would, in the first training step,
normalise activations the model never normalised and wreck what it knew (two fine-tunes lost a fifth
of the strips and whole cards that way). So the statistics are measured: with the pass-through batch
norms (which compute exactly the exported function) a few training images go through the model, each
batch norm records the mean ``m`` and variance ``v`` of its input per channel, and becomes scale
``sqrt(v + eps)``, shift ``m + bias``, running mean ``m``, running variance ``v``: the same function in
use, and nearly the same on a training batch.

With ``borne train detector --freeze-norms`` (:func:`vision.training.detector.hold_norms`) the norms never
use a batch's statistics, so the calibration changes nothing there; it is kept for runs without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.training.offline import prepare_offline


class OnnxWeightsError(ValueError):
    """The ONNX file's weights do not fit the model YAML (another architecture, or a simplified export)."""


def checkpoint_from_onnx(
    onnx_path: Path, out: Path, *, model_yaml: str, names: tuple[str, ...], build_dir: Path,
    calibration: list[Path] | None = None, imgsz: int = 640,
) -> Path:
    """Write an ultralytics checkpoint (``.pt``) whose model computes what ``onnx_path`` computes;
    ``calibration``: training images whose activations set the batch norms' statistics (see above).

    :raises OnnxWeightsError: a parameter of the YAML's model has no weight of its shape in the file.
    """
    import onnx
    import torch
    from onnx import numpy_helper

    prepare_offline(build_dir)
    from ultralytics.nn.tasks import OBBModel

    folded = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(onnx_path)).graph.initializer}
    model = OBBModel(model_yaml, nc=len(names), verbose=False)
    model.names = dict(enumerate(names))
    state = model.state_dict()
    loaded: dict[str, Any] = {}
    eps = {name: module.eps for name, module in model.named_modules() if isinstance(module, torch.nn.BatchNorm2d)}
    for key, tensor in state.items():
        owner, _, leaf = key.rpartition(".")
        if owner in eps:
            conv = owner.removesuffix("bn") + "conv"
            bias = _weight(folded, f"{conv}.bias", tensor.shape if leaf != "num_batches_tracked" else None)
            loaded[key] = {
                "weight": torch.ones_like(tensor),
                "bias": torch.from_numpy(bias.copy()),
                "running_mean": torch.zeros_like(tensor),
                "running_var": torch.full_like(tensor, 1.0 - eps[owner]),
                "num_batches_tracked": torch.zeros_like(tensor),
            }[leaf]
        elif key in folded or not _is_constant(key):
            loaded[key] = torch.from_numpy(_weight(folded, key, tensor.shape).copy())
        else:
            loaded[key] = tensor
    model.load_state_dict(loaded)
    if calibration:
        _calibrate(model, calibration, imgsz, eps)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "epoch": -1, "date": None, "version": None,
                "train_args": {"task": "obb", "model": model_yaml}}, out)
    return out


def _calibrate(model: Any, images: list[Path], imgsz: int, eps: dict[str, float]) -> None:
    """Measure each batch norm's input over ``images`` and fold the statistics in (same function in use)."""
    import cv2
    import numpy as np
    import torch

    norms = {name: m for name, m in model.named_modules() if name in eps}
    sums: dict[str, list[Any]] = {name: [0.0, 0.0, 0] for name in norms}

    def hook(name: str) -> Any:
        def record(module: Any, inputs: Any, output: Any) -> None:
            x = inputs[0].detach().double()
            sums[name][0] = sums[name][0] + x.sum(dim=(0, 2, 3))
            sums[name][1] = sums[name][1] + (x * x).sum(dim=(0, 2, 3))
            sums[name][2] += x.numel() // x.shape[1]
        return record

    handles = [m.register_forward_hook(hook(name)) for name, m in norms.items()]
    model.eval()
    with torch.no_grad():
        for k in range(0, len(images), 8):
            batch = [cv2.resize(_read(cv2, p), (imgsz, imgsz))[..., ::-1] for p in images[k : k + 8]]
            x = torch.from_numpy(np.ascontiguousarray(np.stack(batch).transpose(0, 3, 1, 2))).float() / 255.0
            model(x)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for name, m in norms.items():
            total, squares, n = sums[name]
            mean = total / max(n, 1)
            var = (squares / max(n, 1) - mean * mean).clamp(min=0)
            bias = m.bias.detach().double()  # the folded bias, passed through so far
            m.weight.copy_(torch.sqrt(var + eps[name]).float())
            m.bias.copy_((mean + bias).float())
            m.running_mean.copy_(mean.float())
            m.running_var.copy_(var.float())


def _read(cv2: Any, path: Path) -> Any:
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"{path}: no image to calibrate with")
    return image


def _is_constant(key: str) -> bool:
    """Tensors the export writes as graph constants, not trainable weights: the DFL's fixed projection."""
    return ".dfl." in key


def _weight(folded: dict[str, Any], name: str, shape: Any) -> Any:
    if name not in folded:
        raise OnnxWeightsError(f"the ONNX file has no weight {name!r}: not an export of this model YAML")
    value = folded[name]
    if shape is not None and tuple(value.shape) != tuple(shape):
        raise OnnxWeightsError(f"{name}: shape {tuple(value.shape)} in the ONNX file, {tuple(shape)} in the model")
    return value
