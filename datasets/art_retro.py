"""A second deck design, "retro", drawn in another style than the generic edition.

It stands in for a user's own deck when measuring enrolment: the recognisers we ship never saw
it. Cream cards with a coloured double border per group (every distance card the same green),
the value or a short code in large numerals in the corners instead of a colour band, the title
under it, and a large emblem in the middle.

>>> render_retro_face(Card.STOP).size
(600, 932)
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from datasets.art import FACE_SIZE, SHORT_CODES
from scoring.cards import Card, Group

_SS = 2
CREAM = (244, 236, 214)
INK = (40, 34, 30)
BORDER = {
    Group.DISTANCE: (34, 110, 60),
    Group.HAZARD: (222, 110, 24),
    Group.REMEDY: (36, 92, 196),
    Group.SAFETY: (118, 44, 156),
}
EMBLEM_SIDES = {Group.HAZARD: 3, Group.REMEDY: 0, Group.SAFETY: 6, Group.DISTANCE: 4}
"""The emblem's outline per group: a triangle, a disc, a hexagon, a diamond."""


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]) -> None:
    font = _font(size)
    left, top, right, bottom = d.textbbox((0, 0), text, font=font)
    d.text((xy[0] - (right - left) / 2 - left, xy[1] - (bottom - top) / 2 - top), text, font=font, fill=fill)


def _index(card: Card) -> str:
    return str(card.km) if card.is_distance else SHORT_CODES[card][:4]


def render_retro_face(card: Card) -> Image.Image:
    """The face of a card of the retro design, RGB, :data:`FACE_SIZE`."""
    s = _SS
    w, h = FACE_SIZE[0] * s, FACE_SIZE[1] * s
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    colour = BORDER[card.group]
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=30 * s, fill=CREAM)
    d.rounded_rectangle((16 * s, 16 * s, w - 16 * s, h - 16 * s), radius=22 * s, outline=colour, width=6 * s)
    d.rounded_rectangle((30 * s, 30 * s, w - 30 * s, h - 30 * s), radius=16 * s, outline=colour, width=2 * s)
    # Corner index in large numerals, as printed decks do so that a column's strips can be read:
    # top left, and turned at the bottom right.
    corner = Image.new("RGB", (300 * s, 170 * s), CREAM)
    cd = ImageDraw.Draw(corner)
    _text(cd, (150 * s, 80 * s), _index(card), 130 * s if card.is_distance else 70 * s, colour)
    img.paste(corner, (40 * s, 40 * s))
    img.paste(corner.rotate(180), (w - 40 * s - corner.width, h - 40 * s - corner.height))
    # The title across the top, beside the index.
    _text(d, (w - 130 * s, 125 * s), card.title.upper() if card.is_distance else "", 34 * s, INK)
    _text(d, (w / 2, 245 * s), "" if card.is_distance else card.title.upper(), 40 * s, INK)
    # The emblem: the group's outline with the card's code inside.
    cx, cy, r = w / 2, h / 2 + 20 * s, 190 * s
    sides = EMBLEM_SIDES[card.group]
    if sides == 0:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    else:
        d.regular_polygon((cx, cy, r), sides, rotation=0 if sides != 4 else 45, fill=colour)
    inner = _index(card) if card.is_distance else SHORT_CODES[card]
    _text(d, (cx, cy + (40 * s if sides == 3 else 0)), inner, (120 if card.is_distance else 56) * s, CREAM)
    if card.is_distance:
        _text(d, (cx, cy + r + 60 * s), "KM", 60 * s, INK)
    return img.resize(FACE_SIZE, Image.Resampling.LANCZOS)
