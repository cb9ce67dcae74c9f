#!/usr/bin/env bash
# Check the agent on arm64 without a Raspberry Pi: a Debian bookworm arm64 root (what Raspberry Pi OS
# 64-bit is built on, Python 3.11), the runtime's aarch64 wheels from PyPI, and the agent started on a
# video file under qemu-aarch64-static, asked for its status and a snapshot.
#   sudo firmware_cam/install/check_arm64.sh [WORKDIR]      (default: a new temporary folder)
# Needs root for apt (qemu-user-static, debootstrap). Registers nothing with the kernel (no binfmt):
# each aarch64 program is started through qemu by hand, so install.sh itself (apt, venv, systemd) is
# not run here; that is for a real Pi.
set -euo pipefail

WORK="${1:-$(mktemp -d -t borne-arm64.XXXXXX)}"
ROOT="$WORK/root"
SITE="$WORK/site"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
HOST_PY="${PYTHON:-python3}"
PORT=18765
TOKEN=arm64-check-token
say() { printf 'check_arm64: %s\n' "$*"; }

command -v qemu-aarch64-static >/dev/null && command -v debootstrap >/dev/null || {
  say "installing qemu-user-static and debootstrap"
  apt-get update -qq && apt-get install -y -qq --no-install-recommends qemu-user-static debootstrap >/dev/null
}
if [ ! -x "$ROOT/usr/bin/python3.11" ]; then
  say "a Debian bookworm arm64 root in $ROOT (first stage only: unpacked, never configured)"
  debootstrap --foreign --arch=arm64 --variant=minbase --include=python3 bookworm "$ROOT" http://deb.debian.org/debian >/dev/null
  for deb in "$ROOT"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$ROOT"; done
fi
run_arm() { PYTHONPATH="$SITE:$REPO" qemu-aarch64-static -L "$ROOT" "$ROOT/usr/bin/python3.11" "$@"; }
run_arm -c 'import platform, sys; print("check_arm64:", platform.machine(), sys.version.split()[0])'

say "the runtime's aarch64 wheels (what the agent imports: numpy, OpenCV, zeroconf) into $SITE"
"$HOST_PY" -m pip install -q --target "$SITE" --upgrade --only-binary=:all: --implementation cp --python-version 3.11 \
  --platform manylinux2014_aarch64 --platform manylinux_2_17_aarch64 --platform manylinux_2_28_aarch64 \
  numpy opencv-python-headless zeroconf

say "a 1280 × 720 video standing in for the camera"
"$HOST_PY" - "$WORK/table.avi" <<'PY'
import sys, cv2, numpy as np
w = cv2.VideoWriter(sys.argv[1], cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 720))
for i in range(50):
    img = np.full((720, 1280, 3), 40 + i, np.uint8)
    cv2.putText(img, str(i), (100, 300), cv2.FONT_HERSHEY_SIMPLEX, 5, (255, 255, 255), 8)
    w.write(img)
w.release()
PY

say "starting the agent under qemu-aarch64 on port $PORT"
PYTHONPATH="$SITE:$REPO" qemu-aarch64-static -L "$ROOT" "$ROOT/usr/bin/python3.11" -m firmware_cam \
  --source "$WORK/table.avi" --host 127.0.0.1 --port "$PORT" --token "$TOKEN" --no-announce --stall-s 30 \
  > "$WORK/agent.log" 2>&1 &
agent=$!
trap 'kill "$agent" 2>/dev/null || true' EXIT
status=""
for _ in $(seq 1 90); do
  sleep 1
  status="$("$HOST_PY" - "$PORT" "$TOKEN" <<'PY' 2>/dev/null || true
import json, sys, urllib.request
r = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/status", headers={"Authorization": f"Bearer {sys.argv[2]}"})
s = json.load(urllib.request.urlopen(r, timeout=2))
print(json.dumps(s) if s["frames"] > 5 else "")
PY
)"
  [ -n "$status" ] && break
done
[ -n "$status" ] || { cat "$WORK/agent.log"; say "FAILED: the agent gave no frames"; exit 1; }
say "status: $status"
"$HOST_PY" - "$PORT" "$TOKEN" <<'PY'
import sys, urllib.error, urllib.request
port, token = sys.argv[1], sys.argv[2]
jpeg = urllib.request.urlopen(f"http://127.0.0.1:{port}/snapshot.jpg?token={token}", timeout=5).read()
assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
try:
    urllib.request.urlopen(f"http://127.0.0.1:{port}/snapshot.jpg?token=wrong", timeout=5)
    raise SystemExit("a wrong token was accepted")
except urllib.error.HTTPError as e:
    assert e.code == 403, e.code
print(f"check_arm64: snapshot {len(jpeg)} bytes; a wrong token refused (403)")
PY
say "passed: the agent runs on aarch64 with the runtime wheels"
