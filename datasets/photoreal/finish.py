"""From Blender's passes to a phone photo: denoise, expose, tone, then the phone's own marks.

Cycles on a few samples leaves grain; Intel Open Image Denoise (PyPI's ``oidn``) removes it with the
help of the albedo and normal passes. A phone then meters the light, applies a tone curve, and leaves
lens shading (vignetting), sensor noise and JPEG compression — drawn here from the scene's seed.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.errors import SceneSpecError


def read_pass(folder: Path, stem: str) -> NDArray[np.float32]:
    """One of Blender's passes (``image``, ``albedo``, ``normal``: RGB; ``index``: one channel) as float32.

    :raises SceneSpecError: the pass is missing or unreadable (Blender stopped before writing it).
    """
    path = folder / f"{stem}.npy"
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise SceneSpecError(f"{path}: missing or unreadable (did Blender finish this scene?): {e}") from None
    return np.ascontiguousarray(data[..., 0] if stem == "index" else data[..., :3], dtype=np.float32)


def denoise(image: NDArray[np.float32], albedo: NDArray[np.float32], normal: NDArray[np.float32]) -> NDArray[np.float32]:
    """Open Image Denoise's ray-tracing filter on an image in 0–1 with its albedo and normals."""
    import oidn

    h, w = image.shape[:2]
    out = np.zeros_like(image)
    device = oidn.NewDevice()
    oidn.CommitDevice(device)
    flt = oidn.NewFilter(device, "RT")
    # the filter only borrows these buffers: they must live until it has run (a temporary freed after
    # SetSharedFilterImage left the filter reading reused memory, so each call denoised differently)
    shared = {"color": np.ascontiguousarray(image, np.float32), "albedo": np.ascontiguousarray(np.clip(albedo, 0, 1), np.float32),
              "normal": np.ascontiguousarray(normal, np.float32), "output": out}
    try:
        for name, data in shared.items():
            oidn.SetSharedFilterImage(flt, name, data, oidn.FORMAT_FLOAT3, w, h)
        oidn.CommitFilter(flt)
        oidn.ExecuteFilter(flt)
    finally:
        oidn.ReleaseFilter(flt)
        oidn.ReleaseDevice(device)
    return out


LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)
PAPER_WHITE = 0.85
"""The albedo of a card's white stock."""
PAPER_HEADROOM = 2.2
"""How far above the metered light a phone lets white paper in the scene's light go: a phone's HDR keeps
a white card on a dark table short of clipping, so the card's print keeps its colours."""


def meter(linear: NDArray[np.float32], albedo: NDArray[np.float32] | None = None) -> float:
    """The light a phone meters: the bright end of the scene (its 92nd percentile), not its highlights —
    raised, when the albedo pass says how bright the light is, so that white paper lying in that light
    stays within :data:`PAPER_HEADROOM` of it (before 2026-12-04 a white card on a dark table was exposed
    to four or five times the key, and the print of its face clipped to a pale wash)."""
    luma = linear @ LUMA
    key = float(np.percentile(luma, 92)) + 1e-6
    if albedo is not None:
        light = luma / np.maximum(np.clip(albedo, 0, 1) @ LUMA, 0.05)
        key = max(key, PAPER_WHITE * float(np.percentile(light, 90)) / PAPER_HEADROOM)
    return key


def expose(linear: NDArray[np.float32], rng: np.random.Generator, key: float | None = None,
           albedo: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
    """Metering as a phone does: the metered light (:func:`meter`, or ``key`` when locked) lands near white."""
    key = meter(linear, albedo) if key is None else key
    return linear * (float(rng.uniform(0.62, 0.85)) / key)


WHITE_POINT = 2.5
"""The exposed light that tones to full white; brighter light (glare) clips."""


def tone(exposed: NDArray[np.float32]) -> NDArray[np.float32]:
    """A soft shoulder for highlights on the light's luminance (keeping each pixel's hue, as a phone's HDR
    does rather than clipping each channel), then the sRGB curve: 0–1 display values."""
    x = np.maximum(exposed, 0)
    luma = np.maximum(x @ LUMA, 1e-6)[..., None]
    toned = luma * (1 + luma / WHITE_POINT**2) / (1 + luma)  # extended Reinhard: WHITE_POINT → 1
    shoulder = np.minimum(x * (toned / luma) * 1.25, 1.0)
    return np.where(shoulder <= 0.0031308, 12.92 * shoulder, 1.055 * np.power(shoulder, 1 / 2.4) - 0.055)


def phone_marks(display: NDArray[np.float32], rng: np.random.Generator,
                noise: np.random.Generator | None = None) -> NDArray[np.uint8]:
    """Vignetting, sensor noise that grows with the signal, a touch of softness and JPEG: RGB ``uint8``.

    The noise itself comes from ``noise`` when given: a video's frames share the phone's settings
    (``rng``) while each frame has its own grain.
    """
    h, w = display.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    out = display * (1 - float(rng.uniform(0.08, 0.3)) * r2 / 2)[..., None]
    read, shot = float(rng.uniform(0.004, 0.015)), float(rng.uniform(0.005, 0.02))
    sigma = np.sqrt(read**2 + shot**2 * np.clip(out, 0, 1))
    out = out + (noise if noise is not None else rng).standard_normal(out.shape, dtype=np.float32) * sigma
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 0.9)))
    rgb = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()


def photo_from_passes(folder: Path, rng: np.random.Generator, *, key: float | None = None,
                      noise: np.random.Generator | None = None) -> NDArray[np.uint8]:
    """The finished RGB photo of a rendered stage; ``key`` locks the exposure, ``noise`` draws the grain (see above)."""
    linear = expose(read_pass(folder, "image"), rng, key, read_pass(folder, "albedo"))
    scale = max(float(np.percentile(linear, 99.9)), 1.0)
    clean = denoise(np.clip(linear / scale, 0, 1), read_pass(folder, "albedo"), read_pass(folder, "normal")) * scale
    return phone_marks(tone(clean), rng, noise)
