# costpilot build and test entry points (docs/architecture.md, "Build
# flavours"). Each target installs what it needs that is missing, on Debian
# or Ubuntu.
SHELL := /bin/bash
GO ?= go
BIN := bin/costpilot
DESKTOP_BIN := bin/costpilot-desktop
APT := $(shell command -v apt-get >/dev/null && { [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get; })

.PHONY: all build desktop frontend run test test-go test-frontend test-e2e test-desktop test-release lint deps-frontend deps-test deps-mailpit deps-desktop clean

all: build

# ---- build -------------------------------------------------------------
deps-frontend:
	@command -v npm >/dev/null || { $(APT) update -qq && $(APT) install -y -qq nodejs npm; }
	@cd frontend && { [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; }

frontend: deps-frontend
	cd frontend && npm run build

build: frontend
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) .

deps-desktop:
	@pkg-config --exists gtk+-3.0 webkit2gtk-4.1 2>/dev/null || { $(APT) update -qq && $(APT) install -y -qq libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config; }

desktop: frontend deps-desktop
	cd frontend && VITE_TARGET=wails npm run build
	CGO_ENABLED=1 $(GO) build -trimpath -ldflags '-s -w' -tags desktop,production,webkit2_41 -o $(DESKTOP_BIN) .
	cd frontend && npm run build

# ---- run ---------------------------------------------------------------
# The desktop window when a display and GTK/WebKit are there, else the
# headless dashboard on http://127.0.0.1:5000 (demo data when nothing is
# configured). scripts/run.sh says which and why in one line.
run:
	@bash scripts/run.sh

# ---- test --------------------------------------------------------------
# Mailpit is the SMTP server the scheduled-report tests deliver to
# (internal/mailpit); the tests fail without it.
MAILPIT_VERSION := v1.27.11
MAILPIT := $(shell $(GO) env GOPATH)/bin/mailpit

deps-mailpit:
	@command -v mailpit >/dev/null || [ -x "$(MAILPIT)" ] || GOFLAGS= $(GO) install github.com/axllent/mailpit@$(MAILPIT_VERSION)

deps-test: deps-mailpit
	@missing=""; \
	  command -v chromium >/dev/null || missing="$$missing chromium"; \
	  command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	  if [ -n "$$missing" ]; then $(APT) update -qq && $(APT) install -y -qq $$missing; fi

test: deps-test test-frontend test-go lint test-e2e test-desktop test-release
	@echo "make test: all suites passed"

test-go: deps-mailpit
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/node_modules/*')); \
	  if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...
	@# The memory bound of 100 parallel logins (200 MB peak RSS) holds for the
	@# product's binary; the race detector inflates memory, so it is checked
	@# once more without it.
	$(GO) test -count=1 -run 'TestDashboardLoginBurstMemoryAndShutdown' ./headless/cli/
	@# The history's property tests run on one goroutine; under the race
	@# detector they check one seed each, here every seed.
	$(GO) test -count=1 -run 'TestHistoryProperty' ./backend/store/
	@# Processes starting at once on one data dir: under the race detector a
	@# few trials, here all of them (50 on a fresh dir, every old version).
	$(GO) test -count=1 -run 'TestConcurrentOpen|TestTeamStartsAtOnceOnAnyDataDir' ./backend/store/ ./headless/cli/
	@# The recommendations of a generated 5,000-resource year (skipped under -race).
	$(GO) test -count=1 -run 'TestFleetYearRecommendations' ./backend/service/

test-frontend: deps-frontend
	cd frontend && npm run typecheck && npm run build && npm test

# bin/testop is a test tool (an OpenID Provider for the single sign-on
# scenario), never shipped.
test-e2e: build
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/testop ./tools/testop
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/genfocus ./scripts/genfocus
	COSTPILOT_BIN=$(CURDIR)/$(BIN) COSTPILOT_TESTOP_BIN=$(CURDIR)/bin/testop COSTPILOT_GENFOCUS_BIN=$(CURDIR)/bin/genfocus bash -c 'cd frontend && npm run e2e'

test-desktop:
	bash scripts/desktop-smoke.sh

# The release archives (goreleaser snapshot), the container image (podman),
# the Helm chart and the systemd unit (docs/install.md); the script
# installs the tools it lacks and prints a summary.
test-release:
	bash scripts/release-check.sh

GOLANGCI := $(shell $(GO) env GOPATH)/bin/golangci-lint
$(GOLANGCI):
	GOFLAGS= $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0

# golangci-lint (.golangci.yml: errcheck, staticcheck, depguard layering
# rules, sqlclosecheck, errname), also over the desktop-tagged files.
lint: $(GOLANGCI)
	$(GOLANGCI) run ./...
	@if pkg-config --exists gtk+-3.0 webkit2gtk-4.1 2>/dev/null; then $(GOLANGCI) run --build-tags desktop,production,webkit2_41 ./app/... .; fi

clean:
	rm -rf bin test-artifacts dist
