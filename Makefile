# IntentBus: `make run` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
CONFIG ?= plugins.yaml

.PHONY: all deps build run test test-swift check-structure bench bench-peers chaos clean python-venv test-python lint-python fuzz fuzz-build fuzz-smoke sentences sentences-pypi bench-sentences scale-out

# The Python client/plugin SDK lives in clients/python; tests and the demo's coffee plugin
# run from a venv in the repository (.venv, gitignored), made with the system python3.
PYTHON ?= python3
VENV ?= .venv
PY_SOURCES := $(wildcard clients/python/pyproject.toml clients/python/intentbus/*.py clients/python/intentbus/*/*.py clients/python/intentbus/*/*/*.py clients/python/intentbus/py.typed clients/python/intentbus/examples/*.py)

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build python-venv
	@# git checks the demo credential out 0644; the host warns about a credential others can read.
	@chmod 600 demo/client-credential
	.build/debug/intentbus host --config $(CONFIG)

test: deps python-venv
	$(MAKE) --no-print-directory check-structure
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory test-python
	$(MAKE) --no-print-directory fuzz-smoke

# The structure rules of issue 25 (scripts/check_structure.py, docs/design.md "Modules"): no
# Swift file over 400 lines, no type over 800 summed over its extensions (scripts/typesize.py
# measures), no import circle in the Python package, `public` only in the products' modules.
# A second or two; the first step of `make test`.
check-structure:
	$(PYTHON) scripts/check_structure.py

# Three hosts, four clients that know all of them, hosts SIGKILLed and restarted at random
# (docs/scale-out.md); bounded: SCALE_REQUESTS requests within SCALE_SECONDS. Three hosts
# on one PostgreSQL the run starts itself (scripts/pg-temp.sh), two remote plugins
# connected to all three; SCALE_STATE instead names the database (host.state, a
# postgresql:// URL).
SCALE_REQUESTS ?= 10000
SCALE_SECONDS ?= 300
SCALE_STATE ?=
scale-out: deps
	$(SWIFT) build --product intentbus-scale-out
	$(SWIFT) build --product intentbus
	$(SWIFT) build --product plugin-testplugin
	.build/debug/intentbus-scale-out --requests $(SCALE_REQUESTS) --seconds $(SCALE_SECONDS) --remote $(if $(SCALE_STATE),--state "$(SCALE_STATE)",--postgres)

# The venv, with the intentbus package, pytest and the checkers (mypy, ruff); reinstalled
# when the package changes.
python-venv: $(VENV)/.intentbus-installed

$(VENV)/.intentbus-installed: $(PY_SOURCES) Makefile | deps
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check ./clients/python pytest hypothesis "mypy==2.4.1" "ruff==0.17.5" \
	  "hassil==3.12.1" "home-assistant-intents==2026.10.27" "wyoming==1.10.2"
	touch $@

# The package's type hints hold (mypy --strict; it ships py.typed) and ruff finds nothing.
lint-python: python-venv
	cd clients/python && ../../$(VENV)/bin/python -m mypy --strict intentbus
	cd clients/python && ../../$(VENV)/bin/python -m ruff check intentbus

# pytest exits 5 when it collected no tests: that is a failure here, not a pass.
test-python: python-venv lint-python
	cd clients/python && ../../$(VENV)/bin/python -m pytest -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "test-python: pytest collected no tests" >&2; exit 1; fi; exit $$rc

# Fuzzing (docs/reliability.md). `make fuzz` runs every target until FUZZ_CASES cases
# (default 10^6) or FUZZ_SECONDS (default 2400, the most each may take), and prints cases
# run, crashes and seconds per target: the libFuzzer targets (wire decoder, JSON,
# manifest and definition loaders; scripts/fuzz.sh), then the differential JSON fuzzer
# (Swift canonical writer against Python's json) and the live protocol fuzzer (random and
# mutated messages to a running host's frontend and backend). `make test` runs a short
# bounded pass of the libFuzzer targets (FUZZ_SMOKE_SECONDS each); the Python fuzzers run
# a bounded number of cases in every pytest run.
FUZZ_SECONDS ?= 2400
FUZZ_CASES ?= 1000000
FUZZ_SMOKE_SECONDS ?= 3

fuzz-build: deps
	scripts/fuzz.sh build

fuzz-smoke: fuzz-build
	scripts/fuzz.sh run $(FUZZ_SMOKE_SECONDS)

fuzz: fuzz-build build python-venv
	$(SWIFT) build --product json-canonical
	FUZZ_RUNS=$(FUZZ_CASES) scripts/fuzz.sh run $(FUZZ_SECONDS); rc=$$?; \
	cd clients/python && INTENTBUS_FUZZ_SECONDS=$(FUZZ_SECONDS) INTENTBUS_FUZZ_CASES=$(FUZZ_CASES) ../../$(VENV)/bin/python -m pytest -q -s \
	  -k fuzz tests/test_fuzz_json_differential.py tests/test_fuzz_protocol.py || rc=1; exit $$rc

# The host against a bare zmq_proxy relay, side by side (docs/performance.md). About two
# minutes after the release build; writes bench/results/<time>.json and latest.json.
bench: deps
	$(SWIFT) build -c release
	.build/release/intentbus-bench --out bench/results

# This build's host against another build's, interleaved in one run (docs/performance.md,
# "Comparing two builds"): BASE is the other checkout, built there with `swift build -c release`.
.PHONY: bench-compare
bench-compare: deps
	$(SWIFT) build -c release
	.build/release/intentbus-bench --only compare --base-bin $(BASE)/.build/release --out bench/results

# Requests under fire (docs/reliability.md, "Chaos"): 10,000 requests to a plugin of two
# instances while its processes are killed (SIGKILL) and frozen (SIGSTOP) at random; prints
# lost and doubled answers, errors by code, restarts, hang detection and recovery times.
# About a minute; not part of `make test`. CHAOS_ARGS passes options (--requests, --seed, …).
CHAOS_ARGS ?=

chaos: deps python-venv
	$(SWIFT) build
	$(VENV)/bin/python bench/chaos.py $(CHAOS_ARGS)

# IntentBus against what a user would pick instead (docs/performance.md, "Peers"): the host,
# a bare pyzmq relay, D-Bus, a Python Majordomo broker and a gRPC host → plugin, with one
# Python client shape. About a minute after the release build. grpcio and dbus-fast go
# into a venv of their own (.venv-peers), never into the product's: IntentBus does not
# depend on gRPC or D-Bus.
PEERS_VENV ?= .venv-peers

$(PEERS_VENV)/.installed: bench/peers/requirements.txt | deps
	test -x $(PEERS_VENV)/bin/python || $(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r bench/peers/requirements.txt
	touch $@

bench-peers: deps $(PEERS_VENV)/.installed
	scripts/install-bench-peer-deps.sh
	$(SWIFT) build -c release
	$(PEERS_VENV)/bin/python bench/peers/run.py --bin .build/release --out bench/results

# Home Assistant's test sentences (../shared/hass-intents, CC BY 4.0) through the sentence
# matcher: the score per language and the misses by template (docs/sentences.md). `make
# test` runs a bounded pass (SentenceCorpusTests, tests/test_sentences_oracle.py).
SENTENCE_LANGUAGES ?= en de
# Languages of the PyPI home-assistant-intents package for sentences-pypi; empty: all of them.
PYPI_LANGUAGES ?=

sentences: deps python-venv
	$(SWIFT) build -c release --product sentence-corpus
	.build/release/sentence-corpus $(SENTENCE_LANGUAGES)
	$(VENV)/bin/python bench/sentences_pypi.py --bin .build/release $(PYPI_LANGUAGES)

# Every language of the PyPI package: sentences sampled from its templates, hassil's answer
# the expected one (bench/sentences_pypi.py; hassil's answers cached in .build/hass-pypi).
sentences-pypi: deps python-venv
	$(SWIFT) build -c release --product sentence-corpus
	$(VENV)/bin/python bench/sentences_pypi.py --bin .build/release $(PYPI_LANGUAGES)

# Matching time per sentence against hassil (PyPI) on the same sentences in the same run,
# and the memory with en+de loaded. Any language: one without HA's tests in the corpus
# (`make bench-sentences SENTENCE_LANGUAGES="fr zh-CN"`) is run on the PyPI sampled sentences.
bench-sentences: deps python-venv
	$(SWIFT) build -c release --product sentence-corpus
	$(VENV)/bin/python bench/sentences.py --bin .build/release $(SENTENCE_LANGUAGES)

clean:
	rm -rf .build .intentbus $(VENV) $(PEERS_VENV)
