# lprojd: build, test, benchmark, run the demo, install.
#
#   make demo       build lprojd and serve the demo bundle (Examples/DemoApp)
#                   on $(DEMO_SOCKET), in the foreground; Ctrl-C stops it
#   make test       install what is missing, build, run every test
#   make bench      the benchmarks (release build), printed as a table
#   make soak       lprojd under attack and faults (release build, as root),
#                   printed as a table; SOAK_SECONDS per scenario (30)
#   make fuzz       the fuzzers (libFuzzer), a million inputs each
#   make fuzz-smoke the fuzzers, 30 seconds each (CI)
#   make release    the release binaries, with the Swift runtime linked in
#   make extract    lproj-extract (Extract/, a package of its own: it is built
#                   on swift-syntax), which `lprojctl extract` runs
#   make generate   Sources/LprojInterface/Localization.swift from the IDL
#   make format     lay out the Swift sources (swift format, .swift-format);
#                   make lint-format checks them, as CI does
#   make demo-app   the GTK 4 app (Examples/GtkDemo) on the demo daemon
#                   (terminal apps on the C and Swift localizers: Examples/CDemo,
#                   Examples/SwiftDemo; make test drives all three)
#   make install    after `make release`: binaries, systemd units (system and
#                   user), the sample configuration and the demo bundle, and
#                   the C client (make install-client), under PREFIX (default
#                   /usr/local), staged in DESTDIR if set
#
# `deps` installs the Debian packages and Python modules a fresh machine
# lacks; `demo` and `test` run it first.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       ?= $(PREFIX)/bin
DATADIR      ?= $(PREFIX)/share
SYSCONFDIR   ?= /etc
SYSTEMD_SYSTEM_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_UNIT_DIR   ?= $(PREFIX)/lib/systemd/user
# Where `install` takes the binaries from.
BUILD_DIR    ?= .build/release
BUILD_FLAGS  ?=

APT_PACKAGES := libicu-dev libsystemd-dev libsqlite3-dev pkg-config systemd util-linux strace gdb
# The C client (GLib, json-glib; gettext's msgfmt for its benchmark's
# baseline), and the GTK 4 app under a headless X server. PyGObject is built
# by pip for whichever python3 runs the tests, hence its build headers.
APT_PACKAGES += gcc libglib2.0-dev libjson-glib-dev gettext gir1.2-gtk-4.0 xvfb xauth \
  libgirepository1.0-dev libcairo2-dev python3-dev
# lprojctl coverage's HTML page is laid out by headless Chromium in a test.
APT_PACKAGES += chromium
DEMO_DIR     ?= $(or $(XDG_RUNTIME_DIR),/tmp)/lprojd-demo
DEMO_SOCKET  ?= $(DEMO_DIR)/org.lprojd.Localization
PIP_PACKAGES := varlink==31.0.0 babel==2.12.1
# pip, for a python3 of its own (pyenv, venv) or Debian's (which wants the flag).
PIP          := python3 -m pip install -q --disable-pip-version-check
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release test test-clients test-extract extract demo-app install-client bench soak fuzz-build fuzz fuzz-smoke demo install install-binaries install-data clean generate format lint-format

all: build

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o=Dpkg::Use-Pty=0 $$missing; \
	fi
	@python3 -c 'import varlink, babel, sys; sys.exit(babel.__version__ != "2.12.1")' 2>/dev/null || { \
	  echo "Installing Python modules: $(PIP_PACKAGES)"; \
	  python3 -m pip --version >/dev/null 2>&1 || python3 -m ensurepip --upgrade >/dev/null 2>&1 || \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; \
	  $(PIP) $(PIP_PACKAGES) || $(PIP) --break-system-packages $(PIP_PACKAGES); }
	@python3 -c 'import gi, pytest' 2>/dev/null || { \
	  echo "Installing Python modules: PyGObject pytest"; \
	  $(PIP) 'PyGObject>=3.42,<3.51' pytest || $(PIP) --break-system-packages 'PyGObject>=3.42,<3.51' pytest; }

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# Static Swift runtime: the installed binaries need no toolchain on the
# machine, only the Debian libraries (ICU, libsystemd, SQLite).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --static-swift-stdlib --product lprojctl $(BUILD_FLAGS)

# The hardening tests attack the release lprojd with the release lproj-soak
# (stalls of milliseconds mean little in a debug build), on their own, after
# the other tests, so that those do not share the two cores meanwhile.
# Tests/with-deadline stops a run that hangs, and says where it hung (gdb).
HARDENING := LPROJD_TEST_BINARY=$(CURDIR)/.build/release/lprojd LPROJ_SOAK_BINARY=$(CURDIR)/.build/release/lproj-soak

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lproj-soak $(BUILD_FLAGS)
	Tests/with-deadline 1200 $(SWIFT) test --skip-build --skip HardeningTests $(BUILD_FLAGS)
	$(HARDENING) Tests/with-deadline 900 $(SWIFT) test --skip-build --filter HardeningTests $(BUILD_FLAGS)
	$(MAKE) test-clients
	$(MAKE) test-extract

# lproj-extract's own package (swift-syntax takes minutes to build, once).
extract: deps
	$(SWIFT) build -c release --package-path Extract $(BUILD_FLAGS)

test-extract:
	$(SWIFT) build --package-path Extract --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --package-path Extract --skip-build $(BUILD_FLAGS)

