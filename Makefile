# lprojd: build, test, benchmark, run the demo, install.
#
#   make demo       build lprojd and serve the demo bundle (Examples/DemoApp)
#                   on $(DEMO_SOCKET), in the foreground; Ctrl-C stops it
#   make test       install what is missing, build, run every test
#   make bench      the benchmarks (release build), printed as a table
#   make install    PREFIX=/usr DESTDIR=/tmp/pkg: binaries, units, configuration
#
# `deps` installs the Debian packages and Python modules a fresh machine
# lacks; `demo` and `test` run it first.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
SYSCONFDIR   ?= /etc
BUILD_FLAGS  ?=

APT_PACKAGES := libicu-dev libsystemd-dev libsqlite3-dev pkg-config systemd util-linux
DEMO_DIR     ?= $(or $(XDG_RUNTIME_DIR),/tmp)/lprojd-demo
DEMO_SOCKET  ?= $(DEMO_DIR)/org.lprojd.Localization
PIP_PACKAGES := varlink==31.0.0 babel==2.12.1
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release test bench demo install clean

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
	  python3 -m pip install -q --disable-pip-version-check $(PIP_PACKAGES) || \
	    python3 -m pip install -q --disable-pip-version-check --break-system-packages $(PIP_PACKAGES); }

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

bench: deps
	$(SWIFT) build -c release --product lprojd
	$(SWIFT) run -c release lproj-bench

demo: build
	@echo "Serving Examples/DemoApp as the bundle 'demo' on $(DEMO_SOCKET)."
	@echo "In another terminal: export LPROJD_SOCKET=$(DEMO_SOCKET); then .build/debug/lprojctl bundles"
	$(SWIFT) run lprojd --socket $(DEMO_SOCKET) --state-directory $(DEMO_DIR)/state --bundle demo=$(CURDIR)/Examples/DemoApp@en

clean:
	rm -rf .build
