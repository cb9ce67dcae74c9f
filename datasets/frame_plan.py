"""The frame plan of a filmed hand: what the camera sees at each frame, for any renderer.

A game sequence is one simulated hand filmed by one camera at :data:`FPS` frames per second: a
few frames of the bare table, then for each play a player's hand reaching for the spot, the card
appearing under it, the hand leaving and a pause; the finished hand is looked at for a second or
two. The camera is knocked now and then and the light drifts. :func:`plan_hand` decides all of
that from the seed, once, so the 2-D renderer (:mod:`datasets.sequence`) and the photo-real one
(:mod:`datasets.photoreal.sequences`) film the same hand frame for frame: the same table states,
the same reaches, the same events.

The 2-D look of the table (surface, light, objects) is drawn here too, between the camera and the
frames, because that is the order the first sequences were drawn in and a seed must keep giving
the same 2-D files; the photo-real renderer draws its own look and ignores it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from datasets.arrangement import Arrangement, PlacedCard, arrange
from datasets.camera import Camera, sample_camera
from datasets.errors import SceneSpecError
from datasets.scene import SceneSpec, arm_reach, sample_light
from datasets.simulator import Play, SimulatedHand, simulate_hand
from datasets.table import TableState
from datasets.textures import sample_surface

FPS = 10
"""Frames per second of the plan: pauses and reaches are counted in its frames."""
CAMERA_RATES = (10, 5)
"""Frame rates a hand may be filmed at: the plan's, or one frame in two of it (a slower, cheaper camera)."""
NUDGE_CHANCE = 0.5
"""With ``drift``: the share of hands in which the camera is nudged once and stays where it was pushed."""
EXPOSURE_RANGE = (0.85, 1.18)
"""With ``drift``: how far the camera's own exposure wanders from the one metered on the bare table."""


@dataclass(frozen=True)
class Reach:
    """A player's hand over the table in one frame, reaching for the card being played or leaving it."""

    play: int
    """Index of the play in :attr:`SimulatedHand.plays` (who reaches, and which card)."""
    target: PlacedCard
    """Where the card lies (or will lie) on the table."""
    back: float
    """How far the hand still is from the card: 0 on it, 1 a whole reach away (it comes in, then leaves)."""


@dataclass(frozen=True)
class PlannedFrame:
    """One frame of the plan."""

    table: TableState
    """The cards on the table."""
    reach: Reach | None
    """A hand over the table, or ``None``."""
    landed: int
    """The play whose card appears on this frame, or -1."""
    latest: int
    """The play under way or last made (-1 before the first)."""


@dataclass(frozen=True)
class Shot:
    """A planned frame as filmed: the camera and light of that moment, and the generator of its looks."""

    index: int
    frame: PlannedFrame
    arrangement: Arrangement
    camera: Camera
    """The hand's camera, nudged when the table or the mount was knocked on this frame."""
    light: dict[str, float]
    """The 2-D light (:func:`datasets.scene.sample_light`) as it has drifted up to this frame."""
    rng: np.random.Generator
    """Goes on to draw the 2-D renderer's looks of this frame (blur, noise, JPEG)."""
    exposure: float = 1.0
    """The camera's exposure against the one metered on the first frame (``drift``: an auto-exposure wandering)."""


