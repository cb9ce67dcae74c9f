"""A hand filmed by a slower camera: the same hand, one frame of the plan in two (the cheaper photo-real test split)."""

from __future__ import annotations

import json

import pytest

from borne.commands import data as data_command
from datasets.errors import SceneSpecError
from datasets.frame_plan import CAMERA_RATES, plan_hand
from datasets.scene import SceneSpec
from datasets.sequence import generate_sequence

SMALL = SceneSpec(width=320, height=180)


def test_at_5_frames_a_second_the_camera_films_every_other_frame_of_the_same_hand():
    fast, slow = plan_hand(11, SMALL), plan_hand(11, SMALL, fps=5)
    fast_shots, slow_shots = list(fast.shots()), list(slow.shots())
    assert len(slow_shots) == slow.filmed == (len(fast_shots) + 1) // 2
    for shot in slow_shots:
        twin = fast_shots[2 * shot.index]
        assert (shot.frame, shot.camera, shot.light) == (twin.frame, twin.camera, twin.light)
    assert slow.shown().record() == fast.shown().record()
    fast_events, slow_events = fast.events(), slow.events()
    assert [{**e, "frame": 0} for e in slow_events] == [{**e, "frame": 0} for e in fast_events]
    for f, s in zip(fast_events, slow_events, strict=True):
        assert s["frame"] * 2 >= f["frame"] > s["frame"] * 2 - 2  # the first filmed frame the card lies in


def test_a_rate_the_plan_cannot_film_is_refused():
    with pytest.raises(SceneSpecError, match="10 or 5 frames a second, not 7"):
        plan_hand(11, SMALL, fps=7)


def test_the_commands_offer_the_rates_the_plan_films_at():
    assert data_command.CAMERA_RATES == CAMERA_RATES  # written out there so that building the parser imports no data engine


def test_a_2d_sequence_at_5_frames_a_second_writes_one_frame_in_two(tmp_path):
    out = generate_sequence(tmp_path / "h", seed=11, spec=SMALL, max_frames=12, video=False, progress=False, fps=5)
    assert out["frames"] == 6
    assert len(list((tmp_path / "h" / "frames").glob("*.jpg"))) == len(list((tmp_path / "h" / "truth").glob("*.json"))) == 6
    events = json.loads((tmp_path / "h" / "events.json").read_text())
    assert all(0 <= e["frame"] < 6 for e in events)
