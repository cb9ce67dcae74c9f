"""The Raspberry Pi camera agent: frames from the camera, served on the LAN as an authenticated MJPEG stream.

``borne-cam`` (or ``python -m firmware_cam``) captures through ``picamera2`` on a Raspberry Pi, else
through OpenCV (a USB webcam, or a video file for tests), keeps only the newest frame, and serves
(CONTRACT.md §10), each with ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``:

- ``GET /stream.mjpg``: ``multipart/x-mixed-replace`` MJPEG; a slow client gets the newest frame;
- ``GET /snapshot.jpg``: one frame;
- ``GET /status``: JSON (frames, dropped, uptime, camera ok or lost, temperature and throttling on a Pi).

It announces itself over mDNS/DNS-SD (``_borne-cam._tcp``) so ``borne run --source NAME`` finds it.
A watchdog restarts a camera that stopped delivering, no more often than a set interval.
It imports numpy and OpenCV (and zeroconf when present) only: no torch, no data engine.
"""
