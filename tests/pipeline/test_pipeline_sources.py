"""Frame sources: folders and video files deliver every frame in order; a live camera keeps only the
newest frame, and when it is lost says so and reconnects with backoff."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from vision.sources import (
    FolderSource,
    LiveSettings,
    LiveSource,
    SourceError,
    VideoFileSource,
    open_source,
)


def picture(value: int, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    return np.full((*size, 3), value, np.uint8)


def test_a_folder_gives_its_frames_sorted_by_name_and_skips_corrupt_ones(tmp_path):
    for name, value in (("002.png", 20), ("000.png", 0), ("001.jpg", 10), ("010.png", 100)):
        cv2.imwrite(str(tmp_path / name), picture(value))
    (tmp_path / "003.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    (tmp_path / "notes.txt").write_text("not a frame")
    source = FolderSource(tmp_path, fps=5)
    frames = list(source.frames())
    assert [f.index for f in frames] == [0, 1, 2, 4]
    assert [f.time for f in frames] == [0.0, 0.2, 0.4, 0.8]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 10, 20, 100]
    assert frames[0].name.endswith("000.png")
    assert (source.stats.frames, source.stats.corrupt) == (4, 1)


def test_an_empty_or_missing_folder_is_refused(tmp_path):
    with pytest.raises(SourceError, match="no JPEG or PNG"):
        FolderSource(tmp_path)
    with pytest.raises(SourceError, match="no such folder"):
        FolderSource(tmp_path / "nowhere")


def write_video(path, values, fps=10.0):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    assert writer.isOpened()
    for v in values:
        writer.write(picture(v))
    writer.release()


def test_a_video_file_gives_every_frame_in_order_on_its_own_clock(tmp_path):
    path = tmp_path / "hand.avi"
    write_video(path, [0, 40, 80, 120, 160, 200], fps=5.0)
    with VideoFileSource(path) as source:
        frames = list(source.frames())
    assert [f.index for f in frames] == list(range(6))
    assert frames[-1].time == pytest.approx(1.0)
    assert [round(float(f.image.mean()) / 40) for f in frames] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("content", [b"", b"this is no video at all" * 100])
def test_a_file_that_is_not_a_video_is_refused(tmp_path, content):
    path = tmp_path / "hand.mp4"
    path.write_bytes(content)
    with pytest.raises(SourceError, match="not a video"):
        VideoFileSource(path)


def test_open_source_names_what_is_wrong(tmp_path):
    with pytest.raises(SourceError, match="no such file or folder"):
        open_source(str(tmp_path / "missing.mp4"), replay=True)
    with pytest.raises(SourceError, match="not a stream"):
        open_source("rtsp://camera.local/stream", replay=True)
    with pytest.raises(SourceError):
        open_source(None, replay=True)


class FakeCamera:
    """A camera that shows ``frames`` pictures, then stops answering (unplugged)."""

    def __init__(self, first_value: int, frames: int, delay: float = 0.002) -> None:
        self.value, self.left, self.delay = first_value, frames, delay
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802
        return True

    def read(self):
        time.sleep(self.delay)
        if self.left <= 0:
            return False, None
        self.left -= 1
        self.value += 1
        if self.left == 3:
            return True, np.zeros((0, 0), np.uint8)  # a garbled frame
        return True, picture(self.value % 256)

    def release(self) -> None:
        self.released = True


class Unplugged(FakeCamera):
    def isOpened(self) -> bool:  # noqa: N802
        return False


def test_a_lost_camera_is_reported_and_reopened_with_growing_pauses():
    opened: list[FakeCamera] = []
    plan = [lambda: FakeCamera(0, 20), lambda: Unplugged(0, 0), lambda: Unplugged(0, 0), lambda: FakeCamera(100, 20)]

    def open_camera():
        camera = plan[min(len(opened), len(plan) - 1)]()
        opened.append(camera)
        return camera

    settings = LiveSettings(offline_after_s=0.2, first_retry_s=0.01, max_retry_s=0.05, max_failed_reads=5)
    source = LiveSource(open_camera, name="fake camera", settings=settings)
    seen = []
    deadline = time.monotonic() + 10
    for frame in source.frames():
        seen.append(int(frame.image[0, 0, 0]))
        if max(seen) > 100 or time.monotonic() > deadline:
            break
    source.close()
    assert max(seen) > 100, "frames after the reconnection arrive"
    assert seen == sorted(seen)
    assert source.stats.reconnects == 1
    assert source.stats.corrupt >= 1
    assert any("camera lost" in line for line in source.log)
    assert any("cannot open" in line and "0.02 s" in line for line in source.log), source.log  # backoff doubled
    assert any("camera back" in line for line in source.log)
    assert all(c.released for c in opened[:-1])


def test_a_live_source_keeps_only_the_newest_frame():
    source = LiveSource(lambda: FakeCamera(0, 10_000, delay=0.001), name="fast camera")
    first = source.latest(timeout=2.0)
    time.sleep(0.3)  # a slow pipeline: the camera runs on
    second = source.latest(timeout=2.0)
    source.close()
    assert first is not None and second is not None
    assert source.stats.dropped > 10
    assert second.index == first.index + 1 and second.time > first.time


def test_closing_a_live_source_stops_its_thread():
    source = LiveSource(lambda: FakeCamera(0, 10_000), name="camera").start()
    assert source.latest(timeout=2.0) is not None
    source.close()
    assert not any(t.name == "capture camera" and t.is_alive() for t in threading.enumerate())


def test_the_demo_renders_a_hand_frame_by_frame_with_its_truth(tmp_path):
    from datasets.demo import DemoSource
    from vision.table.layout import TableLayout

    demo = DemoSource(seed=3, width=320, height=180, hands=1, loop=False, paced=False, workdir=tmp_path)
    layout = TableLayout.from_json(demo.layout_json())
    assert [s.side for s in layout.sides] == ["South", "North"]
    frames = list(demo.frames())
    demo.close()
    assert len(frames) > 20 and [f.index for f in frames] == list(range(len(frames)))
    assert frames[0].image.shape == (180, 320, 3)
    assert frames[5].name.endswith("000005.jpg") and (tmp_path / "hand_000" / "truth" / "000005.json").is_file()
