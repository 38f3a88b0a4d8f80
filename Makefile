# mcp-hints — every target does its own set-up, so a fresh Debian 12 machine needs only
# `make demo` and `make test`.
SHELL := /bin/bash
# In a folder still built by make, cmake --build's own make runs under this one: no
# "Entering/Leaving directory" line for each folder.
MAKEFLAGS += --no-print-directory
BUILD ?= build
JOBS ?= $(shell nproc)
# ctest runs one test more than there are cores: the tests spend about a quarter of their time
# waiting on the processes and pipes they start, and the extra one fills it (bench/RESULTS.md).
TEST_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
# $(call configure_in,FOLDER): CMake configures FOLDER, with Ninja, which builds a target's objects
# while the libraries it links to are still building (make's generator waits for each library)
# and prints one line of progress on a terminal. A folder configured earlier keeps its generator
# (CMake cannot change it): remove the folder to change it.
configure_in = cmake -S . -B $(1) $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
# Debian packages the build and tests need (checked one by one, installed only when missing).
DEB_PACKAGES := cmake g++ make pkg-config python3 nlohmann-json3-dev libboost-dev libboost-program-options-dev libboost-filesystem-dev libcpp-httplib-dev libssl-dev nettle-dev libjemalloc-dev libgtest-dev libgmock-dev libtomlplusplus-dev curl clang-format ninja-build
# Extra packages only the tests need: headless Chromium renders every HTML report (label browser);
# python3-yaml reads action.yml and .pre-commit-hooks.yaml (label packaging).
TEST_PACKAGES := chromium python3-yaml
# Extra packages only the benchmarks need.
BENCH_PACKAGES := python3-jsonschema
# Extra packages only the fuzz harnesses need: clang 16 and its libFuzzer and sanitizer runtimes.
FUZZ_PACKAGES := clang-16 libclang-rt-16-dev llvm-16
# make fuzz: its own build folder, and how long each harness runs.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
# Extra packages only the sanitizer build needs (make sanitize): clang 16, its runtimes and its
# llvm-symbolizer (the one on PATH may be another release's, which the runtime rejects).
SANITIZE_PACKAGES := clang-16 libclang-rt-16-dev llvm-16
SANITIZE_BUILD ?= build-sanitize
# How long each fuzz harness may take in make sanitize: its corpus replayed, then new inputs until
# then (a few hundred at the harnesses' 50-150 inputs a second: make fuzz is where they run long).
SANITIZE_FUZZ_SECONDS ?= 3
TSAN_BUILD ?= build-tsan
# The sanitizers' settings: every report fatal, leaks included (no suppression: none is needed).
SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:check_initialization_order=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-16/bin/llvm-symbolizer
VALIJSON_DIR := $(BUILD)/third_party/valijson
VALIJSON_STAMP := $(VALIJSON_DIR)/.extracted
# The Release configuration of $(BUILD) (make build, make command).
RELEASE := -DCMAKE_BUILD_TYPE=Release -DVALIJSON_INCLUDE_DIR=$(abspath $(VALIJSON_DIR))/root/usr/include
# Expanded when a recipe runs, so that the generator is chosen after make clean.
CONFIGURE = $(call configure_in,$(BUILD)) $(RELEASE)
# Profile-guided optimization (GCC; CMakeLists.txt) is for what is shipped: make release builds
# with it in $(RELEASE_BUILD), and make bench measures that build. make build is plain Release
# unless PGO=on, so that a first build and an edit's rebuild stay quick. With PGO=on, an
# instrumented mcp-hints is built in $(PGO_BUILD) and trained by cmake/pgo_train.sh, again
# whenever it (the command or its HTTP module) or the training changed; its counts in
# $(PGO_PROFILE) guide the build of $(BUILD). A training that fails leaves no profile; one that
# ends writes $(PGO_TRAINED), which the guided objects depend on. make command trains nothing (a
# folder made with PGO=on keeps its profile).
PGO ?= off
RELEASE_BUILD ?= build-release
PGO_BUILD := $(BUILD)/pgo/instrumented
PGO_PROFILE := $(abspath $(BUILD))/pgo/profile
PGO_TRAINED := $(PGO_PROFILE)/trained
PGO_INPUTS := $(PGO_BUILD)/bin/mcp-hints $(PGO_BUILD)/bin/mcp-hints-http.so cmake/pgo_train.sh bench/generate_catalog.py

.PHONY: all deps deps-debian deps-node deps-sanitize hosts hosts-matrix build release command test sanitize sanitize-thread demo bench mutation tidy fuzz clean

all: build

deps: deps-debian $(VALIJSON_STAMP) deps-node

deps-debian:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# valijson is header-only; its Debian package drags in Qt, Poco and MariaDB, so only its
# headers are unpacked into the build tree.
$(VALIJSON_STAMP):
	@mkdir -p $(VALIJSON_DIR)/deb
	@cd $(VALIJSON_DIR)/deb && rm -f *.deb && (apt-get download libvalijson-dev >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && apt-get download libvalijson-dev))
	@dpkg-deb -x $(VALIJSON_DIR)/deb/libvalijson-dev_*.deb $(VALIJSON_DIR)/root
	@touch $@

