"""The sides found from the table itself, without a layout: each side's zone and ``up`` from its cards.

A player lays each card in front of them with its long side pointing at them, so every card says, up to
a sign, where its player sits: along its long axis, on the far side of the card from the middle of the
table (the draw pile when one is seen, else the middle of the cards). Those directions gather round one
direction per side — opposite for two sides, a third or a quarter of a turn apart for three or four —
whatever the camera's turn, and however long a side's row of cards runs past the pile. Each gathering of
at least :data:`MIN_SIDE_SHARE` of the cards is a side (at most four); its zone is the sector of the
picture between the bisectors of its direction and its neighbours' (moved into the empty angle between
two sides' cards where a row passes the bisector, as round a square table), starting a little nearer the
middle than the side's nearest card (nearer lie the draw and discard piles, nobody's); its ``up`` points
the other way, from its player to the middle. Cards beside the draw pile (the discard pile's) say nothing.
Only distance cards are asked where enough are read: they are always laid along their side, where a
battle pile, the safeties or a coup fourré may lie across it (where they place fewer than two sides, as a
hand starts, every card is asked). Sides are named by where they sit in the picture (``North`` at the top, then
``East``, ``South``, ``West``), as the default layout names them.

>>> from vision.read.sighting import Sighting
>>> def card(x, y, w=40, h=62):
...     return Sighting(np.array([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]]), True, None, 0.9)
>>> pile = Sighting(np.array([[620., 330], [660, 330], [660, 390], [620, 390]]), False, None, 0.9)
>>> seen = [pile] + [card(x, 160) for x in (500, 560, 620)] + [card(x, 560) for x in (600, 660, 720, 780)]
>>> layout = find_sides(seen, 1280, 720)
>>> [(s.side, s.up) for s in layout.sides]
[('North', (0.0, 1.0)), ('South', (0.0, -1.0))]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np
from numpy.typing import NDArray

from vision.geometry import long_axis
from vision.read.crops import CARD_ASPECT
from vision.read.sighting import Sighting
from vision.table.layout import SideZone, TableLayout
from vision.table.own_cards import card_length, cards_of_their_own, local_card_lengths

MAX_SIDES = 4
MIN_SIDE_SHARE = 0.12
"""A gathering of directions is a side when it holds at least this share of the face-up cards (and two
cards); lowering it lets a stray card found sideways make a side of its own."""
SPREAD_DEGREES = 30.0
"""Directions within this angle of a side's direction belong to it (a side lays its cards within a few
degrees of one way; the camera's tilt bends them by up to 20°)."""
REACH = 1.5
"""A side's zone reaches this many card lengths past its farthest card (cards laid later land further out)."""
IN_FRONT_DEGREES = 60.0
"""A card lies in front of a seat when, seen from the middle, it is within this angle of it (the draw pile is
seldom in the table's middle, so a side's row is seen well off its seat: development 2-D scenes, three-side
tables found right 19 → 22 of 23 and four-side 23 → 25 of 27 from 40°, two-side ones the same)."""
BESIDE = 1.0
"""A card this near (in card lengths) a card pointing at a side found is in that side's row: it says nothing
of a seat not found yet (the sides' areas lie a few centimetres apart)."""
MIN_DISTANCE_CARDS = 3
"""With at least this many distance cards read, only they say where the players sit."""
WHOLE_ASPECT = 0.5
"""A box at least this wide for its length is a whole card (56 / 87 = 0.64; a strip is flatter or wider)."""
WHOLE_LENGTH = 0.85
"""... and at least this share of a card's length in the picture (a strip's long side is the card's width)."""
PAST_WIDTH = 1.15
"""A box whose long side is this many times a card's width (in the picture) or more runs along the card."""
PILE_CLEARANCE = 1.15
"""Cards within this many card lengths of the draw pile do not say where anyone sits: most of the discard
pile lies as near (a side's cards lie further out but for one in a few dozen)."""
DISCARD_REACH = 1.45
"""Cards within this many card lengths of the draw pile may be the discard pile's (it lies up to 1.4 away on
the rendered tables): one counts for a side only in that side's row (:data:`ROW_STEP`)."""
ROW_MARGIN = 0.35
"""A side's zone starts this many card lengths nearer the middle than its nearest card (the discard pile lies
at least 0.7 card lengths nearer, measured along the side's direction on the rendered tables)."""
ROW_STEP = 0.4
"""A card beside the piles is in a side's row when it lies at most this many card lengths nearer the middle
than the side's other cards (the discard pile lies further in)."""
ROW_NEAR = 1.2
"""A card beside a side's row (its battle or speed pile, a safety) lies within this many card lengths of one of
the side's distance cards."""
COMPASS = {"North": -90.0, "East": 0.0, "South": 90.0, "West": 180.0}
"""Seat names by the direction from the middle of the picture (degrees, y down), clockwise from North."""


