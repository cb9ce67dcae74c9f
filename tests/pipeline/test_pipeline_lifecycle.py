"""The hand lifecycle: start on a cleared table, end on the trip or when play stops, pending then final."""

from __future__ import annotations

from typing import Any

from scoring.cards import Card
from scoring.hand import HandRecord
from tests.pipeline.scripted import LAYOUT, PILE, Laid, ScriptedTable, column, outline
from vision.track import FlagReason
from vision.track.lifecycle import HandLifecycle, LifecycleSettings, Phase, Termination


class Table(ScriptedTable):
    def __init__(self, goal: int = 1000, **settings) -> None:
        settings.setdefault("again_within_frames", 1)  # a card laid every few frames here: no re-reading
        self.life = HandLifecycle(LAYOUT, goal, LifecycleSettings(**settings))
        self.life.draw_pile_spot = outline(*PILE)
        super().__init__(lambda view: self.life.update(view))


def full_trip(side: str = "South") -> list[Laid]:
    return column(side, Card.DISTANCE_200, 100, 2) + column(side, Card.DISTANCE_100, 200, 6)


def test_a_hand_ends_when_a_side_completes_the_trip_and_is_final_when_the_table_is_cleared():
    t = Table(start_on_first_frame=False)
    t.show(column("North", Card.DISTANCE_50, 100, 1), times=10)  # the end of an earlier hand: not followed
    assert t.life.phase is Phase.WAITING
    kinds = t.show(times=5)
    assert kinds == ["hand_started"]
    t.show(full_trip()[:7], times=5)
    assert t.life.phase is Phase.IN_PLAY
    kinds = t.show(column("North", Card.DISTANCE_75, 100, 2) + full_trip(), times=5, draw_pile=False)
    assert t.life.phase is Phase.FINISHED and kinds[-1] == "hand_pending"
    pending = t.life.pending
    assert pending.termination is Termination.TRIP_COMPLETED and not pending.final
    assert pending.record.completer.side == "South"
    assert pending.record.side("North").distance[75] == 2
    assert pending.record.draw_pile_empty_at_finish is False  # the pile was still believed there
    t.show(times=5)
    assert t.life.finished[0].final and t.life.finished[0].record == pending.record
    assert [e.kind for e in t.events][-2:] == ["hand_final", "hand_started"]
    assert t.life.hand_number == 2 and t.life.phase is Phase.IN_PLAY


def test_the_draw_pile_gone_at_the_finish_sets_delayed_action():
    t = Table()
    t.show(full_trip()[:7], times=5)
    t.show(full_trip()[:7], times=20, draw_pile=False)  # the last card drawn; two turns on, the trip completes
    t.show(full_trip(), times=5, draw_pile=False)
    assert t.life.pending.record.draw_pile_empty_at_finish is True


def test_a_hand_ends_when_the_pile_is_gone_and_nobody_plays_for_a_while():
    t = Table(play_stopped_after_s=20.0)
    cards = column("North", Card.DISTANCE_100, 100, 3)
    t.show(cards, times=20)
    t.show(cards, times=100, draw_pile=False)  # ten seconds without the pile: not yet
    assert t.life.phase is Phase.IN_PLAY
    t.show(cards, times=120, draw_pile=False)
    assert t.life.phase is Phase.FINISHED
    assert t.life.pending.termination is Termination.PLAY_STOPPED
    assert t.life.pending.record.draw_pile_empty_at_finish is True


def test_with_the_pile_still_there_a_quiet_table_is_not_the_end():
    t = Table(play_stopped_after_s=5.0)
    t.show(column("North", Card.DISTANCE_100, 100, 1), times=200)
    assert t.life.phase is Phase.IN_PLAY


def test_reaching_700_then_playing_on_reopens_the_hand_with_the_extension():
    t = Table(goal=700)
    seven = column("North", Card.DISTANCE_200, 100, 2) + column("North", Card.DISTANCE_100, 200, 3)
    t.show(seven, times=6)
    assert t.life.phase is Phase.FINISHED
    kinds = t.show(seven + column("North", Card.DISTANCE_50, 300, 1), times=5)
    assert "hand_reopened" in kinds and t.life.phase is Phase.IN_PLAY
    assert t.life.state.extension_called_by == "North"
    t.show(seven + column("North", Card.DISTANCE_50, 300, 1) + column("North", Card.DISTANCE_25, 400, 2), times=5)
    assert t.life.phase is Phase.IN_PLAY  # 800 of 1,000
    t.show(seven + column("North", Card.DISTANCE_50, 300, 1) + column("North", Card.DISTANCE_25, 400, 2)
           + column("North", Card.DISTANCE_100, 200, 5)[3:], times=5)
    assert t.life.phase is Phase.FINISHED
    assert t.life.pending.record.extension_called_by == "North"
    assert t.life.pending.record.completer.side == "North"