# The second schema validator (ajv) and later the interop peers, pinned by package-lock.json.
deps-node:
	@if command -v npm >/dev/null 2>&1; then \
	  if [ ! -d node/node_modules ] || [ node/package-lock.json -nt node/node_modules/.package-lock.json ]; then \
	    echo "deps: npm ci in node/"; (cd node && npm ci --no-audit --no-fund --loglevel=error); \
	  fi; \
	else echo "deps: npm not found; the ajv cross-check and interop tests will report themselves skipped"; fi

# The real hosts certify --host drives (Claude Code, Codex, the OpenAI Agents SDK), pinned by
# hosts/package-lock.json: about 900 MB, so never part of make test; tests labelled hosts run when
# they are installed and say they were skipped otherwise.
hosts:
	@command -v npm >/dev/null 2>&1 || { echo "hosts: npm not found (apt-get install npm)"; exit 2; }
	@if [ ! -d hosts/node_modules ] || [ hosts/package-lock.json -nt hosts/node_modules/.package-lock.json ]; then \
	  echo "hosts: npm ci in hosts/"; (cd hosts && npm ci --no-audit --no-fund --loglevel=error); \
	fi
	@hosts/node_modules/.bin/claude --version

# The host matrix: every host certify --host knows, pinned by make hosts, certified on every
# scenario in both eras, then one page: docs/hosts-matrix.md and .html (linked from the README).
# A few minutes on two cores; the runs stay in $(HOSTS_MATRIX_RUNS).
HOSTS_MATRIX_RUNS ?= $(BUILD)/hosts-matrix
hosts-matrix: build hosts
	@rm -rf $(HOSTS_MATRIX_RUNS); mkdir -p docs
	@for host in $$($(BUILD)/bin/mcp-hints certify --list-hosts | cut -f1); do \
	  echo "hosts-matrix: certify --host $$host --all"; \
	  PATH="$(CURDIR)/hosts/node_modules/.bin:$$PATH" $(BUILD)/bin/mcp-hints certify --host $$host --all \
	    --output $(HOSTS_MATRIX_RUNS)/$$host --format json >/dev/null; rc=$$?; \
	  [ $$rc -le 1 ] || { echo "hosts-matrix: certify --host $$host did not finish (exit $$rc)"; exit $$rc; }; \
	done
	@$(BUILD)/bin/mcp-hints matrix $(HOSTS_MATRIX_RUNS)/*/results.json --output docs/hosts-matrix.md
	@$(BUILD)/bin/mcp-hints matrix $(HOSTS_MATRIX_RUNS)/*/results.json --format html --output docs/hosts-matrix.html
	@echo "hosts-matrix: docs/hosts-matrix.md, docs/hosts-matrix.html"

build: deps
ifeq ($(PGO),on)
	@$(call configure_in,$(PGO_BUILD)) $(RELEASE) -DMCP_HINTS_PROFILE_GENERATE=$(PGO_PROFILE) >/dev/null
	@cmake --build $(PGO_BUILD) -j $(JOBS) --target mcp-hints
	@stale=$$([ -f $(PGO_TRAINED) ] || echo yes); for input in $(PGO_INPUTS); do [ $$input -nt $(PGO_TRAINED) ] && stale=yes; done; \
	if [ -n "$$stale" ]; then \
	  echo "pgo: training the instrumented build (cmake/pgo_train.sh)"; rm -rf $(PGO_PROFILE); \
	  bash cmake/pgo_train.sh $(abspath $(PGO_BUILD))/bin $(CURDIR) $(abspath $(BUILD))/pgo/work || { rm -rf $(PGO_PROFILE); exit 1; }; \
	  touch $(PGO_TRAINED); fi
	@$(CONFIGURE) -DMCP_HINTS_PROFILE_USE=$(PGO_PROFILE) >/dev/null
else
	@$(CONFIGURE) -DMCP_HINTS_PROFILE_USE= >/dev/null
endif
	@cmake --build $(BUILD) -j $(JOBS)

