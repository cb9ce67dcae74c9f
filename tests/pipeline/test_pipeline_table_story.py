"""The table's story as the issue tells it: a card counted is hidden, not gone; a count that would have to
shrink is a flag with its frame (and the hand waits for a person); a phantom read under an arm is not counted."""

from __future__ import annotations

from scoring.cards import Card
from tests.pipeline.scripted import Stream, card, distance
from vision.table.observations import FrameObservations, Observation
from vision.track import FlagReason
from vision.track.lifecycle import HandLifecycle, LifecycleSettings

UP = (("North", (0.0, 1.0)), ("South", (0.0, -1.0)))


def test_a_counted_card_hidden_for_a_long_while_is_kept_and_not_doubted():
    s = Stream()
    south = card("South", Card.DISTANCE_50, 300)
    hundreds = [card("North", Card.DISTANCE_100, 100, k) for k in range(3)]
    s.show(south, *hundreds, times=20)
    state = s.show(south, times=120)  # an arm over North's zone for 12 s: nothing of it in sight
    assert distance(state, "North") == {100: 3} and state.flags == ()


def test_a_count_that_would_have_to_shrink_is_a_flag_with_its_frame_and_the_hand_waits_for_a_person():
    life = HandLifecycle(("North", "South"), 1000, LifecycleSettings())
    south = Observation("South", Card.DISTANCE_50, False, (300.0, 500.0), 0.9)
    phantom = Observation("North", Card.DISTANCE_75, False, (200.0, 300.0), 0.9)
    frames = [(south,)] * 5 + [(south, phantom)] * 4 + [(south,)] * 60  # counted, then never seen again
    for i, cards in enumerate(frames):
        life.update(FrameObservations(i, i / 10, cards, True, 87.0, UP))
    state = life.state
    assert state is not None and state.sides[0].distance[75] == 1  # counted cards never leave the count …
    (flag,) = state.flags
    assert flag.reason is FlagReason.SELDOM_SEEN and flag.card is Card.DISTANCE_75  # … the reading is doubted
    assert "at frame 5" in flag.message and flag.frame == 5 + 4 - 1 + life.tracker.settings.doubt_unseen_frames  # type: ignore[union-attr]
    for i in range(len(frames), len(frames) + 6):  # the table cleared: the hand is held, not final
        life.update(FrameObservations(i, i / 10, (), True, 87.0, UP))
    assert life.finished == [] and [h.number for h in life.held] == [1]


def test_a_phantom_read_for_a_frame_or_two_under_an_arm_is_not_counted():
    s = Stream()
    south = card("South", Card.DISTANCE_50, 300)
    s.show(south, card("North", Card.DISTANCE_100, 100), times=10)
    for _ in range(6):  # an arm sweeps over North: now and then its edge reads as a 25
        s.show(south, card("North", Card.DISTANCE_25, 150, conf=0.6), times=2)
        state = s.show(south, times=3)
    assert distance(state, "North") == {100: 1} and state.flags == ()
