"""Landings: each card that came to rest found as a change against the last clear view, and read once, whole.

The frames are drawn here: a textured table, the generic edition's faces warped onto it, an arm (a skin-coloured
band from the picture's edge) laying each card, the exposure drifting, a shadow, a nudged camera; then each
landing placed (side, pile, crosswise) and the hand's census taken from them.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.cards import Card
from scoring.hand import SafetyPlay
from scoring.plays import PlayRule
from vision.landing.card_size import CardSize
from vision.landing.hand import LandedHand
from vision.landing.reading import read_change
from vision.landing.watch import Change, MotionWatch
from vision.read.matcher import FaceMatcher
from vision.read.models import faces_folder
from vision.table.layout import SideZone, TableLayout
from vision.track.rule_checks import Breach

W, H = 640, 360
LENGTH = 90.0


@pytest.fixture(scope="module")
def matcher() -> FaceMatcher:
    return FaceMatcher.from_folder(faces_folder("generic"), "generic")


def table() -> np.ndarray:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 6)
    noise = noise / noise.std()
    base = np.array([40, 70, 110], np.float32)  # a wooden brown (BGR)
    return np.clip(base + noise[..., None] * 12, 0, 255).astype(np.uint8)


def card_corners(centre: tuple[float, float], angle_deg: float, length: float = LENGTH) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    half_w, half_l = length * 56 / 87 / 2, length / 2
    c = np.array(centre)
    return np.array([c - u * half_w - v * half_l, c + u * half_w - v * half_l, c + u * half_w + v * half_l, c - u * half_w + v * half_l])


def lay(image: np.ndarray, face: np.ndarray, corners: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners.astype(np.float32))
    warped = cv2.warpPerspective(face, m, (W, H), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (W, H)) > 127
    out = image.copy()
    out[mask] = warped[mask]
    return out


def arm(image: np.ndarray, tip: tuple[float, float]) -> np.ndarray:
    out = image.copy()
    cv2.line(out, (int(tip[0]), int(tip[1])), (int(tip[0]) + 40, H + 40), (120, 150, 210), 34)
    return out


def face_of(matcher: FaceMatcher, card: Card) -> np.ndarray:
    return matcher.faces[matcher.cards.index(card)]


def film(frames: list[np.ndarray]) -> list:
    watch = MotionWatch()
    return [watch.look(i, f) for i, f in enumerate(frames)]


def test_a_card_laid_by_an_arm_is_one_change_where_it_lies_once_the_arm_has_left(matcher: FaceMatcher):
    empty = table()
    corners = card_corners((300, 170), 20)
    laid = lay(empty, face_of(matcher, Card.DISTANCE_75), corners)
    looks = film([empty, empty, arm(empty, (330, 200)), arm(laid, (310, 190))] + [laid] * 4)
    changes = [c for look in looks for c in look.changes]
    assert len(changes) == 1
    assert changes[0].frame >= 4  # not while the hand is on it
    assert np.linalg.norm(changes[0].outline.mean(axis=0) - corners.mean(axis=0)) < 8
    assert looks[2].moving and not looks[-1].moving


def test_a_drifting_exposure_and_a_passing_shadow_are_no_card():
    empty = table()
    frames = [np.clip(empty.astype(np.float32) * g, 0, 255).astype(np.uint8) for g in np.linspace(1.0, 1.25, 12)]
    drifted = frames[-1]
    patch = np.zeros((H, W), np.float32)
    cv2.fillConvexPoly(patch, np.round(card_corners((200, 150), 10)).astype(np.int32), 1.0)
    patch = cv2.GaussianBlur(patch, (0, 0), 4)
    shaded = (drifted * (1 - 0.35 * patch[..., None])).astype(np.uint8)
    frames += [shaded, shaded, shaded, drifted, drifted]
    assert [c for look in film(frames) for c in look.changes] == []


def test_a_nudged_camera_is_registered_and_no_card_is_seen_in_the_shift(matcher: FaceMatcher):
    laid = lay(table(), face_of(matcher, Card.STOP), card_corners((400, 200), -30))
    shifted = cv2.warpAffine(laid, np.float32([[1, 0, 6], [0, 1, -4]]), (W, H), borderMode=cv2.BORDER_REFLECT)
    looks = film([laid, laid, shifted, shifted, shifted])
    assert not looks[1].nudged and looks[2].nudged and looks[4].nudged
    assert np.allclose(looks[4].camera[:, 2], [6, -4], atol=1.5)
    assert [c for look in looks for c in look.changes] == []


def test_a_step_of_the_exposure_over_white_cards_and_an_arm_in_it_is_no_card(matcher: FaceMatcher):
    """The light scales: a white card brightens more than the brown table, and the table an arm hid meanwhile
    comes back in the new light (held 2-D hand 12: every card there was "changed" after a 10 % step)."""
    cards = table()
    for card, centre in ((Card.DISTANCE_100, (200, 150)), (Card.ROLL, (330, 170)), (Card.DISTANCE_25, (460, 190))):
        cards = lay(cards, face_of(matcher, card), card_corners(centre, 10))
    brighter = np.clip(cards.astype(np.float32) * 1.15, 0, 255).astype(np.uint8)
    looks = film([cards, cards, arm(cards, (330, 200)), arm(brighter, (330, 200)), brighter, brighter, brighter, brighter])
    assert [c for look in looks for c in look.changes] == []


def test_a_knock_that_passes_leaves_the_camera_where_it_rested(matcher: FaceMatcher):
    laid = lay(table(), face_of(matcher, Card.STOP), card_corners((400, 200), -30))
    knocked = cv2.warpAffine(laid, np.float32([[1, 0, 3], [0, 1, 2]]), (W, H), borderMode=cv2.BORDER_REFLECT)
    looks = film([laid, laid, laid, knocked, laid, laid, laid, laid])
    assert looks[3].nudged and not looks[4].nudged and not looks[-1].nudged
    assert [c for look in looks for c in look.changes] == []


def test_two_cards_landed_between_two_clear_views_are_two_changes_each_read(matcher: FaceMatcher):
    empty = table()
    first, second = card_corners((180, 180), 5), card_corners((460, 160), 95)
    one = lay(empty, face_of(matcher, Card.DISTANCE_100), first)
    both = lay(one, face_of(matcher, Card.EXTRA_TANK), second)
    frames = [empty, empty, arm(one, (200, 200)), arm(both, (470, 180))] + [both] * 4
    size = CardSize()
    watch = MotionWatch(size)
    read = []
    for i, frame in enumerate(frames):
        for change in watch.look(i, frame).changes:
            read.append(read_change(matcher, frame, change, size).reading.card)
    assert sorted(read, key=str) == sorted([Card.DISTANCE_100, Card.EXTRA_TANK], key=str)


def test_a_card_laid_on_a_look_alike_is_read_on_the_outline_of_the_card_below(matcher: FaceMatcher):
    """A Roll laid on a Stop changes the picture only where the two differ: the pile's outline is tried too."""
    empty = table()
    corners = card_corners((320, 180), 12)
    stop = lay(empty, face_of(matcher, Card.STOP), corners)
    roll = lay(stop, face_of(matcher, Card.ROLL), corners)
    size = CardSize()
    watch = MotionWatch(size)
    landed = []
    for i, frame in enumerate([empty, empty] + [stop] * 4 + [arm(roll, (330, 190))] + [roll] * 4):
        for change in watch.look(i, frame).changes:
            landed.append(read_change(matcher, frame, change, size, [x.outline for x in landed]))
    assert [x.reading.card for x in landed] == [Card.STOP, Card.ROLL]


