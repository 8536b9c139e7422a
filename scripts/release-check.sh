#!/usr/bin/env bash
# The release checks (make test-release; docs/install.md says what each way
# of installing gives). Installs what is missing (goreleaser, helm and
# cyclonedx-gomod with go install; podman, systemd, jq, curl, unzip with
# apt), then:
#   1. goreleaser check, and a snapshot build into dist/release: an archive
#      per platform of OSES x ARCHES, checksums, an SBOM per binary;
#      each binary is CGO-free and stamped with the version, the linux/amd64
#      one prints it; man pages and completions are in every archive;
#   2. go install of the module path builds a binary that runs;
#   3. podman builds the image (deploy/container) from the linux/amd64
#      binary; its configuration has the non-root user, the volume, the
#      healthcheck and the entrypoint; the binary copied out of a created
#      (never started: this sandbox refuses the runtime's setrlimit calls)
#      container is the release's, and with the image's environment it
#      serves /healthz and the same demo total on /api/costs as the release
#      binary;
#   4. helm lint and helm template of deploy/helm/costpilot;
#   5. systemd-analyze verify and security of deploy/systemd/costpilot.service.
# Every step prints a line of the summary at the end; any failure stops it.
# Only loopback is used once the tools are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

GORELEASER_VERSION=v2.15.1
HELM_VERSION=v3.22.0
CYCLONEDX_VERSION=v1.10.0
# The platforms .goreleaser.yaml builds.
OSES="linux darwin windows"
ARCHES="amd64 arm64"
# The highest `systemd-analyze security` exposure the unit may have
# (0 best, 10 worst; up to 2.0 systemd calls "OK").
MAX_EXPOSURE=2.0

GOBIN_DIR=$(go env GOPATH)/bin
export PATH="$GOBIN_DIR:$PATH"
DIST=dist/release
WORK=$(mktemp -d "${TMPDIR:-/tmp}/costpilot-release-check.XXXXXX")
pids=()
containers=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for c in "${containers[@]}"; do podman rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

summary=()
say() { printf 'release-check: %s\n' "$*" >&2; }
ok() { summary+=("ok  $*"); say "ok: $*"; }
die() { say "FAIL: $*"; exit 1; }

# ---- tools ----------------------------------------------------------------
# go_tool NAME PACKAGE VERSION installs NAME unless a binary of that module
# version is already on PATH (go version -m reads the version it was built at).
go_tool() {
  local name=$1 pkg=$2 want=$3 have=""
  if command -v "$name" >/dev/null; then
    have=$(go version -m "$(command -v "$name")" 2>/dev/null | awk '$1 == "mod" {print $3; exit}')
  fi
  if [ "$have" != "$want" ]; then
    say "installing $name $want (go install; compiles for minutes)"
    GOFLAGS= nice -n 19 go install "$pkg@$want"
  fi
}

apt_need=""
command -v podman >/dev/null || apt_need="$apt_need podman"
command -v systemd-analyze >/dev/null || apt_need="$apt_need systemd"
command -v jq >/dev/null || apt_need="$apt_need jq"
command -v curl >/dev/null || apt_need="$apt_need curl"
command -v unzip >/dev/null || apt_need="$apt_need unzip"
if [ -n "$apt_need" ]; then
  apt=apt-get
  [ "$(id -u)" = 0 ] || apt="sudo apt-get"
  say "installing$apt_need (apt)"
  $apt update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $apt install -y -qq --no-install-recommends $apt_need >/dev/null
fi
go_tool goreleaser github.com/goreleaser/goreleaser/v2 "$GORELEASER_VERSION"
go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
go_tool cyclonedx-gomod github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod "$CYCLONEDX_VERSION"
ok "tools: goreleaser $GORELEASER_VERSION, helm $HELM_VERSION, cyclonedx-gomod $CYCLONEDX_VERSION, $(podman --version), systemd $(systemd-analyze --version | awk 'NR==1 {print $2}')"

# ---- 1. release archives ----------------------------------------------------
goreleaser check >/dev/null 2>"$WORK/check.log" || { cat "$WORK/check.log" >&2; die "goreleaser check"; }
ok "goreleaser check: .goreleaser.yaml is valid"

