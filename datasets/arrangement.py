"""Where each card lies on the table, in millimetres: the physical arrangement of a table state.

Each side's area sits in front of its player, one row from the player's left: the battle
pile, the speed pile, one overlapping column per distance value (each later card covers the
lower part of the one before, towards the player, so its top strip of 20–30 mm still shows),
then the safeties two by two (coups fourrés crosswise). Two sides face each other; three
or four sit round the centre that holds the draw and discard piles, in one of several
seatings (:data:`SEATINGS`), with a clear gap between any two sides' areas.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from datasets.table import TableState
from scoring.cards import DISTANCE_CARDS, Card

CARD_W, CARD_H = 56.0, 87.0
PILE_SHOWN = 4
"""Only the top cards of a battle, speed or discard pile are drawn (the rest are hidden anyway)."""

UPS: dict[str, tuple[float, float]] = {"South": (0.0, 1.0), "North": (0.0, -1.0), "East": (-1.0, 0.0), "West": (1.0, 0.0)}
"""Direction a side's normally laid cards point (bottom edge to top edge), towards the table centre."""


@dataclass(frozen=True)
class PlacedCard:
    """One card on the table."""

    card: Card | None
    """The card, or ``None`` for a face-down card (the draw pile)."""
    centre: tuple[float, float]
    angle: float
    """Radians; 0 when the card's top points along +y (North)."""
    side: str | None
    """The side whose area the card lies in; ``None`` for the draw and discard piles."""
    sideways: bool = False
    pile: str = ""
    """``distance``, ``battle``, ``speed``, ``safeties``, ``draw`` or ``discard``."""

    @property
    def face_up(self) -> bool:
        return self.card is not None

    def corners(self) -> np.ndarray:
        """The four corners in table mm, in face order: top-left, top-right, bottom-right, bottom-left."""
        return card_corners(self.centre, self.angle)

    def face_to_table(self, face_w: int, face_h: int) -> np.ndarray:
        """3×3 affine map from face pixels to table millimetres."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        right = np.array([c, s]) * CARD_W / face_w  # face +x (to the right of the printed face)
        down = np.array([s, -c]) * CARD_H / face_h  # face +y (down the printed face)
        tl = self.corners()[0]
        return np.array([[right[0], down[0], tl[0]], [right[1], down[1], tl[1]], [0, 0, 1.0]])


def card_corners(centre: tuple[float, float], angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    up, right = np.array([-s, c]), np.array([c, s])
    ctr = np.asarray(centre, float)
    hw, hh = CARD_W / 2, CARD_H / 2
    return np.array([ctr + up * hh - right * hw, ctr + up * hh + right * hw, ctr - up * hh + right * hw, ctr - up * hh - right * hw])


SEATINGS = ("pinwheel", "cross", "ring")
"""How three or four sides sit: ``pinwheel`` (each row shifted to the player's left, the rows
interlocking round a square), ``cross`` (each row centred on its edge of the table) and ``ring``
(sides evenly spaced round the centre: 120° apart for three)."""


@dataclass(frozen=True)
class SideArea:
    """A side's part of the table: a rectangle in table mm and the way its cards point."""

    side: str
    corners: np.ndarray
    up: tuple[float, float]

    def seat(self, reach: float = 380.0) -> np.ndarray:
        """Where the player's shoulder is (table mm): behind the area's middle, ``reach`` beyond it."""
        u = np.asarray(self.up)
        centre = self.corners.mean(axis=0)
        depth = float(np.linalg.norm(self.corners[2] - self.corners[1]))
        return centre - u * (depth / 2 + reach)


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """A lower bound of the distance between two convex polygons (negative: they overlap)."""
    best = -math.inf
    for poly in (a, b):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            n = np.array([-e[1], e[0]]) / (np.linalg.norm(e) + 1e-12)
            pa, pb = a @ n, b @ n
            best = max(best, pb.min() - pa.max(), pa.min() - pb.max())
    return best


