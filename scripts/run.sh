#!/usr/bin/env bash
# `make run`: open the desktop window when a display and the GTK/WebKit
# libraries are there, otherwise serve the headless dashboard; say which and
# why in one line. Runs on the demo data when nothing is configured.
set -euo pipefail
cd "$(dirname "$0")/.."
display=""
[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && display=yes
libs=""
pkg-config --exists gtk+-3.0 webkit2gtk-4.1 2>/dev/null && libs=yes
if [ -n "$display" ] && [ -n "$libs" ] && grep -q '^//go:build desktop' app/*.go 2>/dev/null; then
  echo "costpilot: opening the desktop window (display ${DISPLAY:-$WAYLAND_DISPLAY} and GTK/WebKit found)"
  make --no-print-directory desktop >&2
  exec bin/costpilot-desktop "$@"
fi
why="no display"; [ -n "$display" ] && why="GTK/WebKit libraries not installed (make desktop installs them)"
host=${COSTPILOT_HOST:-127.0.0.1}; port=${COSTPILOT_PORT:-5000}
echo "costpilot: starting the headless dashboard on http://$host:$port ($why)"
make --no-print-directory build >&2
bin=bin/costpilot
# A first run gets one user with a random password, printed once here; no
# default password exists anywhere.
if [ -z "$($bin user list 2>/dev/null | tail -n +2)" ]; then
  pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 20)
  printf '%s\n' "$pw" | $bin user add admin >/dev/null
  echo "costpilot: created user 'admin' with password: $pw  (change it: costpilot user passwd admin)"
fi
exec $bin dashboard --host "$host" --port "$port" "$@"
