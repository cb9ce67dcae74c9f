"""Feeding a source's frames to a pipeline: `borne replay` and `borne run` follow a table this way."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from vision.sources import FrameFeed, paced

if TYPE_CHECKING:
    from vision.pipeline import FrameResult, Pipeline
    from vision.track.lifecycle import LifecycleEvent


def run_source(source: FrameFeed, pipeline: Pipeline, *, on_result: Callable[[FrameResult], None] | None = None,
               should_stop: Callable[[], bool] | None = None, pace: bool = False,
               lock: AbstractContextManager[Any] | None = None,
               on_read: Callable[[FrameResult], None] | None = None,
               on_finish: Callable[[list[LifecycleEvent]], None] | None = None) -> list[LifecycleEvent]:
    """Feed every frame of ``source`` to ``pipeline`` until it ends (or ``should_stop``), then finish.

    ``pace``: a file or folder is played at its own frame rate, as a camera would give it (a live source
    is never held back). ``lock`` is held while each frame goes through the pipeline together with
    ``on_read``, and while the pipeline finishes together with ``on_finish``; ``on_result`` runs after,
    outside it (``borne run`` draws the camera's picture there). Returns the events of the finish.
    """
    frames = source.frames()
    if pace and not source.live:
        frames = paced(frames)
    guard = lock if lock is not None else nullcontext()
    for frame in frames:
        with guard:
            result = pipeline.process(frame)
            if on_read is not None:
                on_read(result)
        if on_result is not None:
            on_result(result)
        if should_stop is not None and should_stop():
            break
    with guard:
        events = pipeline.finish()
        if on_finish is not None:
            on_finish(events)
    return events
