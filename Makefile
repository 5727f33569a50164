# The two commands of the README:
#   make run    installs what is missing, builds, and runs placesd in the foreground
#   make test   installs what is missing, builds, and runs every test
# Extra: make bench (release benchmarks), make lint (swift-format).

SWIFT ?= swift
# Release builds link the Swift runtime and Foundation into the binaries (a smaller
# resident set for placesd; see docs/architecture.md, "Performance").
RELEASE = -c release --static-swift-stdlib
DATA_DIR ?=
RUN_ARGS ?= $(if $(DATA_DIR),--data-dir $(DATA_DIR),)

.PHONY: run test bench route-bench lint deps build release clean

deps:
	@bash scripts/bootstrap.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE)

run: deps
	$(SWIFT) build
	$(SWIFT) run --skip-build placesd $(RUN_ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build $(RELEASE)
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/places-bench"
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/route-bench"

route-bench: deps
	$(SWIFT) build $(RELEASE) --product route-bench
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/route-bench"

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build
