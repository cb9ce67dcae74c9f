#!/usr/bin/env bash
# The photo-real whole hands of the landings' split (issue "Every play read once"), rendered as one resumable
# background job (each hand keeps the frames it has; run it again to go on):
#   nohup nice -n 10 bench/render_landing_sets.sh > build/render-landings.log 2>&1 &
# Every hand is filmed from the empty table to the hand's end at 5 frames a second (two or three frames of the
# arm for each play), 2 samples a pixel and the denoiser, with a real camera's drift (`--drift`: the exposure
# wanders, and in half the hands the camera is nudged once for good; sequence.json says from which frame). The
# generic edition at 1280 x 720 (cards 55-90 px long, as a webcam sees them); the two test editions at 1920 x 1080,
# as the phone page and a webcam at its largest mode give them: `corner`'s distance cards differ only in small
# corner print, unreadable on a 65-px card (the development hand 55100 at 1280 x 720: 14 of 35 read even on the
# true outlines), so their figure for cards of 80 px and more needs the larger picture.
# First three DEVELOPMENT hands (the held-out surfaces and lights, looked at while building; seeds 55000, 55100,
# 55200), then the TEST split (the test split's surfaces and lights, measured on only): 10 hands of the generic
# edition (seeds 54000-54009) and 5 of each of two test editions written by bench/photo_editions.py, `corner`
# (small print; seeds 54100-54104) and `photo` (full bleed; 54200-54204), taking turns.
# About 10-25 minutes a 1280 x 720 hand on two cores (the development hands, a bench sharing the cores), about
# twice that at 1920 x 1080.
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLES=${SAMPLES:-2}
.venv/bin/python -c "import sys; sys.path.insert(0, 'bench'); from photo_editions import test_edition_folder; \
test_edition_folder('corner'); test_edition_folder('photo')"
hand() {  # hand SPLIT SEED OUT [options]: the hand of SEED into OUT/hand_000 (resumed where it stopped)
  local split=$1 seed=$2 out=$3; shift 3
  .venv/bin/borne data photo-sequences "$split" --drift --seed "$seed" --count 1 --samples "$SAMPLES" --fps 5 \
    --out "$out" "$@"
}
hand --held-out 55000 build/landings-dev/generic-55000
hand --held-out 55100 build/landings-dev/corner-55100 --edition build/test-editions/corner
hand --held-out 55200 build/landings-dev/photo-55200 --edition build/test-editions/photo
for i in 0 1 2 3 4 5 6 7 8 9; do
  hand --test-split $((54000 + i)) "build/landings-test/generic-$((54000 + i))"
  if [ "$i" -lt 5 ]; then
    hand --test-split $((54100 + i)) "build/landings-test/corner-$((54100 + i))" --edition build/test-editions/corner \
      --width 1920 --height 1080
    hand --test-split $((54200 + i)) "build/landings-test/photo-$((54200 + i))" --edition build/test-editions/photo \
      --width 1920 --height 1080
  fi
done
echo "all rendered"
