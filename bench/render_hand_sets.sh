#!/usr/bin/env bash
# The photo-real hands of the frames-to-hands test split, rendered as one resumable background job (each hand
# keeps the frames it has; run it again to go on):
#   nohup nice -n 10 bench/render_hand_sets.sh > build/render-hands.log 2>&1 &
# Test split (--test-split: surfaces and lights no other split uses; measured on, never tuned on):
# 20 hands of the generic edition (seeds 53000-53019) and 10 of the enrolled test edition `corner`
# (seeds 53100-53109, its edition folder written by bench/photo_editions.py), two sides, 1280 x 720,
# filmed at 5 frames a second (one frame in two of the 10-frame plan) with 2 samples a pixel and the
# denoiser: about 24 minutes a hand on two cores instead of 60 (at 10 frames/s and 4 samples; 2 samples
# look the same once denoised). One hand at a time, the generic and the edition's taking turns; a hand
# whose seed its record already holds is skipped.
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
# a hand already in its record (replayed by an earlier session, its frames perhaps gone with that machine) is not
# rendered again: the record keeps its row by seed
recorded() {
  .venv/bin/python -c "import json, sys; from pathlib import Path; p = Path(sys.argv[1]); \
rows = json.loads(p.read_text())['rows'] if p.is_file() else []; sys.exit(0 if int(sys.argv[2]) in {r['seed'] for r in rows} else 1)" "$1" "$2"
}
hand() {  # hand INDEX of the set from SEED into OUT, unless recorded in RECORD; extra options after
  local index=$1 seed=$2 out=$3 record=$4; shift 4
  if recorded "$record" $((seed + index)); then echo "seed $((seed + index)) already in $record"; return; fi
  .venv/bin/borne data photo-sequences --test-split --seed "$seed" --start "$index" --count 1 --samples "$SAMPLES" \
    --fps "$FPS" --out "$out" "$@"
}
for i in $(seq 0 $((GENERIC > EDITION ? GENERIC - 1 : EDITION - 1))); do
  if [ "$i" -lt "$GENERIC" ]; then
    hand "$i" 53000 build/photo-hands-test4 bench/records/photo-hands-test4.json
  fi
  if [ "$i" -lt "$EDITION" ]; then
    hand "$i" 53100 build/photo-hands-test4-corner bench/records/photo-hands-test4-corner.json --edition build/test-editions/corner
  fi
done
echo "all rendered"
