"""The table's zones: which layout the pipeline follows, where it came from, and the zones a person saved.

:func:`choose_layout` is the start-up decision as a pure function:

>>> from vision.table.layout import TableLayout
>>> demo = TableLayout.default(640, 360, sides=("North", "South"))
>>> other = TableLayout.default(640, 360, sides=("Ana", "Ben"))
>>> choose_layout(file=None, source_own=demo, saved=None, table="t").origin.value
'camera'
>>> choice = choose_layout(file=None, source_own=demo, saved=(other, None), table="t")
>>> choice.origin.value, choice.notes
('camera', ("the zones saved for table 't' are for other sides (Ana, Ben); not used",))
>>> choose_layout(file=None, source_own=None, saved=None, table="t").layout is None  # the default, once the picture is known
True
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring.web.zones import LayoutOrigin, ZoneView

if TYPE_CHECKING:
    from scoring.storage import GameStore
    from vision.pipeline import Pipeline
    from vision.sources import Frame
    from vision.table.layout import TableLayout

FrameSize = tuple[int, int]
"""A picture's ``(width, height)`` in pixels."""


def layout_document_name(table: str) -> str:
    """The name of a table's saved zones in the games' SQLite file (``GameStore.save_camera_document``).

    >>> layout_document_name("kitchen")
    'layout:kitchen'
    """
    return f"layout:{table}"


