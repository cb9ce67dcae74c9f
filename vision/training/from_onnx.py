"""A trainable checkpoint from an exported detector: continue training when only ``models/*.onnx`` survives.

Runs are kept in ``build/``, which a new machine may not have; the repository keeps only the exported
ONNX model. Ultralytics' export folds each convolution's batch norm into the convolution (weight and
bias), and keeps the parameter names. This rebuilds the model from its YAML and unfolds every
convolution back into convolution + batch norm that computes the same function: the folded weight, and a
batch norm of scale 1, shift = the folded bias, running mean 0 and running variance ``1 - eps`` (so that
``sqrt(var + eps)`` is 1). Training then goes on from the shipped weights; only the optimiser's state and
the batch norms' own statistics start afresh.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.training.offline import prepare_offline


class OnnxWeightsError(ValueError):
    """The ONNX file's weights do not fit the model YAML (another architecture, or a simplified export)."""


def checkpoint_from_onnx(onnx_path: Path, out: Path, *, model_yaml: str, names: tuple[str, ...], build_dir: Path) -> Path:
    """Write an ultralytics checkpoint (``.pt``) whose model computes what ``onnx_path`` computes.

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
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "epoch": -1, "date": None, "version": None,
                "train_args": {"task": "obb", "model": model_yaml}}, out)
    return out


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
