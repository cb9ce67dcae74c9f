"""How Borne's models run in ONNX Runtime: on the CPU, its worker threads resting between frames.

ONNX Runtime's workers spin for a while after each run, waiting for the next; on a two- or four-core
machine they take the cores from what follows a detection (reading the faces, the census, the tracker,
the next frame's decoding). Told not to spin, the live pipeline replayed three held-out 2-D hands at
9.57 and 9.18 frames/s against 7.91 and 7.95 spinning (runs taken in turn on one machine: ``bench/bench_replay.py
--hands 3 --seed 70030 --keep build/hands-2d-70030`` with and without ``--onnx-spinning``; docs/measured-history-hands.md,
"ONNX Runtime's workers resting")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from vision.errors import ModelError

if TYPE_CHECKING:
    import onnxruntime as ort

SPINNING = "session.intra_op.allow_spinning"
allow_spinning = False
"""ONNX Runtime's own default is to spin; ``bench/bench_replay.py --onnx-spinning`` sets this to compare."""


memory_pattern = False
"""ONNX Runtime's memory pattern (one block planned for all of a run's tensors and kept between runs) is left off:
tensors come from its arena as they are needed. Peak memory, each setting in a process of its own: the detector
alone 234 → 200 MB (49.8 → 49.5 ms a run), the live pipeline replaying a 2-D hand 300 → 265 MB (19.6 → 18.7
frames/s, one run each) (``bench/dev_onnx_memory.py``; docs/measured-history-hands.md, "Replay's memory")."""


def cpu_session(path: Path, *, threads: int = 0, what: str = "an ONNX model") -> ort.InferenceSession:
    """A CPU session of the model at ``path``: ``threads`` workers (0: ONNX Runtime's choice), not spinning.

    :raises ModelError: the file is not a model ONNX Runtime can run (``what`` it should have been says so).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    options.log_severity_level = 3
    options.add_session_config_entry(SPINNING, "1" if allow_spinning else "0")
    options.enable_mem_pattern = memory_pattern
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types
        raise ModelError(f"{path}: not {what} ({e})") from None