def find_sides(sightings: Sequence[Sighting], width: int, height: int) -> TableLayout:
    """The layout of the sides whose cards are on the table; no cards at all: the default two zones."""
    found = sides_placed(sightings, width, height)
    return found if found is not None else TableLayout.default(width, height)


def sides_placed(sightings: Sequence[Sighting], width: int, height: int) -> TableLayout | None:
    """The layout of the sides whose cards are on the table, or ``None`` where the cards place nobody."""
    own = cards_of_their_own(sightings)
    face_up = [s for s in own if s.face_up]
    face_down = [s for s in own if not s.face_up]
    # one draw pile: the surest face-down box (a second one is a coin, a phone, a card back boxed twice)
    piles = [max(face_down, key=lambda s: s.confidence).centre] if face_down else []
    if not face_up:
        return None
    length = card_length(face_up) or 0.0
    centres = np.array([s.centre for s in face_up])
    middle = np.median(np.array(piles), axis=0) if piles else _middle_of(centres)
    # the discard pile lies beside the draw pile, its cards turned any way: they say nobody's seat
    from_pile = np.array([min((float(np.linalg.norm(c - p)) for p in piles), default=np.inf) for c in centres]) / max(length, 1e-9)
    by_pile = from_pile < DISCARD_REACH
    # distance cards are never laid across (battle piles and safeties may be): where enough are read, they
    # say; a column's strip is boxed across its card, so its short side is the one along the card (a card's
    # length is taken among its neighbours: the camera's tilt makes near cards longer than far ones)
    lengths = local_card_lengths(face_up, length)
    along = [along_card(s.corners, n) for s, n in zip(face_up, lengths, strict=True)]
    pointing = np.array(_pointing(along, centres, middle))
    asked = from_pile >= PILE_CLEARANCE
    distance = np.array([(card := s.card) is not None and card.is_distance for s in face_up], dtype=bool)
    saying = distance.copy()
    if (saying & asked).sum() < MIN_DISTANCE_CARDS:
        saying[:] = True
    seats = _seat_directions(list(pointing[saying & asked]))
    if len(seats) < 2 and not saying.all():  # a side's first distance card, alone: all cards say
        saying[:] = True
        seats = _seat_directions(list(pointing[asked]))
    placed = np.degrees(np.arctan2(centres[:, 1] - middle[1], centres[:, 0] - middle[0]))
    seats = _completed(seats, pointing[asked], placed[asked], _beside_a_side(seats, centres, pointing, length)[asked],
                       distance[asked])
    if not seats:
        return None
    seats = sorted(seats)
    names = _names(seats)
    outs = [np.array([np.cos(np.radians(seat)), np.sin(np.radians(seat))]) for seat in seats]
    members = [_members(seat, (centres - middle) @ out, pointing, saying & ~by_pile, length) for seat, out in zip(seats, outs, strict=True)]
    bounds = _boundaries(seats, _with_their_rows(members, centres, by_pile, length), placed)
    zones = []
    for k, (seat, out) in enumerate(zip(seats, outs, strict=True)):
        start, end = (bounds[k - 1], bounds[k]) if len(seats) > 1 else (seat - 180.0, seat + 180.0)
        up = np.round(-out, 6) + 0.0  # no negative zeros in the JSON
        # out to a little past the side's farthest card: a box further out is no card of that side's
        mine = np.array([(d - start) % 360 <= (end - start) % 360 for d in placed], dtype=bool)
        outer = float(np.linalg.norm(centres[mine] - middle, axis=1).max()) + REACH * length if mine.any() else 4.0 * (width + height)
        polygon = _sector(middle, start, end, outer, width, height)
        # the side's cards start a little nearer the middle than its nearest card; nearer lie the piles (also
        # where the draw pile went unseen: the discard pile lies in the middle of the cards); a side whose cards
        # say nothing of its seat yet (a hazard laid on it, a safety across) has them still
        depth = (centres - middle) @ out
        own_row = members[k] if members[k].any() else mine & ~by_pile
        row = float(depth[own_row].min()) if own_row.any() else PILE_CLEARANCE * length
        polygon = _clip(polygon, out, -float(out @ middle) - (row - ROW_MARGIN * length))
        zones.append(SideZone(names[k], polygon, (float(up[0]), float(up[1]))))
    return TableLayout(sides=tuple(sorted(zones, key=lambda z: list(COMPASS).index(z.side))))


