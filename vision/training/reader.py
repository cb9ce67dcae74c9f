"""Training the face reader: a small CNN that turns a crop into an embedding, with torch (train extra only).

The network learns to tell faces apart, not one edition: its classes are ``(edition, card, turn)`` of
hundreds of editions (:mod:`datasets.reader_crops`), its loss a cosine softmax with a margin over one
learnt proxy per class (CosFace), so that crops of one face gather and crops of different faces of one
edition lie apart. A second cosine softmax, over one proxy per ``(card, turn)`` shared by every
edition, makes the embedding carry what a card *is* whatever its edition's art: the numerals of the
distance cards above all, which identities alone left nearly on top of one another. A second output
says whether a crop shows a face to read at all (slivers and bare table do not). Enrolling an edition then needs only the embeddings of its faces
(:mod:`vision.read.reader`), never torch.

Runs resume: each epoch writes ``last.pt`` (weights, proxies, optimiser, epoch) in the run folder.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from datasets.reader_crops import IDENTITIES_PER_EDITION

EMBEDDING = 128
CARD_CLASSES = IDENTITIES_PER_EDITION
"""``(card, turn)`` pairs: an identity modulo this (:func:`datasets.reader_crops.identity`)."""


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class ReaderNet(nn.Module):
    """``uint8`` BGR crops ``(N, S, S, 3)`` → unit embeddings ``(N, EMBEDDING)`` and a readable logit ``(N,)``."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _block(3, w // 2, 2), _block(w // 2, w, 1), _block(w, w, 2), _block(w, 2 * w, 1),
            _block(2 * w, 2 * w, 2), _block(2 * w, 4 * w, 1), nn.AdaptiveAvgPool2d(3), nn.Flatten(),
        )
        self.neck = nn.Sequential(nn.Linear(36 * w, 256), nn.BatchNorm1d(256), nn.ReLU(inplace=True))
        self.embed = nn.Linear(256, EMBEDDING)
        self.readable = nn.Linear(256, 1)

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = crops.permute(0, 3, 1, 2).float() * (1.0 / 255.0) - 0.5
        h = self.neck(self.features(x))
        return F.normalize(self.embed(h), dim=1), self.readable(h).squeeze(1)


@dataclass(frozen=True)
class ReaderRecipe:
    """How a reader is trained; saved beside the model."""

    epochs: int = 6
    batch: int = 256
    lr: float = 3e-3
    weight_decay: float = 5e-4
    scale: float = 24.0
    margin: float = 0.25
    width: int = 32
    seed: int = 5
    threads: int = 2
    card_weight: float = 1.0
    """Weight of the ``(card, turn)`` softmax beside the identities' (0: identities alone, as rounds 1–2)."""
    warm_start: str = ""
    """A ``last.pt`` whose network and identity proxies a new run starts from (its optimiser is not taken)."""


