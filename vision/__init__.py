"""Frames in, hand state out: the camera runtime (OpenCV, ONNX Runtime and numpy; never torch, never ``datasets``).

The folders follow a frame's path (:mod:`vision.pipeline` joins them):

- :mod:`vision.sources` — where frames come from (files, folders, cameras, streams; the demo is handed in);
- :mod:`vision.read` — the cards of one frame: detector, tiling, crops, face reader or recogniser, models;
- :mod:`vision.table` — the layout of the sides' zones and one frame's census of each side's cards;
- :mod:`vision.track` — the tracker fusing frames into the hand's state, and the hand's lifecycle;
- :mod:`vision.training` — what only training uses (never imported by the runtime).
"""