def test_a_confirmed_hand_is_final_and_a_correction_replaces_the_pending_record():
    t = Table()
    t.show(full_trip(), times=6)
    fixed = HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {"25": 1}}, {"side": "South", "distance": {"200": 2, "100": 6}}]})
    t.life.correct(fixed)
    assert t.life.pending.record == fixed and t.life.pending.corrected
    done = t.life.confirm()
    assert done.final and done.record == fixed and t.life.pending is None
    assert t.life.confirm() is None


def test_a_correction_during_play_goes_to_the_tracker():
    t = Table()
    t.show(column("South", Card.DISTANCE_100, 200, 2), times=5)
    t.life.correct(HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {}}, {"side": "South", "distance": {"100": 1}}]}))
    t.show(column("South", Card.DISTANCE_100, 200, 2), times=5)
    assert t.life.state.sides[1].distance[100] == 1


def test_the_end_of_the_source_leaves_the_hand_pending_as_it_stands_and_flagged_unfinished():
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    kinds = [e.kind for e in t.life.end_of_source(t.index - 1)]
    assert kinds == ["flagged", "hand_pending"]
    assert t.life.pending.termination is Termination.SOURCE_ENDED
    assert t.life.pending.record.side("South").distance[75] == 2
    (flag,) = t.life.pending.flags
    assert flag.reason is FlagReason.UNFINISHED and flag.side is None and flag.card is None
    assert "1000 km" in flag.message and "South has 150" in flag.message
    assert flag.to_json()["card"] is None


def test_clearing_the_table_mid_hand_ends_it_flagged_unfinished():
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    t.show(times=5)
    assert t.life.finished == []  # in doubt: held for a person, not final
    assert t.life.held[0].termination is Termination.TABLE_CLEARED
    assert [f.reason for f in t.life.held[0].flags] == [FlagReason.UNFINISHED]
    assert t.life.hand_number == 2


def test_a_hand_over_by_the_trip_or_the_empty_pile_is_not_flagged_unfinished():
    t = Table()
    t.show(full_trip(), times=6)
    t.life.end_of_source(t.index - 1)
    assert t.life.pending.termination is Termination.TRIP_COMPLETED and t.life.pending.flags == ()
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=8, draw_pile=False)
    t.life.end_of_source(t.index - 1)
    assert t.life.pending.termination is Termination.SOURCE_ENDED and t.life.pending.flags == ()
    t = Table()
    t.show(times=3)
    assert t.life.end_of_source(t.index - 1) == []  # nobody played yet: nothing to confirm
    assert t.life.pending is None


def test_a_correction_of_the_pending_hand_settles_its_flags():
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    t.life.end_of_source(t.index - 1)
    assert t.life.state.flags
    fixed = HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {}}, {"side": "South", "distance": {"75": 2}}]})
    t.life.correct(fixed)
    assert t.life.pending.corrected and t.life.state.flags == ()


def piped_table() -> tuple[Any, Table]:
    """A table whose lifecycle is a pipeline's (fed observations, its frame reader unused)."""
    from vision.pipeline import Pipeline

    class Reader:  # the pipeline's frame reader is not used here
        pass

    pipeline = Pipeline(Reader(), LAYOUT, goal=1000)  # type: ignore[arg-type]
    t = Table()
    t.life = pipeline.lifecycle
    t.life.draw_pile_spot = outline(*PILE)
    return pipeline, t


def test_a_replay_that_ends_on_a_cleared_table_reports_the_last_hand():
    pipeline, t = piped_table()
    t.show(full_trip("North"), times=6)
    t.show(times=8)
    out = pipeline.replay_json()
    assert out["hand"]["sides"][0]["distance"] == {"25": 0, "50": 0, "75": 0, "100": 6, "200": 2}
    assert len(out["events"]) == 8
    assert out["flags"] == []


