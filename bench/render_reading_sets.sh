#!/usr/bin/env bash
# The photo-real stills the reading and finding benches measure, rendered as one resumable background job
# (each folder keeps what it has; run it again to go on):
#   nohup nice -n 10 bench/render_reading_sets.sh > build/render-reading.log 2>&1 &
# Development stills (the held-out split's surfaces and lights, looked at while tuning) first, then the
# test split (--test-split: surfaces and lights no other split uses; measured on, never tuned on).
# Seeds: development 9970 (generic) and 9960 (test editions); test split 61000 (generic) and 61100 (test editions).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
DEV=${DEV_COUNT:-24}
DEV_EDITION=${DEV_EDITION_COUNT:-8}
TEST=${TEST_COUNT:-40}
TEST_EDITION=${TEST_EDITION_COUNT:-20}
.venv/bin/borne data photos --held-out --seed 9970 --count "$DEV" --out build/photos-dev-generic
for e in corner midcard photo lineart; do
  $PY bench/photo_editions.py --edition "$e" --seed 9960 --count "$DEV_EDITION" --out "build/photos-dev-$e"
done
.venv/bin/borne data photos --test-split --seed 61000 --count "$TEST" --out build/photos-test3-generic
for e in corner midcard photo lineart; do
  $PY bench/photo_editions.py --edition "$e" --seed 61100 --count "$TEST_EDITION" --test-split --out "build/photos-test3-$e"
done
echo "all rendered"