# GoReleaser reads the commit (for the snapshot's version) only when
# `git ls-remote --get-url` answers; a CI checkout may have no remote, so
# one is named for its process alone (nothing is fetched in a snapshot).
if [ -z "$(git remote)" ]; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/costpilot/costpilot.git
fi
start=$SECONDS
goreleaser release --snapshot --clean --parallelism 2 >"$WORK/goreleaser.log" 2>&1 ||
  { tail -n 40 "$WORK/goreleaser.log" >&2; die "goreleaser snapshot build (log above)"; }
VERSION=$(jq -r .version "$DIST/metadata.json")
ok "snapshot build $VERSION in $((SECONDS - start)) s"

archives=0
for os in $OSES; do
  for arch in $ARCHES; do
    ext=tar.gz exe=costpilot
    [ "$os" = windows ] && ext=zip exe=costpilot.exe
    a="$DIST/costpilot_${VERSION}_${os}_${arch}.$ext"
    [ -f "$a" ] || die "no archive $a"
    grep -q "  $(basename "$a")\$" "$DIST/checksums.txt" || die "$a is not in checksums.txt"
    mkdir -p "$WORK/x"
    if [ "$ext" = zip ]; then unzip -q "$a" -d "$WORK/x"; else tar -xzf "$a" -C "$WORK/x"; fi
    x="$WORK/x/costpilot_${VERSION}_${os}_${arch}"
    for f in "$exe" README.md docs/install.md deploy/systemd/costpilot.service \
      man/costpilot.1 man/costpilot-dashboard.1 completions/costpilot.bash completions/costpilot.zsh \
      completions/costpilot.fish completions/costpilot.ps1; do
      [ -f "$x/$f" ] || die "$a lacks $f"
    done
    # The build settings Go records in the binary (the platform, no cgo);
    # -trimpath leaves -ldflags out of them, so the version stamped with -X
    # is looked for in the binary's bytes.
    info=$(go version -m "$x/$exe")
    for want in "GOOS=$os" "GOARCH=$arch" "CGO_ENABLED=0" "-tags=timetzdata"; do
      grep -q -- "$want" <<<"$info" || die "$a: the binary's build info lacks $want"
    done
    grep -aqF -- "$VERSION" "$x/$exe" || die "$a: the binary is not stamped with $VERSION"
    sbom="$DIST/costpilot_${VERSION}_${os}_${arch}.cdx.json"
    [ "$(jq -r .bomFormat "$sbom")" = CycloneDX ] || die "$sbom is not a CycloneDX SBOM"
    jq -e '[.components[].name] | index("modernc.org/sqlite")' "$sbom" >/dev/null || die "$sbom does not list modernc.org/sqlite"
    grep -q "  $(basename "$sbom")\$" "$DIST/checksums.txt" || die "$sbom is not in checksums.txt"
    archives=$((archives + 1))
  done
done
(cd "$DIST" && sha256sum --quiet -c checksums.txt) || die "checksums.txt does not match the files"
ok "$archives archives ($(echo $OSES) x $(echo $ARCHES)) with binary, man pages, completions, unit and docs; checksums.txt verifies; a CycloneDX SBOM per binary"

REL="$WORK/x/costpilot_${VERSION}_linux_amd64/costpilot"
[ "$("$REL" version)" = "costpilot $VERSION" ] || die "linux/amd64 'costpilot version' says '$("$REL" version)', want 'costpilot $VERSION'"
[ "$("$REL" --version)" = "costpilot $VERSION" ] || die "linux/amd64 'costpilot --version' is not $VERSION"
ok "every binary is CGO-free and stamped $VERSION; linux/amd64 prints 'costpilot $VERSION'"

# ---- 2. go install ------------------------------------------------------------
# The module path from inside the module builds from this checkout; the
# flags match make build's, so the build cache serves most of it.
GOBIN="$WORK/gobin" CGO_ENABLED=0 go install -trimpath github.com/costpilot/costpilot
gi=$("$WORK/gobin/costpilot" version) || die "the go-installed binary does not run"
ok "go install github.com/costpilot/costpilot builds a binary that runs ($gi)"

