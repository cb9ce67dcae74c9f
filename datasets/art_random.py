"""Procedurally drawn deck editions: the many styles the face reader learns from.

Real editions differ in everything the generic edition relies on: distance cards may all share one
colour, the value may be printed big mid-card, only small in the corners, or in a top band; the
illustrations may be drawings, photographs or nothing; titles come in several languages or not at all.
:func:`random_edition` draws one such edition from a seed, in one consistent style for its 19 faces, so
that the reader learns to tell faces apart *within* an edition whatever the edition looks like.

Drawn with OpenCV's built-in Hershey typefaces (eight of them, upright and italic) and shapes only:
nothing is downloaded and the same seed gives the same faces on every machine.

>>> faces = random_edition(3)
>>> sorted(faces)[:2], faces["distance_25"].shape
(['accident', 'back'], (311, 200, 3))
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card, Group

FACE_PX: tuple[int, int] = (200, 311)
"""Width and height of a procedural face: 56 × 87 mm at about 90 dpi, more than a table camera sees."""

TYPEFACES: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
)

TITLES: dict[str, dict[Card, str]] = {
    "en": {Card.STOP: "STOP", Card.SPEED_LIMIT: "SPEED LIMIT", Card.OUT_OF_GAS: "OUT OF GAS",
           Card.FLAT_TIRE: "FLAT TIRE", Card.ACCIDENT: "ACCIDENT", Card.ROLL: "ROLL", Card.END_OF_LIMIT: "END OF LIMIT",
           Card.GASOLINE: "GASOLINE", Card.SPARE_TIRE: "SPARE TIRE", Card.REPAIRS: "REPAIRS",
           Card.RIGHT_OF_WAY: "RIGHT OF WAY", Card.EXTRA_TANK: "EXTRA TANK", Card.PUNCTURE_PROOF: "PUNCTURE PROOF",
           Card.DRIVING_ACE: "DRIVING ACE"},
    "fr": {Card.STOP: "FEU ROUGE", Card.SPEED_LIMIT: "LIMITE DE VITESSE", Card.OUT_OF_GAS: "PANNE D'ESSENCE",
           Card.FLAT_TIRE: "CREVAISON", Card.ACCIDENT: "ACCIDENT", Card.ROLL: "FEU VERT",
           Card.END_OF_LIMIT: "FIN DE LIMITE", Card.GASOLINE: "ESSENCE", Card.SPARE_TIRE: "ROUE DE SECOURS",
           Card.REPAIRS: "REPARATIONS", Card.RIGHT_OF_WAY: "VEHICULE PRIORITAIRE", Card.EXTRA_TANK: "CITERNE",
           Card.PUNCTURE_PROOF: "INCREVABLE", Card.DRIVING_ACE: "AS DU VOLANT"},
    "es": {Card.STOP: "ALTO", Card.SPEED_LIMIT: "LIMITE", Card.OUT_OF_GAS: "SIN GASOLINA",
           Card.FLAT_TIRE: "PINCHAZO", Card.ACCIDENT: "ACCIDENTE", Card.ROLL: "SIGA", Card.END_OF_LIMIT: "FIN LIMITE",
           Card.GASOLINE: "GASOLINA", Card.SPARE_TIRE: "RUEDA", Card.REPAIRS: "REPARACION",
           Card.RIGHT_OF_WAY: "PRIORIDAD", Card.EXTRA_TANK: "CISTERNA", Card.PUNCTURE_PROOF: "ANTIPINCHAZOS",
           Card.DRIVING_ACE: "AS DEL VOLANTE"},
    "it": {Card.STOP: "ALT", Card.SPEED_LIMIT: "LIMITE", Card.OUT_OF_GAS: "SENZA BENZINA",
           Card.FLAT_TIRE: "FORATURA", Card.ACCIDENT: "INCIDENTE", Card.ROLL: "VIA", Card.END_OF_LIMIT: "FINE LIMITE",
           Card.GASOLINE: "BENZINA", Card.SPARE_TIRE: "RUOTA", Card.REPAIRS: "RIPARAZIONE",
           Card.RIGHT_OF_WAY: "PRECEDENZA", Card.EXTRA_TANK: "CISTERNA", Card.PUNCTURE_PROOF: "ANTIFORATURA",
           Card.DRIVING_ACE: "ASSO DEL VOLANTE"},
    "pt": {Card.STOP: "PARE", Card.SPEED_LIMIT: "LIMITE", Card.OUT_OF_GAS: "SEM GASOLINA",
           Card.FLAT_TIRE: "PNEU FURADO", Card.ACCIDENT: "ACIDENTE", Card.ROLL: "SIGA", Card.END_OF_LIMIT: "FIM LIMITE",
           Card.GASOLINE: "GASOLINA", Card.SPARE_TIRE: "ESTEPE", Card.REPAIRS: "CONSERTO",
           Card.RIGHT_OF_WAY: "PRIORIDADE", Card.EXTRA_TANK: "TANQUE EXTRA", Card.PUNCTURE_PROOF: "PNEU REFORCADO",
           Card.DRIVING_ACE: "AS DO VOLANTE"},
}
"""Card titles in the table's languages, without accents (the Hershey typefaces are ASCII only)."""

