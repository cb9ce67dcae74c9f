"""The live table: the one place that joins the camera pipeline (``vision``) and the score display (``scoring.web``).

``borne run`` wires these together; each module holds one idea:

- :mod:`borne.live.table` — :class:`LiveTable`, the pipeline's link to the display (status, picture, the live
  hand, confirm and correct, saving it for a restart);
- :mod:`borne.live.keeper` — :class:`GameKeeper`, which adds each final hand to the display's current game;
- :mod:`borne.live.zones` — :class:`TableZones`, the zones the pipeline follows and the ones a person saved,
  the saved-layout helpers, and :func:`choose_layout`, the pure start-up decision;
- :mod:`borne.live.cameras` — Borne cameras followed by name, switched on the display, and watched;
- :mod:`borne.live.phone` — a phone's browser as the camera (``--source browser``).
"""

from borne.live.cameras import CameraSwitcher, NamedCamera, SwitchableSource, agent_status_url, watch_camera
from borne.live.keeper import GameKeeper
from borne.live.phone import BROWSER_FRAME_SIZE, BROWSER_SOURCE, browser_source, watch_feed
from borne.live.table import LIVE_HAND_DOCUMENT, LiveTable
from borne.live.zones import (
    LayoutChoice,
    TableZones,
    choose_layout,
    follow_demo_layouts,
    layout_document_name,
    load_saved_layout,
)

__all__ = [
    "BROWSER_FRAME_SIZE",
    "BROWSER_SOURCE",
    "LIVE_HAND_DOCUMENT",
    "CameraSwitcher",
    "GameKeeper",
    "LayoutChoice",
    "LiveTable",
    "NamedCamera",
    "SwitchableSource",
    "TableZones",
    "agent_status_url",
    "browser_source",
    "choose_layout",
    "follow_demo_layouts",
    "layout_document_name",
    "load_saved_layout",
    "watch_camera",
    "watch_feed",
]
