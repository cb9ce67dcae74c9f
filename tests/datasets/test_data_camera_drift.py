"""A real camera's drift over a filmed hand: its exposure wanders, and in some hands it is nudged once for good."""

from __future__ import annotations

from datasets.frame_plan import EXPOSURE_RANGE, plan_hand
from datasets.scene import SceneSpec

SMALL = SceneSpec(width=320, height=180)


def test_without_drift_a_hand_is_filmed_as_before():
    plain, drifting = list(plan_hand(11, SMALL).shots()), list(plan_hand(11, SMALL, drift=True).shots())
    assert {s.exposure for s in plain} == {1.0}
    assert [(s.frame, s.light) for s in plain] == [(s.frame, s.light) for s in drifting]
    assert plan_hand(11, SMALL).nudge() is None


def test_the_exposure_wanders_within_its_range():
    exposures = [s.exposure for s in plan_hand(11, SMALL, drift=True).shots()]
    assert len(set(exposures)) > len(exposures) // 2
    assert all(EXPOSURE_RANGE[0] <= e <= EXPOSURE_RANGE[1] for e in exposures)


def test_a_nudged_camera_stays_where_it_was_pushed_and_about_half_the_hands_are_nudged():
    plans = [plan_hand(seed, SMALL, drift=True, max_frames=120) for seed in range(20)]
    nudged = [p for p in plans if p.nudge() is not None]
    assert 4 <= len(nudged) <= 16
    plan = nudged[0]
    at, camera = plan.nudge()  # type: ignore[misc]
    assert plan.frames[at].reach is not None  # a sleeve or a knee while a card is laid
    shots = list(plan.shots())
    # a knock shakes a frame or two; from the nudge on, most frames are filmed by the nudged camera
    assert sum(s.camera == camera for s in shots[at:]) > 0.8 * len(shots[at:])
    assert all(s.camera != camera for s in shots[:at])
