#!/usr/bin/env bash
# Desktop smoke test (issue 5). Builds the desktop binary with `make desktop`,
# then, under Xvfb with fresh data dirs, no D-Bus session and a throw-away
# HOME:
#   1. runs `costpilot-desktop desktop --self-test`: the UI loads the demo
#      overview through the Wails bindings and reports the rendered total to
#      Go, which checks it against the backend's own analysis; exit 0 = match;
#   2. starts it with no arguments: the window must show the demo overview
#      within 10 s and stay up; a screenshot goes to test-artifacts/ and must
#      not be blank; then SIGTERM must close it cleanly, remembering its size;
#   3. starts it again on the same data dir (warm start);
#   4. starts `costpilot-desktop dashboard` on a fresh data dir, then the
#      window on the same data dir: the window must show the overview
#      within 10 s while the dashboard keeps answering (issue 16: any
#      number of processes share a data dir), and a token created by the
#      CLI beside both must work on the dashboard at once;
#   5. records cold and warm start to first rendered data, resident memory
#      (app plus WebKit helper processes) and binary size in
#      test-artifacts/desktop-smoke.txt.
# SKIP_BUILD=1 reuses bin/costpilot-desktop. When the wails CLI is on PATH
# (or in ~/go/bin), frontend/wailsjs is regenerated and must not change.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$root/bin/costpilot-desktop
art=$root/test-artifacts
mkdir -p "$art"
report=$art/desktop-smoke.txt