# ---- 3. container image ---------------------------------------------------------
IMAGE=localhost/costpilot:$VERSION
ctx="$WORK/image"
mkdir -p "$ctx/etc/ssl/certs" "$ctx/data"
chmod 0700 "$ctx/data"
cp "$REL" "$ctx/costpilot"
cp deploy/container/passwd deploy/container/group "$ctx/etc/"
cp /etc/ssl/certs/ca-certificates.crt "$ctx/etc/ssl/certs/" || die "no CA bundle at /etc/ssl/certs/ca-certificates.crt (apt install ca-certificates)"
# Earlier runs' images go first (only this repository's name).
podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/costpilot:' | xargs -r podman rmi -f >/dev/null 2>&1 || true
# Podman's defaults work here (root, overlay storage, cgroupfs, no RUN
# step to isolate); --format docker keeps the HEALTHCHECK, which the OCI
# image format drops.
podman build --quiet --format docker --build-arg "VERSION=$VERSION" -f deploy/container/Containerfile -t "$IMAGE" "$ctx" >"$WORK/build.log" 2>&1 ||
  { cat "$WORK/build.log" >&2; die "podman build"; }
inspect=$(podman image inspect "$IMAGE")
user=$(jq -r '.[0].Config.User' <<<"$inspect")
case "$user" in "" | 0 | 0:* | root | root:*) die "the image runs as root (User '$user')" ;; esac
jq -e '.[0].Config.Volumes | has("/data")' <<<"$inspect" >/dev/null || die "the image has no /data volume"
[ "$(jq -c '.[0].Healthcheck.Test' <<<"$inspect")" = '["CMD","/costpilot","healthcheck","--url","http://127.0.0.1:5000/healthz"]' ] ||
  die "the image's healthcheck is $(jq -c '.[0].Healthcheck' <<<"$inspect")"
[ "$(jq -c '.[0].Config.Entrypoint' <<<"$inspect")" = '["/costpilot"]' ] || die "the image's entrypoint is $(jq -c '.[0].Config.Entrypoint' <<<"$inspect")"
[ "$(jq -c '.[0].Config.Cmd' <<<"$inspect")" = '["dashboard"]' ] || die "the image's command is $(jq -c '.[0].Config.Cmd' <<<"$inspect")"
ok "podman built $IMAGE ($(jq -r '.[0].Size' <<<"$inspect") bytes): user $user, volume /data, healthcheck '/costpilot healthcheck', entrypoint /costpilot dashboard"

cid=$(podman create --no-healthcheck "$IMAGE")
containers+=("$cid")
podman cp "$cid:/costpilot" "$WORK/image-costpilot"
podman cp "$cid:/etc/ssl/certs/ca-certificates.crt" "$WORK/image-ca.crt"
podman rm "$cid" >/dev/null
[ -s "$WORK/image-ca.crt" ] || die "the image has no CA bundle"
cmp -s "$REL" "$WORK/image-costpilot" || die "the image's binary differs from the release's linux/amd64 binary"
ok "the binary copied out of a created container is the release's linux/amd64 binary; the CA bundle is there"

