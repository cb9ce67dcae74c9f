"""The rules of play as checks on what the camera saw (vision.track.rule_checks): one table of cases per check."""

from __future__ import annotations

import pytest

from scoring.cards import Card
from scoring.rules import RULE_SETS
from vision.track.rule_checks import (
    PLAY_RULES,
    Breach,
    PileCard,
    PlayRules,
    SidePiles,
    TablePlay,
    check_coup_fourre,
    check_distance,
    check_play_on_piles,
)

C = Card


def piles(battle=(), speed=(), safeties=()) -> SidePiles:
    return SidePiles(tuple(PileCard(f, c) for f, c in battle), tuple(PileCard(f, c) for f, c in speed),
                     tuple(PileCard(f, c) for f, c in safeties))


def distance(card: Card, frame: int = 100) -> TablePlay:
    return TablePlay("North", card, False, frame)


STOPPED_CASES = [
    # (what, battle pile, safeties, card, breach expected)
    ("rolling", [(10, C.ROLL)], [], C.DISTANCE_100, None),
    ("a Stop on the Roll", [(10, C.ROLL), (50, C.STOP)], [], C.DISTANCE_25, Breach.STOPPED),
    ("a Flat Tire on top", [(10, C.ROLL), (50, C.FLAT_TIRE)], [], C.DISTANCE_200, Breach.STOPPED),
    ("a Spare Tire, no Roll yet", [(10, C.ROLL), (50, C.FLAT_TIRE), (60, C.SPARE_TIRE)], [], C.DISTANCE_50,
     Breach.STOPPED),
    ("a Spare Tire with Right of Way", [(10, C.ROLL), (50, C.FLAT_TIRE), (60, C.SPARE_TIRE)],
     [(5, C.RIGHT_OF_WAY)], C.DISTANCE_50, None),
    ("rolling again", [(10, C.ROLL), (50, C.FLAT_TIRE), (60, C.SPARE_TIRE), (80, C.ROLL)], [], C.DISTANCE_75, None),
    ("a Flat Tire, then Puncture-Proof", [(10, C.ROLL), (50, C.FLAT_TIRE)], [(70, C.PUNCTURE_PROOF)], C.DISTANCE_75,
     None),
    ("a Stop with Right of Way", [(10, C.ROLL), (50, C.STOP)], [(5, C.RIGHT_OF_WAY)], C.DISTANCE_75, None),
    ("an Accident: Right of Way does not help", [(10, C.ROLL), (50, C.ACCIDENT)], [(5, C.RIGHT_OF_WAY)],
     C.DISTANCE_75, Breach.STOPPED),
    ("nothing seen on the pile: no evidence", [], [], C.DISTANCE_100, None),
    ("the Stop came after the card", [(10, C.ROLL), (120, C.STOP)], [], C.DISTANCE_100, None),
]


@pytest.mark.parametrize(("what", "battle", "safeties", "card", "expected"), STOPPED_CASES,
                         ids=[c[0] for c in STOPPED_CASES])
def test_no_distance_while_stopped(what, battle, safeties, card, expected):
    breach = check_distance(distance(card), piles(battle=battle, safeties=safeties))
    assert (breach.breach if breach else None) is expected
    if breach:
        assert breach.play == distance(card) and "frame 100" in breach.message


def test_where_the_rules_need_no_roll_after_a_remedy_a_remedy_lets_the_side_drive():
    after_remedy = piles(battle=[(10, C.ROLL), (50, C.OUT_OF_GAS), (60, C.GASOLINE)])
    assert check_distance(distance(C.DISTANCE_100), after_remedy).breach is Breach.STOPPED
    assert check_distance(distance(C.DISTANCE_100), after_remedy, PlayRules(roll_after_remedy=False)) is None


SPEED_CASES = [
    # (what, speed pile, safeties, card, breach expected)
    ("no limit", [], [], C.DISTANCE_100, None),
    ("a 50 under the limit", [(40, C.SPEED_LIMIT)], [], C.DISTANCE_50, None),
    ("a 25 under the limit", [(40, C.SPEED_LIMIT)], [], C.DISTANCE_25, None),
    ("a 75 under the limit", [(40, C.SPEED_LIMIT)], [], C.DISTANCE_75, Breach.SPEED_LIMIT),
    ("a 200 under the limit", [(40, C.SPEED_LIMIT)], [], C.DISTANCE_200, Breach.SPEED_LIMIT),
    ("the limit ended", [(40, C.SPEED_LIMIT), (60, C.END_OF_LIMIT)], [], C.DISTANCE_100, None),
    ("Right of Way lifts it", [(40, C.SPEED_LIMIT)], [(70, C.RIGHT_OF_WAY)], C.DISTANCE_100, None),
]


@pytest.mark.parametrize(("what", "speed", "safeties", "card", "expected"), SPEED_CASES, ids=[c[0] for c in SPEED_CASES])
def test_only_25_and_50_under_a_speed_limit(what, speed, safeties, card, expected):
    breach = check_distance(distance(card), piles(battle=[(10, C.ROLL)], speed=speed, safeties=safeties))
    assert (breach.breach if breach else None) is expected