# What is shipped: the profile-guided build in $(RELEASE_BUILD) (tests' programs included, for make
# bench), then its Debian packages (cpack).
release:
	@$(MAKE) build PGO=on BUILD=$(RELEASE_BUILD)
	@cd $(RELEASE_BUILD) && cpack -G DEB >/dev/null && ls -1 $(CURDIR)/$(RELEASE_BUILD)/*.deb

# The command alone, without the tests' programs: what the GitHub Action (action.yml) builds.
command: deps-debian $(VALIJSON_STAMP)
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target mcp-hints

test: build
	@missing=$$(for p in $(TEST_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "deps: installing $$missing"; $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi
	@cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS) -LE bench; rc=$$?; python3 $(CURDIR)/cmake/skipped_tests.py .; exit $$rc

# Every test against an AddressSanitizer + UndefinedBehaviorSanitizer build made by clang 16 in its
# own folder, but those of files and of what other programs make of them (packaging: the .deb and
# the profile's training; browser: Chromium's rendering), which make test runs; the sweeps skip
# themselves (tests/time_bounds.hpp). SANITIZE_LABELS narrows it (a ctest -L regex, e.g. 'wire|checks').
sanitize: deps deps-sanitize
	@$(call configure_in,$(SANITIZE_BUILD)) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-16 -DMCP_HINTS_SANITIZE=ON \
	  -DMCP_HINTS_FUZZ_SECONDS=$(SANITIZE_FUZZ_SECONDS) -DVALIJSON_INCLUDE_DIR=$(abspath $(VALIJSON_DIR))/root/usr/include >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	@cd $(SANITIZE_BUILD) && $(SANITIZE_ENV) ctest --output-on-failure -j $(TEST_JOBS) -LE 'bench|packaging|browser' $(if $(SANITIZE_LABELS),-L '$(SANITIZE_LABELS)'); \
	  rc=$$?; python3 $(CURDIR)/cmake/skipped_tests.py .; exit $$rc

# The suites of what runs on several threads against a ThreadSanitizer build made by clang 16 in
# its own folder: lint --jobs, report --jobs and the schema registry (json, checks, report); the
# transports, child processes and sessions (wire); check-server --jobs (live); the mock's HTTP
# connections and subscriptions (mock); certify's side-by-side runs (conformance). The sweeps whose
# code runs on one thread skip themselves (tests/time_bounds.hpp). tests/tsan.supp says what is
# suppressed and why. Run by .ci/run --nightly, not by the gate (minutes its budget has not got).
TSAN_LABELS := json|checks|report|wire|live|mock|conformance
sanitize-thread: deps deps-sanitize
	@$(call configure_in,$(TSAN_BUILD)) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-16 -DMCP_HINTS_SANITIZE=thread \
	  -DVALIJSON_INCLUDE_DIR=$(abspath $(VALIJSON_DIR))/root/usr/include >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(foreach l,$(subst |, ,$(TSAN_LABELS)),$(l)_tests) mcp-hints sample_server reference_client
	@cd $(TSAN_BUILD) && TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/tests/tsan.supp \
	  ctest --output-on-failure -j $(TEST_JOBS) -L '^($(TSAN_LABELS))$$'; rc=$$?; python3 $(CURDIR)/cmake/skipped_tests.py .; exit $$rc

deps-sanitize:
	@missing=$$(for p in $(SANITIZE_PACKAGES) $(TEST_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "deps: installing $$missing"; $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi

# Only what the demo runs is built (the command, the sample server, the reference client): a first
# result in minutes; make test builds the rest.
demo: deps
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target mcp-hints sample_server reference_client
	@bash examples/demo.sh $(BUILD)/bin/mcp-hints

bench: release
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi
	@bash bench/compare.sh $(RELEASE_BUILD)
	@bash bench/protocol_schema.sh $(RELEASE_BUILD)

# Every mutant of mutation/mutants.json built as a reference client and certified against every
# scenario; prints the score and fails below its target (not part of make test: minutes on two cores).
mutation: build
	@$(BUILD)/bin/mutate run mutation/mutants.json . $(BUILD) --jobs $(JOBS)

# The bug-finding checks of .clang-tidy over every library, command and example source (not part of
# make test: it takes minutes on two cores).
tidy: build
	@dpkg-query -W -f='$${Status}\n' clang-tidy 2>/dev/null | grep -q '^install ok installed' || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends clang-tidy; }
	@$(call configure_in,$(BUILD)) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@# clang-tidy reads the compile commands as clang: the profile's GCC-only flags are left out.
	@mkdir -p $(BUILD)/tidy && sed -E 's/ -(fprofile-[a-z-]+(=[^ "]*)?|Wno-missing-profile|Wno-coverage-mismatch)//g' \
	  $(BUILD)/compile_commands.json >$(BUILD)/tidy/compile_commands.json
	@git ls-files 'core/*.cpp' 'mock-servers/*.cpp' 'conformance/*.cpp' 'tools/*.cpp' 'examples/*.cpp' | \
	  xargs -P $(JOBS) -n 4 clang-tidy -p $(BUILD)/tidy --quiet 2>/dev/null | grep -E 'warning:|error:' && exit 1 || echo "tidy: clean"

# Every libFuzzer harness of fuzz/ (clang 16, AddressSanitizer and UndefinedBehaviorSanitizer, in
# $(FUZZ_BUILD)), each run for FUZZ_SECONDS over its corpus; a crash, hang or leak fails it (not part
# of make test: minutes). `ctest -L fuzz` in $(FUZZ_BUILD) runs each for a bounded number of inputs.
fuzz: deps-debian $(VALIJSON_STAMP)
	@missing=$$(for p in $(FUZZ_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "deps: installing $$missing"; $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi
	@$(call configure_in,$(FUZZ_BUILD)) -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=Debug -DMCP_HINTS_FUZZ=ON -DVALIJSON_INCLUDE_DIR=$(abspath $(VALIJSON_DIR))/root/usr/include >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