# ---- inside Xvfb: the checks of steps 1-3 ---------------------------------
if [ "${1:-}" = __inside ]; then
  work=$2
  say() { echo "desktop-smoke: $*" >&2; }
  fail() { say "FAIL: $*"; [ -n "${app:-}" ] && kill "$app" 2>/dev/null; exit 1; }
  field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2" | head -n1; }
  # tree PID: PID and all its descendants (the WebKit web and network processes).
  tree() {
    local c
    echo "$1"
    for c in $(pgrep -P "$1" 2>/dev/null); do tree "$c"; done
  }
  # mem PID: "<RSS of PID> <summed RSS> <summed PSS>" in KiB over the tree.
  # PSS splits shared pages between processes, so it does not count the
  # shared GTK/WebKit libraries twice.
  mem() {
    local p main rss=0 pss=0
    main=$(awk '/^VmRSS:/ {print $2}' "/proc/$1/status")
    for p in $(tree "$1"); do
      rss=$((rss + $(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)))
      pss=$((pss + $(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)))
    done
    echo "$main $rss $pss"
  }
  # wait_for FILE PATTERN SECONDS: poll FILE for PATTERN.
  wait_for() {
    local deadline=$((SECONDS + $3))
    while [ $SECONDS -lt $deadline ]; do
      grep -q "$2" "$1" 2>/dev/null && return 0
      [ -n "${app:-}" ] && ! kill -0 "$app" 2>/dev/null && return 1
      sleep 0.2
    done
    return 1
  }

  say "1/4 self-test: the overview's total through the bindings must match the backend"
  set +e
  timeout 180 "$bin" desktop --data-dir "$work/data-selftest" --self-test --self-test-timeout 120s 2>"$work/selftest.log"
  code=$?
  set -e
  grep -E 'first data rendered|self-test' "$work/selftest.log" >&2 || true
  [ $code -eq 0 ] || fail "self-test exited $code (log: $work/selftest.log)"
  grep -q 'msg="self-test finished" ok=true' "$work/selftest.log" || fail "self-test gave no verdict"
  selftest_ms=$(field startup_ms "$work/selftest.log")

  say "2/4 no arguments, fresh data dir: the demo overview within 10 s, and the window stays up"
  export COSTPILOT_DATA_DIR=$work/data-plain
  t0=$(date +%s%N)
  "$bin" 2>"$work/plain.log" &
  app=$!
  wait_for "$work/plain.log" 'msg="first data rendered".*check=ok' 10 || {
    import -window root "$art/desktop-window-failed.png" 2>/dev/null || true
    cat "$work/plain.log" >&2
    fail "no overview data within 10 s of start"
  }
  wall_ms=$((($(date +%s%N) - t0) / 1000000))
  cold_ms=$(field startup_ms "$work/plain.log")
  xwininfo -root -tree | grep -q '"costpilot"' || fail "no window titled costpilot is mapped"
  sleep 2 # let charts finish animating before the screenshot
  import -window root "$art/desktop-window.png"
  sd=$(convert "$art/desktop-window.png" -colorspace Gray -format '%[fx:standard_deviation]' info:)
  colours=$(identify -format '%k' "$art/desktop-window.png")
  say "screenshot: $art/desktop-window.png (grey standard deviation $sd, $colours colours)"
  awk -v sd="$sd" 'BEGIN { exit !(sd > 0.05) }' || fail "the screenshot is blank (standard deviation $sd)"
  [ "$colours" -gt 64 ] || fail "the screenshot has only $colours colours"
  read -r m0 r0 p0 < <(mem "$app")
  procs=$(tree "$app" | wc -l)
  sleep 8
  kill -0 "$app" 2>/dev/null || fail "the window closed by itself"
  read -r m1 r1 p1 < <(mem "$app")
  kill -TERM "$app"
  for _ in $(seq 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$app" 2>/dev/null && fail "SIGTERM did not close the window within 10 s"
  wait "$app" || fail "the app exited non-zero after SIGTERM"
  app=
  [ -s "$COSTPILOT_DATA_DIR/window.json" ] || fail "the window's size was not remembered"

  say "3/4 warm start: the same data dir again"
  "$bin" 2>"$work/warm.log" &
  app=$!
  wait_for "$work/warm.log" 'msg="first data rendered".*check=ok' 10 || fail "no overview data within 10 s on a warm start"
  warm_ms=$(field startup_ms "$work/warm.log")
  kill -TERM "$app"
  wait "$app" || true
  app=

  say "4/4 beside a running dashboard on the same data dir"
  shared=$work/data-shared
  "$bin" dashboard --host 127.0.0.1 --port 0 --data-dir "$shared" 2>"$work/dashboard.log" &
  dash=$!
  wait_for "$work/dashboard.log" 'listening on http' 30 || { kill "$dash" 2>/dev/null; cat "$work/dashboard.log" >&2; fail "the dashboard did not start"; }
  base=$(sed -n 's|.*listening on \(http://[^/]*\)/.*|\1|p' "$work/dashboard.log" | head -n1)
  curl -fs "$base/healthz" >/dev/null || { kill "$dash"; fail "the dashboard does not answer /healthz"; }
  COSTPILOT_DATA_DIR=$shared "$bin" 2>"$work/beside.log" &
  app=$!
  wait_for "$work/beside.log" 'msg="first data rendered".*check=ok' 10 || {
    import -window root "$art/desktop-window-beside-failed.png" 2>/dev/null || true
    kill "$dash" 2>/dev/null
    cat "$work/beside.log" >&2
    fail "no overview data within 10 s of start beside a running dashboard"
  }
  beside_ms=$(field startup_ms "$work/beside.log")
  token=$("$bin" token create smoke --data-dir "$shared" 2>/dev/null) || { kill "$dash"; fail "token create beside the window and the dashboard failed"; }
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$base/api/costs?days=7")
  [ "$code" = 200 ] || { kill "$dash"; fail "the dashboard answered $code to the token just created"; }
  kill -0 "$app" 2>/dev/null || { kill "$dash"; fail "the window closed beside the dashboard"; }
  kill -TERM "$app"
  wait "$app" || { kill "$dash"; fail "the app exited non-zero after SIGTERM beside the dashboard"; }
  app=
  curl -fs "$base/healthz" >/dev/null || { kill "$dash"; fail "the dashboard stopped answering"; }
  kill -TERM "$dash"
  wait "$dash" || fail "the dashboard exited non-zero after SIGTERM"

  size=$(stat -c %s "$bin")
  {
    echo "binary: $(basename "$bin") $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }') MiB)"
    echo "self-test: ok, first data after ${selftest_ms} ms"
    echo "cold start to first rendered data (fresh data dir, demo history filled): ${cold_ms} ms in-process, ${wall_ms} ms wall"
    echo "warm start to first rendered data: ${warm_ms} ms"
    echo "start beside a running dashboard on the same data dir, to first rendered data: ${beside_ms} ms"
    echo "memory at first data: costpilot process RSS $((m0 / 1024)) MiB; with its $((procs - 1)) WebKit processes RSS $((r0 / 1024)) MiB, PSS $((p0 / 1024)) MiB"
    echo "memory 8 s later: costpilot process RSS $((m1 / 1024)) MiB; all processes RSS $((r1 / 1024)) MiB, PSS $((p1 / 1024)) MiB"
    echo "screenshot: test-artifacts/desktop-window.png"
  } | tee "$report" >&2
  exit 0
fi

# ---- outside: build, isolate, run under Xvfb ------------------------------
if [ "${SKIP_BUILD:-}" != 1 ]; then
  make --no-print-directory desktop
fi
[ -x "$bin" ] || { echo "desktop-smoke: $bin was not built" >&2; exit 1; }
missing=""
for c in xvfb-run xauth import convert identify xwininfo curl; do command -v "$c" >/dev/null || missing="$missing $c"; done
if [ -n "$missing" ]; then
  APT=apt-get; [ "$(id -u)" = 0 ] || APT="sudo apt-get"
  $APT update -qq && $APT install -y -qq xvfb xauth imagemagick x11-utils curl >/dev/null
fi

wails=$(command -v wails || { [ -x "$HOME/go/bin/wails" ] && echo "$HOME/go/bin/wails"; } || true)
if [ -n "$wails" ]; then
  echo "desktop-smoke: regenerating frontend/wailsjs with $wails" >&2
  "$wails" generate module >/dev/null
  find frontend/wailsjs -type f -exec chmod 644 {} + # wails writes 0755; the repository keeps 0644
  git -c core.fileMode=false diff --exit-code --stat -- frontend/wailsjs || { echo "desktop-smoke: FAIL: frontend/wailsjs is stale: commit the regenerated bindings" >&2; exit 1; }
else
  echo "desktop-smoke: wails CLI not found; skipping the wailsjs drift check (go install github.com/wailsapp/wails/v2/cmd/wails@v2.11.0)" >&2
fi

work=$(mktemp -d /tmp/costpilot-desktop-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/runtime"
chmod 700 "$work/runtime"
# A throw-away HOME with no D-Bus session: no keyring daemon, no user
# config, nothing of the user's touched. The keyring falls back to its
# encrypted file; its passphrase comes from the environment.
env -u DBUS_SESSION_BUS_ADDRESS -u COSTPILOT_CONFIG -u COSTPILOT_DATA_DIR -u WAYLAND_DISPLAY \
  HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config" \
  XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache" \
  COSTPILOT_KEYRING_PASSWORD=smoke-test \
  xvfb-run -a -s "-screen 0 1440x900x24 -nolisten tcp" bash "$0" __inside "$work"