@dataclass(frozen=True)
class HandPlan:
    """A simulated hand, its camera and its frames; what stays put over the hand is drawn once here."""

    seed: int
    hand: SimulatedHand
    stable_seed: int
    """Seeds every card's place (:func:`datasets.arrangement.arrange`), so cards stay put frame to frame."""
    longest: int
    """The hand's longest distance column: fixes the depth of the side areas for the whole hand."""
    final: Arrangement
    """Where every card of the finished hand lies: what the camera keeps in frame, what objects avoid."""
    camera: Camera
    surface: tuple[str, np.ndarray]
    """The 2-D table surface (kind, texture)."""
    light: dict[str, float]
    """The 2-D light at the first frame."""
    distractors: tuple[np.ndarray, ...]
    """Where the 2-D renderer's objects stand (table mm)."""
    frames: tuple[PlannedFrame, ...]
    """The plan's frames, :data:`FPS` a second."""
    fps: int = FPS
    """The rate the camera films at (:data:`CAMERA_RATES`): it keeps one frame of the plan in ``FPS // fps``."""
    drift: bool = False
    """What a real camera adds over a hand: its exposure wanders, and in some hands the camera is nudged once and
    stays nudged (:meth:`nudge`). Off for the splits rendered before it, whose frames stay as they were."""

    @property
    def every(self) -> int:
        return FPS // self.fps

    @property
    def filmed(self) -> int:
        """How many frames the camera films."""
        return -(-len(self.frames) // self.every)

    def arrange(self, table: TableState) -> Arrangement:
        """Where the cards of one of the hand's tables lie (a card never moves once laid)."""
        return arrange(table, np.random.default_rng(self.stable_seed), stable_seed=self.stable_seed, longest=self.longest)

    def shots(self) -> Iterator[Shot]:
        """The frames in order, as filmed: knocks and light drift accumulate, so they come one after the other.

        A slower camera films one planned frame in :attr:`every` (each keeping the looks of the plan's frame);
        its shots are numbered as it films them.
        """
        light = self.light
        nudge = self.nudge()
        exposure = 1.0
        for f, frame in enumerate(self.frames):
            rng = np.random.default_rng([self.seed, 11, f])
            arr = self.arrange(frame.table)
            cam = nudge[1] if nudge is not None and f >= nudge[0] else self.camera
            if rng.random() < 0.08:  # a knock on the table or the camera mount
                cam = replace(cam, target=(cam.target[0] + rng.normal(0, 4), cam.target[1] + rng.normal(0, 4)),
                              yaw_deg=cam.yaw_deg + rng.normal(0, 0.4))
            if rng.random() < 0.05:
                light = {**light, "gain": float(np.clip(light["gain"] * rng.uniform(0.9, 1.1), 0.6, 1.25))}
            if self.drift:  # a random walk of the camera's own metering, from generators no other draw uses
                exposure = float(np.clip(exposure * np.exp(np.random.default_rng([self.seed, 43, f]).normal(0, 0.012)),
                                         *EXPOSURE_RANGE))
            if f % self.every == 0:
                yield Shot(f // self.every, frame, arr, cam, light, rng, exposure)

    def nudge(self) -> tuple[int, Camera] | None:
        """With ``drift``, in about :data:`NUDGE_CHANCE` of hands: the plan's frame from which the camera stays nudged
        (a sleeve or a knee against the mount while a card is laid) and the camera from then on; else ``None``."""
        rng = np.random.default_rng([self.seed, 41])
        reaching = [f for f, frame in enumerate(self.frames) if frame.reach is not None and f > 0]
        if not self.drift or not reaching or rng.random() >= NUDGE_CHANCE:
            return None
        at = reaching[int(rng.integers(len(reaching) // 4, len(reaching)))]
        cam = self.camera
        shift = rng.normal(0, 1, 2)
        shift = shift / (np.linalg.norm(shift) + 1e-9) * rng.uniform(8, 20)  # 8-20 mm on the table
        return at, replace(cam, target=(cam.target[0] + float(shift[0]), cam.target[1] + float(shift[1])),
                           yaw_deg=cam.yaw_deg + float(rng.choice([-1, 1]) * rng.uniform(0.5, 1.5)))

    def play(self, reach: Reach) -> Play:
        return self.hand.plays[reach.play]

    def player_index(self, reach: Reach) -> int:
        """The reaching player's place at the table (0 for the first side): one look per player."""
        return [s.side for s in self.hand.initial.sides].index(self.play(reach).player)

    def fingertips_and_seat(self, reach: Reach, arrangement: Arrangement) -> tuple[np.ndarray, np.ndarray]:
        """Where the hand's fingertips land (over the card) and the player's shoulder, table mm; one draw per play."""
        return arm_reach(np.random.default_rng([self.seed, 13, reach.play]), arrangement, reach.target,
                         player=self.play(reach).player)

    def events(self) -> list[dict[str, object]]:
        """Each play with the first filmed frame its card lies in (``events.json``)."""
        out: list[dict[str, object]] = []
        for f, frame in enumerate(self.frames):
            if frame.landed >= 0:
                p = self.hand.plays[frame.landed]
                out.append({"frame": -(-f // self.every), "side": p.side, "card": p.card.value, "sideways": p.sideways, "pile": p.pile.value,
                            "player": p.player})
        return out

    def shown(self) -> TableState:
        """The table at the last frame (``hand.json`` is its record)."""
        return self.frames[-1].table if self.frames else self.hand.initial


def _longest(table: TableState) -> int:
    from scoring.cards import DISTANCE_CARDS

    return max([1] + [sum(1 for c in s.distance if c is d) for s in table.sides for d in DISTANCE_CARDS])


def plan_hand(seed: int, spec: SceneSpec = SceneSpec(), *, sides: int = 2, max_frames: int | None = None,
              fps: int = FPS, drift: bool = False) -> HandPlan:
    """The plan of the hand of ``seed`` filmed at ``spec``'s size (the camera keeps the whole table in that picture)
    and ``fps`` frames a second (:data:`CAMERA_RATES`; the same hand at any rate). ``max_frames`` cuts the plan;
    ``drift`` adds a wandering exposure and, in some hands, a lasting camera nudge (:attr:`HandPlan.drift`).

    :raises SceneSpecError: a number of sides other than 2–4, a rate not in :data:`CAMERA_RATES`.
    """
    if fps not in CAMERA_RATES:
        raise SceneSpecError(f"a hand is filmed at {' or '.join(map(str, CAMERA_RATES))} frames a second, not {fps}")
    rng = np.random.default_rng([seed, 7])
    hand = simulate_hand(seed, sides)
    stable = int(rng.integers(2**31))
    final = hand.tables[-1] if hand.tables else hand.initial
    longest = _longest(final)
    final_arr = arrange(final, rng, stable_seed=stable, longest=longest)
    camera = sample_camera(rng, spec.width, spec.height, final_arr.extent(areas=True))
    surface = sample_surface(rng, spec.surfaces, spec.surface_folder)
    light = sample_light(rng)
    distractors = tuple(final_arr.extent(areas=True).mean(axis=0) + rng.normal(0, 1, 2) * 350 for _ in range(int(rng.integers(0, 3))))
    frames: list[PlannedFrame] = []
    previous = hand.initial
    for _ in range(int(rng.integers(2, 5))):
        frames.append(PlannedFrame(previous, None, -1, -1))
    for i, (play, table) in enumerate(zip(hand.plays, hand.tables)):
        reach = int(rng.integers(2, 4))
        placed = next((c for c in reversed(arrange(table, rng, stable_seed=stable, longest=longest).cards) if c.card is play.card), None)

        def reaching(back: float, i: int = i, placed: PlacedCard | None = placed) -> Reach | None:
            return Reach(i, placed, back) if placed is not None else None

        for k in range(reach):
            frames.append(PlannedFrame(previous, reaching(1.0 - k / reach), -1, i))
        frames.append(PlannedFrame(table, reaching(0.0), i, i))  # the card lands under the hand
        frames.append(PlannedFrame(table, reaching(0.5), -1, i))  # and the hand leaves
        for _ in range(int(rng.integers(0, 4))):
            frames.append(PlannedFrame(table, None, -1, i))
        previous = table
    # the players look at the finished hand for a second or two before anyone touches it
    # (a generator of its own, so that every frame before stays as it was)
    for _ in range(int(np.random.default_rng([seed, 8]).integers(FPS, 2 * FPS + 1))):
        frames.append(PlannedFrame(previous, None, -1, len(hand.plays) - 1))
    if max_frames is not None:
        frames = frames[:max_frames]
    return HandPlan(seed, hand, stable, longest, final_arr, camera, surface, light, distractors, tuple(frames), fps, drift)