VALUE_PLACES = ("centre", "corners", "band", "top_left", "centre_and_corners", "mid_only_small", "side")
"""Where an edition prints a distance card's value: big mid-card, only small in the corners, in a top
band, big at the top left, mid-card and in the corners, small mid-card only, or along the left edge."""

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    """One edition's drawing choices, shared by all its faces."""

    paper: RGB
    ink: RGB
    dark: bool
    group_colours: dict[Group, RGB]
    distance_colours: dict[Card, RGB]
    typeface: int
    italic: bool
    outlined: bool
    value_place: str
    value_scale: float
    border: str
    band: bool
    language: str | None
    illustration: str
    code_on_hazards: bool
    km_suffix: bool
    full_bleed: bool = False
    """The picture fills the whole face, edge to edge, with no paper rim (see :func:`full_bleed_edition`)."""


def _colour(rng: np.random.Generator, *, light: bool | None = None) -> RGB:
    hsv = np.array([[[rng.integers(0, 180), rng.integers(60, 256),
                      rng.integers(200, 256) if light else rng.integers(40, 200) if light is False else rng.integers(40, 256)]]],
                   np.uint8)
    r, g, b = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0]
    return int(r), int(g), int(b)


def random_style(rng: np.random.Generator) -> Style:
    dark = bool(rng.random() < 0.2)
    paper: RGB = _colour(rng, light=False) if dark and rng.random() < 0.5 else (
        (int(rng.integers(10, 60)),) * 3 if dark else tuple(int(v) for v in rng.integers(215, 256, 3)))  # type: ignore[assignment]
    ink: RGB = (240, 240, 235) if dark else tuple(int(v) for v in rng.integers(0, 60, 3))  # type: ignore[assignment]
    groups = {g: _colour(rng, light=None) for g in Group}
    if rng.random() < 0.35:  # every distance card one colour, as many printed decks have it
        one = groups[Group.DISTANCE]
        distance = {c: one for c in Card if c.is_distance}
    else:
        distance = {c: _colour(rng) for c in Card if c.is_distance}
    return Style(
        paper=paper, ink=ink, dark=dark, group_colours=groups, distance_colours=distance,
        typeface=int(rng.choice(TYPEFACES)), italic=bool(rng.random() < 0.25), outlined=bool(rng.random() < 0.25),
        value_place=str(rng.choice(VALUE_PLACES)), value_scale=float(rng.uniform(0.7, 1.3)),
        border=str(rng.choice(["none", "line", "frame", "double", "group"])),
        band=bool(rng.random() < 0.45),
        language=None if rng.random() < 0.2 else str(rng.choice(list(TITLES))),
        illustration=str(rng.choice(["shapes", "photo", "plain", "lines", "emblem"])),
        code_on_hazards=bool(rng.random() < 0.5),
        km_suffix=bool(rng.random() < 0.4),
    )