def placed_hand(matcher: FaceMatcher, frames: list[np.ndarray]) -> LandedHand:
    """The frames followed by the watch, each change read and placed on a two-sided table: North above, South below."""
    layout = TableLayout((SideZone("North", np.array([[0, 0], [W, 0], [W, 150], [0, 150]], float), (0.0, -1.0)),
                          SideZone("South", np.array([[0, 210], [W, 210], [W, H], [0, H]], float), (0.0, 1.0))))
    hand = LandedHand(layout)
    size = CardSize()
    watch = MotionWatch(size)
    for i, frame in enumerate(frames):
        hand.land_all([read_change(matcher, frame, change, size, [p.landing.on_table for p in hand.plays])
                       for change in watch.look(i, frame).changes])
    return hand


def test_each_card_is_placed_by_its_zone_its_kind_and_its_turn(matcher: FaceMatcher):
    empty = table()
    distance = lay(empty, face_of(matcher, Card.DISTANCE_100), card_corners((150, 280), 0))
    stop = lay(distance, face_of(matcher, Card.STOP), card_corners((420, 70), 0))
    discard = lay(stop, face_of(matcher, Card.FLAT_TIRE), card_corners((320, 180), 30, length=70))
    ace = lay(discard, face_of(matcher, Card.DRIVING_ACE), card_corners((520, 290), 90))
    hand = placed_hand(matcher, [empty] * 2 + [distance] * 4 + [stop] * 4 + [discard] * 4 + [ace] * 4)
    assert [(p.card, p.side, p.pile, p.crosswise) for p in hand.plays] == [
        (Card.DISTANCE_100, "South", "distance", False), (Card.STOP, "North", "battle", False),
        (Card.FLAT_TIRE, None, "discard", False), (Card.DRIVING_ACE, "South", "safeties", True)]
    distance_cards, safeties = hand.census()["South"]
    assert distance_cards[100] == 1 and safeties == {Card.DRIVING_ACE: SafetyPlay.COUP_FOURRE}


