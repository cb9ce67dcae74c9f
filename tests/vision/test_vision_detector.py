"""Decoding the detector's raw output against hand-made boxes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import ModelError
from vision.geometry import Letterbox, polygon_area
from vision.read.detections import Detections
from vision.read.detector import DecodeSettings, decode_obb


def raw_output(boxes):
    """Build a ``(4 + 2 + 1, N)`` output from ``(cx, cy, w, h, angle, class, score)`` rows."""
    out = np.zeros((7, len(boxes)), np.float32)
    for i, (cx, cy, w, h, a, cls, score) in enumerate(boxes):
        out[[0, 1, 2, 3, 6], i] = (cx, cy, w, h, a)
        out[4 + cls, i] = score
    return out[None]


def test_boxes_come_back_in_image_pixels():
    box = Letterbox(scale=0.5, pad_x=0, pad_y=140)  # a 1280 × 720 frame in a 640 input
    out = raw_output([(320, 320, 28, 43.5, 0.0, 0, 0.9)])
    det = decode_obb(out, box)
    assert len(det) == 1
    assert det.corners[0].mean(axis=0) == pytest.approx([640, 360])
    assert polygon_area(det.corners[0]) == pytest.approx(56 * 87)
    assert det.class_id.tolist() == [0] and det.confidence[0] == pytest.approx(0.9)


def test_angle_turns_the_box():
    det = decode_obb(raw_output([(100, 100, 20, 60, np.pi / 2, 1, 0.8)]), Letterbox(1, 0, 0))
    xs, ys = det.corners[0][:, 0], det.corners[0][:, 1]
    assert (xs.max() - xs.min(), ys.max() - ys.min()) == pytest.approx((60, 20), abs=1e-4)
    assert det.class_id.tolist() == [1]


def test_weak_boxes_are_dropped_and_duplicates_suppressed():
    out = raw_output([
        (100, 100, 56, 87, 0, 0, 0.9),
        (102, 101, 56, 87, 0.02, 0, 0.7),  # a duplicate of the first
        (100, 125, 56, 87, 0, 0, 0.8),  # the next card of a column: kept
        (400, 400, 56, 87, 0, 0, 0.1),  # too weak
    ])
    det = decode_obb(out, Letterbox(1, 0, 0), DecodeSettings(conf_threshold=0.25, iou_threshold=0.7))
    assert det.confidence.tolist() == pytest.approx([0.9, 0.8])


def test_nothing_found_is_an_empty_result():
    det = decode_obb(raw_output([(1, 1, 2, 2, 0, 0, 0.01)]), Letterbox(1, 0, 0))
    assert len(det) == 0 and det.corners.shape == (0, 4, 2)


def test_a_wrong_output_shape_is_a_model_error():
    with pytest.raises(ModelError):
        decode_obb(np.zeros((1, 3, 10)), Letterbox(1, 0, 0))


def test_detections_check_their_shapes_and_filter_by_mask():
    with pytest.raises(ValueError, match="corners must be"):
        Detections(np.zeros((2, 4)), np.zeros(2), np.zeros(2, dtype=np.int64))
    det = Detections(np.zeros((3, 4, 2)), np.array([0.1, 0.5, 0.9]), np.array([0, 1, 0]))
    strong = det[det.confidence > 0.3]
    assert strong.class_id.tolist() == [1, 0] and len(det) == 3


def test_the_shipped_detector_runs_with_its_workers_resting_and_no_memory_pattern_kept():
    from vision.read.detector import OnnxCardDetector
    from vision.read.models import detector_path
    from vision.read.onnx_runtime import SPINNING

    detector = OnnxCardDetector(detector_path())
    options = detector._session.get_session_options()
    assert options.get_session_config_entry(SPINNING) == "0"
    assert not options.enable_mem_pattern  # tensors from the arena as needed: a lower peak (replay's memory)
    found = detector.detect(np.full((720, 720, 3), 128, np.uint8))  # a bare grey table: runs, finds no card
    assert len(found) == 0


def test_a_file_that_is_no_model_is_refused_by_name(tmp_path):
    from vision.read.onnx_runtime import cpu_session

    fake = tmp_path / "reader.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="reader.onnx: not a face reader model"):
        cpu_session(fake, what="a face reader model")
