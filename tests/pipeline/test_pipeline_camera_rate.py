"""A camera slower than 10 frames a second (a Pi at 4, a cheaper render at 5): the tracker's counts that stand for a
time keep that time, the vote's counts of looks at a card stay, and the pipeline is told the rate by its source."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.cards import Card
from tests.pipeline.scripted import Stream, card
from tests.pipeline.test_pipeline_piles import pile
from vision.pipeline import Pipeline
from vision.sources.frames import frames_for
from vision.table.layout import TableLayout
from vision.track import ReconcileSettings
from vision.track.lifecycle import LifecycleSettings
from vision.track.settings import TIMED_COUNTS


def test_at_the_nominal_rate_the_settings_are_unchanged():
    assert ReconcileSettings().at_rate(10) == ReconcileSettings()
    assert LifecycleSettings().at_rate(10) == LifecycleSettings()


def test_at_half_the_rate_timed_counts_halve_rounded_up_and_the_vote_stays():
    nominal, slow = ReconcileSettings(), ReconcileSettings().at_rate(5)
    assert (slow.pile_top_frames, slow.attack_taken_away_frames, slow.draw_pile_frames) == (2, 10, 3)
    assert (slow.doubt_seen_under, slow.doubt_unseen_frames, slow.mixed_column_frames) == (5, 25, 3)
    for field in dataclasses.fields(ReconcileSettings):
        if field.name not in TIMED_COUNTS:
            assert getattr(slow, field.name) == getattr(nominal, field.name), field.name
    assert LifecycleSettings().at_rate(4).cleared_table_frames == 2
    assert ReconcileSettings().at_rate(30).pile_top_frames == 9  # a fast camera: the same 0.3 s
    assert frames_for(1, 1) == 1  # never under one frame


@pytest.mark.parametrize("fps", [0, -5.0])
def test_a_rate_that_is_no_rate_is_refused(fps):
    with pytest.raises(ValueError, match="frames a second"):
        ReconcileSettings().at_rate(fps)


def _coup_fourre_after_a_glimpse_of_the_attack(settings: ReconcileSettings, fps: float):
    """At 5 frames a second: North's Stop shows for two frames before North lays Right of Way crosswise on it
    (the arm over the pile the while), the Stop taken away as the safety lands."""
    s = Stream(settings=settings, fps=fps)
    s.show(pile("North", Card.ROLL), times=6)
    s.show(pile("North", Card.STOP), times=2)
    s.show(times=2)  # the answering arm over the pile
    return s.show(pile("North", Card.ROLL), card("North", Card.RIGHT_OF_WAY, 400, sideways=True), times=8)


def test_an_attack_seen_for_a_slow_cameras_two_frames_answers_a_coup_fourre():
    state = _coup_fourre_after_a_glimpse_of_the_attack(ReconcileSettings().at_rate(5), 5)
    assert state.flags == () and state.events[-1].card is Card.RIGHT_OF_WAY and state.events[-1].sideways
    # read with the settings of a 10-frame camera, the two frames were too few for the Stop to come on top
    state = _coup_fourre_after_a_glimpse_of_the_attack(ReconcileSettings(), 5)
    assert [f.reason.value for f in state.flags] == ["unprovoked_coup_fourre"]


def test_the_pipeline_reads_its_settings_at_the_rate_it_is_given():
    layout = TableLayout.default(1280, 720)
    slow = Pipeline(None, layout, fps=5)  # type: ignore[arg-type]
    assert slow.lifecycle.settings == LifecycleSettings().at_rate(5)
    assert Pipeline(None, layout).lifecycle.settings == LifecycleSettings()  # type: ignore[arg-type]
