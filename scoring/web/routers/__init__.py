"""One router per resource; :data:`ALL` collects them for the app."""

from __future__ import annotations

from scoring.web.routers import camera, events, feed, games, hands, meta, pages, photos, sheets

ALL = (pages.router, games.router, hands.router, events.router, sheets.router, meta.router, camera.router,
       feed.router, photos.router)
