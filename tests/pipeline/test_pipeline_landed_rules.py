"""The hand as its landings tell it (scripted tables): the counts a hand cannot hold refused and flagged, the rules
of play by the piles flagged, coups fourrés, a person's correction mid-hand, the 700 hand's extension, the draw
pile, a snapshot taken back."""

from __future__ import annotations

import pytest

from scoring.cards import Card
from scoring.hand import HandRecord, SafetyPlay
from tests.pipeline.scripted import LAYOUT, PILE, Laid, ScriptedTable, column, outline
from vision.landing.tracker import LandingTracker
from vision.track import FlagReason

BATTLE_X = 560.0


class Hand(ScriptedTable):
    def __init__(self, goal: int = 1000) -> None:
        self.tracker = LandingTracker(LAYOUT, goal, draw_pile_spot=outline(*PILE))
        self.state = self.tracker.state()
        super().__init__(self._feed)

    def _feed(self, view):
        self.state = self.tracker.update(view)
        return []

    def lay(self, *cards: Laid, draw_pile: bool = True):
        self.show(cards, times=10, draw_pile=draw_pile)  # a turn: a second
        return self.state


def pile(side: str, card: Card) -> Laid:
    return Laid(card, BATTLE_X, 300.0 if side == "North" else 500.0)


def sideways(side: str, card: Card, x: float) -> Laid:
    return Laid(card, x, 300.0 if side == "North" else 500.0, sideways=True)


def distance(state, side: str) -> dict[int, int]:
    return {km: n for km, n in next(s for s in state.sides if s.side == side).distance.items() if n}


def test_a_safety_laid_crosswise_is_a_coup_fourre():
    h = Hand()
    state = h.lay(sideways("South", Card.DRIVING_ACE, 400), Laid(Card.EXTRA_TANK, 400, 300))
    assert state.sides[1].safeties == {Card.DRIVING_ACE: SafetyPlay.COUP_FOURRE}
    assert state.sides[0].safeties == {Card.EXTRA_TANK: SafetyPlay.PLAYED}


def test_a_remedy_laid_away_from_its_battle_pile_is_counted_and_flagged():
    """A card read as a Roll in the safety row (an Extra Tank misread, most likely): the table is asked."""
    h = Hand()
    h.lay(pile("South", Card.ROLL))
    state = h.lay(pile("South", Card.ROLL), Laid(Card.ROLL, 150, 500))
    assert state.flags[-1].reason is FlagReason.OFF_PILE and state.flags[-1].card is Card.ROLL
    assert [f.reason for f in state.flags] == [FlagReason.OFF_PILE]
    state = h.lay(pile("South", Card.ROLL), Laid(Card.ROLL, 150, 500), pile("South", Card.STOP))
    assert [f.reason for f in state.flags] == [FlagReason.OFF_PILE]  # a card laid on the pile is no news


def test_a_third_200_is_flagged_not_counted():
    h = Hand()
    twos = column("North", Card.DISTANCE_200, 100, 3)
    h.lay(*twos[:2])
    state = h.lay(*twos)
    assert distance(state, "North") == {200: 2}
    (flag,) = state.flags
    assert (flag.side, flag.card, flag.reason) == ("North", Card.DISTANCE_200, FlagReason.THIRD_200)
    assert state.sides[0].confidence <= 0.5
    assert len(h.lay(*twos).flags) == 1  # flagged once, as it landed


def test_distance_past_the_goal_and_a_safety_on_two_sides_are_flagged_not_counted():
    h = Hand()
    cards = column("South", Card.DISTANCE_200, 100, 2) + column("South", Card.DISTANCE_100, 200, 5) + \
        column("South", Card.DISTANCE_75, 300, 1)
    h.lay(*cards)  # 975 km
    h.lay(*cards, Laid(Card.RIGHT_OF_WAY, 400, 300))
    state = h.lay(*cards, Laid(Card.RIGHT_OF_WAY, 400, 300), *column("South", Card.DISTANCE_50, 400, 1))
    assert distance(state, "South") == {200: 2, 100: 5, 75: 1}
    assert [f.reason for f in state.flags] == [FlagReason.PAST_GOAL]
    state = h.lay(*cards, Laid(Card.RIGHT_OF_WAY, 400, 300), *column("South", Card.DISTANCE_50, 400, 1),
                  Laid(Card.RIGHT_OF_WAY, 480, 500))
    assert Card.RIGHT_OF_WAY not in state.sides[1].safeties  # seen again elsewhere: no second play of it


def test_a_correction_mid_hand_wins_and_counting_goes_on_from_it():
    h = Hand()
    h.lay(Laid(Card.DISTANCE_100, 100, 300), Laid(Card.DISTANCE_50, 200, 300))
    corrected = HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {"50": 1, "75": 1}}, {"side": "South", "distance": {}}]})
    state = h.tracker.correct(corrected)
    assert distance(state, "North") == {50: 1, 75: 1} and state.flags == ()
    state = h.lay(Laid(Card.DISTANCE_100, 100, 300), Laid(Card.DISTANCE_50, 200, 300), *column("North", Card.DISTANCE_50, 300, 1))
    assert distance(state, "North") == {50: 2, 75: 1}
    again = LandingTracker.from_state(h.tracker.to_state())
    assert distance(again.state(), "North") == {50: 2, 75: 1}


