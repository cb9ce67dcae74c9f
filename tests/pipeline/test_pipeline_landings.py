"""The live pipeline on painted frames: a table already in play when the camera starts (read once, counted,
flagged), a table cleared (the hand ends), a card moved (one play, no unread card), and a run taken back after a
restart (no landing lost or doubled)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring.cards import Card
from tests.vision.test_vision_landing import H, W, arm, card_corners, face_of, lay, table
from vision.pipeline import Pipeline
from vision.read.frame_reader import FrameReading
from vision.read.matcher import FaceMatcher
from vision.read.models import faces_folder
from vision.read.sighting import Sighting
from vision.sources import Frame
from vision.table.layout import SideZone, TableLayout
from vision.track.lifecycle import Termination

LAYOUT = TableLayout((SideZone("North", np.array([[0, 0], [W, 0], [W, 150], [0, 150]], float), (0.0, -1.0)),
                      SideZone("South", np.array([[0, 210], [W, 210], [W, H], [0, H]], float), (0.0, 1.0))))


@pytest.fixture(scope="module")
def matcher() -> FaceMatcher:
    return FaceMatcher.from_folder(faces_folder("generic"), "generic")


class WholeTable:
    """The whole table's reader: answers with the sightings given for the picture it is shown, else none."""

    def __init__(self, recogniser: FaceMatcher, seen: list[tuple[np.ndarray, list[Sighting]]]) -> None:
        self.recogniser = recogniser
        self.seen = seen
        self.reads = 0

    def read(self, image: np.ndarray) -> FrameReading:
        self.reads += 1
        sightings = next((s for picture, s in self.seen if np.array_equal(picture, image)), [])
        return FrameReading(tuple(sightings), None)


def follow(pipeline: Pipeline, frames: list[np.ndarray], start: int = 0) -> None:
    for i, image in enumerate(frames, start):
        pipeline.process(Frame(i, i / 10, image))


def test_a_table_in_play_at_the_first_view_is_counted_once_and_flagged_and_clearing_it_ends_the_hand(matcher):
    north_100, south_75 = card_corners((150, 70), 0), card_corners((150, 290), 0)
    in_play = lay(lay(table(), face_of(matcher, Card.DISTANCE_100), north_100), face_of(matcher, Card.DISTANCE_75),
                  south_75)
    more = lay(in_play, face_of(matcher, Card.DISTANCE_50), card_corners((320, 290), 0))
    cleared = table()
    reader = WholeTable(matcher, [(in_play, [Sighting(north_100, True, Card.DISTANCE_100, 0.9),
                                             Sighting(south_75, True, Card.DISTANCE_75, 0.9)])])
    pipeline = Pipeline(reader, LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [in_play] * 4 + [arm(more, (330, 300))] + [more] * 4 + [arm(cleared, (200, 200))] + [cleared] * 12)
    assert pipeline.lifecycle.pending is None and len(pipeline.lifecycle.held) == 1  # flagged: held for a person
    (held,) = pipeline.lifecycle.held
    assert held.termination is Termination.TABLE_CLEARED
    assert held.record.side("North").distance[100] == 1 and held.record.side("South").distance == {
        25: 0, 50: 1, 75: 1, 100: 0, 200: 0}
    assert [e.card for e in held.events] == [Card.DISTANCE_100, Card.DISTANCE_75, Card.DISTANCE_50]
    reasons = [f.reason.value for f in held.flags]
    assert reasons == ["in_play_at_start", "unfinished"]  # the cards cleared away are no unread cards