# serve NAME BINARY: runs the dashboard of BINARY on a free loopback port
# with the image's environment (/data and /etc moved under a fresh dir),
# checks /healthz and sets served_total to the demo's 30-day total from
# /api/costs and served_health to what costpilot healthcheck printed.
mapfile -t image_env < <(jq -r '.[0].Config.Env[]' <<<"$inspect")
serve() {
  local name=$1 bin=$2 dir="$WORK/serve-$1" env=() kv base="" token
  mkdir -p "$dir/data" "$dir/etc"
  for kv in "${image_env[@]}"; do
    kv=${kv/=\/data/=$dir/data}
    env+=("${kv/=\/etc/=$dir/etc}")
  done
  env+=("TMPDIR=$dir")
  token=$(env -i "${env[@]}" "$bin" token create release-check --role viewer 2>>"$dir/log") || die "$name: token create (see $dir/log)"
  env -i "${env[@]}" "$bin" dashboard --host 127.0.0.1 --port 0 2>"$dir/log" &
  pids+=($!)
  local pid=$!
  for _ in $(seq 240); do
    base=$(sed -n 's/^costpilot dashboard listening on \(http:[^ ]*\)$/\1/p' "$dir/log" | sed 's#/$##')
    [ -n "$base" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$dir/log" >&2; die "$name: the dashboard exited"; }
    sleep 0.5
  done
  [ -n "$base" ] || { cat "$dir/log" >&2; die "$name: the dashboard did not listen within 120 s"; }
  env -i "${env[@]}" "$bin" healthcheck --url "$base/healthz" >"$dir/health" || { cat "$dir/log" >&2; die "$name: costpilot healthcheck failed on $base/healthz"; }
  curl -fsS "$base/healthz" | jq -e '.status == "ok" or .status == "degraded"' >/dev/null || die "$name: /healthz"
  served_total=$(curl -fsS -H "Authorization: Bearer $token" "$base/api/costs?days=30" | jq -r '.summary.total_cost') || die "$name: /api/costs"
  kill -TERM "$pid"
  wait "$pid" || die "$name: the dashboard did not stop cleanly on SIGTERM"
  served_health=$(cat "$dir/health")
}
serve release "$REL"
rel_total=$served_total
serve image "$WORK/image-costpilot"
img_total=$served_total img_health=$served_health
awk -v t="$rel_total" 'BEGIN { exit !(t > 0) }' || die "the release binary's demo total is '$rel_total'"
[ "$rel_total" = "$img_total" ] || die "demo totals differ: release $rel_total, image $img_total"
ok "with the image's environment: /healthz answers ($img_health, costpilot healthcheck exits 0) and /api/costs?days=30 totals $img_total, as the release binary ($rel_total)"

# ---- 4. helm chart ---------------------------------------------------------------
CHART=deploy/helm/costpilot
helm lint --strict "$CHART" >"$WORK/lint.log" 2>&1 || { cat "$WORK/lint.log" >&2; die "helm lint"; }
helm lint --strict "$CHART" --set ingress.enabled=true --set secrets.oidcClientSecret=x --set-string config='aws: {enabled: true}' >"$WORK/lint.log" 2>&1 ||
  { cat "$WORK/lint.log" >&2; die "helm lint with ingress, config and secrets"; }
kinds() { helm template cp "$CHART" "$@" | awk '/^kind:/ {print $2}' | sort | tr '\n' ' '; }
[ "$(kinds)" = "Deployment PersistentVolumeClaim Secret Service " ] || die "helm template (defaults) renders: $(kinds)"
full=$(helm template cp "$CHART" --set ingress.enabled=true --set secrets.secretKey=0123456789abcdef0123 \
  --set secrets.oidcClientSecret=s3cret --set-string config='aws: {enabled: true}')
[ "$(awk '/^kind:/ {print $2}' <<<"$full" | sort | tr '\n' ' ')" = "ConfigMap Deployment Ingress PersistentVolumeClaim Secret Service " ] ||
  die "helm template (ingress, config) renders the wrong objects"
for want in "readOnlyRootFilesystem: true" "runAsNonRoot: true" "path: /healthz" "COSTPILOT_SECRET_KEY_FILE" \
  "COSTPILOT_OIDC_CLIENT_SECRET_FILE" "value: /etc/costpilot/config.yaml" "claimName: cp-costpilot" \
  "oidc_client_secret: \"$(printf s3cret | base64)\""; do
  grep -qF -- "$want" <<<"$full" || die "helm template lacks '$want'"
done
[ "$(kinds --set secrets.existingSecret=mine --set persistence.existingClaim=old)" = "Deployment Service " ] ||
  die "helm template with an existing secret and claim still makes them"
if helm template cp "$CHART" --set secrets.secretKey=short >/dev/null 2>&1; then die "helm template accepts a session key under 16 characters"; fi
ok "helm lint --strict passes; helm template renders the defaults, ingress/config/secrets, existing secret and claim; refuses a short session key"

# ---- 5. systemd unit ------------------------------------------------------------
# verify checks that ExecStart's binary exists, so a copy points it at the
# release binary.
mkdir -p "$WORK/unit"
sed "s#/usr/local/bin/costpilot#$REL#g" deploy/systemd/costpilot.service >"$WORK/unit/costpilot.service"
systemd-analyze verify "$WORK/unit/costpilot.service" >"$WORK/verify.log" 2>&1 || { cat "$WORK/verify.log" >&2; die "systemd-analyze verify"; }
[ -s "$WORK/verify.log" ] && { cat "$WORK/verify.log" >&2; die "systemd-analyze verify warns"; }
exposure=$(systemd-analyze security --offline=true "$WORK/unit/costpilot.service" 2>&1 | sed -n 's/.*Overall exposure level for costpilot.service: \([0-9.]*\).*/\1/p')
[ -n "$exposure" ] || die "systemd-analyze security gave no exposure level"
awk -v e="$exposure" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(e <= m) }' || die "the unit's exposure is $exposure, above $MAX_EXPOSURE"
ok "systemd-analyze verify passes on deploy/systemd/costpilot.service; security exposure $exposure (at most $MAX_EXPOSURE)"

printf '\nrelease-check summary (%s):\n' "$VERSION"
printf '  %s\n' "${summary[@]}"
