# IntentBus: `make run` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
CONFIG ?= plugins.yaml

.PHONY: all deps build run test test-swift bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	.build/debug/intentbus host --config $(CONFIG)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The host against a bare zmq_proxy relay, side by side (docs/performance.md). About 1.5
# minutes after the release build; writes bench/results/<time>.json and latest.json.
bench: deps
	$(SWIFT) build -c release
	.build/release/intentbus-bench --out bench/results

clean:
	rm -rf .build .intentbus