def _members(seat: float, depth: NDArray[np.float64], pointing: NDArray[np.float64], sure: NDArray[np.bool_],
             length: float) -> NDArray[np.bool_]:
    """The cards of the side seated at ``seat``: those pointing at it in its row, at most :data:`ROW_STEP` card
    lengths nearer the middle than the nearest of its ``sure`` cards (distance cards away from the piles): a
    card further in may be the discard pile's, or a neighbour's safety laid across."""
    pointed = np.array([_apart(d, seat) <= SPREAD_DEGREES for d in pointing], dtype=bool)
    if not (pointed & sure).any():
        return pointed & sure
    out: NDArray[np.bool_] = pointed & (depth >= depth[pointed & sure].min() - ROW_STEP * length)
    return out


def _with_their_rows(members: list[NDArray[np.bool_]], centres: NDArray[np.float64], by_pile: NDArray[np.bool_],
                     length: float) -> list[NDArray[np.bool_]]:
    """Each side's members with the cards beside them in their row (its battle and speed piles, its safeties):
    a card away from the piles within :data:`ROW_NEAR` card lengths of a member goes with the nearest member's
    side. Where the sides' zones part is then decided by whole rows (development 2-D scenes: three sides' cards
    in their zone 0.967 → 0.969, four sides' 0.961 → 0.963)."""
    out = [m.copy() for m in members]
    anyone = np.any(members, axis=0) if members else np.zeros(len(centres), bool)
    if not anyone.any():
        return out
    owner = np.argmax(np.array(members), axis=0)
    for i in np.flatnonzero(~anyone & ~by_pile):
        gaps = np.linalg.norm(centres[anyone] - centres[i], axis=1)
        j = int(gaps.argmin())
        if gaps[j] <= ROW_NEAR * length:
            out[int(owner[np.flatnonzero(anyone)[j]])][i] = True
    return out


def _boundaries(seats: list[float], members: list[NDArray[np.bool_]], placed: NDArray[np.float64]) -> list[float]:
    """The direction (from the middle) between each seat and the next clockwise: the bisector, unless the
    cards of one side pass it (a row shifted to its player's left round a square table), then the middle of
    the empty angle between the two sides' cards."""
    out = []
    for k, seat in enumerate(seats):
        after = seats[(k + 1) % len(seats)]
        span = (after - seat) % 360 or 360.0
        offset = (placed - seat) % 360
        between = offset < span
        mine, theirs = between & members[k], between & members[(k + 1) % len(seats)]
        last = float(offset[mine].max()) if mine.any() else 0.0
        first = float(offset[theirs].min()) if theirs.any() else span
        middle = span / 2 if last <= span / 2 <= first or last >= first else (last + first) / 2
        out.append((seat + middle) % 360)
    return out


