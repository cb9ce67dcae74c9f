"""A small multilayer perceptron in numpy: the recogniser's classifier, fitted and run without torch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass
class Mlp:
    """``input → hidden (ReLU) → classes``, with the input standardised by stored mean and scale."""

    mean: NDArray[np.float32]
    scale: NDArray[np.float32]
    w1: NDArray[np.float32]
    b1: NDArray[np.float32]
    w2: NDArray[np.float32]
    b2: NDArray[np.float32]

    def logits(self, x: NDArray[np.floating]) -> NDArray[np.float32]:
        z = (np.asarray(x, np.float32) - self.mean) / self.scale
        h = np.maximum(z @ self.w1 + self.b1, 0)
        out: NDArray[np.float32] = h @ self.w2 + self.b2
        return out

    def probabilities(self, x: NDArray[np.floating]) -> NDArray[np.float64]:
        s = self.logits(x).astype(np.float64)
        s -= s.max(axis=1, keepdims=True)
        e = np.exp(s)
        p: NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return p


def fit_mlp(
    x: NDArray[np.floating],
    labels: NDArray[np.int64],
    classes: int,
    *,
    hidden: int = 192,
    epochs: int = 40,
    batch: int = 256,
    learning_rate: float = 2e-3,
    weight_decay: float = 1e-4,
    seed: int = 0,
    progress: Callable[[int, float], None] | None = None,
) -> Mlp:
    """Fit with Adam on softmax cross-entropy; deterministic for a seed."""
    rng = np.random.default_rng(seed)
    x = np.asarray(x, np.float32)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    n, d = z.shape
    params = [
        (rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d)).astype(np.float32),
        np.zeros(hidden, np.float32),
        (rng.standard_normal((hidden, classes)) * np.sqrt(1.0 / hidden)).astype(np.float32),
        np.zeros(classes, np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        rate = learning_rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        total = 0.0
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            xb, yb = z[idx], labels[idx]
            w1, b1, w2, b2 = params
            pre = xb @ w1 + b1
            h = np.maximum(pre, 0)
            s = h @ w2 + b2
            s -= s.max(axis=1, keepdims=True)
            e = np.exp(s)
            p = e / e.sum(axis=1, keepdims=True)
            total += float(-np.log(p[np.arange(len(idx)), yb] + 1e-12).sum())
            grad_s = p
            grad_s[np.arange(len(idx)), yb] -= 1
            grad_s /= len(idx)
            grads = [None, None, h.T @ grad_s, grad_s.sum(axis=0)]
            grad_h = grad_s @ w2.T
            grad_h[pre <= 0] = 0
            grads[0] = xb.T @ grad_h
            grads[1] = grad_h.sum(axis=0)
            step += 1
            for i, (p_, g) in enumerate(zip(params, grads, strict=True)):
                g = g + weight_decay * p_ if i in (0, 2) else g
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9**step)
                vh = v[i] / (1 - 0.999**step)
                params[i] = (p_ - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if progress is not None:
            progress(epoch + 1, total / n)
    return Mlp(mean.astype(np.float32), scale.astype(np.float32), *params)
