"""A camera slower or faster than 10 frames a second (a Pi at 4, a cheaper render at 5): the counts of frames that
stand for a time keep that time, and the pipeline is told the rate by its source."""

from __future__ import annotations

import pytest

from vision.landing.watch import SETTLE_FRAMES
from vision.pipeline import Pipeline
from vision.sources.frames import frames_for
from vision.table.layout import TableLayout
from vision.track.lifecycle import LifecycleSettings


def test_timed_counts_keep_their_time_at_any_rate():
    assert LifecycleSettings().at_rate(10) == LifecycleSettings()
    assert LifecycleSettings().at_rate(4).cleared_table_frames == 2
    assert LifecycleSettings().at_rate(30).cleared_table_frames == 15
    assert frames_for(1, 1) == 1  # never under one frame


@pytest.mark.parametrize("fps", [0, -5.0])
def test_a_rate_that_is_no_rate_is_refused(fps):
    with pytest.raises(ValueError, match="frames a second"):
        LifecycleSettings().at_rate(fps)


def test_the_pipeline_reads_its_settings_at_the_rate_it_is_given():
    layout = TableLayout.default(1280, 720)
    slow = Pipeline(None, layout, fps=5)  # type: ignore[arg-type]
    assert slow.lifecycle.settings == LifecycleSettings().at_rate(5)
    assert slow.watch.settle_frames == SETTLE_FRAMES  # given at 5 frames a second
    fast = Pipeline(None, layout, fps=30)  # type: ignore[arg-type]
    assert fast.watch.settle_frames == 6 * SETTLE_FRAMES
    assert Pipeline(None, layout).lifecycle.settings == LifecycleSettings()  # type: ignore[arg-type]
