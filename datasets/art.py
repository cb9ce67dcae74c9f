"""The generic edition's art: every face and the back drawn by code with simple vector shapes.

The top quarter of every face is a colour band with the value or a short code in big
letters, so that a card in an overlapping column is identified by the strip that shows.
The same band, smaller and upside down, sits at the bottom.

>>> face = render_face(Card.DISTANCE_75)
>>> face.size
(600, 932)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

from scoring.cards import Card, Group

FACE_SIZE: tuple[int, int] = (600, 932)
"""Width and height of a face in pixels: 56 × 87 mm at about 272 dpi."""

CARD_MM: tuple[float, float] = (56.0, 87.0)
"""Width and height of a card in millimetres."""

_SS = 2  # drawn at twice the size, then reduced: smooth edges without an anti-aliasing library

RGB = tuple[int, int, int]

GROUP_COLOURS: dict[Group, RGB] = {
    Group.HAZARD: (198, 40, 40),
    Group.REMEDY: (46, 125, 50),
    Group.SAFETY: (21, 80, 170),
}
DISTANCE_COLOURS: dict[Card, RGB] = {
    Card.DISTANCE_25: (0, 131, 143),
    Card.DISTANCE_50: (94, 53, 177),
    Card.DISTANCE_75: (230, 110, 0),
    Card.DISTANCE_100: (173, 20, 87),
    Card.DISTANCE_200: (33, 33, 33),
}
GOLD: RGB = (240, 185, 30)
INK: RGB = (30, 30, 36)
PAPER: RGB = (250, 247, 238)

SHORT_CODES: dict[Card, str] = {
    Card.STOP: "STOP",
    Card.SPEED_LIMIT: "LIMIT",
    Card.OUT_OF_GAS: "NO GAS",
    Card.FLAT_TIRE: "FLAT",
    Card.ACCIDENT: "CRASH",
    Card.ROLL: "ROLL",
    Card.END_OF_LIMIT: "END",
    Card.GASOLINE: "GAS",
    Card.SPARE_TIRE: "SPARE",
    Card.REPAIRS: "REPAIR",
    Card.RIGHT_OF_WAY: "RIGHT",
    Card.EXTRA_TANK: "TANK",
    Card.PUNCTURE_PROOF: "PROOF",
    Card.DRIVING_ACE: "ACE",
}
"""What the top band says on cards that are not distance cards."""


def card_colour(card: Card) -> RGB:
    """The band colour of a card: one per distance value, else its group's colour."""
    if card.is_distance:
        return DISTANCE_COLOURS[card]
    return GROUP_COLOURS[card.group]


def band_text(card: Card) -> str:
    return str(card.km) if card.is_distance else SHORT_CODES[card]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _fit_text(draw: ImageDraw.ImageDraw, text: str, box: tuple[int, int, int, int], fill: RGB, max_size: int) -> None:
    """Draw text as large as fits in the box, centred."""
    x0, y0, x1, y1 = box
    size = max_size
    while size > 8:
        font = _font(size)
        l, t, r, b = draw.textbbox((0, 0), text, font=font)  # noqa: E741 - left, top, right, bottom
        if r - l <= x1 - x0 and b - t <= y1 - y0:
            break
        size = int(size * 0.92)
    draw.text(((x0 + x1 - (r - l)) / 2 - l, (y0 + y1 - (b - t)) / 2 - t), text, font=font, fill=fill)