def test_a_coup_fourre_sends_the_attack_away_and_that_is_no_play(matcher: FaceMatcher):
    """South rolls, North lays an Accident on South's Roll; South answers with the Driving Ace crosswise and
    the Accident goes: the Roll shows again, in the same clear view as the safety."""
    empty = table()
    pile = card_corners((200, 290), 0)
    roll = lay(empty, face_of(matcher, Card.ROLL), pile)
    accident = lay(roll, face_of(matcher, Card.ACCIDENT), pile)
    answered = lay(roll, face_of(matcher, Card.DRIVING_ACE), card_corners((450, 290), 90))
    hand = placed_hand(matcher, [empty] * 2 + [roll] * 4 + [accident] * 4 + [answered] * 4)
    assert [p.card for p in hand.plays] == [Card.ROLL, Card.ACCIDENT, Card.DRIVING_ACE]
    assert [x.reading.card for x in hand.departures] == [Card.ROLL]
    assert hand.census()["South"][1] == {Card.DRIVING_ACE: SafetyPlay.COUP_FOURRE}


def test_a_card_seen_again_where_it_lies_is_no_second_play(matcher: FaceMatcher):
    empty = table()
    corners = card_corners((300, 290), 10)
    laid = lay(empty, face_of(matcher, Card.DISTANCE_50), corners)
    watch_size = CardSize()
    hand = LandedHand(TableLayout.default(W, H))
    change = Change(3, corners + 2.0, np.eye(2, 3))
    first = read_change(matcher, laid, change, watch_size)
    again = read_change(matcher, laid, change, watch_size, [first.on_table])
    assert hand.land(first) is not None and hand.land(again) is None
    assert hand.again == [again] and len(hand.plays) == 1


def test_a_distance_card_laid_on_a_stop_stays_counted_and_breaks_a_rule(matcher: FaceMatcher):
    empty = table()
    stop = lay(empty, face_of(matcher, Card.STOP), card_corners((200, 290), 0))
    driven = lay(stop, face_of(matcher, Card.DISTANCE_75), card_corners((420, 290), 0))
    hand = placed_hand(matcher, [empty] * 2 + [stop] * 4 + [driven] * 4)
    assert [p.card for p in hand.plays] == [Card.STOP, Card.DISTANCE_75]
    assert [(b.breach, b.play.card) for b in hand.breaches] == [(Breach.STOPPED, Card.DISTANCE_75)]
    assert hand.census()["South"][0][75] == 1


def test_a_third_200_is_refused_and_flagged(matcher: FaceMatcher):
    frames = [table()]
    frames.append(frames[-1])
    for x in (120, 300, 480):
        frames.append(lay(frames[-1], face_of(matcher, Card.DISTANCE_200), card_corners((x, 290), 0)))
        frames += [frames[-1]] * 3
    hand = placed_hand(matcher, frames)
    assert hand.census()["South"][0][200] == 2  # the score keeper would refuse it: it lies there, uncounted
    assert [(broken.rule, play.card) for play, broken in hand.refused] == [(PlayRule.THIRD_200, Card.DISTANCE_200)]
    assert hand.flagged


def test_a_card_that_cannot_be_read_on_a_side_flags_the_hand(matcher: FaceMatcher):
    empty = table()
    blank = lay(empty, np.full((186, 120, 3), 235, np.uint8), card_corners((300, 290), 15))
    hand = placed_hand(matcher, [empty] * 2 + [blank] * 4)
    assert hand.plays == [] and len(hand.unread) == 1 and hand.flagged
