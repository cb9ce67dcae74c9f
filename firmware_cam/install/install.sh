#!/usr/bin/env bash
# Install the Borne camera agent (borne-cam) on Raspberry Pi OS 64-bit, from this checkout of Borne:
#   sudo firmware_cam/install/install.sh
# Installs the system packages (python3-venv, python3-picamera2), a virtual environment with Borne's
# runtime only (OpenCV, ONNX Runtime, numpy, zeroconf; never torch), /etc/borne-cam.toml with a new
# token, and a systemd unit that starts at boot and restarts the agent on failure.
set -euo pipefail

usage() {
  cat <<USAGE
usage: sudo $0 [--prefix DIR] [--config FILE] [--user NAME] [--source SRC] [--port N] [--name NAME]
               [--root DIR] [--no-apt] [--no-venv] [--no-systemd] [--no-start]

  --prefix DIR   where the virtual environment goes (default /opt/borne-cam)
  --config FILE  the agent's settings (default /etc/borne-cam.toml; kept if it exists)
  --user NAME    the system user the agent runs as (default borne-cam, in group video)
  --source SRC   picamera (default), a webcam index, or a video file
  --port N       the agent's port (default 8081)
  --name NAME    the name announced over mDNS (default borne-cam-HOSTNAME)
  --root DIR     install under DIR instead of / (to check the files an install writes)
  --no-apt       do not install system packages
  --no-venv      do not make the virtual environment
  --no-systemd   do not install or start the systemd unit (a container, a chroot)
  --no-start     install and enable the unit, but do not start it now
USAGE
}

PREFIX=/opt/borne-cam
CONFIG=/etc/borne-cam.toml
USER_NAME=borne-cam
SOURCE=picamera
PORT=8081
NAME=""
ROOT=""
APT=1 VENV=1 SYSTEMD=1 START=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --config) CONFIG="$2"; shift 2 ;;
    --user) USER_NAME="$2"; shift 2 ;;
    --source) SOURCE="$2"; shift 2 ;;
    --port) PORT="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --root) ROOT="${2%/}"; shift 2 ;;
    --no-apt) APT=0; shift ;;
    --no-venv) VENV=0; shift ;;
    --no-systemd) SYSTEMD=0; shift ;;
    --no-start) START=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$PORT" in ''|*[!0-9]*) echo "install.sh: --port must be a number, not $PORT" >&2; exit 2 ;; esac

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
say() { printf 'borne-cam install: %s\n' "$*"; }

if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it as root: sudo $0" >&2; exit 2
fi
arch="$(uname -m)"
if [ "$arch" != aarch64 ]; then
  say "this machine is $arch; Raspberry Pi OS 64-bit is aarch64 (going on: the agent runs anywhere with OpenCV)"
fi

# -- system packages --------------------------------------------------------------------------------
if [ "$APT" = 1 ]; then
  say "installing system packages"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3 python3-venv python3-pip ca-certificates >/dev/null
  if apt-cache show python3-picamera2 >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends python3-picamera2 >/dev/null
  else
    say "python3-picamera2 is not in this system's packages (not Raspberry Pi OS?): webcams and files only"
  fi
fi

# -- the system user ------------------------------------------------------------------------------------
if [ -z "$ROOT" ] && ! id "$USER_NAME" >/dev/null 2>&1; then
  say "adding the system user $USER_NAME (group video, for the camera)"
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group "$USER_NAME"
fi
if [ -z "$ROOT" ] && getent group video >/dev/null; then
  usermod -a -G video "$USER_NAME"
fi

# -- the virtual environment: the runtime only ----------------------------------------------------------
if [ "$VENV" = 1 ]; then
  say "making $PREFIX/venv (with the system's site packages, for picamera2)"
  mkdir -p "$ROOT$PREFIX"
  python3 -m venv --system-site-packages "$ROOT$PREFIX/venv"
  constraints="$ROOT$PREFIX/constraints.txt"
  # Raspberry Pi OS's picamera2 (and its simplejpeg) is built against the system's numpy 1.x: keep it
  if python3 -c 'import picamera2' >/dev/null 2>&1; then
    echo 'numpy<2' > "$constraints"
  else
    : > "$constraints"
  fi
  "$ROOT$PREFIX/venv/bin/pip" install -q --upgrade pip
  say "installing Borne's runtime (OpenCV, ONNX Runtime, numpy, zeroconf; no torch) from $REPO"
  "$ROOT$PREFIX/venv/bin/pip" install -q -c "$constraints" "$REPO"
  if "$ROOT$PREFIX/venv/bin/python" -c 'import torch' >/dev/null 2>&1 \
     && ! python3 -c 'import torch' >/dev/null 2>&1; then
    echo "install.sh: torch ended up in the agent's environment; it must not" >&2; exit 1
  fi
  "$ROOT$PREFIX/venv/bin/borne-cam" --help >/dev/null
fi

# -- the settings, with the camera's own token ------------------------------------------------------------
mkdir -p "$(dirname "$ROOT$CONFIG")"
if [ -e "$ROOT$CONFIG" ]; then
  say "keeping the settings in $CONFIG"
else
  token="$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')"
  name_line="# name = \"borne-cam-kitchen\""
  [ -n "$NAME" ] && name_line="name = \"$NAME\""
  umask 027
  cat > "$ROOT$CONFIG" <<TOML
# The Borne camera agent's settings (borne-cam --config $CONFIG); docs/camera-agent.md says more.
[camera]
source = "$SOURCE"
width = 1280
height = 720
fps = 10
jpeg_quality = 80
exposure = "lock"       # auto | lock (held once the picture has settled) | fixed (exposure_us, gain)
focus = "continuous"    # auto | continuous | manual (lens_position, dioptres: 1.0 for a table 1 m below)
rotation = 0            # 180 for a camera clamped upside down

[server]
host = "0.0.0.0"
port = $PORT
token = "$token"
$name_line

[watchdog]
stall_s = 5
min_restart_interval_s = 10
TOML
  umask 022
  if [ -z "$ROOT" ]; then chgrp "$USER_NAME" "$CONFIG"; fi
  say "settings written to $CONFIG (the camera's token is in it)"
fi

# -- the systemd unit ----------------------------------------------------------------------------------------
if [ "$SYSTEMD" = 1 ]; then
  unit="$ROOT/etc/systemd/system/borne-cam.service"
  mkdir -p "$(dirname "$unit")"
  sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@CONFIG@|$CONFIG|g" -e "s|@USER@|$USER_NAME|g" -e "s|@REPO@|$REPO|g" \
    "$REPO/firmware_cam/install/borne-cam.service" > "$unit"
  say "systemd unit written to /etc/systemd/system/borne-cam.service"
  if [ -z "$ROOT" ]; then
    systemctl daemon-reload
    systemctl enable borne-cam.service
    if [ "$START" = 1 ]; then
      systemctl restart borne-cam.service
      say "started: journalctl -u borne-cam -f shows its log"
    fi
  fi
fi

token_now="$(sed -n 's/^token = "\(.*\)"/\1/p' "$ROOT$CONFIG" | head -1)"
host="$(hostname -I 2>/dev/null | awk '{print $1}')"
say "done. On the computer that runs Borne:"
say "  borne run --list-cameras"
say "  borne run --source 'http://${host:-THIS-PI}:$PORT/stream.mjpg?token=${token_now:-TOKEN}'"
