#!/usr/bin/env bash
# The stills bench/bench_sides.py measures beyond the reading sets (bench/render_reading_sets.sh), as one
# resumable background job (each folder keeps what it has; run it again to go on):
#   nohup nice -n 5 bench/render_sides_sets.sh > build/render-sides.log 2>&1 &
# Photo-real: test split (--test-split), seed 61200, only the scenes with three or four sides (the first twelve
# three-side and eight four-side scenes of that seed; any camera turn, as every scene has): scenes 8 9 13 20 24
# 29 31 36 38 53 54 64 (three sides) and 2 6 7 10 16 17 19 34 (four sides), into build/photos-test3-sides.
# 2-D: 120 scenes of seed 62000 (2, 3 and 4 sides as they come: 60 / 20 / 20 %), into build/scenes-sides-2d.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/borne data scenes --seed 62000 --count 120 --out build/scenes-sides-2d
for i in 8 9 13 20 24 29 31 36 38 53 54 64 2 6 7 10 16 17 19 34; do
  .venv/bin/borne data photos --test-split --seed 61200 --start "$i" --count 1 --out build/photos-test3-sides
done
echo "all rendered"