@dataclass(frozen=True)
class Arrangement:
    cards: tuple[PlacedCard, ...]
    """Every card drawn, bottom first (later cards cover earlier ones)."""
    areas: tuple[SideArea, ...]

    def area(self, side: str | None) -> SideArea | None:
        """The area of a side (``None`` for a card of the centre piles)."""
        return next((a for a in self.areas if a.side == side), None)

    def extent(self, margin: float = 30.0, *, areas: bool = False) -> np.ndarray:
        """Points round every card (and every side's area): what must stay in frame."""
        pts = [c.corners() * (1 + margin / 40) - np.asarray(c.centre) * (margin / 40) for c in self.cards]
        if areas or not self.cards:
            pts += [a.corners for a in self.areas]
        return np.concatenate(pts)


def arrange(table: TableState, rng: np.random.Generator, *, stable_seed: int | None = None, longest: int | None = None) -> Arrangement:
    """Lay out a table state with random but plausible spacing, jitter and pile mess.

    With ``stable_seed`` every card's place depends only on that seed and the card's slot
    (side, pile, position in the pile), so successive states of one hand line up frame to
    frame; ``longest`` then fixes the depth of the side areas (the hand's longest column).
    """
    if stable_seed is not None:
        rng = np.random.default_rng(stable_seed)
    slot_rngs: dict[tuple[int, ...], np.random.Generator] = {}

    def slot(*key: int) -> np.random.Generator:
        if stable_seed is None:
            return rng
        return slot_rngs.setdefault(key, np.random.default_rng([stable_seed, *key]))

    gap = float(rng.uniform(5, 14))
    strip = float(rng.uniform(20, 30))
    pitch = CARD_W + gap
    safety_pitch = CARD_H + gap * 0.6
    width = 7 * pitch + 2 * safety_pitch
    if longest is None:
        longest = max([1] + [max(sum(1 for c in s.distance if c is d) for d in DISTANCE_CARDS) for s in table.sides])
    depth = max(CARD_H + (max(longest, 3) - 1) * strip, 2 * CARD_H + gap) + 10
    area_w, area_d = width + 16, depth + 8
    seats = _seats(table, rng, area_w, area_d)
    cards: list[PlacedCard] = []
    areas: list[SideArea] = []
    for si, st in enumerate(table.sides):
        u, shift, centre_half = seats[si]
        r = np.array([u[1], -u[0]])
        origin = -u * centre_half + r * shift
        base_angle = math.atan2(-u[0], u[1])
        wobble = float(rng.normal(0, 0.03))

        def at(a: float, b: float) -> tuple[float, float]:
            p = origin + r * a + u * b  # noqa: B023 - called within this iteration only
            return float(p[0]), float(p[1])

        def jitter(mm: float, rad: float, *key: int) -> tuple[float, float, float]:
            g = slot(si, *key)  # noqa: B023 - called within this iteration only
            return float(g.normal(0, mm)), float(g.normal(0, mm)), float(g.normal(0, rad))

        # one row from the player's left: battle pile, speed pile, a column per distance value,
        # then the safeties two by two; columns grow towards the player
        x0 = -width / 2 + CARD_W / 2
        far_b = -CARD_H / 2 - 5
        for k, (pile, stack) in enumerate((("battle", st.battle), ("speed", st.speed))):
            first = max(0, len(stack) - PILE_SHOWN)
            for j, card in enumerate(stack[first:], start=first):
                dx, dy, da = jitter(2.5, 0.05, k, j)
                cards.append(PlacedCard(card, at(x0 + k * pitch + dx, far_b + dy), base_angle + wobble + da, st.side, pile=pile))
        # a still photo: some players close up their columns (no gap for a value not yet played);
        # a sequence keeps a slot per value so cards stay put from frame to frame
        packed = stable_seed is None and rng.random() < 0.5
        slot_k = 0
        for k, dcard in enumerate(DISTANCE_CARDS):
            column = [c for c in st.distance if c is dcard]
            at_k = slot_k if packed else k
            slot_k += bool(column)
            for j, card in enumerate(column):
                dx, dy, da = jitter(1.2, 0.025, 2 + k, j)
                pos = at(x0 + (2 + at_k) * pitch + dx, far_b - j * strip + dy)
                cards.append(PlacedCard(card, pos, base_angle + wobble + da, st.side, pile="distance"))
        sx = x0 + 7 * pitch - CARD_W / 2 + safety_pitch / 2
        for k, (card, cf) in enumerate(st.safeties):
            dx, dy, da = jitter(1.5, 0.03, 7, k)
            angle = base_angle + wobble + da + (math.pi / 2 if cf else 0)
            pos = at(sx + (k % 2) * safety_pitch + dx, far_b - (k // 2) * (CARD_H + gap) + dy)
            cards.append(PlacedCard(card, pos, angle, st.side, sideways=cf, pile="safeties"))
        rect = [(-width / 2 - 8, 8), (width / 2 + 8, 8), (width / 2 + 8, -depth), (-width / 2 - 8, -depth)]
        areas.append(SideArea(st.side, np.array([at(a, b) for a, b in rect]), (float(u[0]), float(u[1]))))
    # the centre: face-down draw pile and the discard pile
    turn = float(rng.uniform(0, 2 * math.pi))
    draw_base = (float(rng.normal(-40, 10)), float(rng.normal(0, 10)))
    discard_base = (float(rng.normal(45, 10)), float(rng.normal(0, 10)))
    if table.draw_pile > 0:
        base = draw_base
        for k in range(min(3, max(1, table.draw_pile // 20 + 1))):
            g = slot(9, k)
            pos = (base[0] + float(g.normal(0, 1)), base[1] + float(g.normal(0, 1)))
            cards.append(PlacedCard(None, pos, turn + float(g.normal(0, 0.04)), None, pile="draw"))
    base = discard_base
    first = max(0, len(table.discard) - PILE_SHOWN)
    for j, card in enumerate(table.discard[first:], start=first):
        g = slot(10, j)
        pos = (base[0] + float(g.normal(0, 4)), base[1] + float(g.normal(0, 4)))
        cards.append(PlacedCard(card, pos, turn + float(g.normal(0, 0.25)), None, pile="discard"))
    return Arrangement(tuple(cards), tuple(areas))


def _seats(table: TableState, rng: np.random.Generator, area_w: float, area_d: float) -> list[tuple[np.ndarray, float, float]]:
    """Per side: the direction its cards point (towards the centre), the sideways shift of its
    row and its distance from the centre; no two areas closer than a random gap of 2–8 cm."""
    n = len(table.sides)
    if n == 2:
        half = float(rng.uniform(55, 95))
        return [(np.array(UPS[st.side]), float(rng.normal(0, 30)), half) for st in table.sides]
    seating = SEATINGS[int(rng.integers(len(SEATINGS) if n == 3 else 2))]  # four evenly spaced sides is the cross
    gap = float(rng.uniform(20, 80))
    if seating == "ring":  # South first, then round the table 120° at a time
        ups = [np.array([-math.sin(2 * math.pi * k / n), math.cos(2 * math.pi * k / n)]) for k in range(n)]
    else:
        ups = [np.array(UPS[st.side]) for st in table.sides]
    shifts = [float(rng.normal(0, 15)) for _ in range(n)]

    def polys(half: float) -> list[np.ndarray]:
        out = []
        for u, shift in zip(ups, shifts):
            r = np.array([u[1], -u[0]])
            sh = shift + (area_w / 2 - half - area_d + 8 if seating == "pinwheel" else 0.0)
            o = -u * half + r * sh
            out.append(np.array([o + r * a + u * b for a, b in ((-area_w / 2, 8), (area_w / 2, 8), (area_w / 2, 8 - area_d), (-area_w / 2, 8 - area_d))]))
        return out

    half = 60.0
    while half < 2000:
        ps = polys(half)
        if all(_gap(ps[i], ps[j]) >= gap for i in range(n) for j in range(i + 1, n)):
            break
        half += 10.0
    half += float(rng.uniform(0, 40))
    pin = seating == "pinwheel"
    return [(u, shift + (area_w / 2 - half - area_d + 8 if pin else 0.0), half) for u, shift in zip(ups, shifts)]


def place_key(card: PlacedCard) -> int:
    """A number for a card's place on the table, the same on every frame it lies there (it seeds its looks)."""
    x, y = card.centre
    return zlib.crc32(f"{card.side}|{card.pile}|{x:.3f}|{y:.3f}|{card.angle:.5f}".encode())