def load_saved_layout(store: GameStore, table: str) -> tuple[TableLayout, FrameSize | None] | None:
    """The zones saved for ``table`` and the picture size they were drawn on, or ``None``; saved zones that
    cannot be read are reported on stderr and left in the file."""
    from vision.errors import LayoutError
    from vision.table.layout import TableLayout

    doc = store.load_camera_document(name=layout_document_name(table))
    if doc is None:
        return None
    try:
        if doc.get("version") != 1:
            raise LayoutError(f"unknown version {doc.get('version')!r}")
        layout = TableLayout.from_json(doc["layout"])
        raw = doc.get("frame_size")
        size = None if raw is None else (int(raw[0]), int(raw[1]))
    except (LayoutError, KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        print(f"borne run: the zones saved for table {table!r} are not used: {e}", file=sys.stderr, flush=True)
        return None
    return layout, size


@dataclass(frozen=True)
class LayoutChoice:
    """The layout ``borne run`` starts with and where it came from."""

    base: TableLayout | None
    """The start-up layout without saved zones (``--layout``, else the source's own); ``None``: the default."""
    base_origin: LayoutOrigin
    saved: TableLayout | None
    """The saved zones, when they are used."""
    saved_size: FrameSize | None
    """The picture size the saved zones were drawn on, when known."""
    notes: tuple[str, ...] = ()
    """Why saved zones were set aside, for the log."""

    @property
    def origin(self) -> LayoutOrigin:
        """Where the layout followed at start comes from."""
        return LayoutOrigin.SAVED if self.saved is not None else self.base_origin

    @property
    def layout(self) -> TableLayout | None:
        """The layout followed at start; ``None``: the default, made once the picture's size is known."""
        return self.saved if self.saved is not None else self.base


def choose_layout(*, file: TableLayout | None, source_own: TableLayout | None,
                  saved: tuple[TableLayout, FrameSize | None] | None, table: str) -> LayoutChoice:
    """``--layout`` > the zones saved for the table > the source's own (the demo) > the default.

    Saved zones are not used with ``--layout``, nor when their sides are not those of the start-up layout.
    """
    if file is not None:
        return LayoutChoice(base=file, base_origin=LayoutOrigin.FILE, saved=None, saved_size=None)
    base, origin = (source_own, LayoutOrigin.CAMERA) if source_own is not None else (None, LayoutOrigin.DEFAULT)
    if saved is None:
        return LayoutChoice(base=base, base_origin=origin, saved=None, saved_size=None)
    layout, size = saved
    if base is not None and sorted(s.side for s in layout.sides) != sorted(s.side for s in base.sides):
        note = (f"the zones saved for table {table!r} are for other sides "
                f"({', '.join(s.side for s in layout.sides)}); not used")
        return LayoutChoice(base=base, base_origin=origin, saved=None, saved_size=None, notes=(note,))
    return LayoutChoice(base=base, base_origin=origin, saved=layout, saved_size=size)


def default_layout(layout: TableLayout, size: FrameSize | None) -> TableLayout | None:
    """Two sides facing each other in a picture of ``size``, the side now higher in the picture on top
    (``None`` without a size or for more than two sides)."""
    from vision.table.layout import TableLayout

    if size is None or len(layout.sides) != 2:
        return None
    top, bottom = sorted(layout.sides, key=lambda s: float(s.zone[:, 1].mean()))
    return TableLayout.default(size[0], size[1], sides=(top.side, bottom.side))


class TableZones:
    """The table's zones: the layout the pipeline follows, where it came from, and the zones a person saved.

    The display's :class:`~scoring.web.zones.ZoneDesk` (request threads), fed by the pipeline thread
    (:meth:`saw_frame`, :meth:`source_layout`). A layout is never changed in place: a new ``TableLayout``
    replaces ``pipeline.layout`` under the table's lock, so a frame is read with one layout from start to end.
    """

    def __init__(self, store: GameStore, pipeline: Pipeline, lock: threading.Lock, *, table: str,
                 base: TableLayout | None, base_origin: LayoutOrigin, origin: LayoutOrigin, saved: bool,
                 frame_size: FrameSize | None, saved_size: FrameSize | None = None) -> None:
        """``base``: the start-up layout (``None``: the default, made for the picture); ``origin``: that of
        the layout the pipeline has now; ``saved``: whether zones are saved for the table; ``saved_size``:
        the picture size the saved zones were drawn on, when known."""
        self.store = store
        self.pipeline = pipeline
        self.table = table
        self.sides: tuple[str, ...] = tuple(s.side for s in pipeline.layout.sides)
        self._table_lock = lock
        self._lock = threading.Lock()
        """Guards the fields below (the view is read without waiting for a frame to finish)."""
        self._base = base
        self._base_origin = base_origin
        self._saved = saved
        self._origin = origin
        self._frame_size = frame_size
        self._saved_layout = pipeline.layout if origin is LayoutOrigin.SAVED else None
        """The saved zones as drawn, before any scaling to the camera's picture."""
        self._saved_size = saved_size
        self._finding = False
        """The sides are being found from the table (:mod:`borne.live.seating`); the default zones meanwhile."""

    @property
    def document_name(self) -> str:
        return layout_document_name(self.table)

    # -- the pipeline thread -----------------------------------------------------------------

    def saw_frame(self, width: int, height: int) -> None:
        if self._frame_size != (width, height):
            with self._lock:
                self._frame_size = (width, height)
                self._fit_saved_zones(width, height)

    def _fit_saved_zones(self, width: int, height: int) -> None:
        """Saved zones drawn on a picture of another size: scaled when only the resolution changed (same
        shape), else left for the start-up or default zones (the camera sees another part of the table)."""
        if self._origin is not LayoutOrigin.SAVED or self._saved_size is None or self._saved_layout is None:
            return
        sw, sh = self._saved_size
        if (sw, sh) == (width, height):
            self.pipeline.layout = self._saved_layout
            return
        factor = width / sw
        if abs(height / sh - factor) <= 0.01 * factor:
            self.pipeline.layout = self._saved_layout.scaled(factor)
            print(f"borne run: the zones of table {self.table!r} were saved on a {sw}×{sh} picture; "
                  f"scaled to the camera's {width}×{height}", file=sys.stderr, flush=True)
            return
        fallback = self._base if self._base is not None else default_layout(self._saved_layout, (width, height))
        if fallback is None:
            return
        self.pipeline.layout, self._origin = fallback, self._base_origin
        print(f"borne run: the zones of table {self.table!r} were saved on a {sw}×{sh} picture and the camera "
              f"now gives {width}×{height}, another shape: not used; check the zones on the display (Edit zones)",
              file=sys.stderr, flush=True)

    def source_layout(self, layout: TableLayout) -> None:
        """The source's own layout changed (a new demo hand); followed unless a person saved zones.
        Called with the table's lock held (from the pipeline's ``before_read``)."""
        if sorted(s.side for s in layout.sides) != sorted(self.sides):
            return
        with self._lock:
            self._base = layout
            if self._origin is not LayoutOrigin.SAVED:
                self.pipeline.layout = layout

    def start_finding(self) -> None:
        """The sides are found from the table as the hand starts; the default zones are shown meanwhile."""
        with self._lock:
            self._finding = True

    def found(self, layout: TableLayout) -> None:
        """The sides found from the table: the table's sides and start-up layout, proposed for a confirm.
        Called by the pipeline with the table's lock held."""
        with self._lock:
            self._finding = False
            self.sides = tuple(s.side for s in layout.sides)
            self._base, self._base_origin, self._origin = layout, LayoutOrigin.FOUND, LayoutOrigin.FOUND

    # -- the display (request threads) -------------------------------------------------------

    def zones(self) -> ZoneView:
        with self._lock:
            layout, origin, saved, size = self.pipeline.layout, self._origin, self._saved, self._frame_size
            finding = self._finding
        default = default_layout(layout, size)
        return ZoneView(layout=layout.to_json(), origin=origin, table=self.table, sides=self.sides, frame_size=size,
                        default=None if default is None else default.to_json(), saved=saved, finding=finding)

    def save_zones(self, layout: dict[str, Any]) -> ZoneView:
        from vision.table.layout import TableLayout

        parsed = TableLayout.from_json(layout)  # checked by the display with the same check_layout, stricter
        with self._table_lock:
            with self._lock:
                size = self._frame_size
            self.store.save_camera_document(name=self.document_name, document={
                "version": 1, "table": self.table, "layout": parsed.to_json(),
                "frame_size": None if size is None else list(size)})
            if not self.pipeline.seated:  # a person's zones end the looking: the hand is followed with them
                told, self.pipeline.on_seated = self.pipeline.on_seated, None
                self.pipeline.seat(parsed)
                self.pipeline.on_seated = told
            with self._lock:
                self.pipeline.layout = self._saved_layout = parsed
                self.pipeline.widening = None
                self._saved_size = size
                self._saved, self._origin, self._finding = True, LayoutOrigin.SAVED, False
        return self.zones()

    def forget_zones(self) -> ZoneView:
        from scoring.web.zones import NoLayoutToRestoreError

        with self._table_lock:
            with self._lock:
                size = self._frame_size
                base = self._base if self._base is not None else default_layout(self.pipeline.layout, size)
                saved = self._saved
                following = self._origin is LayoutOrigin.SAVED
            if following and base is None:
                raise NoLayoutToRestoreError(
                    "there is no start-up layout for these sides to go back to (pass --layout, or save new zones)")
            if saved:
                self.store.delete_camera_document(name=self.document_name)
            with self._lock:
                self._saved = False
                if following:
                    assert base is not None
                    self.pipeline.layout = base
                    self._origin = self._base_origin
                    if self._origin is LayoutOrigin.FOUND:
                        from vision.table.widening import ZoneWidening

                        self.pipeline.widening = ZoneWidening()
        return self.zones()


def follow_demo_layouts(pipeline: Pipeline, zones: TableZones) -> None:
    """Every demo hand is shot from a new camera pose: each one's layout becomes the table's start-up
    layout, followed unless a person saved zones of their own."""
    import json

    from vision.table.layout import TableLayout

    inner: Callable[[Frame], None] | None = pipeline.before_read
    current: dict[str, Path | None] = {"folder": None}

    def follow_layout(frame: Frame) -> None:
        folder = Path(frame.name).parent.parent
        if folder != current["folder"]:
            current["folder"] = folder
            truth = json.loads((folder / "truth" / "000000.json").read_text())
            zones.source_layout(TableLayout.from_json(truth["layout"]))
        if inner is not None:
            inner(frame)

    pipeline.before_read = follow_layout