def _load_shards(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    crops, ident = [], []
    for p in paths:
        with np.load(p) as d:
            crops.append(d["crops"])
            ident.append(d["identity"])
    return np.concatenate(crops), np.concatenate(ident)


def _cosface(emb: torch.Tensor, proxies: torch.Tensor, target: torch.Tensor, recipe: ReaderRecipe
             ) -> tuple[torch.Tensor, int]:
    """Cosine softmax with an additive margin, and how many crops the proxies already put right."""
    cos = emb @ F.normalize(proxies, dim=1).T
    margin = torch.zeros_like(cos).scatter_(1, target[:, None], recipe.margin)
    return F.cross_entropy(recipe.scale * (cos - margin), target), int((cos.argmax(1) == target).sum())


def train_reader(
    shards: list[Path], classes: int, run: Path, recipe: ReaderRecipe = ReaderRecipe(), *,
    log: Callable[[str], None] = print,
) -> ReaderNet:
    """Train (or resume) a reader on shards whose identities run ``0 … classes - 1`` (``-1``: nothing to read)."""
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    run.mkdir(parents=True, exist_ok=True)
    crops_np, ident_np = _load_shards(shards)
    crops = torch.from_numpy(crops_np)
    ident = torch.from_numpy(ident_np)
    n = len(ident)
    net = ReaderNet(recipe.width)
    proxies = nn.Parameter(torch.randn(classes, EMBEDDING) * 0.01)
    card_proxies = nn.Parameter(torch.randn(CARD_CLASSES, EMBEDDING) * 0.01)
    params = [{"params": net.parameters()}, {"params": [proxies, card_proxies], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(params, lr=recipe.lr, weight_decay=recipe.weight_decay)  # type: ignore[arg-type]
    steps_per_epoch = math.ceil(n / recipe.batch)
    total = recipe.epochs * steps_per_epoch
    start_epoch = 0
    last = run / "last.pt"
    if last.is_file():
        state = torch.load(last, weights_only=True)
        net.load_state_dict(state["net"])
        proxies.data.copy_(state["proxies"])
        opt.load_state_dict(state["opt"])
        if "card_proxies" in state:
            card_proxies.data.copy_(state["card_proxies"])
        start_epoch = int(state["epoch"])
        log(f"resumed after epoch {start_epoch}")
    elif recipe.warm_start:
        state = torch.load(recipe.warm_start, weights_only=True)
        net.load_state_dict(state["net"])
        proxies.data.copy_(state["proxies"])
        log(f"started from {recipe.warm_start} (its epoch {int(state['epoch'])})")
    (run / "recipe.json").write_text(json.dumps({**asdict(recipe), "classes": classes, "crops": n}, indent=2) + "\n")
    for epoch in range(start_epoch, recipe.epochs):
        net.train()
        order = torch.randperm(n, generator=torch.Generator().manual_seed(recipe.seed * 1000 + epoch))
        started, seen, loss_sum, right, card_right, counted = time.monotonic(), 0, 0.0, 0, 0, 0
        for b in range(steps_per_epoch):
            step = epoch * steps_per_epoch + b
            for g in opt.param_groups:
                g["lr"] = recipe.lr * 0.5 * (1 + math.cos(math.pi * step / total)) * min(1.0, (step + 1) / 300)
            idx = order[b * recipe.batch : (b + 1) * recipe.batch]
            x, y = crops[idx], ident[idx]
            emb, readable = net(x)
            face = y >= 0
            loss = F.binary_cross_entropy_with_logits(readable, face.float())
            if face.any():
                identity_loss, hits = _cosface(emb[face], proxies, y[face], recipe)
                loss = loss + identity_loss
                right += hits
                if recipe.card_weight > 0:
                    card_loss, hits = _cosface(emb[face], card_proxies, y[face] % CARD_CLASSES, recipe)
                    loss = loss + recipe.card_weight * card_loss
                    card_right += hits
                counted += int(face.sum())
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            seen += len(idx)
            loss_sum += float(loss.detach()) * len(idx)
            if b % 200 == 0:
                rate = seen / max(time.monotonic() - started, 1e-6)
                log(f"epoch {epoch + 1}/{recipe.epochs} step {b}/{steps_per_epoch} loss {loss_sum / seen:.3f} "
                    f"train acc {right / max(counted, 1):.3f} card acc {card_right / max(counted, 1):.3f} "
                    f"({rate:.0f} crops/s)")
        torch.save({"net": net.state_dict(), "proxies": proxies.data, "card_proxies": card_proxies.data,
                    "opt": opt.state_dict(), "epoch": epoch + 1}, run / "last.tmp.pt")
        (run / "last.tmp.pt").replace(last)
        log(f"epoch {epoch + 1} done: loss {loss_sum / n:.3f}, train acc {right / max(counted, 1):.3f}, "
            f"card acc {card_right / max(counted, 1):.3f}, "
            f"{time.monotonic() - started:.0f} s")
    net.eval()
    return net


def export_reader(net: ReaderNet, path: Path, size: int) -> None:
    """Write the reader as ONNX: input ``crops`` (``N × size × size × 3`` uint8), outputs ``embedding`` and ``readable``."""
    net.eval()
    example = torch.zeros(2, size, size, 3, dtype=torch.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (example,), str(path), input_names=["crops"], output_names=["embedding", "readable"],
        dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}, "readable": {0: "n"}}, opset_version=17,
        dynamo=False,
    )