def render_face(card: Card) -> Image.Image:
    """The face of a card of the generic edition, RGB, :data:`FACE_SIZE`."""
    w, h = FACE_SIZE[0] * _SS, FACE_SIZE[1] * _SS
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    colour = card_colour(card)
    s = _SS
    radius = 34 * s
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER)
    frame = GOLD if card.is_safety else colour
    d.rounded_rectangle((14 * s, 14 * s, w - 14 * s, h - 14 * s), radius=26 * s, outline=frame, width=9 * s)
    # top band: the card's identity in a strip that still shows in an overlapping column
    band_h = 205 * s
    d.rounded_rectangle((28 * s, 28 * s, w - 28 * s, 28 * s + band_h), radius=18 * s, fill=colour)
    if card.is_safety:
        d.rounded_rectangle((28 * s, 28 * s, w - 28 * s, 28 * s + band_h), radius=18 * s, outline=GOLD, width=8 * s)
    text = band_text(card)
    _fit_text(d, text, (50 * s, 44 * s, w - 50 * s, 14 * s + band_h), (255, 255, 255), 190 * s)
    # corner ticks: a small group mark in each band corner, so even a narrow strip shows the group
    _group_mark(d, card, (46 * s, 40 * s), 22 * s)
    _group_mark(d, card, (w - 46 * s, 40 * s), 22 * s)
    # pictogram in the middle
    mid = (60 * s, 270 * s, w - 60 * s, 690 * s)
    _PICTOGRAMS.get(card, _distance_picto)(d, mid, card)
    # title
    _fit_text(d, card.title.upper(), (50 * s, 700 * s, w - 50 * s, 770 * s), INK, 60 * s)
    # bottom band, upside down
    bottom = Image.new("RGB", (w - 56 * s, 110 * s), colour)
    bd = ImageDraw.Draw(bottom)
    _fit_text(bd, text, (20 * s, 8 * s, bottom.width - 20 * s, bottom.height - 8 * s), (255, 255, 255), 96 * s)
    bottom = bottom.rotate(180)
    mask = Image.new("L", bottom.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, bottom.width - 1, bottom.height - 1), radius=16 * s, fill=255)
    img.paste(bottom, (28 * s, h - 28 * s - bottom.height), mask)
    return _finish(img)


