# IntentBus: `make run` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
CONFIG ?= plugins.yaml

.PHONY: all deps build run test test-swift clean

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

clean:
	rm -rf .build .intentbus
