"""The battle and speed piles as the tracker watches them (vision.track.piles), and plays held to them: a
play that breaks a rule of play is counted and flagged with its frame, never counted in silence."""

from __future__ import annotations

from scoring.cards import Card
from tests.pipeline.scripted import Stream, card, distance
from vision.track import FlagReason
from vision.track.lifecycle import HandLifecycle
from vision.track.piles import TOP_FRAMES, PileWatch
from vision.track.tracker import HandTracker

PILE_X = 600.0


def pile(side: str, c: Card) -> object:
    """A card on ``side``'s battle (or speed) pile: one place, each card laid over the last."""
    return card(side, c, PILE_X)


def sure(*cards: Card) -> dict[Card, float]:
    return {c: 0.9 for c in cards}


def test_the_top_of_a_pile_is_the_card_seen_on_it_a_few_frames_running():
    watch = PileWatch()
    for i in range(TOP_FRAMES - 1):
        watch.see(i, sure(Card.ROLL))
    assert watch.top is None
    watch.see(2, sure(Card.ROLL))
    watch.see(3, {Card.ROLL: 0.5, Card.STOP: 0.9})  # the Stop laid over the Roll, whose edge still shows
    watch.see(4, {})  # an arm over the pile: no evidence either way
    watch.see(5, sure(Card.STOP))
    assert watch.top is Card.ROLL
    watch.see(6, sure(Card.STOP))
    assert [(p.frame, p.card) for p in watch.cards] == [(0, Card.ROLL), (3, Card.STOP)]


def test_a_misreading_of_the_pile_in_a_frame_or_two_is_not_a_card_laid():
    watch = PileWatch()
    for i in range(5):
        watch.see(i, sure(Card.ROLL))
    watch.see(5, sure(Card.STOP))
    watch.see(6, sure(Card.STOP))
    watch.see(7, sure(Card.ROLL))  # only the top in sight again: the run is broken
    watch.see(8, sure(Card.STOP))
    assert watch.top is Card.ROLL


def test_a_weaker_second_box_on_the_top_read_as_another_card_is_not_a_card_laid():
    """Seen on a held-out 2-D hand (seed 70027): a Roll read at 0.47 and, in the same frames, a second box on
    it read as a Stop at 0.32–0.39 — a Stop laid there would hide the Roll, not show beside it."""
    watch = PileWatch()
    for i in range(5):
        watch.see(i, sure(Card.ROLL))
    for i in range(5, 5 + 2 * TOP_FRAMES):
        watch.see(i, {Card.ROLL: 0.47, Card.STOP: 0.39})
    assert [p.card for p in watch.cards] == [Card.ROLL]


def test_a_second_roll_on_the_same_pile_is_a_new_top():
    """The tracker's cards are told apart by place, so a Roll laid again where the first lay is the first one
    seen again; the pile's story still knows the Roll is back on top."""
    watch = PileWatch()
    for i, c in enumerate([Card.ROLL] * 3 + [Card.STOP] * 3 + [Card.ROLL] * 3):
        watch.see(i, sure(c))
    assert [p.card for p in watch.cards] == [Card.ROLL, Card.STOP, Card.ROLL]


def test_a_distance_card_laid_on_a_stopped_side_is_counted_and_flagged_with_its_frame():
    s = Stream()
    hundreds = [card("North", Card.DISTANCE_100, 100, k) for k in range(2)]
    s.show(pile("North", Card.ROLL), hundreds[0], times=10)
    s.show(pile("North", Card.STOP), hundreds[0], times=10)  # South stops North
    state = s.show(pile("North", Card.STOP), *hundreds, times=12)
    assert distance(state, "North") == {100: 2}  # counted: the pile's reading is less sure than the card's
    (flag,) = state.flags
    assert (flag.reason, flag.side, flag.card) == (FlagReason.STOPPED, "North", Card.DISTANCE_100)
    assert "at frame 20" in flag.message and "Stop" in flag.message
    assert flag.where is not None and abs(flag.where[0] - 100) < 1  # where the card lies: its picture outlines it
    assert state.sides[0].confidence <= 0.5
    assert s.show(pile("North", Card.STOP), *hundreds, times=20).flags == (flag,)  # once


def test_a_distance_card_after_the_roll_is_not_flagged():
    s = Stream()
    hundreds = [card("North", Card.DISTANCE_100, 100, k) for k in range(2)]
    s.show(pile("North", Card.ROLL), hundreds[0], times=10)
    s.show(pile("North", Card.STOP), hundreds[0], times=10)
    s.show(pile("North", Card.ROLL), hundreds[0], times=10)  # a Roll laid again on the same place
    state = s.show(pile("North", Card.ROLL), *hundreds, times=12)
    assert distance(state, "North") == {100: 2} and state.flags == ()


