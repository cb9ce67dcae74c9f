"""The built-in demo: a simulated hand rendered by the data engine, frame by frame, at table speed.

It lives with the data engine, not with the camera runtime (``vision``): ``borne run`` hands it to
:func:`vision.sources.open_source`, so a camera install never needs the synthesis code.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vision.errors import VisionError
from vision.sources import DEFAULT_FPS, Frame, FrameSource, Pacer


class DemoSource(FrameSource):
    """A simulated hand rendered by the data engine, frame by frame, at table speed.

    Each hand is rendered into ``workdir`` (a temporary folder by default) by a background thread
    while frames are delivered at ``fps``; the truth of every frame is there too, so the demo can
    run with a detector that replays it when no trained detector is installed. With ``loop`` the
    next hand follows on a new seed.
    """

    live = True

    def __init__(self, *, seed: int = 1, width: int = 1280, height: int = 720, fps: float = DEFAULT_FPS,
                 loop: bool = True, hands: int | None = None, workdir: Path | None = None, paced: bool = True,
                 clear_frames: int = 15) -> None:
        super().__init__()
        import tempfile

        self.seed, self.width, self.height, self.fps = seed, width, height, fps
        self.loop, self.hands, self.paced = loop, hands, paced
        self.clear_frames = clear_frames
        """Between two hands the first (cleared) frame of the next is shown this many times more: the
        players gather the cards and deal."""
        self._tmp = None if workdir is not None else tempfile.TemporaryDirectory(prefix="borne-demo-")
        self.workdir = workdir if workdir is not None else Path(self._tmp.name)  # type: ignore[union-attr]
        self._stop = threading.Event()
        self.current: Path | None = None
        """The folder of the hand being shown (frames/, truth/)."""

    def layout_json(self, timeout: float = 60.0) -> dict[str, Any]:
        """The table layout of the first hand (every demo hand is shot by one camera per hand)."""
        import json

        folder = self._hand_folder(0)
        self._ensure_rendering(0)
        deadline = time.monotonic() + timeout
        first = folder / "truth" / "000000.json"
        while not first.is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        data: dict[str, Any] = json.loads(first.read_text())["layout"]
        return data

    def _hand_folder(self, n: int) -> Path:
        return self.workdir / f"hand_{n:03d}"

    def _ensure_rendering(self, n: int) -> None:
        folder = self._hand_folder(n)
        if folder.exists():
            return
        folder.mkdir(parents=True)

        def render() -> None:
            from datasets.scene import SceneSpec
            from datasets.sequence import generate_sequence

            generate_sequence(folder, seed=self.seed * 1000 + n, spec=SceneSpec(width=self.width, height=self.height),
                              video=False, progress=False)
            (folder / "done").write_text("")

        threading.Thread(target=render, name=f"demo hand {n}", daemon=True).start()

    def frames(self) -> Iterator[Frame]:
        self.stats.connected = True
        pacer = Pacer(sleep=self._stop.wait)
        index = 0
        n = 0
        while not self._stop.is_set() and (self.hands is None or n < self.hands):
            folder = self._hand_folder(n)
            self._ensure_rendering(n)
            self.current = folder
            f = 0
            while not self._stop.is_set():
                path = folder / "frames" / f"{f:06d}.jpg"
                truth = folder / "truth" / f"{f:06d}.json"
                while not truth.is_file() and not (folder / "done").exists() and not self._stop.is_set():
                    time.sleep(0.02)
                if not truth.is_file():
                    break
                from vision.image import read_image

                try:
                    image = read_image(path)
                except VisionError:
                    self.stats.corrupt += 1
                    f += 1
                    continue
                for _ in range(1 + (self.clear_frames if f == 0 and n > 0 else 0)):
                    if self.paced:
                        pacer.wait_for(index / self.fps)
                    self.stats.frames += 1
                    yield Frame(index, index / self.fps, image, str(path))
                    index += 1
                f += 1
            n += 1
            if not self.loop:
                break

    def close(self) -> None:
        self._stop.set()
        if self._tmp is not None:
            self._tmp.cleanup()