def _text(img: NDArray[np.uint8], text: str, centre: tuple[float, float], height: float, colour: RGB,
          style: Style, *, max_width: float | None = None, outline: RGB | None = None, angle: int = 0) -> None:
    """``text`` centred at ``centre``, its capitals ``height`` pixels tall (shrunk to ``max_width``)."""
    face = style.typeface | (cv2.FONT_ITALIC if style.italic else 0)
    (w1, h1), _ = cv2.getTextSize(text, face, 1.0, 1)
    scale = height / max(h1, 1)
    if max_width is not None and w1 * scale > max_width:
        scale = max_width / w1
    thick = max(1, round(scale * 1.6))
    (w, h), base = cv2.getTextSize(text, face, scale, thick)
    pad = thick * 3 + 4
    canvas = np.zeros((h + base + 2 * pad, w + 2 * pad, 3), np.uint8)
    mask = np.zeros(canvas.shape[:2], np.uint8)
    org = (pad, pad + h)
    if outline is not None:
        cv2.putText(mask, text, org, face, scale, 255, thick + 4, cv2.LINE_AA)
        canvas[:] = outline
        inner = np.zeros_like(mask)
        cv2.putText(inner, text, org, face, scale, 255, thick, cv2.LINE_AA)
        canvas[inner > 0] = colour
        canvas = (canvas * (inner[..., None] / 255.0) + np.array(outline) * (1 - inner[..., None] / 255.0)).astype(np.uint8)
    else:
        cv2.putText(mask, text, org, face, scale, 255, thick, cv2.LINE_AA)
        canvas[:] = colour
    if angle:
        canvas, mask = np.rot90(canvas, angle).copy(), np.rot90(mask, angle).copy()
    ch, cw = mask.shape
    x0, y0 = round(centre[0] - cw / 2), round(centre[1] - ch / 2)
    H, W = img.shape[:2]
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(W, x0 + cw), min(H, y0 + ch)
    if xe <= xs or ye <= ys:
        return
    a = mask[ys - y0 : ye - y0, xs - x0 : xe - x0, None].astype(np.float32) / 255.0
    region = img[ys:ye, xs:xe].astype(np.float32)
    img[ys:ye, xs:xe] = (region * (1 - a) + canvas[ys - y0 : ye - y0, xs - x0 : xe - x0] * a).astype(np.uint8)