def test_a_correction_that_breaks_a_rule_is_refused():
    from scoring.errors import IllegalHandError
    from scoring.hand import SideRecord

    with pytest.raises(IllegalHandError):
        Hand().tracker.correct(HandRecord(goal=1000, sides=(SideRecord("North", {200: 3}), SideRecord("South"))))


def test_in_a_700_hand_playing_on_from_700_calls_the_extension():
    h = Hand(goal=700)
    cards = column("North", Card.DISTANCE_200, 100, 2) + column("North", Card.DISTANCE_100, 200, 3)
    state = h.lay(*cards)
    assert state.completer == "North" and state.extension_called_by is None
    state = h.lay(*cards, *column("North", Card.DISTANCE_75, 300, 1))
    assert state.extension_called_by == "North" and state.effective_goal == 1000
    assert distance(state, "North") == {75: 1, 100: 3, 200: 2} and state.completer is None
    assert state.record().extension_called_by == "North"


def test_a_distance_card_on_a_stop_is_counted_and_flagged_with_its_frame_and_place():
    h = Hand()
    hundreds = column("North", Card.DISTANCE_100, 100, 2)
    h.lay(pile("North", Card.ROLL), hundreds[0])
    h.lay(pile("North", Card.ROLL), pile("North", Card.STOP), hundreds[0])
    state = h.lay(pile("North", Card.ROLL), pile("North", Card.STOP), *hundreds)
    assert distance(state, "North") == {100: 2}
    (flag,) = state.flags
    assert (flag.reason, flag.side, flag.card, flag.frame) == (FlagReason.STOPPED, "North", Card.DISTANCE_100, 20)
    assert flag.where is not None and abs(flag.where[0] - 100) < 1
    assert "Stop" in flag.message


def test_a_75_under_a_speed_limit_is_flagged_a_50_is_not():
    h = Hand()
    base = [pile("South", Card.ROLL), Laid(Card.SPEED_LIMIT, 480, 500)]
    h.lay(*base)
    h.lay(*base, *column("South", Card.DISTANCE_50, 100, 1))
    state = h.lay(*base, *column("South", Card.DISTANCE_50, 100, 1), *column("South", Card.DISTANCE_75, 200, 1))
    assert distance(state, "South") == {50: 1, 75: 1}
    assert [(f.reason, f.card) for f in state.flags] == [(FlagReason.SPEED_LIMIT, Card.DISTANCE_75)]


def test_a_coup_fourre_sends_the_attack_away_and_one_out_of_nowhere_is_flagged():
    h = Hand()
    h.lay(pile("North", Card.ROLL))
    h.lay(pile("North", Card.ACCIDENT))
    # the safety laid crosswise and, in the same clear view, the Roll under the attack shown again
    state = h.lay(pile("North", Card.ROLL), sideways("North", Card.DRIVING_ACE, 400))
    assert state.flags == () and state.events[-1].sideways
    assert len(h.tracker.hand.departures) == 1
    state = h.lay(pile("North", Card.ROLL), sideways("North", Card.DRIVING_ACE, 400),
                  sideways("North", Card.EXTRA_TANK, 200))
    (flag,) = state.flags
    assert (flag.reason, flag.card) == (FlagReason.UNPROVOKED_COUP_FOURRE, Card.EXTRA_TANK)
    assert Card.EXTRA_TANK in state.sides[0].safeties  # counted, and flagged


def test_the_draw_pile_goes_when_its_spot_shows_no_card():
    h = Hand()
    trip = column("South", Card.DISTANCE_200, 100, 2) + column("South", Card.DISTANCE_100, 200, 5)
    assert h.lay(*trip).draw_pile
    assert not h.lay(*trip, draw_pile=False).draw_pile
    h.lay(*trip, *column("South", Card.DISTANCE_100, 200, 6)[5:], draw_pile=False)
    assert h.tracker.draw_pile_empty_at_finish  # the trip completed after the pile ran out: the delayed action


def test_a_snapshot_taken_back_stands_where_the_hand_stood():
    h = Hand()
    h.lay(pile("North", Card.ROLL))
    h.lay(pile("North", Card.STOP))
    state = h.lay(pile("North", Card.STOP), *column("North", Card.DISTANCE_25, 100, 1))
    again = LandingTracker.from_state(h.tracker.to_state())
    assert again.state() == state and [f.reason for f in state.flags] == [FlagReason.STOPPED]
    h.tracker = again  # a card landing after the restart on the Stop's spot is held to the Stop still
    state = h.lay(pile("North", Card.STOP), *column("North", Card.DISTANCE_25, 100, 2))
    assert [f.reason for f in state.flags] == [FlagReason.STOPPED, FlagReason.STOPPED]