def test_a_card_moved_is_one_play_where_it_lies_now_and_no_unread_card(matcher):
    empty = table()
    roll = lay(empty, face_of(matcher, Card.ROLL), card_corners((520, 290), 0))
    laid = lay(roll, face_of(matcher, Card.DISTANCE_25), card_corners((150, 290), 0))
    moved = lay(roll, face_of(matcher, Card.DISTANCE_25), card_corners((330, 290), 0))  # to the next column
    # the table read whole once the card went: not cleared, the 25 lies elsewhere
    seen = [Sighting(card_corners((520, 290), 0), True, Card.ROLL, 0.9), Sighting(card_corners((330, 290), 0), True, Card.DISTANCE_25, 0.9)]
    pipeline = Pipeline(WholeTable(matcher, [(moved, seen)]), LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [empty] * 2 + [roll] * 4 + [laid] * 4 + [arm(moved, (330, 300))] + [moved] * 4)
    state = pipeline.state
    assert state is not None and [e.card for e in state.events] == [Card.DISTANCE_25]
    assert state.sides[1].distance[25] == 1 and state.flags == ()
    hand = pipeline.lifecycle.tracker.hand  # type: ignore[union-attr]
    assert [p.card for p in hand.taken] == [Card.DISTANCE_25] and len(hand.departures) == 1


def three_laid(matcher):
    """The empty table, then a 100 and a 200 on South's side, then a 50 on North's."""
    empty = table()
    one = lay(empty, face_of(matcher, Card.DISTANCE_100), card_corners((150, 290), 0))
    two = lay(one, face_of(matcher, Card.DISTANCE_200), card_corners((300, 290), 0))
    return empty, one, two, lay(two, face_of(matcher, Card.DISTANCE_50), card_corners((450, 70), 0))


def taken_back(matcher, frames: list[np.ndarray]) -> Pipeline:
    """A pipeline that followed ``frames``, then a new one that took back its snapshot (stored as JSON)."""
    first = Pipeline(WholeTable(matcher, []), LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(first, frames)
    again = Pipeline(WholeTable(matcher, []), LAYOUT, goal=1000)  # type: ignore[arg-type]
    again.restore(json.loads(json.dumps(first.snapshot())))
    return again


def test_a_run_taken_back_after_a_restart_goes_on_with_no_landing_lost_or_doubled(matcher):
    empty, one, two, three = three_laid(matcher)
    again = taken_back(matcher, [empty] * 2 + [one] * 4 + [two] * 4)
    follow(again, [two] * 4 + [three] * 4)  # the camera's frames count from 0 again; a new first view
    state = again.state
    assert state is not None
    assert [(e.side, e.card) for e in state.events] == [
        ("South", Card.DISTANCE_100), ("South", Card.DISTANCE_200), ("North", Card.DISTANCE_50)]
    assert state.flags == ()


def test_cards_laid_while_borne_was_down_are_landings_against_the_view_it_saved(matcher):
    empty, one, _, three = three_laid(matcher)
    again = taken_back(matcher, [empty] * 2 + [one] * 4)
    follow(again, [three] * 5)  # the 200 and the 50 were laid while Borne was down
    state = again.state
    assert state is not None
    assert sorted((e.side, e.card.value) for e in state.events) == sorted([
        ("South", Card.DISTANCE_100.value), ("South", Card.DISTANCE_200.value), ("North", Card.DISTANCE_50.value)])
    assert state.flags == ()


def test_a_snapshot_of_an_older_borne_is_refused_with_its_version(matcher):
    pipeline = Pipeline(WholeTable(matcher, []), LAYOUT, goal=1000)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="version 2"):
        pipeline.restore({**pipeline.snapshot(), "version": 2})


def ended(pipeline: Pipeline):
    """The hand the source's end left pending (or held for its flags)."""
    pipeline.finish()
    lifecycle = pipeline.lifecycle
    return lifecycle.held[0] if lifecycle.held else lifecycle.pending


def one_hundred_read_as_two(matcher):
    """An empty table, the same with a 100 laid on South's side, and a reader whose whole read of it sees a second
    100 there (a play the watch missed, or a census misreading)."""
    empty = table()
    here, there = card_corners((150, 290), 0), card_corners((320, 290), 0)
    laid = lay(empty, face_of(matcher, Card.DISTANCE_100), here)
    seen = [Sighting(here, True, Card.DISTANCE_100, 0.9), Sighting(there, True, Card.DISTANCE_100, 0.9)]
    return empty, laid, WholeTable(matcher, [(laid, seen)])


