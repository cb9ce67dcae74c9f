#!/usr/bin/env bash
# The photo-real phone photos of the score-from-one-photo issue, rendered as one resumable background job
# (each folder keeps what it has; run it again to go on):
#   nohup nice -n 10 bench/render_phone_sets.sh dev > build/render-phone.log 2>&1 &
#   nohup nice -n 10 bench/render_phone_sets.sh test >> build/render-phone.log 2>&1 &
# One photo of a whole table as a phone takes it (`borne data photos --phone`): 4000 x 3000, either way up,
# held 0.5-1.2 m over the table, tilted up to 35 degrees, any turn; 2 samples a pixel and the denoiser, as the
# landings' hands. `dev`: the held-out split's surfaces and lights (looked at while building; seeds 62000
# generic, 62100 + the test editions). `test`: the test split's surfaces and lights, measured on only (seeds
# 63000 generic, 63100 + the test editions): 20 stills of the generic edition and 10 of each test edition.
# About 2-4 minutes a still on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLES=${SAMPLES:-2}
WHICH=${1:?dev or test}
.venv/bin/python -c "import sys; sys.path.insert(0, 'bench'); from photo_editions import test_edition_folder; \
[test_edition_folder(e) for e in ('corner', 'midcard', 'photo', 'lineart')]"
stills() {  # stills SPLIT SEED COUNT OUT [options]
  local split=$1 seed=$2 count=$3 out=$4; shift 4
  .venv/bin/borne data photos --phone "$split" --seed "$seed" --count "$count" --samples "$SAMPLES" \
    --width 4000 --height 3000 --out "$out" "$@"
}
if [ "$WHICH" = dev ]; then
  stills --held-out 62000 8 build/phone-dev/generic
  for e in corner midcard photo lineart; do
    stills --held-out 62100 2 "build/phone-dev/$e" --edition "build/test-editions/$e"
  done
else
  stills --test-split 63000 20 build/phone-test/generic
  for e in corner midcard photo lineart; do
    stills --test-split 63100 10 "build/phone-test/$e" --edition "build/test-editions/$e"
  done
fi
echo "all rendered ($WHICH)"