COUP_FOURRE_CASES = [
    # (what, battle pile, speed pile, safety, other plays between, breach expected)
    ("right after the Flat Tire", [(10, C.ROLL), (90, C.FLAT_TIRE)], [], C.PUNCTURE_PROOF, [], None),
    ("right after the Speed Limit", [(10, C.ROLL)], [(90, C.SPEED_LIMIT)], C.RIGHT_OF_WAY, [], None),
    ("the attack taken away as the safety lands", [(10, C.ROLL), (90, C.FLAT_TIRE), (100, C.ROLL)], [],
     C.PUNCTURE_PROOF, [], None),
    ("the wrong safety", [(10, C.ROLL), (90, C.FLAT_TIRE)], [], C.DRIVING_ACE, [], Breach.UNPROVOKED_COUP_FOURRE),
    ("no attack seen", [(10, C.ROLL)], [], C.EXTRA_TANK, [], Breach.UNPROVOKED_COUP_FOURRE),
    ("nothing seen at all", [], [], C.EXTRA_TANK, [], Breach.UNPROVOKED_COUP_FOURRE),
    ("a play between", [(10, C.ROLL), (90, C.ACCIDENT)], [], C.DRIVING_ACE, [TablePlay("South", C.DISTANCE_50, False, 95)],
     Breach.UNPROVOKED_COUP_FOURRE),
    ("the attack gone under the Roll", [(10, C.ROLL), (50, C.STOP), (70, C.ROLL)], [], C.RIGHT_OF_WAY, [],
     Breach.UNPROVOKED_COUP_FOURRE),
]


@pytest.mark.parametrize(("what", "battle", "speed", "safety", "between", "expected"), COUP_FOURRE_CASES,
                         ids=[c[0] for c in COUP_FOURRE_CASES])
def test_a_coup_fourre_only_right_after_the_matching_attack(what, battle, speed, safety, between, expected):
    play = TablePlay("North", safety, True, 100)
    breach = check_coup_fourre(play, piles(battle=battle, speed=speed), between)
    assert (breach.breach if breach else None) is expected
    if breach:
        assert "frame 100" in breach.message and "coup fourré" in breach.message


def test_a_safety_laid_the_normal_way_needs_no_attack():
    assert check_coup_fourre(TablePlay("North", C.EXTRA_TANK, False, 100), piles()) is None


def test_the_checks_together_name_the_first_rule_broken():
    stopped = piles(battle=[(10, C.ROLL), (50, C.STOP)], speed=[(40, C.SPEED_LIMIT)])
    assert check_play_on_piles(distance(C.DISTANCE_100), stopped).breach is Breach.STOPPED
    assert check_play_on_piles(TablePlay("North", C.DRIVING_ACE, True, 100), stopped).breach is Breach.UNPROVOKED_COUP_FOURRE
    assert check_play_on_piles(distance(C.DISTANCE_25), piles(battle=[(10, C.ROLL)])) is None


def test_every_rule_set_has_its_rules_of_play():
    assert set(PLAY_RULES) == set(RULE_SETS)
    assert all(r.speed_limit_km == 50 for r in PLAY_RULES.values())


def _checked_plays(seed: int, sides: int) -> list[tuple[TablePlay, object]]:
    """Every distance card and coup fourré of a simulated legal hand, each with what the checks say of it, the
    piles told as the camera would see them (a card comes on top of a pile as it is laid or shows again)."""
    from datasets.simulator import Pile, simulate_hand

    hand = simulate_hand(seed, sides)
    names = [s.side for s in hand.initial.sides]
    battle: dict[str, list[PileCard]] = {n: [] for n in names}
    speed: dict[str, list[PileCard]] = {n: [] for n in names}
    safeties: dict[str, list[PileCard]] = {n: [] for n in names}
    counted: list[TablePlay] = []
    out: list[tuple[TablePlay, object]] = []
    for i, (play, table) in enumerate(zip(hand.plays, hand.tables)):
        frame = 10 * (i + 1)
        for side in table.sides:
            for pile, seen in ((side.battle, battle[side.side]), (side.speed, speed[side.side])):
                if pile and (not seen or seen[-1].card is not pile[-1]):
                    seen.append(PileCard(frame, pile[-1]))
        if play.pile not in (Pile.DISTANCE, Pile.SAFETIES) or play.onto is None:
            continue
        laid = TablePlay(play.onto, play.card, play.sideways, frame)
        if play.pile is Pile.SAFETIES:
            safeties[play.onto].append(PileCard(frame, play.card))
        piles_now = SidePiles(tuple(battle[laid.side]), tuple(speed[laid.side]), tuple(safeties[laid.side]))
        out.append((laid, check_play_on_piles(laid, piles_now, PlayRules(), counted)))
        counted.append(laid)
    return out


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_no_play_of_a_legal_hand_breaks_a_rule_of_play(sides):
    """The simulator plays by the Parker Brothers rules: over many hands, not one of its plays is flagged."""
    plays = [c for seed in range(60) for c in _checked_plays(seed, sides)]
    coups_fourres = [p for p, _ in plays if p.sideways]
    assert len(plays) > 500 and coups_fourres  # the hands exercise the checks
    assert [(p, breach) for p, breach in plays if breach is not None] == []