def test_a_census_showing_more_than_the_landings_is_a_flag_never_a_count(matcher):
    # the table read whole as the source ends sees the second 100: flagged with where it lies, the count stays
    # the landings'
    empty, laid, reader = one_hundred_read_as_two(matcher)
    pipeline = Pipeline(reader, LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [empty] * 2 + [laid] * 10)
    assert reader.reads == 1  # the first view only: no whole read in the second after a landing
    hand = ended(pipeline)
    assert hand is not None and hand.record.side("South").distance[100] == 1
    census = [f for f in hand.flags if f.reason.value == "census"]
    assert [(f.side, f.card) for f in census] == [("South", Card.DISTANCE_100)]
    assert "shows 2" in census[0].message and census[0].where is not None


def test_a_pause_in_play_checks_the_census_once_a_landing(matcher):
    empty, laid, reader = one_hundred_read_as_two(matcher)
    pipeline = Pipeline(reader, LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [empty] * 2 + [laid] * 40)  # the table still 4 s after the landing: read whole once
    state = pipeline.state
    assert state is not None and state.sides[1].distance[100] == 1 and reader.reads == 2
    (flag,) = state.flags
    assert (flag.reason.value, flag.side, flag.card) == ("census", "South", Card.DISTANCE_100)
    follow(pipeline, [laid] * 30, start=42)  # nothing landed since: not read again, nor at the source's end
    hand = ended(pipeline)
    assert reader.reads == 2 and hand is not None and [f.reason.value for f in hand.flags].count("census") == 1


def test_a_census_agreeing_with_the_landings_raises_nothing(matcher):
    empty = table()
    here = card_corners((150, 290), 0)
    laid = lay(empty, face_of(matcher, Card.DISTANCE_100), here)
    reader = WholeTable(matcher, [(laid, [Sighting(here, True, Card.DISTANCE_100, 0.9)])])
    pipeline = Pipeline(reader, LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [empty] * 2 + [laid] * 10)
    hand = ended(pipeline)
    assert hand is not None and not [f for f in hand.flags if f.reason.value == "census"] and reader.reads == 2


def test_a_card_nudged_by_a_sleeve_is_no_second_play(matcher):
    empty = table()
    laid = lay(empty, face_of(matcher, Card.DISTANCE_100), card_corners((200, 290), 0))
    nudged = lay(empty, face_of(matcher, Card.DISTANCE_100), card_corners((206, 294), 4))
    pipeline = Pipeline(WholeTable(matcher, []), LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [empty] * 2 + [laid] * 12 + [arm(nudged, (260, 330))] + [nudged] * 4)
    state = pipeline.state
    assert state is not None and [e.card for e in state.events] == [Card.DISTANCE_100] and state.flags == ()


def test_a_card_drawn_from_the_pile_is_no_play_and_the_pile_gone_is_known(matcher):
    back = matcher.back
    assert back is not None
    pile, twenty_five = card_corners((320, 180), 90), card_corners((150, 290), 0)
    played = lay(table(), face_of(matcher, Card.DISTANCE_25), twenty_five)  # the hand in play when the camera starts
    full = lay(played, back, pile)
    on_side = Sighting(twenty_five, True, Card.DISTANCE_25, 0.9)
    reader = WholeTable(matcher, [(full, [Sighting(pile, False, None, 0.9), on_side]), (played, [on_side])])
    pipeline = Pipeline(reader, LAYOUT, goal=1000)  # type: ignore[arg-type]
    follow(pipeline, [full] * 3 + [arm(full, (330, 200))] + [full] * 4)  # a card drawn: the next one shows the same back
    state = pipeline.state
    assert state is not None and [e.card for e in state.events] == [Card.DISTANCE_25] and state.draw_pile
    follow(pipeline, [arm(played, (330, 200))] + [played] * 4, start=8)  # the last card drawn: the pile is gone
    state = pipeline.state
    assert state is not None and not state.draw_pile and [e.card for e in state.events] == [Card.DISTANCE_25]
    assert [f.reason.value for f in state.flags] == ["in_play_at_start"]
