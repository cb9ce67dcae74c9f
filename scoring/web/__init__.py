"""The web display and HTTP API (CONTRACT.md §9): FastAPI routes over the scoring core.

Build the app with :func:`scoring.web.app.create_app` and serve it with :func:`scoring.web.app.serve`;
``borne serve`` does both, and ``borne run`` reuses them next to the camera pipeline.
"""
