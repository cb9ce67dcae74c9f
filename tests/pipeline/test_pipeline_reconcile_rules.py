"""The tracker on scripted observation streams: rules broken (flagged, never counted silently), a person's
correction mid-hand, the 700 hand's extension, the draw pile, and settings that cannot work."""

from __future__ import annotations

import pytest

from scoring.cards import Card
from scoring.hand import HandRecord, SafetyPlay
from tests.pipeline.scripted import Stream, card, distance
from vision.track import FlagReason, ReconcileSettings


def test_a_safety_laid_sideways_is_a_coup_fourre():
    s = Stream()
    state = s.show(card("South", Card.DRIVING_ACE, 600, sideways=True), card("North", Card.EXTRA_TANK, 600), times=5)
    south, north = state.sides[1], state.sides[0]
    assert south.safeties == {Card.DRIVING_ACE: SafetyPlay.COUP_FOURRE}
    assert north.safeties == {Card.EXTRA_TANK: SafetyPlay.PLAYED}
    assert [e.sideways for e in state.events if e.side == "South"] == [True]


def test_a_third_200_is_flagged_not_counted():
    s = Stream()
    twos = [card("North", Card.DISTANCE_200, 100, k) for k in range(3)]
    s.show(*twos[:2], times=5)
    state = s.show(*twos, times=5)
    assert distance(state, "North") == {200: 2}
    (flag,) = state.flags
    assert (flag.side, flag.card, flag.reason) == ("North", Card.DISTANCE_200, FlagReason.THIRD_200)
    assert state.sides[0].confidence < 0.6
    assert len(s.show(*twos, times=20).flags) == 1  # flagged once, not every frame


def test_distance_past_the_goal_is_flagged():
    s = Stream()
    column = [card("South", Card.DISTANCE_200, 100, k) for k in range(2)]
    hundreds = [card("South", Card.DISTANCE_100, 200, k) for k in range(5)]
    s.show(*column, *hundreds, card("South", Card.DISTANCE_75, 300), times=5)  # 975 km
    state = s.show(*column, *hundreds, card("South", Card.DISTANCE_75, 300), card("South", Card.DISTANCE_50, 400),
                   times=5)
    assert distance(state, "South") == {200: 2, 100: 5, 75: 1}  # 50 more would pass 1,000
    assert [f.reason for f in state.flags] == [FlagReason.PAST_GOAL]


def test_a_safety_seen_on_two_sides_is_flagged():
    s = Stream()
    s.show(card("North", Card.RIGHT_OF_WAY, 600), times=5)
    state = s.show(card("North", Card.RIGHT_OF_WAY, 600), card("South", Card.RIGHT_OF_WAY, 600), times=5)
    assert Card.RIGHT_OF_WAY not in state.sides[1].safeties
    assert [f.reason for f in state.flags] == [FlagReason.SAFETY_TWICE]


def test_more_copies_than_the_deck_has_is_flagged():
    s = Stream()
    state = s.show(*[card("North", Card.DISTANCE_25, 100 + 60 * (k // 8), k % 8) for k in range(11)], times=5)
    assert distance(state, "North") == {25: 10}
    assert [f.reason for f in state.flags] == [FlagReason.DECK_COUNT]


def test_a_correction_mid_hand_wins_and_counting_goes_on_from_it():
    s = Stream()
    phantom = card("North", Card.DISTANCE_100, 100)
    real = card("North", Card.DISTANCE_50, 200)
    s.show(phantom, real, times=5)
    corrected = HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {"50": 1, "75": 1}},  # no 100 after all, and a 75 the camera missed
        {"side": "South", "distance": {}}]})
    state = s.tracker.correct(corrected)
    assert distance(state, "North") == {50: 1, 75: 1}
    state = s.show(phantom, real, times=10)  # the sightings that made the mistake do not make it again
    assert distance(state, "North") == {50: 1, 75: 1}
    state = s.show(phantom, real, card("North", Card.DISTANCE_50, 200, 1), times=5)
    assert distance(state, "North") == {50: 2, 75: 1}
    assert [e.card for e in state.events] == [Card.DISTANCE_50, Card.DISTANCE_50]


def test_a_correction_that_breaks_a_rule_is_refused():
    from scoring.errors import IllegalHandError
    from scoring.hand import SideRecord

    s = Stream()
    three_200s = HandRecord(goal=1000, sides=(SideRecord("North", {200: 3}), SideRecord("South")))
    with pytest.raises(IllegalHandError):
        s.tracker.correct(three_200s)


def test_in_a_700_hand_playing_on_from_700_calls_the_extension():
    s = Stream(goal=700)
    cards = [card("North", Card.DISTANCE_200, 100, k) for k in range(2)] + \
        [card("North", Card.DISTANCE_100, 200, k) for k in range(3)]
    state = s.show(*cards, times=5)
    assert state.completer == "North" and state.extension_called_by is None
    state = s.show(*cards, card("North", Card.DISTANCE_75, 300), times=5)
    assert state.extension_called_by == "North" and state.effective_goal == 1000
    assert distance(state, "North") == {75: 1, 100: 3, 200: 2}
    assert state.completer is None
    assert state.record().extension_called_by == "North"


def test_in_a_700_hand_passing_700_without_stopping_there_is_flagged():
    s = Stream(goal=700)
    cards = [card("South", Card.DISTANCE_200, 100, k) for k in range(2)] + \
        [card("South", Card.DISTANCE_100, 200, k) for k in range(2)]
    s.show(*cards, times=5)  # 600
    state = s.show(*cards, card("South", Card.DISTANCE_200, 100, 2), card("South", Card.DISTANCE_75, 300), times=5)
    assert distance(state, "South") == {200: 2, 100: 2, 75: 1}
    assert {f.reason for f in state.flags} == {FlagReason.THIRD_200}
    state = s.show(*cards, card("South", Card.DISTANCE_75, 300), card("South", Card.DISTANCE_100, 200, 2), times=5)
    assert [f.reason for f in state.flags] == [FlagReason.THIRD_200, FlagReason.PAST_GOAL]
    assert state.extension_called_by is None


def test_the_draw_pile_goes_only_after_several_frames_without_it():
    s = Stream()
    assert s.show(times=3).draw_pile
    assert s.show(draw_pile=False, times=4).draw_pile
    assert s.show(draw_pile=True).draw_pile
    assert s.show(draw_pile=False, times=4).draw_pile
    assert not s.show(draw_pile=False, times=1).draw_pile


@pytest.mark.parametrize("bad", [dict(minimum_frames_seen=0), dict(minimum_frames_seen=6, vote_window_frames=5),
                                 dict(same_card_radius=0.9, moved_card_radius=0.5), dict(draw_pile_frames=0),
                                 dict(minimum_evidence=6.0), dict(minimum_evidence=-1.0), dict(pile_top_frames=0),
                                 dict(mixed_column_frames=0)])
def test_settings_that_cannot_work_are_refused(bad):
    with pytest.raises(ValueError):
        ReconcileSettings(**bad)
