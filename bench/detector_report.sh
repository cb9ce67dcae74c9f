#!/usr/bin/env bash
# Every figure of the find-every-card issue for one detector, in one run on one machine (the model's card
# quotes them): the 2-D held-out scenes at the still photo's tiles and the video's (time per frame of each),
# and the photo-real TEST split (measured on only): the generic edition and the four test editions.
#   bench/detector_report.sh [MODEL.onnx] > build/detector-report.log 2>&1
# Needs the test split's stills (bench/render_reading_sets.sh renders them).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
DETECTOR=()
if [ $# -ge 1 ]; then DETECTOR=(--detector "$1"); fi
echo "== 2-D held-out, 100 scenes (seed 9100), the still photo's tiles"
$PY bench/bench_detect.py --scenes 100 "${DETECTOR[@]}"
echo "== 2-D held-out, 100 scenes (seed 9100), the video's tiles"
$PY bench/bench_detect.py --scenes 100 --tile-share 1.0 "${DETECTOR[@]}"
echo "== photo-real test split, generic: build/photos-test3-generic"
$PY bench/bench_detect.py --photos build/photos-test3-generic "${DETECTOR[@]}"
for e in corner midcard photo lineart; do
  echo "== photo-real test split, $e: build/photos-test3-$e"
  $PY bench/bench_detect.py --photos "build/photos-test3-$e" --edition "build/test-editions/$e" "${DETECTOR[@]}"
done
echo "== done"