# The C and Python localizers and the GTK app, against the release lprojd.
test-clients:
	$(MAKE) -C clients/c check LPROJD_BINARY=$(CURDIR)/.build/release/lprojd
	$(MAKE) -C Examples/CDemo
	$(SWIFT) build --product lproj-swift-demo $(BUILD_FLAGS)
	$(PIP) './clients/python[glib,test]' || $(PIP) --break-system-packages './clients/python[glib,test]'
	LPROJD_BINARY=$(CURDIR)/.build/release/lprojd python3 -m pytest -q -p no:cacheprovider clients/python/tests

# lprojctl's rows run it as `make release` links it (the Swift runtime and
# Foundation inside), built apart so that the default build keeps its cache.
bench: deps
	$(SWIFT) build -c release --product lprojd
	$(SWIFT) build -c release --static-swift-stdlib --product lprojctl --scratch-path .build/static
	$(SWIFT) run -c release lproj-bench --lprojctl .build/static/release/lprojctl

# The interface's Swift types, written from its IDL (a test fails when they are stale).
generate:
	$(SWIFT) run varlink-codegen Sources/LprojInterface/org.lprojd.Localization.varlink --namespace Localization \
	  --output Sources/LprojInterface/Localization.swift

FORMATTED := Sources Tests Benchmarks Examples/SwiftDemo Fuzz/Sources Package.swift Fuzz/Package.swift Extract/Sources Extract/Tests Extract/Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint-format:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

SOAK_SECONDS ?= 30
FUZZ_RUNS    ?= 1000000

soak: deps
	$(SWIFT) build -c release --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lproj-soak $(BUILD_FLAGS)
	$(SUDO) .build/release/lproj-soak run --seconds $(SOAK_SECONDS)

# A package of their own (Fuzz/Package.swift): the sanitizer flags reach
# every module they link, which the normal build must not see.
fuzz-build: deps
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

fuzz: fuzz-build
	Fuzz/run-fuzzers --runs $(FUZZ_RUNS)

fuzz-smoke: fuzz-build
	Fuzz/run-fuzzers --seconds 30

demo: build
	@echo "Serving Examples/DemoApp as the bundle 'demo' on $(DEMO_SOCKET)."
	@echo "In another terminal: export LPROJD_SOCKET=$(DEMO_SOCKET); then .build/debug/lprojctl bundles"
	$(SWIFT) run lprojd --socket $(DEMO_SOCKET) --state-directory $(DEMO_DIR)/state --bundle demo=$(CURDIR)/Examples/DemoApp@en --pseudo-locales

install: install-binaries install-data install-client

# The C client: library, header and pkg-config file (lprojd-client).
install-client:
	$(MAKE) -C clients/c install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

# The GTK 4 app (Examples/GtkDemo) against the demo daemon: the one `make
# demo` runs, else one started for it. Needs a display.
demo-app: build
	Examples/GtkDemo/run-demo-app --lprojd $(CURDIR)/.build/debug/lprojd --socket $(DEMO_SOCKET)

install-binaries:
	@test -x $(BUILD_DIR)/lprojd -a -x $(BUILD_DIR)/lprojctl || { echo "No binaries in $(BUILD_DIR): run 'make release' first."; exit 1; }
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BUILD_DIR)/lprojd $(BUILD_DIR)/lprojctl $(DESTDIR)$(BINDIR)/

# The units name /usr/bin/lprojd and /etc/lprojd; they are rewritten for
# BINDIR and SYSCONFDIR. An existing configuration is never overwritten.
UNIT_PATHS := -e 's|/usr/bin/lprojd|$(BINDIR)/lprojd|g' -e 's|/etc/lprojd/|$(SYSCONFDIR)/lprojd/|g'

# The demo bundle goes in too, world-readable as the service's dynamic user
# needs, so that the sample configuration serves something at once.
install-data:
	install -d $(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR) $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)
	for unit in lprojd.socket lprojd.service; do \
	  sed $(UNIT_PATHS) systemd/$$unit > $(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/$$unit; \
	  sed $(UNIT_PATHS) systemd/user/$$unit > $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/$$unit; \
	  chmod 0644 $(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/$$unit $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/$$unit; \
	done
	install -d $(DESTDIR)$(SYSCONFDIR)/lprojd
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/lprojd/lprojd.conf ]; then \
	  echo "Keeping $(DESTDIR)$(SYSCONFDIR)/lprojd/lprojd.conf; the new sample is lprojd.conf.sample"; \
	  target=$(DESTDIR)$(SYSCONFDIR)/lprojd/lprojd.conf.sample; \
	else target=$(DESTDIR)$(SYSCONFDIR)/lprojd/lprojd.conf; fi; \
	sed -e 's|/usr/share/lprojd/|$(DATADIR)/lprojd/|g' -e 's|/etc/lprojd/|$(SYSCONFDIR)/lprojd/|g' etc/lprojd/lprojd.conf > $$target; \
	chmod 0644 $$target
	install -d $(DESTDIR)$(DATADIR)/lprojd/demo
	cd Examples/DemoApp && for folder in *.lproj; do \
	  install -d $(DESTDIR)$(DATADIR)/lprojd/demo/$$folder; \
	  install -m 0644 $$folder/* $(DESTDIR)$(DATADIR)/lprojd/demo/$$folder/; \
	done

clean:
	rm -rf .build
	$(MAKE) -C clients/c clean
	$(MAKE) -C Examples/CDemo clean