def _illustrate(img: NDArray[np.uint8], rng: np.random.Generator, box: tuple[int, int, int, int], colour: RGB,
                style: Style) -> None:
    """A card's picture in ``box`` (x0, y0, x1, y1), drawn from the card's own random stream."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    kind = style.illustration
    if kind == "plain":
        return
    if kind == "photo":
        noise = rng.random((4, 3, 3)).astype(np.float32)
        big = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
        fine = cv2.resize(rng.random((h // 6 + 1, w // 6 + 1, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        base = np.array(colour, np.float32) / 255.0
        photo = np.clip(0.55 * big + 0.25 * fine + 0.4 * base - 0.1, 0, 1) * 255
        img[y0:y1, x0:x1] = photo.astype(np.uint8)
        for _ in range(int(rng.integers(1, 4))):  # a few soft objects in the photograph
            c = (int(x0 + rng.uniform(0.2, 0.8) * w), int(y0 + rng.uniform(0.2, 0.8) * h))
            cv2.ellipse(img, c, (int(rng.uniform(0.1, 0.35) * w), int(rng.uniform(0.1, 0.35) * h)),
                        float(rng.uniform(0, 180)), 0, 360, _colour(rng), -1, cv2.LINE_AA)
        img[y0:y1, x0:x1] = cv2.GaussianBlur(img[y0:y1, x0:x1], (0, 0), 1.5)
        return
    if kind == "emblem":
        c = (x0 + w // 2, y0 + h // 2)
        r = int(min(w, h) * rng.uniform(0.3, 0.45))
        sides = int(rng.integers(0, 9))
        if sides < 3:
            cv2.circle(img, c, r, colour, -1, cv2.LINE_AA)
        else:
            a = np.linspace(0, 2 * np.pi, sides, endpoint=False) + rng.uniform(0, np.pi)
            pts = np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        inner = style.paper
        for _ in range(int(rng.integers(1, 4))):
            p = (int(c[0] + rng.uniform(-0.5, 0.5) * r), int(c[1] + rng.uniform(-0.5, 0.5) * r))
            cv2.circle(img, p, int(r * rng.uniform(0.1, 0.35)), inner, -1, cv2.LINE_AA)
        return
    n = int(rng.integers(3, 9))
    for _ in range(n):
        col = colour if rng.random() < 0.5 else _colour(rng)
        p = (int(x0 + rng.uniform(0.1, 0.9) * w), int(y0 + rng.uniform(0.1, 0.9) * h))
        q = (int(x0 + rng.uniform(0.1, 0.9) * w), int(y0 + rng.uniform(0.1, 0.9) * h))
        s = int(min(w, h) * rng.uniform(0.08, 0.3))
        if kind == "lines":
            cv2.line(img, p, q, style.ink if rng.random() < 0.6 else col, int(rng.integers(1, 4)), cv2.LINE_AA)
            if rng.random() < 0.4:
                cv2.circle(img, p, s, style.ink, int(rng.integers(1, 3)), cv2.LINE_AA)
        else:
            shape = int(rng.integers(4))
            if shape == 0:
                cv2.circle(img, p, s, col, -1, cv2.LINE_AA)
            elif shape == 1:
                cv2.rectangle(img, (p[0] - s, p[1] - s // 2), (p[0] + s, p[1] + s // 2), col, -1)
            elif shape == 2:
                cv2.line(img, p, q, col, int(rng.integers(3, 12)), cv2.LINE_AA)
            else:
                cv2.ellipse(img, p, (s, s // 2), float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)


def _code(card: Card) -> str:
    from datasets.art import SHORT_CODES

    return SHORT_CODES[card]


def draw_face(card: Card | None, style: Style, rng: np.random.Generator) -> NDArray[np.uint8]:
    """One face (``None``: the back) of an edition in ``style``, RGB :data:`FACE_PX`."""
    w, h = FACE_PX
    img = np.empty((h, w, 3), np.uint8)
    img[:] = style.paper
    if card is None:
        back = _colour(rng)
        if style.full_bleed:  # the back is a photograph to its edges too
            return photograph(rng, w, h, back)
        img[:] = back
        for _ in range(int(rng.integers(4, 12))):
            _illustrate(img, rng, (0, 0, w, h), _colour(rng), Style(**{**style.__dict__, "illustration": "shapes"}))
        cv2.rectangle(img, (8, 8), (w - 9, h - 9), style.paper, int(rng.integers(2, 8)))
        return img
    colour = style.distance_colours[card] if card.is_distance else style.group_colours[card.group]
    if style.full_bleed:
        return _full_bleed_face(card, style, colour, rng)
    m = 10
    if style.border == "line":
        cv2.rectangle(img, (m, m), (w - m, h - m), style.ink, 2, cv2.LINE_AA)
    elif style.border in ("frame", "group"):
        cv2.rectangle(img, (m, m), (w - m, h - m), colour if style.border == "group" else style.ink, 8)
    elif style.border == "double":
        cv2.rectangle(img, (m, m), (w - m, h - m), colour, 4)
        cv2.rectangle(img, (m + 8, m + 8), (w - m - 8, h - m - 8), colour, 1, cv2.LINE_AA)
    top = m + 6
    text_colour = style.ink
    if style.band:
        band_h = int(h * 0.22)
        cv2.rectangle(img, (m + 4, m + 4), (w - m - 4, m + 4 + band_h), colour, -1)
        text_colour = style.paper if not style.dark else (20, 20, 20)
    value = str(card.km) if card.is_distance else (_code(card) if style.code_on_hazards else "")
    title = TITLES[style.language][card] if style.language and not card.is_distance else (
        "KM" if card.is_distance and style.km_suffix else "")
    pic_box = (m + 14, int(h * 0.30), w - m - 14, int(h * 0.80))
    # A real edition tells its hazards, remedies and safeties apart by their pictures: a plain style keeps
    # only its distance cards bare.
    drawn = style if card.is_distance or style.illustration != "plain" else Style(**{**style.__dict__, "illustration": "emblem"})
    _illustrate(img, rng, pic_box, colour, drawn)
    outline = style.paper if style.outlined else None
    place = style.value_place if card.is_distance else ("band" if style.band else "centre")
    ink_on_paper = colour if not style.band else style.ink
    s = style.value_scale
    if place in ("centre", "centre_and_corners", "mid_only_small"):
        big = (0.16 if place != "mid_only_small" else 0.07) * h * s
        if card.is_distance or place != "mid_only_small":
            _text(img, value, (w / 2, h * 0.55), big if card.is_distance else big * 0.45, ink_on_paper, style,
                  max_width=w * 0.8, outline=outline)
    if place in ("corners", "centre_and_corners"):
        small = 0.055 * h * s
        _text(img, value, (m + 22, top + 14), small, ink_on_paper, style, max_width=w * 0.3, outline=outline)
        _text(img, value, (w - m - 22, h - top - 14), small, ink_on_paper, style, max_width=w * 0.3, outline=outline,
              angle=2)
    if place == "band":
        _text(img, value, (w / 2, m + 4 + h * 0.11), 0.1 * h * s, text_colour if style.band else colour, style,
              max_width=w * 0.75, outline=outline)
    if place == "top_left":
        _text(img, value, (w * 0.3, top + 0.07 * h), 0.1 * h * s, ink_on_paper, style, max_width=w * 0.45,
              outline=outline)
    if place == "side":
        _text(img, value, (m + 0.08 * h, h * 0.5), 0.08 * h * s, ink_on_paper, style, max_width=h * 0.5,
              outline=outline, angle=1)
    if title:
        y = h * 0.88 if rng.random() < 0.7 else h * 0.26
        _text(img, title, (w / 2, y), 0.045 * h, style.ink if not style.dark else (235, 235, 235), style,
              max_width=w * 0.8)
    return img


def photograph(rng: np.random.Generator, w: int, h: int, colour: RGB) -> NDArray[np.uint8]:
    """A soft picture like a photograph: a horizon between two tones, blurred shapes, grain and a vignette."""
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    horizon, soft = float(rng.uniform(0.25, 0.75)), float(rng.uniform(0.03, 0.3))
    upper = (0.5 * np.array(colour) + 0.5 * np.array(_colour(rng, light=True))) / 255.0
    lower = np.array(_colour(rng, light=False), np.float32) / 255.0
    t = np.clip((y - horizon) / soft + 0.5, 0, 1)
    img = np.broadcast_to(upper * (1 - t) + lower * t, (h, w, 3)).astype(np.float32).copy()
    for _ in range(int(rng.integers(2, 6))):  # things in the picture, out of focus
        blob = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0.2, 1.0) * h))
        cv2.ellipse(blob, c, (int(rng.uniform(0.1, 0.45) * w), int(rng.uniform(0.05, 0.3) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA)
        shape = cv2.GaussianBlur(blob, (0, 0), float(rng.uniform(1, 8)))[..., None]
        tone = np.array(colour if rng.random() < 0.4 else _colour(rng), np.float32) / 255.0
        img = img * (1 - shape) + tone * shape
    lum = cv2.resize(rng.random((5, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
    img *= (0.75 + 0.35 * lum + 0.06 * grain)[..., None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
    img *= (1 - float(rng.uniform(0, 0.5)) * edge)[..., None]
    return (np.clip(img, 0, 1) * 255).astype(np.uint8)


def _full_bleed_face(card: Card, style: Style, colour: RGB, rng: np.random.Generator) -> NDArray[np.uint8]:
    """A face that is one photograph edge to edge, its value or title printed over it, outlined to stay legible."""
    w, h = FACE_PX
    img = photograph(rng, w, h, colour)
    if style.band:  # a translucent strip behind the print, as many full-art decks have it
        y0, y1 = (int(h * 0.04), int(h * 0.24)) if rng.random() < 0.5 else (int(h * 0.76), int(h * 0.96))
        img[y0:y1] = (img[y0:y1] * 0.45 + np.array(colour) * 0.55).astype(np.uint8)
    value = str(card.km) if card.is_distance else (_code(card) if style.code_on_hazards else "")
    ink = (245, 245, 240) if rng.random() < 0.6 else style.ink
    halo = (15, 15, 15) if ink[0] > 128 else (240, 240, 235)
    place = style.value_place if card.is_distance else "centre"
    y = {"band": 0.14, "top_left": 0.12}.get(place, 0.5)
    x = 0.3 if place == "top_left" else 0.5
    big = (0.16 if place not in ("corners", "mid_only_small") else 0.08) * h * style.value_scale
    if value:
        _text(img, value, (w * x, h * y), big if card.is_distance else big * 0.45, ink, style, max_width=w * 0.8,
              outline=halo)
    if place in ("corners", "centre_and_corners") and card.is_distance:
        _text(img, value, (28, 26), 0.055 * h, ink, style, max_width=w * 0.3, outline=halo)
        _text(img, value, (w - 28, h - 26), 0.055 * h, ink, style, max_width=w * 0.3, outline=halo, angle=2)
    if style.language and not card.is_distance:
        _text(img, TITLES[style.language][card], (w / 2, h * 0.86), 0.05 * h, ink, style, max_width=w * 0.85,
              outline=halo)
    return img


BACK_WORDS = ("MILLE BORNES", "1000 BORNES", "MILLE", "BORNES", "1000", "ROAD RACE", "MB")
BACK_PATTERNS = ("lattice", "stripes", "tiles", "rings")


def printed_back(rng: np.random.Generator) -> NDArray[np.uint8]:
    """A deck's back as printers make them: a repeated pattern in two or three inks, often a rim and an emblem
    with the game's name in the middle; what the draw pile shows, face down.

    >>> back = printed_back(np.random.default_rng(1))
    >>> back.shape, int(back.std() > 10)
    ((311, 200, 3), 1)
    """
    w, h = FACE_PX
    ground, ink = _colour(rng, light=bool(rng.random() < 0.3)), _colour(rng)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = ground
    step = int(rng.integers(10, 34))
    pattern = str(rng.choice(BACK_PATTERNS))
    thick = int(rng.integers(1, max(2, step // 3)))
    if pattern == "lattice":
        for k in range(-h, w + h, step):
            cv2.line(img, (k, 0), (k + h, h), ink, thick, cv2.LINE_AA)
            cv2.line(img, (k, h), (k + h, 0), ink, thick, cv2.LINE_AA)
    elif pattern == "stripes":
        slope = float(rng.choice([0.0, 1.0, -1.0]))
        for k in range(-h, w + h, step):
            cv2.line(img, (k, 0), (int(k + slope * h), h), ink, thick, cv2.LINE_AA)
    elif pattern == "tiles":
        r = max(2, step // 3)
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (step // 2 if (y // step) % 2 else 0), w, step):
                cv2.circle(img, (x, y), r, ink, -1 if rng.random() < 0.7 else thick, cv2.LINE_AA)
    else:
        for r in range(step, int(np.hypot(w, h)), step):
            cv2.circle(img, (w // 2, h // 2), r, ink, thick, cv2.LINE_AA)
    if rng.random() < 0.7:  # a rim, white or an ink of its own
        rim = (245, 245, 240) if rng.random() < 0.5 else _colour(rng)
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), rim, int(rng.integers(6, 18)))
    if rng.random() < 0.75:  # an emblem with the game's name
        emblem, text = _colour(rng), (245, 245, 240) if rng.random() < 0.6 else (20, 20, 20)
        axes = (int(w * rng.uniform(0.3, 0.45)), int(h * rng.uniform(0.12, 0.3)))
        cv2.ellipse(img, (w // 2, h // 2), axes, 0, 0, 360, emblem, -1, cv2.LINE_AA)
        style = Style(paper=ground, ink=ink, dark=False, group_colours={}, distance_colours={},
                      typeface=int(rng.choice(TYPEFACES)), italic=bool(rng.random() < 0.3), outlined=False,
                      value_place="centre", value_scale=1.0, border="none", band=False, language=None,
                      illustration="plain", code_on_hazards=False, km_suffix=False)
        _text(img, str(rng.choice(BACK_WORDS)), (w / 2, h / 2), 0.06 * h, text, style, max_width=axes[0] * 1.7)
    return img


FULL_BLEED_SEEDS = 1_000_000
"""Seeds of :func:`full_bleed_edition` are drawn apart from :func:`random_edition`'s, so adding the family
changed none of the editions the reader and the detector were trained with."""


def full_bleed_edition(seed: int) -> dict[str, NDArray[np.uint8]]:
    """Procedural edition ``seed`` drawn full-bleed: every face and the back a photograph to the card's edge.

    Photographic full-art decks have no paper rim to tell a card from the table; the detector must learn
    them from their shape and shading alone.

    >>> faces = full_bleed_edition(3)
    >>> faces["distance_25"].shape, int(faces["distance_25"][0].std() > 5)
    ((311, 200, 3), 1)
    """
    return random_edition(FULL_BLEED_SEEDS + seed, full_bleed=True)


def random_edition(seed: int, *, full_bleed: bool = False) -> dict[str, NDArray[np.uint8]]:
    """The 19 faces and the back of procedural edition ``seed``, keyed by card id (and ``back``)."""
    rng = np.random.default_rng([seed, 1907])
    style = random_style(rng)
    if full_bleed:
        style = Style(**{**style.__dict__, "full_bleed": True, "dark": False})
    faces = {card.value: draw_face(card, style, np.random.default_rng([seed, 1907, i]))
             for i, card in enumerate(Card)}
    faces["back"] = draw_face(None, style, np.random.default_rng([seed, 1907, 99]))
    return faces
