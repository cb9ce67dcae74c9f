"""Frames in, hand state out: the camera runtime (OpenCV, ONNX Runtime and numpy; never torch)."""
