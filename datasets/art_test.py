"""Held-out test editions: four deck designs made only to measure the face reader, never to train it.

Each stands for a kind of real deck the reader must cope with, drawn with Pillow's own typeface (the
procedural training editions use OpenCV's Hershey typefaces, so even the numerals' shapes are new):

- ``corner``: every distance card one colour, the value only in small corner numerals;
- ``midcard``: the value only big mid-card, under a header that is the same on every distance card,
  so a column's strip shows no value at all (only the column as a whole can say it);
- ``photo``: a photograph-like picture filling the face, the value in a white tab at the top left;
- ``lineart``: a white card with thin black outline drawings and outlined numerals.

>>> sorted(held_out_edition("corner"))[:3]
['accident', 'back', 'distance_100']
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from scoring.cards import Card, Group

TEST_EDITIONS: tuple[str, ...] = ("corner", "midcard", "photo", "lineart")
SIZE = (300, 466)
"""Width and height of a test face (56 × 87 mm at 136 dpi)."""

_HUE = {Group.HAZARD: (200, 50, 40), Group.REMEDY: (40, 140, 70), Group.SAFETY: (60, 70, 170), Group.DISTANCE: (70, 90, 120)}
_GLYPH = {card: i for i, card in enumerate(c for c in Card if not c.is_distance)}


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _centred(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: object = None,
             stroke: int = 0, stroke_fill: object = None) -> None:
    font = _font(size)
    left, top, right, bottom = d.textbbox((0, 0), text, font=font, stroke_width=stroke)
    d.text((xy[0] - (right + left) / 2, xy[1] - (bottom + top) / 2), text, font=font, fill=fill,  # type: ignore[arg-type]
           stroke_width=stroke, stroke_fill=stroke_fill)  # type: ignore[arg-type]


def _glyph(d: ImageDraw.ImageDraw, card: Card, box: tuple[float, float, float, float], colour: object,
           width: int = 0) -> None:
    """A pictogram of its own for each hazard, remedy and safety: a count of bars and a shape."""
    x0, y0, x1, y1 = box
    k = _GLYPH[card]
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2
    shape = k % 3
    if shape == 0:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(width, 3), fill=None if width else colour)  # type: ignore[arg-type]
    elif shape == 1:
        d.regular_polygon((cx, cy, r), 3, outline=colour, fill=None if width else colour, width=max(width, 3))  # type: ignore[arg-type]
    else:
        d.rectangle((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), outline=colour,  # type: ignore[arg-type]
                    fill=None if width else colour, width=max(width, 3))  # type: ignore[arg-type]
    bars = k // 3 + 1
    ink = colour if width else (255, 255, 255)
    for b in range(bars):
        y = cy - r * 0.4 + b * r * 0.8 / max(bars - 1, 1) if bars > 1 else cy
        d.line((cx - r * 0.45, y, cx + r * 0.45, y), fill=ink, width=max(3, int(r * 0.08)))  # type: ignore[arg-type]


def _corner(card: Card) -> Image.Image:
    w, h = SIZE
    img = Image.new("RGB", SIZE, (248, 246, 240))
    d = ImageDraw.Draw(img)
    colour = _HUE[card.group]
    d.rounded_rectangle((8, 8, w - 9, h - 9), 14, outline=colour, width=5)
    if card.is_distance:
        d.polygon([(w * 0.42, h * 0.25), (w * 0.58, h * 0.25), (w * 0.8, h * 0.78), (w * 0.2, h * 0.78)], fill=(90, 90, 95))
        for t in range(4):
            y = h * (0.3 + t * 0.12)
            d.rectangle((w * 0.49, y, w * 0.51, y + h * 0.05), fill=(250, 250, 250))
        value = str(card.km)
        _centred(d, (48, 40), value, 30, fill=colour)
        corner = Image.new("RGB", (90, 60), (248, 246, 240))
        _centred(ImageDraw.Draw(corner), (45, 30), value, 30, fill=colour)
        img.paste(corner.rotate(180), (w - 48 - 45, h - 40 - 30))
    else:
        _glyph(d, card, (w * 0.2, h * 0.25, w * 0.8, h * 0.7), colour)
        _centred(d, (w / 2, h * 0.85), card.title.upper(), 18, fill=(40, 40, 40))
    return img


def _midcard(card: Card) -> Image.Image:
    w, h = SIZE
    colour = _HUE[card.group]
    img = Image.new("RGB", SIZE, (235, 232, 222))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, h * 0.3), fill=colour)
    for i in range(6):  # a header pattern, the same on every card of the group
        d.ellipse((w * (0.08 + i * 0.15), h * 0.08, w * (0.16 + i * 0.15), h * 0.16), fill=(240, 240, 240))
    d.rectangle((10, h * 0.3, w - 10, h - 10), outline=colour, width=4)
    if card.is_distance:
        _centred(d, (w / 2, h * 0.6), str(card.km), 110 if card.km < 100 else 90, fill=(30, 30, 30))
        _centred(d, (w / 2, h * 0.8), "KM", 30, fill=(30, 30, 30))
    else:
        _glyph(d, card, (w * 0.25, h * 0.4, w * 0.75, h * 0.75), colour)
        _centred(d, (w / 2, h * 0.88), card.title, 20, fill=(30, 30, 30))
    return img


def _photo(card: Card) -> Image.Image:
    w, h = SIZE
    rng = np.random.default_rng([list(Card).index(card), 4242])
    base = np.array(_HUE[card.group], np.float32)
    low = rng.random((5, 4, 3)).astype(np.float32)
    pic = np.asarray(Image.fromarray((low * 255).astype(np.uint8)).resize(SIZE, Image.Resampling.BICUBIC), np.float32)
    grain = rng.normal(0, 12, (h, w, 3)).astype(np.float32)
    pic = np.clip(0.6 * pic + 0.4 * base + grain, 0, 255).astype(np.uint8)
    img = Image.fromarray(pic)
    d = ImageDraw.Draw(img)
    for _ in range(4):  # soft objects in the photograph, the card's own
        x, y, r = rng.uniform(0.2, 0.8) * w, rng.uniform(0.35, 0.85) * h, rng.uniform(0.08, 0.2) * w
        d.ellipse((x - r, y - r * 0.7, x + r, y + r * 0.7), fill=tuple(int(v) for v in rng.integers(0, 256, 3)))
    img = img.filter(ImageFilter.GaussianBlur(2))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((10, 10, 150 if card.is_distance else 200, 80), 12, fill=(255, 255, 255))
    text = str(card.km) if card.is_distance else card.title.split()[0].upper()[:7]
    _centred(d, (80 if card.is_distance else 105, 45), text, 48 if card.is_distance else 26, fill=(20, 20, 20))
    if not card.is_distance:
        _glyph(d, card, (w * 0.6, h * 0.72, w * 0.9, h * 0.92), (255, 255, 255))
    return img


def _lineart(card: Card) -> Image.Image:
    w, h = SIZE
    img = Image.new("RGB", SIZE, (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((12, 12, w - 13, h - 13), outline=(0, 0, 0), width=2)
    if card.is_distance:
        _centred(d, (w / 2, h * 0.14), str(card.km), 64, fill=(255, 255, 255), stroke=3, stroke_fill=(0, 0, 0))
        d.line((w * 0.2, h * 0.85, w * 0.45, h * 0.35), fill=(0, 0, 0), width=2)
        d.line((w * 0.8, h * 0.85, w * 0.55, h * 0.35), fill=(0, 0, 0), width=2)
        for t in range(card.km // 25 if card.km < 200 else 8):
            x = w * 0.15 + (t % 4) * w * 0.2
            y = h * 0.5 + (t // 4) * h * 0.1
            d.ellipse((x, y, x + 12, y + 12), outline=(0, 0, 0), width=2)
    else:
        _glyph(d, card, (w * 0.2, h * 0.3, w * 0.8, h * 0.75), (0, 0, 0), width=3)
        _centred(d, (w / 2, h * 0.14), card.title.upper(), 22, fill=(0, 0, 0))
    return img


_DRAW = {"corner": _corner, "midcard": _midcard, "photo": _photo, "lineart": _lineart}


def held_out_face(name: str, card: Card | None) -> NDArray[np.uint8]:
    """A face of test edition ``name`` (``None``: its back), RGB :data:`SIZE`."""
    if card is None:
        img = Image.new("RGB", SIZE, (120, 30, 40) if name in ("corner", "photo") else (30, 60, 120))
        d = ImageDraw.Draw(img)
        for i in range(0, SIZE[1], 24):
            d.line((0, i, SIZE[0], i + 60), fill=(230, 200, 120), width=3)
        return np.asarray(img)
    return np.asarray(_DRAW[name](card))


def held_out_edition(name: str) -> dict[str, NDArray[np.uint8]]:
    """Every face of a test edition by card id, plus ``back``."""
    if name not in _DRAW:
        raise KeyError(f"no test edition {name!r} (one of {', '.join(TEST_EDITIONS)})")
    faces = {c.value: held_out_face(name, c) for c in Card}
    faces["back"] = held_out_face(name, None)
    return faces
