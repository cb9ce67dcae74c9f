#!/usr/bin/env bash
# Remove the Borne camera agent installed by install.sh: the systemd unit and the virtual environment.
# The settings (/etc/borne-cam.toml, with the token) and the system user stay unless --purge.
set -euo pipefail

PREFIX=/opt/borne-cam
CONFIG=/etc/borne-cam.toml
USER_NAME=borne-cam
ROOT=""
PURGE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --config) CONFIG="$2"; shift 2 ;;
    --user) USER_NAME="$2"; shift 2 ;;
    --root) ROOT="${2%/}"; shift 2 ;;
    --purge) PURGE=1; shift ;;
    -h|--help) echo "usage: sudo $0 [--prefix DIR] [--config FILE] [--user NAME] [--root DIR] [--purge]"; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { printf 'borne-cam uninstall: %s\n' "$*"; }
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
  echo "uninstall.sh: run it as root: sudo $0" >&2; exit 2
fi

unit="$ROOT/etc/systemd/system/borne-cam.service"
if [ -z "$ROOT" ] && command -v systemctl >/dev/null 2>&1 && [ -e "$unit" ]; then
  systemctl disable --now borne-cam.service || true
fi
if [ -e "$unit" ]; then
  rm -f "$unit"
  [ -z "$ROOT" ] && command -v systemctl >/dev/null 2>&1 && systemctl daemon-reload
  say "removed the systemd unit"
fi
case "$PREFIX" in
  ''|/|/usr|/usr/*|/etc|/home) echo "uninstall.sh: refusing to remove --prefix $PREFIX" >&2; exit 2 ;;
esac
if [ -d "$ROOT$PREFIX" ]; then
  rm -rf "$ROOT$PREFIX"
  say "removed $PREFIX"
fi
if [ "$PURGE" = 1 ]; then
  rm -f "$ROOT$CONFIG"
  if [ -z "$ROOT" ] && id "$USER_NAME" >/dev/null 2>&1; then userdel "$USER_NAME" || true; fi
  say "removed the settings and the user $USER_NAME"
else
  [ -e "$ROOT$CONFIG" ] && say "kept $CONFIG (the camera's token); --purge removes it"
fi
exit 0