def test_a_75_under_a_speed_limit_is_flagged_a_50_is_not():
    s = Stream()
    limit = card("South", Card.SPEED_LIMIT, 700)
    s.show(pile("South", Card.ROLL), limit, times=10)
    s.show(pile("South", Card.ROLL), limit, card("South", Card.DISTANCE_50, 100), times=10)
    state = s.show(pile("South", Card.ROLL), limit, card("South", Card.DISTANCE_50, 100),
                   card("South", Card.DISTANCE_75, 200), times=12)
    assert distance(state, "South") == {50: 1, 75: 1}
    assert [(f.reason, f.card) for f in state.flags] == [(FlagReason.SPEED_LIMIT, Card.DISTANCE_75)]


def test_a_coup_fourre_right_after_the_attack_is_not_flagged_one_out_of_nowhere_is():
    s = Stream()
    s.show(pile("North", Card.ROLL), times=10)
    s.show(pile("North", Card.ACCIDENT), times=6)  # the attack lands; North answers at once
    state = s.show(pile("North", Card.ROLL), card("North", Card.DRIVING_ACE, 400, sideways=True), times=12)
    assert state.flags == () and state.events[-1].sideways
    state = s.show(pile("North", Card.ROLL), card("North", Card.DRIVING_ACE, 400, sideways=True),
                   card("North", Card.EXTRA_TANK, 480, sideways=True), times=12)
    (flag,) = state.flags
    assert (flag.reason, flag.card) == (FlagReason.UNPROVOKED_COUP_FOURRE, Card.EXTRA_TANK)
    assert Card.EXTRA_TANK in state.sides[0].safeties  # counted, and flagged


def test_a_coup_fourre_showing_again_a_roll_never_seen_on_top_is_not_flagged():
    """Seen on a held-out 2-D hand (seed 70028): the Roll was laid and covered by the attack before it was seen
    on top three frames running; the coup fourré took the attack away and the Roll showed for the first time."""
    s = Stream()
    s.show(card("North", Card.DISTANCE_100, 100), times=10)  # North's battle pile under an arm the while
    s.show(card("North", Card.DISTANCE_100, 100), pile("North", Card.OUT_OF_GAS), times=6)
    state = s.show(card("North", Card.DISTANCE_100, 100), pile("North", Card.ROLL),
                   card("North", Card.EXTRA_TANK, 400, sideways=True), times=12)
    assert state.flags == () and state.events[-1].card is Card.EXTRA_TANK and state.events[-1].sideways
    state = s.show(card("North", Card.DISTANCE_100, 100), pile("North", Card.ROLL),
                   card("North", Card.EXTRA_TANK, 400, sideways=True),
                   card("North", Card.DRIVING_ACE, 480, sideways=True), times=12)
    assert [(f.reason, f.card) for f in state.flags] == [(FlagReason.UNPROVOKED_COUP_FOURRE, Card.DRIVING_ACE)]


def test_no_pile_in_sight_is_no_evidence():
    s = Stream()
    state = s.show(*[card("North", Card.DISTANCE_100, 100, k) for k in range(3)], times=12)
    assert distance(state, "North") == {100: 3} and state.flags == ()


def test_the_piles_and_the_plays_still_to_check_survive_a_restart():
    s = Stream()
    s.show(pile("North", Card.ROLL), times=10)
    s.show(pile("North", Card.STOP), times=10)
    s.show(pile("North", Card.STOP), card("North", Card.DISTANCE_25, 100), times=3)  # counted, not yet checked
    again = HandTracker.from_state(s.tracker.to_state(), s.tracker.settings)
    s.tracker = again
    state = s.show(pile("North", Card.STOP), card("North", Card.DISTANCE_25, 100), times=10)
    assert [f.reason for f in state.flags] == [FlagReason.STOPPED]
    assert HandLifecycle  # the lifecycle keeps its tracker's snapshot the same way


def test_the_last_play_of_a_hand_is_checked_when_the_hand_ends_not_a_few_frames_on():
    from scoring.cards import Card as C
    from vision.table.observations import FrameObservations, Observation
    from vision.track.lifecycle import LifecycleSettings

    life = HandLifecycle(("North", "South"), 1000, LifecycleSettings())
    up = (("North", (0.0, 1.0)), ("South", (0.0, -1.0)))
    trip = [Observation("South", C.DISTANCE_200, False, (100.0, 500.0 + 25 * k), 0.9) for k in range(2)]
    trip += [Observation("South", C.DISTANCE_100, False, (200.0, 500.0 + 25 * k), 0.9) for k in range(6)]
    battle = Observation("South", C.ROLL, False, (PILE_X, 500.0), 0.9)
    stop = Observation("South", C.STOP, False, (PILE_X, 500.0), 0.9)
    frames = [(battle, *trip[:7])] * 10 + [(stop, *trip[:7])] * 10 + [(stop, *trip)] * 3
    for i, cards in enumerate(frames):
        life.update(FrameObservations(i, i / 10, cards, True, 87.0, up))
    assert life.pending is not None  # the trip completed with the last 100, laid on a Stop
    assert [f.reason for f in life.pending.flags] == [FlagReason.STOPPED]