def test_a_hand_with_open_flags_is_never_made_final_by_the_cleared_table_alone():
    pipeline, t = piped_table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    kinds = t.show(times=5)  # cleared mid-hand: flagged unfinished, held for a person; the next hand starts
    assert "hand_held" in kinds and "hand_final" not in kinds
    (held,) = t.life.held
    assert held.number == 1 and not held.final and t.life.finished == []
    assert [f.reason for f in held.flags] == [FlagReason.UNFINISHED]
    live = pipeline.live_hand()
    assert live.hand == 2 and [h.number for h in live.held] == [1]
    assert [f.reason for f in live.held[0].flags] == ["unfinished"]
    # it survives a restart with the hand in play
    again = HandLifecycle.from_state(t.life.to_state(), HandLifecycle(LAYOUT, 1000))
    assert again.held == t.life.held
    # the next hand, without a flag, ends and the table is cleared: it waits in line behind the first
    t.show(full_trip(), times=6)
    kinds = t.show(times=5)
    assert [h.number for h in t.life.held] == [1, 2] and t.life.finished == []
    assert t.events[-2].kind == "hand_held" and "hand 1 waits" in t.events[-2].message
    # a person confirms the first: it is final, and the one in line behind it goes in after it
    assert t.life.confirm().number == 1
    assert [h.number for h in t.life.release()] == [2]
    assert [h.number for h in t.life.finished] == [1, 2] and t.life.held == []


def test_a_correction_goes_to_the_first_hand_held():
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    t.show(times=5)
    t.show(column("North", Card.DISTANCE_100, 200, 1), times=5)  # the next hand, in play
    fixed = HandRecord.from_json({"goal": 1000, "sides": [
        {"side": "North", "distance": {}}, {"side": "South", "distance": {"75": 3}}]})
    t.life.correct(fixed)
    assert t.life.held[0].record == fixed and t.life.held[0].corrected
    assert t.life.state.sides[0].distance[100] == 1  # the hand in play is left as it is
    assert t.life.confirm().record == fixed


def test_a_hand_confirmed_by_a_person_or_without_flags_is_not_in_doubt():
    t = Table()
    t.show(full_trip(), times=6)
    t.show(times=5)  # a finished hand with no flag, made final by the cleared table
    assert t.life.finished[0].flags == () and t.life.held == []
    t = Table()
    t.show(column("South", Card.DISTANCE_75, 200, 2), times=5)
    t.life.end_of_source(t.index - 1)
    assert t.life.pending.flags
    t.life.confirm()  # a person looked at it
    t.show(times=5)
    assert t.life.held == [] and t.life.finished[0].flags


def test_a_card_laid_on_a_side_that_cannot_be_read_is_flagged_as_it_lands():
    """A deck Borne reads badly: a card on North's side names no card; the hand goes on, flagged where it lies."""
    t = Table()
    unread = Laid(None, 400.0, 300.0)
    t.show(column("North", Card.DISTANCE_25, 300, 1) + [unread], times=6)
    assert t.events[-1].kind == "flagged" and "North" in t.events[-1].message
    t.show(column("North", Card.DISTANCE_25, 300, 1) + [unread] + full_trip(), times=6)
    assert t.life.pending.termination is Termination.TRIP_COMPLETED
    (flag,) = t.life.pending.flags
    assert (flag.reason, flag.side, flag.card, flag.frame) == (FlagReason.UNREAD, "North", None, 0)
    assert flag.where == (400.0, 300.0 - 87.0 / 2)  # the middle of its top edge: the flag's picture outlines it
    assert "could not be read" in flag.message


def test_a_hand_whose_every_card_cannot_be_read_still_ends_pending_and_flagged():
    """A deck Borne cannot read: cards lie on both sides, none is read; the hand is not dropped in silence."""
    unread = [Laid(None, 400.0, 300.0), Laid(None, 480.0, 300.0), Laid(None, 400.0, 500.0)]
    for end in ("source", "cleared"):
        t = Table()
        t.show(times=2)
        t.show(unread, times=30)
        if end == "source":
            t.events += t.life.end_of_source(t.index)
            pending = t.life.pending
        else:
            t.show(times=10)
            (pending,) = t.life.held  # flagged: held for a person, never made final by the cleared table
        assert pending is not None and not sum(sum(pending.record.side(name).distance.values()) for name in ("North", "South"))
        assert t.life.hand_number == 1 + (end == "cleared")
        assert sorted((f.reason, f.side) for f in pending.flags if f.reason is FlagReason.UNREAD) == [
            (FlagReason.UNREAD, "North"), (FlagReason.UNREAD, "North"), (FlagReason.UNREAD, "South")]
    t = Table()
    t.show(times=2)
    t.show(times=30)  # an empty table: no hand to confirm
    t.events += t.life.end_of_source(t.index)
    assert t.life.pending is None and t.life.held == []
