#!/usr/bin/env bash
# The photo-real hands of the frames-to-hands test split, rendered as one resumable background job (each hand
# keeps the frames it has; run it again to go on):
#   nohup nice -n 10 bench/render_hand_sets.sh > build/render-hands.log 2>&1 &
# Test split (--test-split: surfaces and lights no other split uses; measured on, never tuned on):
# 20 hands of the generic edition (seeds 53000-53019) and 10 of the enrolled test edition `corner`
# (seeds 53100-53109, its edition folder written by bench/photo_editions.py), two sides, 1280 x 720,
# filmed at 5 frames a second (one frame in two of the 10-frame plan) with 2 samples a pixel and the
# denoiser: about 24 minutes a hand on two cores instead of 60 (at 10 frames/s and 4 samples; 2 samples
# look the same once denoised). One hand at a time, the generic and the edition's taking turns.
# Replay what is rendered (a few hands at a time; the record keeps rows by seed):
#   .venv/bin/python bench/bench_replay.py --photos build/photo-hands-test4 --record bench/records/photo-hands-test4.json
#   .venv/bin/python bench/bench_replay.py --photos build/photo-hands-test4-corner --record bench/records/photo-hands-test4-corner.json
set -euo pipefail
cd "$(dirname "$0")/.."
GENERIC=${GENERIC_COUNT:-20}
EDITION=${EDITION_COUNT:-10}
SAMPLES=${SAMPLES:-2}
FPS=${FPS:-5}
.venv/bin/python -c "import sys; sys.path.insert(0, 'bench'); from photo_editions import test_edition_folder; test_edition_folder('corner')"
for i in $(seq 0 $((GENERIC > EDITION ? GENERIC - 1 : EDITION - 1))); do
  # hands 0..i of each set: those already rendered are kept, so each pass renders one more of each
  if [ "$i" -lt "$GENERIC" ]; then
    .venv/bin/borne data photo-sequences --test-split --seed 53000 --count $((i + 1)) --samples "$SAMPLES" --fps "$FPS" \
      --out build/photo-hands-test4
  fi
  if [ "$i" -lt "$EDITION" ]; then
    .venv/bin/borne data photo-sequences --test-split --seed 53100 --count $((i + 1)) --samples "$SAMPLES" --fps "$FPS" \
      --edition build/test-editions/corner --out build/photo-hands-test4-corner
  fi
done
echo "all rendered"