def _whole(corners: NDArray[np.float64], card_length: float) -> bool:
    """Whether a box is a whole card (its proportions, and about a card's length) rather than a strip."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    short, long = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return bool(long > 0 and short / long >= WHOLE_ASPECT and long >= WHOLE_LENGTH * card_length)


def _middle_of(centres: NDArray[np.float64]) -> NDArray[np.float64]:
    """The middle of the table without a pile: the centre of the cards' spread."""
    out: NDArray[np.float64] = (centres.min(axis=0) + centres.max(axis=0)) / 2
    return out


def along_card(corners: NDArray[np.float64], length: float) -> NDArray[np.float64]:
    """The direction along the card a box shows: its long side for a whole card, its short side for a strip;
    but a box longer than a card is wide has its long side along the card (most of a card, its end covered)."""
    axis = long_axis(corners)
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    longer = max((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
    if _whole(corners, length) or longer > PAST_WIDTH * CARD_ASPECT * length:
        return axis
    return np.array([-axis[1], axis[0]])


def _seat_directions(pointing: list[float]) -> list[float]:
    """Where the players sit, seen from the middle (degrees, y down), from the cards' directions turned away
    from the middle: gathered, the densest direction first, its cards taken out, and again."""
    left = np.array(pointing)
    seats: list[float] = []
    least = max(2, int(np.ceil(MIN_SIDE_SHARE * len(pointing))))
    while len(left) >= least and len(seats) < MAX_SIDES:
        near = np.abs((left[:, None] - left[None, :] + 180) % 360 - 180) <= SPREAD_DEGREES
        k = int(near.sum(axis=1).argmax())
        members = left[near[k]]
        if len(members) < least:
            break
        offsets = (members - left[k] + 180) % 360 - 180
        seats.append(float((left[k] + offsets.mean()) % 360))
        left = left[~near[k]]
    return seats


def _completed(seats: list[float], pointing: NDArray[np.float64], placed: NDArray[np.float64],
               beside: NDArray[np.bool_], distance: NDArray[np.bool_]) -> list[float]:
    """The seats found, with those of sides that have laid a card or two: where two seats found sit a quarter
    or a third of a turn apart (or one seat is found alone: the seat facing it), a side seated where that
    pattern puts one is there when any card lies in front of that seat, pointing at it, and not ``beside`` a
    side found (a hazard laid across at the end of a row points at the next seat round a square table). Two
    seats face to face are half a square table only where a ``distance`` card and another point at the seat
    between them (safeties and hazards are laid across, distance cards never)."""
    if not seats:
        return seats
    out = list(seats)
    for step in (90.0, 120.0, 180.0):
        # a table whose seats found show the pattern (two seats a quarter or a third apart); two seats face to
        # face, half a square table only on a distance card's word; one seat alone, facing another that has
        # laid its first card
        pattern = any(abs(_apart(a, b) - step) <= 20 for a in seats for b in seats)
        facing = step == 90.0 and len(seats) == 2 and _apart(seats[0], seats[1]) >= 160 and not pattern
        if (step == 180.0 and len(seats) != 1) or (step != 180.0 and not pattern and not facing):
            continue
        for seat in list(out):
            for k in range(1, int(360 / step)):
                candidate = (seat + k * step) % 360
                if len(out) >= MAX_SIDES or min(_apart(candidate, o) for o in out) < 60:
                    continue
                # in front of the seat; facing a lone seat, anywhere on the far side of the middle from it (a
                # side's row runs long, so where its first card lands says little more)
                front = (np.array([_apart(seat, d) for d in placed]) > 90.0) if step == 180.0 else (
                    np.array([_apart(candidate, d) for d in placed]) <= IN_FRONT_DEGREES)
                there = (np.array([_apart(candidate, d) for d in pointing]) <= SPREAD_DEGREES) & front & ~beside
                if facing and not ((there & distance).any() and there.sum() >= 2):
                    continue  # a distance card (never laid across) and another card point at the seat between
                if there.any():
                    out.append(float(candidate))
    return out


def _beside_a_side(seats: list[float], centres: NDArray[np.float64], pointing: NDArray[np.float64],
                   length: float) -> NDArray[np.bool_]:
    """Which cards lie within :data:`BESIDE` card lengths of another card pointing at a seat found."""
    pointed = np.array([any(_apart(d, seat) <= SPREAD_DEGREES for seat in seats) for d in pointing], dtype=bool)
    near = np.linalg.norm(centres[:, None] - centres[None, :], axis=2) <= BESIDE * length
    np.fill_diagonal(near, False)
    out: NDArray[np.bool_] = (near & pointed[None, :]).any(axis=1)
    return out


def _apart(a: float, b: float) -> float:
    """The angle between two directions, in degrees (0–180)."""
    return abs((a - b + 180) % 360 - 180)


def _pointing(axes: list[NDArray[np.float64]], centres: NDArray[np.float64], middle: NDArray[np.float64]) -> list[float]:
    """Each card's axis turned to point away from the middle, as a direction in degrees."""
    out = []
    for axis, c in zip(axes, centres, strict=True):
        out.append(float(np.degrees(np.arctan2(*(axis if np.dot(axis, c - middle) >= 0 else -axis)[::-1]))))
    return out



def _names(directions: list[float]) -> list[str]:
    """Compass names for the sides' directions, each name once, nearest overall."""
    names = list(COMPASS)
    best: tuple[float, tuple[str, ...]] = (np.inf, tuple(names[: len(directions)]))
    for chosen in permutations(names, len(directions)):
        cost = sum(abs((d - COMPASS[n] + 180) % 360 - 180) for d, n in zip(directions, chosen, strict=True))
        if cost < best[0]:
            best = (cost, chosen)
    return list(best[1])


def _sector(middle: NDArray[np.float64], start: float, end: float, outer: float, width: int,
            height: int) -> NDArray[np.float64]:
    """The part of the picture seen from the middle between two directions (degrees, clockwise on screen
    from ``start`` to ``end``), out to ``outer`` pixels from the middle."""
    span = (end - start) % 360 or 360.0
    angles = np.radians(start + np.linspace(0, span, max(2, int(np.ceil(span / 5.0)) + 1)))
    far = middle + np.stack([np.cos(angles), np.sin(angles)], axis=1) * outer
    polygon = np.vstack([far, middle[None, :]])
    for normal, offset in (((1.0, 0.0), 0.0), ((-1.0, 0.0), float(width)), ((0.0, 1.0), 0.0), ((0.0, -1.0), float(height))):
        polygon = _clip(polygon, np.array(normal), offset)
    return polygon


def _clip(polygon: NDArray[np.float64], normal: NDArray[np.float64], offset: float) -> NDArray[np.float64]:
    """Sutherland–Hodgman: the part of the polygon where ``normal · p + offset ≥ 0``."""
    points = [np.asarray(p, dtype=np.float64) for p in polygon]

    def inside(p: NDArray[np.float64]) -> bool:
        return float(normal @ p) + offset >= 0

    out = []
    for i, p in enumerate(points):
        q = points[i - 1]
        if inside(p):
            if not inside(q):
                out.append(_crossing(q, p, normal, offset))
            out.append(p)
        elif inside(q):
            out.append(_crossing(q, p, normal, offset))
    clipped = np.round(np.array(out, dtype=np.float64).reshape(-1, 2), 2)
    return np.asarray(clipped + 0.0, dtype=np.float64)


def _crossing(a: NDArray[np.float64], b: NDArray[np.float64], normal: NDArray[np.float64], offset: float) -> NDArray[np.float64]:
    t = -(float(normal @ a) + offset) / float(normal @ (b - a))
    out: NDArray[np.float64] = a + t * (b - a)
    return out
