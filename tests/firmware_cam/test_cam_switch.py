"""``borne run``'s switch to another camera: the pipeline sees one camera, its frames numbered and timed on."""

from __future__ import annotations

import time

import numpy as np

from borne.live import SwitchableSource
from vision.sources import LiveSource


class Steady:
    """A camera that shows one grey level, 100 frames a second."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        time.sleep(0.01)
        return True, np.full((24, 32, 3), self.value, np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_switch_keeps_one_numbering_and_one_clock_and_closes_the_old_camera() -> None:
    first, second = Steady(10), Steady(200)
    old = LiveSource(lambda: first, name="first")
    source = SwitchableSource(old, "http://a/stream.mjpg?token=x")
    frames = source.frames()
    seen = [next(frames) for _ in range(5)]
    source.switch(LiveSource(lambda: second, name="second"), "http://b/stream.mjpg?token=y")
    deadline = time.monotonic() + 10
    while int(seen[-1].image[0, 0, 0]) != 200:
        seen.append(next(frames))
        assert time.monotonic() < deadline
    seen += [next(frames) for _ in range(3)]
    source.close()
    assert [f.index for f in seen] == list(range(len(seen)))
    assert all(b.time > a.time for a, b in zip(seen, seen[1:]))
    assert source.spec == "http://b/stream.mjpg?token=y" and source.switches == 1 and first.released
    assert source.current_url() == "http://b/stream.mjpg?token=y"
