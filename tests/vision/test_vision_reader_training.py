"""The face reader's training path cannot rot: a few crops, one epoch, exported, read back with ONNX Runtime
and compared with the torch model on the same crops."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np

from datasets.reader_crops import CropRecipe, identity, make_shard
from vision.read.reader import FaceReader


def test_a_tiny_reader_training_run_exports_a_model_onnx_runtime_reads_as_torch_does(tmp_path):
    recipe = CropRecipe(procedural_editions=1, shards=1, shard_size=48, seed=3)
    shard = make_shard(recipe, 0)
    assert shard["crops"].shape == (48, recipe.size, recipe.size, 3)
    assert set(np.unique(shard["identity"])) <= {-1} | set(range(recipe.editions * 76))
    np.savez(tmp_path / "shard-000.npz", **shard)
    crops = shard["crops"][:8]
    np.save(tmp_path / "crops.npy", crops)
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        import numpy as np, torch
        from vision.training.reader import ReaderRecipe, export_reader, train_reader
        tmp = Path({str(tmp_path)!r})
        net = train_reader([tmp / "shard-000.npz"], {recipe.editions * 76}, tmp / "run",
                           ReaderRecipe(epochs=1, batch=16, threads=1), log=lambda line: None)
        export_reader(net, tmp / "reader.onnx", {recipe.size})
        with torch.no_grad():
            embedding, readable = net(torch.from_numpy(np.load(tmp / "crops.npy")))
        np.save(tmp / "torch.npy", embedding.numpy())
        print((tmp / "run" / "last.pt").is_file())
        """
    )
    # A separate process, as `borne train reader` is: torch never enters the test runner's runtime.
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "True"  # a checkpoint to resume from
    reader = FaceReader(tmp_path / "reader.onnx")
    embedding, readable = reader.embed(crops)
    assert embedding.shape == (8, 128) and readable.shape == (8,)
    assert np.allclose(np.linalg.norm(embedding, axis=1), 1.0, atol=1e-4)
    assert np.abs(embedding - np.load(tmp_path / "torch.npy")).max() < 1e-4


def test_identities_pack_edition_card_and_turn():
    assert identity(0, 0, 0) == 0 and identity(0, 0, 3) == 3 and identity(1, 0, 0) == 76