def render_back() -> Image.Image:
    """The back of every card of the generic edition: a milestone on a striped field."""
    w, h = FACE_SIZE[0] * _SS, FACE_SIZE[1] * _SS
    s = _SS
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=34 * s, fill=(20, 60, 120))
    for k in range(-h, w + h, 60 * s):
        d.line([(k, 0), (k + h, h)], fill=(28, 74, 142), width=18 * s)
    d.rounded_rectangle((24 * s, 24 * s, w - 24 * s, h - 24 * s), radius=24 * s, outline=GOLD, width=10 * s)
    cx, cy = w // 2, h // 2
    mw, mh = 300 * s, 400 * s
    d.rectangle((cx - mw // 2, cy - mh // 2 + mw // 2, cx + mw // 2, cy + mh // 2), fill=PAPER)
    d.pieslice((cx - mw // 2, cy - mh // 2, cx + mw // 2, cy - mh // 2 + mw), 180, 360, fill=(198, 40, 40))
    d.rectangle((cx - mw // 2, cy - mh // 2 + mw // 2 - 2, cx + mw // 2, cy - mh // 2 + mw // 2 + 40 * s), fill=(198, 40, 40))
    _fit_text(d, "BORNE", (cx - mw // 2 + 20 * s, cy + 10 * s, cx + mw // 2 - 20 * s, cy + 120 * s), INK, 90 * s)
    d.rectangle((cx - mw // 2 - 30 * s, cy + mh // 2, cx + mw // 2 + 30 * s, cy + mh // 2 + 30 * s), fill=(110, 110, 110))
    return _finish(img)


def _finish(img: Image.Image) -> Image.Image:
    """Reduce to the face size; the rounded corners are left white (the paper around a card)."""
    return img.resize(FACE_SIZE, Image.Resampling.LANCZOS)


def _group_mark(d: ImageDraw.ImageDraw, card: Card, centre: tuple[int, int], r: int) -> None:
    x, y = centre
    if card.is_distance:
        d.ellipse((x - r // 2, y - r // 2, x + r // 2, y + r // 2), fill=(255, 255, 255))
    elif card.group is Group.HAZARD:
        d.polygon([(x, y - r // 2), (x + r // 2, y + r // 2), (x - r // 2, y + r // 2)], fill=(255, 255, 255))
    elif card.group is Group.REMEDY:
        d.rectangle((x - r // 6, y - r // 2, x + r // 6, y + r // 2), fill=(255, 255, 255))
        d.rectangle((x - r // 2, y - r // 6, x + r // 2, y + r // 6), fill=(255, 255, 255))
    else:
        _star(d, (x, y), r // 2 + 2, GOLD)


# -- pictograms ----------------------------------------------------------------------

Box = tuple[int, int, int, int]


def _centre(box: Box) -> tuple[int, int, int]:
    x0, y0, x1, y1 = box
    return (x0 + x1) // 2, (y0 + y1) // 2, min(x1 - x0, y1 - y0) // 2


def _star(d: ImageDraw.ImageDraw, c: tuple[int, int], r: int, fill: RGB) -> None:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
    d.polygon(pts, fill=fill)


def _cross_out(d: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    cx, cy, r = _centre(box)
    r = int(r * 0.92)
    d.line([(cx - r, cy + r), (cx + r, cy - r)], fill=colour, width=r // 6)


def _distance_picto(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    x0, y0, x1, y1 = box
    cx = (x0 + x1) // 2
    colour = card_colour(card)
    d.polygon([(cx - 40, y0), (cx + 40, y0), (x1, y1 - 60), (x0, y1 - 60)], fill=(90, 90, 96))
    n = 6
    for k in range(n):
        t0, t1 = k / n, (k + 0.5) / n
        ya, yb = y0 + t0 * (y1 - 60 - y0), y0 + t1 * (y1 - 60 - y0)
        wa, wb = 6 + 20 * t0, 6 + 20 * t1
        d.polygon([(cx - wa, ya), (cx + wa, ya), (cx + wb, yb), (cx - wb, yb)], fill=(255, 255, 255))
    # a milestone at the roadside with the value
    mx, my = x1 - 150, y0 + 140
    d.rectangle((mx - 80, my, mx + 80, my + 200), fill=PAPER, outline=INK, width=8)
    d.pieslice((mx - 80, my - 80, mx + 80, my + 80), 180, 360, fill=colour, outline=INK, width=8)
    _fit_text(d, str(card.km), (mx - 70, my + 20, mx + 70, my + 150), INK, 140)


def _limit_sign(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=(198, 40, 40), width=r // 5)
    _fit_text(d, "50", (cx - r // 2, cy - r // 3, cx + r // 2, cy + r // 3), INK, 300)
    if card is Card.END_OF_LIMIT:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=INK, width=r // 12)
        _fit_text(d, "50", (cx - r // 2, cy - r // 3, cx + r // 2, cy + r // 3), (150, 150, 150), 300)
        for off in (-r // 5, 0, r // 5):
            d.line([(cx - r * 0.6 + off, cy + r * 0.6 + off), (cx + r * 0.6 + off, cy - r * 0.6 + off)], fill=INK, width=r // 16)


def _pump(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    colour = card_colour(card)
    d.rounded_rectangle((cx - r * 0.55, cy - r * 0.8, cx + r * 0.25, cy + r * 0.9), radius=r // 8, fill=colour)
    d.rectangle((cx - r * 0.42, cy - r * 0.62, cx + r * 0.12, cy - r * 0.2), fill=(255, 255, 255))
    d.line([(cx + r * 0.25, cy - r * 0.4), (cx + r * 0.65, cy - r * 0.2), (cx + r * 0.65, cy + r * 0.5)], fill=INK, width=r // 10)
    d.rectangle((cx - r * 0.7, cy + r * 0.85, cx + r * 0.4, cy + r), fill=INK)
    if card is Card.OUT_OF_GAS:
        _cross_out(d, box, INK)


def _tire(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    r = int(r * 0.85)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    d.ellipse((cx - r // 2, cy - r // 2, cx + r // 2, cy + r // 2), fill=(200, 200, 205))
    for k in range(12):
        a = k * math.pi / 6
        d.line([(cx + r * 0.75 * math.cos(a), cy + r * 0.75 * math.sin(a)), (cx + r * math.cos(a), cy + r * math.sin(a))], fill=(90, 90, 90), width=r // 12)
    if card is Card.FLAT_TIRE:
        d.rectangle((cx - r - 10, cy + r * 0.55, cx + r + 10, cy + r + 10), fill=PAPER)
        d.line([(cx - r, cy + r * 0.55), (cx + r, cy + r * 0.55)], fill=INK, width=r // 6)
        _star(d, (cx + r // 2, cy - r // 2), r // 3, (255, 200, 0))
    elif card is Card.SPARE_TIRE:
        d.rectangle((cx - r // 10, cy - r // 3, cx + r // 10, cy + r // 3), fill=(46, 125, 50))
        d.rectangle((cx - r // 3, cy - r // 10, cx + r // 3, cy + r // 10), fill=(46, 125, 50))
    elif card is Card.PUNCTURE_PROOF:
        sh = [(cx, cy - r * 0.45), (cx + r * 0.4, cy - r * 0.3), (cx + r * 0.3, cy + r * 0.25), (cx, cy + r * 0.5), (cx - r * 0.3, cy + r * 0.25), (cx - r * 0.4, cy - r * 0.3)]
        d.polygon(sh, fill=GOLD)


def _crash(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    _star(d, (cx, cy), int(r * 0.9), (255, 200, 0))
    for sign, col in ((-1, (40, 90, 200)), (1, (60, 60, 60))):
        car = Image.new("L", (int(r * 0.9), int(r * 0.45)), 0)
        cd = ImageDraw.Draw(car)
        cd.rounded_rectangle((0, car.height * 0.3, car.width - 1, car.height - 1), radius=car.height // 5, fill=255)
        cd.rounded_rectangle((car.width * 0.2, 0, car.width * 0.75, car.height * 0.6), radius=car.height // 6, fill=255)
        car = car.rotate(sign * 25, expand=True)
        ox = int(cx + sign * r * 0.45 - car.width / 2)
        oy = int(cy - car.height / 2)
        d.bitmap((ox, oy), car, fill=col)


def _light(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.rounded_rectangle((cx - r * 0.4, cy - r, cx + r * 0.4, cy + r), radius=r // 4, fill=INK)
    for k, col in enumerate(((200, 40, 40), (230, 180, 0), (40, 200, 70))):
        lit = (k == 0 and card is Card.STOP) or (k == 2 and card is Card.ROLL)
        c = col if lit else tuple(v // 4 for v in col)
        y = cy - r * 0.62 + k * r * 0.62
        d.ellipse((cx - r * 0.27, y - r * 0.27, cx + r * 0.27, y + r * 0.27), fill=c)


def _wrench(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.line([(cx - r * 0.6, cy + r * 0.6), (cx + r * 0.4, cy - r * 0.4)], fill=INK, width=r // 5)
    d.ellipse((cx + r * 0.2, cy - r * 0.8, cx + r * 0.8, cy - r * 0.2), fill=INK)
    d.ellipse((cx + r * 0.4, cy - r * 0.6, cx + r * 0.6, cy - r * 0.4), fill=PAPER)
    d.polygon([(cx + r * 0.5, cy - r * 0.5), (cx + r * 0.9, cy - r * 0.9), (cx + r * 0.95, cy - r * 0.5)], fill=PAPER)


def _priority(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=(255, 255, 255), outline=INK)
    r2 = int(r * 0.68)
    d.polygon([(cx, cy - r2), (cx + r2, cy), (cx, cy + r2), (cx - r2, cy)], fill=GOLD)


def _tank(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.rounded_rectangle((cx - r * 0.7, cy - r * 0.55, cx + r * 0.7, cy + r * 0.75), radius=r // 5, fill=GOLD, outline=INK, width=r // 20)
    d.rectangle((cx - r * 0.2, cy - r * 0.8, cx + r * 0.2, cy - r * 0.55), fill=INK)
    d.rectangle((cx - r // 12, cy - r // 3, cx + r // 12, cy + r // 2), fill=(21, 80, 170))
    d.rectangle((cx - r * 0.4, cy + r // 12 - r // 12, cx + r * 0.4, cy + r // 6), fill=(21, 80, 170))


def _ace(d: ImageDraw.ImageDraw, box: Box, card: Card) -> None:
    cx, cy, r = _centre(box)
    d.ellipse((cx - r * 0.9, cy - r * 0.9, cx + r * 0.9, cy + r * 0.9), outline=INK, width=r // 8)
    d.ellipse((cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2), fill=INK)
    for a in (math.pi / 2, math.pi * 7 / 6, -math.pi / 6):
        d.line([(cx, cy), (cx + r * 0.85 * math.cos(a), cy + r * 0.85 * math.sin(a))], fill=INK, width=r // 9)
    _star(d, (cx, cy - int(r * 0.45)), r // 4, GOLD)


_PICTOGRAMS: dict[Card, Callable[[ImageDraw.ImageDraw, Box, Card], None]] = {
    Card.STOP: _light,
    Card.ROLL: _light,
    Card.SPEED_LIMIT: _limit_sign,
    Card.END_OF_LIMIT: _limit_sign,
    Card.OUT_OF_GAS: _pump,
    Card.GASOLINE: _pump,
    Card.FLAT_TIRE: _tire,
    Card.SPARE_TIRE: _tire,
    Card.PUNCTURE_PROOF: _tire,
    Card.ACCIDENT: _crash,
    Card.REPAIRS: _wrench,
    Card.RIGHT_OF_WAY: _priority,
    Card.EXTRA_TANK: _tank,
    Card.DRIVING_ACE: _ace,
}
