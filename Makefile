# lprojd: build, test, benchmark, run the demo, install.
#
#   make demo       build lprojd and serve the demo bundle (Examples/DemoApp)
#                   on $(DEMO_SOCKET), in the foreground; Ctrl-C stops it
#   make test       install what is missing, build, run every test
#   make bench      the benchmarks (release build), printed as a table
#   make soak       lprojd under attack and faults (release build, as root),
#                   printed as a table; SOAK_SECONDS per scenario (30),
#                   SOAK_ROUNDS runs of each attack (1)
#   make fuzz       the fuzzers (libFuzzer), a million inputs each
#   make fuzz-smoke the fuzzers, 30 seconds each (CI)
#   make release    the release binaries, with the Swift runtime linked in
#   make extract    lproj-extract (Extract/, a package of its own: it is built
#                   on swift-syntax), which `lprojctl extract` runs
#   make generate   the Swift, C and Python clients' code from the interface's IDL
#   make format     lay out the Swift sources (swift format, .swift-format);
#                   make lint-format checks them, as CI does
#   make demo-app   the GTK 4 app (Examples/GtkDemo) on the demo daemon
#   make panel      the language panel (panel/: GTK 4, libadwaita) on the
#                   demo daemon
#                   (terminal apps on the C and Swift localizers: Examples/CDemo,
#                   Examples/SwiftDemo; make test drives all three)
#   make install    after `make release`: binaries, systemd units (system and
#                   user), the sample configuration (which serves no bundle:
#                   apps register theirs with drop-in files), the manual
#                   pages and the shell completions, the C client (make
#                   install-client) and the language panel (make
#                   install-panel), under PREFIX (default /usr/local),
#                   staged in DESTDIR if set
#   make install-examples  the demo bundle and its drop-in file, which
#                   lprojd then serves as org.lprojd.Demo
#   make man        the manual pages in man/, written from the programs' own
#                   help and man/parts (a test fails when they are stale)
#   make print-version  lprojd's version (Sources/LprojVersion), for packaging
#   make deb        the Debian packages (dpkg-buildpackage -us -uc -b), in ..
#   make deb-test   builds the packages, installs them, serves a drop-in to
#                   lprojctl, C and Python, purges them (as root, on a
#                   disposable machine: CI's); make test-deb, in make test,
#                   checks debian/ without building it
#
#   make test-docs  the documentation's tests (links, docs/architecture.md
#                   against the code, every example run against the demo
#                   daemon); the last step of `make test`
#
# Each installs what a fresh Debian 12 machine lacks first: `deps-demo` what
# the build and the demo need (`demo`, `build`, `release`, `extract`),
# `deps-app` that and GTK 4 with PyGObject (`demo-app`), and `deps`
# everything the tests need too (`test`, `bench`, `soak`, `fuzz`, `deb`,
# `deb-test`). `install`, `release-binaries`, `extract-binary` and the
# package build (debian/rules) install nothing: no apt-get, no pip.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
SYSCONFDIR   ?= /etc
MANDIR       ?= $(DATADIR)/man
# Where each shell looks for the completions of installed programs.
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR  ?= $(DATADIR)/zsh/vendor-completions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
SYSTEMD_SYSTEM_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_UNIT_DIR   ?= $(PREFIX)/lib/systemd/user
# Where `install` takes the binaries from.
BUILD_DIR    ?= .build/release
BUILD_FLAGS  ?=
# Where `install-extract` takes lproj-extract from, and how it is built.
EXTRACT_BUILD_DIR   ?= Extract/.build/release
EXTRACT_BUILD_FLAGS ?=

# What building lprojd and lprojctl needs (ICU's headers, libsystemd, SQLite).
APT_DEMO     := libicu-dev libsystemd-dev libsqlite3-dev pkg-config
# The GTK 4 app (Examples/GtkDemo) and the language panel (panel/, which
# adds libadwaita). PyGObject is built by pip for whichever python3 runs
# them, hence its build headers.
APT_APP      := gir1.2-gtk-4.0 gir1.2-adw-1 libgirepository1.0-dev libcairo2-dev python3-dev
# The C client (clients/c, make install-client): built with meson, on GLib
# and json-glib; its typelib and gir (gobject-introspection), its vapi
# (valac's vapigen), its reference (gi-docgen), and the GTK 4 example its
# reference quotes (libgtk-4-dev).
APT_CLIENT   := gcc meson libglib2.0-dev libjson-glib-dev gobject-introspection libgirepository1.0-dev valac gi-docgen libgtk-4-dev
# The tests: systemd-analyze and systemd-socket-activate, setpriv and unshare,
# strace; gdb for Tests/with-deadline's stacks. The C client's: gettext's
# msgfmt for its benchmark's baseline, gjs and Debian's PyGObject (3.42)
# for its tests through the typelib, valgrind for make -C clients/c
# check-valgrind, mypy for the Python client's annotations; the GTK apps
# under a headless X server. lprojctl coverage's HTML page is laid out by
# headless Chromium in a test. The manual pages are rendered by groff, and the
# zsh completions read by zsh, in a test. libxml2's xmllint reads every
# XLIFF file lprojctl exports, in a test. The desktop tests (Tests/desktop):
# a system bus (dbus-daemon) with accountsservice (and python3-dbusmock where
# the real one cannot run), and the accessibility bus and its introspection
# data (at-spi2-core, gir1.2-atspi-2.0), to read the windows as a screen
# reader does, xdotool, to type on them as a person does, and GDK 3's
# introspection data (gir1.2-gtk-3.0), to read their pixels off the screen.
# appstream's appstreamcli validates the panel's metainfo.
APT_TEST     := systemd util-linux strace gdb gettext gjs python3-gi valgrind mypy xvfb xauth chromium groff-base man-db zsh \
                libxml2-utils dbus-daemon accountsservice python3-dbusmock at-spi2-core gir1.2-atspi-2.0 xdotool \
                gir1.2-gtk-3.0 appstream
# The Debian packages: what debian/control's Build-Depends names (debhelper,
# dh-python and pybuild's pyproject plugin, Debian's python3, and
# desktop-file-validate, which checks the panel's desktop file as the package
# installs it), which make test-deb checks are installed, and python3-debian,
# with which it reads debian/copyright as DEP-5. lintian only for `make
# deb-test`.
APT_DEB      := dpkg-dev debhelper dh-python pybuild-plugin-pyproject python3-all python3-setuptools python3-debian \
                desktop-file-utils
# The rest of Build-Depends, which make deps installs for other reasons:
# the C client's build (APT_CLIENT: meson, gobject-introspection with
# dh_girepository, valac, gi-docgen) and systemd's pkg-config file.
APT_DEB_BUILD := $(APT_CLIENT) systemd
APT_PACKAGES := $(APT_DEMO) $(APT_APP) $(APT_CLIENT) $(APT_TEST) $(APT_DEB)
DEMO_DIR     ?= $(or $(XDG_RUNTIME_DIR),/tmp)/lprojd-demo
DEMO_SOCKET  ?= $(DEMO_DIR)/org.lprojd.Localization
# The tour's Python examples use varlink; the tests babel too (plural rules
# and locale names are checked against it).
PIP_DEMO     := varlink==31.0.0
PIP_PACKAGES := $(PIP_DEMO) babel==2.12.1
PYGOBJECT    := 'PyGObject>=3.42,<3.51'
# pip, for a python3 of its own (pyenv, venv) or Debian's (which wants the flag).
PIP          := python3 -m pip install -q --disable-pip-version-check
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# lprojd's version, written once, in Sources/LprojVersion/LprojVersion.swift.
VERSION      := $(shell sed -n 's/^ *public static let current = "\(.*\)"$$/\1/p' Sources/LprojVersion/LprojVersion.swift)

COMMA        := ,

.PHONY: all deps deps-demo deps-deb deps-app test-docs build release release-binaries extract-binary test test-clients test-desktop test-extract panel install-panel test-man test-deb deb deb-test extract demo-app install-client install-extract bench soak fuzz-build fuzz fuzz-smoke demo install install-binaries install-data install-examples install-man install-completions clean generate man print-version format lint-format

all: build

# $(call apt-install,PACKAGES): installs those of the Debian packages that
# are missing, in one apt-get run.
define apt-install
	@missing=""; \
	for package in $(1); do \
	  dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o=Dpkg::Use-Pty=0 $$missing; \
	fi
endef

# $(call pip-install,CHECK,PACKAGES): installs the Python modules unless
# python3 runs CHECK; pip comes first if it is missing.
define pip-install
	@python3 -c '$(1)' 2>/dev/null || { \
	  echo "Installing Python modules: $(2)"; \
	  python3 -m pip --version >/dev/null 2>&1 || python3 -m ensurepip --upgrade >/dev/null 2>&1 || \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; \
	  $(PIP) $(2) || $(PIP) --break-system-packages $(2); }
endef

deps-demo:
	$(call apt-install,$(APT_DEMO))
	$(call pip-install,import varlink,$(PIP_DEMO))

# What building the Debian packages, and make deb-test, need.
deps-deb:
	$(call apt-install,$(APT_DEMO) $(APT_DEB_BUILD) $(APT_DEB) lintian)

deps-app:
	$(call apt-install,$(APT_DEMO) $(APT_APP))
	$(call pip-install,import varlink,$(PIP_DEMO))
	$(call pip-install,import gi,$(PYGOBJECT))

deps:
	$(call apt-install,$(APT_PACKAGES))
	$(call pip-install,import varlink$(COMMA) babel$(COMMA) sys; sys.exit(babel.__version__ != "2.12.1"),$(PIP_PACKAGES))
	$(call pip-install,import gi$(COMMA) pytest,$(PYGOBJECT) pytest)

build: deps-demo
	$(SWIFT) build $(BUILD_FLAGS)

# Static Swift runtime: the installed binaries need no toolchain on the
# machine, only the Debian libraries (ICU, libsystemd, SQLite).
release: deps-demo
	$(MAKE) --no-print-directory release-binaries

# The same, installing nothing first (the package build runs it).
release-binaries:
	$(SWIFT) build -c release --static-swift-stdlib --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --static-swift-stdlib --product lprojctl $(BUILD_FLAGS)

# lproj-extract as a package ships it: release, the Swift runtime linked in,
# installing nothing first.
extract-binary:
	$(SWIFT) build -c release --static-swift-stdlib --package-path Extract --product lproj-extract $(EXTRACT_BUILD_FLAGS)

# The hardening tests attack the release lprojd with the release lproj-soak
# (stalls of milliseconds mean little in a debug build), on their own, after
# the other tests, so that those do not share the two cores meanwhile.
# Tests/with-deadline stops a run that hangs, and says where it hung (gdb).
HARDENING := LPROJD_TEST_BINARY=$(CURDIR)/.build/release/lprojd LPROJ_SOAK_BINARY=$(CURDIR)/.build/release/lproj-soak

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lproj-soak $(BUILD_FLAGS)
	Tests/with-deadline 1200 $(SWIFT) test --skip-build --skip 'HardeningTests|HardeningRoundFourTests' $(BUILD_FLAGS)
	$(HARDENING) Tests/with-deadline 900 $(SWIFT) test --skip-build --filter 'HardeningTests|HardeningRoundFourTests' $(BUILD_FLAGS)
	$(MAKE) test-clients
	$(MAKE) test-desktop
	$(MAKE) test-extract
	$(MAKE) test-man
	$(MAKE) test-deb
	$(MAKE) test-docs

# lproj-extract's own package (swift-syntax takes minutes to build, once).
extract: deps-demo
	$(SWIFT) build -c release --package-path Extract $(BUILD_FLAGS)

# Its command tests run lprojctl too (lprojctl extract, po export --references).
test-extract:
	$(SWIFT) build --product lprojctl $(BUILD_FLAGS)
	$(SWIFT) build --package-path Extract --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --package-path Extract --skip-build $(BUILD_FLAGS)

# The C and Python localizers and the GTK app, against the release lprojd:
# the C library's tests (meson test: C, GJS, Python and Vala through its
# typelib and vapi, its GTK example, its reference), again under
# AddressSanitizer and UBSan, then the Python client's, which compare it with
# the typelib answer for answer.
CLIENT_BUILD := $(CURDIR)/clients/c/build
test-clients:
	$(MAKE) -C clients/c check MESON_OPTIONS=-Dwerror=true LPROJD_BINARY=$(CURDIR)/.build/release/lprojd
	$(MAKE) -C clients/c check-asan MESON_OPTIONS=-Dwerror=true LPROJD_BINARY=$(CURDIR)/.build/release/lprojd
	$(MAKE) -C Examples/CDemo
	$(SWIFT) build --product lproj-swift-demo $(BUILD_FLAGS)
	$(PIP) './clients/python[glib,test]' || $(PIP) --break-system-packages './clients/python[glib,test]'
	LPROJD_BINARY=$(CURDIR)/.build/release/lprojd GI_TYPELIB_PATH=$(CLIENT_BUILD) LD_LIBRARY_PATH=$(CLIENT_BUILD) \
	  python3 -m pytest -q -p no:cacheprovider clients/python/tests

# The desktop (Tests/desktop), against the release lprojd, under a headless X
# server and a session bus of their own (the accessibility bus comes with
# it): lprojd follows the desktop's languages on a real system bus (the
# real accounts-daemon where it can run), and the language panel switches
# the running GTK demo live. Screenshots go to Tests/desktop/artifacts.
test-desktop:
	$(SWIFT) build --product lproj-swift-demo $(BUILD_FLAGS)
	$(MAKE) -C clients/c
	LPROJD_CLIENT_BUILD=$(CLIENT_BUILD) LPROJD_BINARY=$(CURDIR)/.build/release/lprojd LPROJ_SWIFT_DEMO=$(CURDIR)/.build/debug/lproj-swift-demo PYTHONDONTWRITEBYTECODE=1 \
	  xvfb-run -a -s '-screen 0 1280x1024x24' dbus-run-session -- python3 -m pytest -q -s -p no:cacheprovider Tests/desktop

# The manual pages (Tests/man): fresh (written again from the debug builds,
# lproj-extract's as test-extract built it), naming every option, command and
# setting, rendered by groff without a warning; and the manual pages and
# completions `make install` puts where man and each shell look.
test-man:
	LPROJD=$(CURDIR)/.build/debug/lprojd LPROJCTL=$(CURDIR)/.build/debug/lprojctl \
	  LPROJ_EXTRACT=$(CURDIR)/Extract/.build/debug/lproj-extract PYTHONDONTWRITEBYTECODE=1 \
	  python3 -m pytest -q -p no:cacheprovider Tests/man

# The Debian packaging, without building it (Tests/deb/test_debian.py, a few
# seconds): debian/control parses and its build dependencies are installed,
# debian/copyright is DEP-5 and covers every file the packages take from the
# tree, the changelog's version is make print-version's, the units'
# ExecStart, the C client's flags and .pc file, and the symbols file against
# the header. `make deb-test` builds the packages and installs them.
test-deb:
	PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q -p no:cacheprovider Tests/deb

# The Debian packages, in the parent directory, as a packager builds them
# (debian/README.source: the Swift toolchain on PATH is the one build
# dependency Debian lacks). DEB_BUILD_FLAGS: e.g. -nc to keep the last
# build's Swift caches.
DEB_BUILD_FLAGS ?=
# (The packages' build gets no MAKEFLAGS of this make.)
deb: deps-deb
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b $(DEB_BUILD_FLAGS)

# Builds the packages, lintian on the .changes, then installs them, serves a
# drop-in to the installed lprojctl, C library and Python package, and
# purges them (debian/tests/install-test; as root, on a disposable machine).
deb-test: deps-deb
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL debian/tests/install-test --build

# The documentation's tests (Tests/docs): links and anchors, the
# architecture page against Package.swift and the imports, and every example
# of README.md, docs/ and Examples/*/README.md run against the demo daemon
# (the release lprojd, started as `demo` starts it), with the debug lprojctl
# and Swift demo, and the C demo that test-clients built.
test-docs:
	LPROJD_BINARY=$(CURDIR)/.build/release/lprojd LPROJCTL=$(CURDIR)/.build/debug/lprojctl \
	  LPROJ_SWIFT_DEMO=$(CURDIR)/.build/debug/lproj-swift-demo SWIFT=$(SWIFT) PYTHONDONTWRITEBYTECODE=1 \
	  python3 -m pytest -q -p no:cacheprovider Tests/docs

# lprojctl's rows run it as `make release` links it (the Swift runtime and
# Foundation inside), built apart so that the default build keeps its cache.
bench: deps
	$(SWIFT) build -c release --product lprojd
	$(SWIFT) build -c release --static-swift-stdlib --product lprojctl --scratch-path .build/static
	$(SWIFT) run -c release lproj-bench --lprojctl .build/static/release/lprojctl

# Every client of the interface, written from its IDL (a test fails when one is stale):
# the Swift types, the C library's types and calls, the Python package's tables.
INTERFACE_IDL = Sources/LprojInterface/org.lprojd.Localization.varlink
generate:
	$(SWIFT) run varlink-codegen $(INTERFACE_IDL) --namespace Localization --output Sources/LprojInterface/Localization.swift
	$(SWIFT) run varlink-codegen $(INTERFACE_IDL) --c-prefix Lprojd --streaming Subscribe \
	  --c-include clients/c/include/lprojd --c-source clients/c/src/generated
	$(SWIFT) run varlink-codegen $(INTERFACE_IDL) --python clients/python/src/lprojd/interface.py --streaming Subscribe

# The manual pages, written from the debug builds' --experimental-dump-help
# and man/parts (man/generate says how).
man: deps-demo
	$(SWIFT) build --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build --product lprojctl $(BUILD_FLAGS)
	$(SWIFT) build --package-path Extract --product lproj-extract $(BUILD_FLAGS)
	man/generate man lprojd=.build/debug/lprojd lprojctl=.build/debug/lprojctl lproj-extract=Extract/.build/debug/lproj-extract

print-version:
	@echo $(VERSION)

FORMATTED := Sources Tests Benchmarks Examples/SwiftDemo Fuzz/Sources Package.swift Fuzz/Package.swift Extract/Sources Extract/Tests Extract/Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint-format:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

SOAK_SECONDS ?= 30
# Each attack this many times, each on a fresh lprojd: what fails rarely.
SOAK_ROUNDS  ?= 1
FUZZ_RUNS    ?= 1000000

soak: deps
	$(SWIFT) build -c release --product lprojd $(BUILD_FLAGS)
	$(SWIFT) build -c release --product lproj-soak $(BUILD_FLAGS)
	$(SUDO) .build/release/lproj-soak run --seconds $(SOAK_SECONDS) --rounds $(SOAK_ROUNDS)

# A package of their own (Fuzz/Package.swift): the sanitizer flags reach
# every module they link, which the normal build must not see.
# -enable-testing: the fuzzers reach the daemon's modules, whose
# declarations are `package` (not API), through `@testable import`.
fuzz-build: deps
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
	$(MAKE) -C clients/c fuzz-build

fuzz: fuzz-build
	Fuzz/run-fuzzers --runs $(FUZZ_RUNS)

fuzz-smoke: fuzz-build
	Fuzz/run-fuzzers --seconds 30

demo: build
	@echo "Serving Examples/DemoApp as the bundle 'demo' on $(DEMO_SOCKET), and the drop-ins of $(DEMO_DIR)/bundles.d."
	@echo "In another terminal: export LPROJD_SOCKET=$(DEMO_SOCKET); then .build/debug/lprojctl bundles"
	$(SWIFT) run lprojd --socket $(DEMO_SOCKET) --state-directory $(DEMO_DIR)/state --bundle demo=$(CURDIR)/Examples/DemoApp@en --pseudo-locales --drop-in-directory $(DEMO_DIR)/bundles.d

install: install-binaries install-data install-man install-completions install-client install-panel

# The C client, built with meson: the library, its headers and pkg-config
# file (lprojd-2), Lprojd-2.0.gir and .typelib, the vapi and the HTML
# reference, as far as the tools found allow (APT_CLIENT has them all).
# CC, CPPFLAGS, CFLAGS and LDFLAGS reach meson; LIBDIR defaults to PREFIX/lib.
install-client:
	$(MAKE) -C clients/c install PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR) DATADIR=$(DATADIR) DESTDIR=$(DESTDIR)

# The language panel: its Python package in DATADIR/lprojd-panel, the
# lprojd-panel command, its desktop file, icon and AppStream metainfo where
# GNOME and software centres look, and its own texts (its Localizations) with
# the drop-in file that makes lprojd serve them as org.lprojd.Panel.
PANEL_DIR ?= $(DATADIR)/lprojd-panel
install-panel:
	install -d $(DESTDIR)$(PANEL_DIR)/lprojd_panel $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/applications \
	  $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps $(DESTDIR)$(DATADIR)/metainfo $(DESTDIR)$(DATADIR)/lprojd/bundles.d
	install -m 0644 panel/lprojd_panel/*.py $(DESTDIR)$(PANEL_DIR)/lprojd_panel/
	for folder in panel/Localizations/*.lproj; do \
	  install -d $(DESTDIR)$(PANEL_DIR)/Localizations/$${folder##*/} && \
	  install -m 0644 $$folder/*.strings $(DESTDIR)$(PANEL_DIR)/Localizations/$${folder##*/}/ || exit 1; \
	done
	sed 's|^directory: /usr/share/lprojd-panel/|directory: $(PANEL_DIR)/|' panel/org.lprojd.Panel.conf \
	  > $(DESTDIR)$(DATADIR)/lprojd/bundles.d/org.lprojd.Panel.conf
	chmod 0644 $(DESTDIR)$(DATADIR)/lprojd/bundles.d/org.lprojd.Panel.conf
	install -m 0644 panel/org.lprojd.Panel.metainfo.xml $(DESTDIR)$(DATADIR)/metainfo/
	sed 's|^PACKAGE_DIRECTORY = .*|PACKAGE_DIRECTORY = "$(PANEL_DIR)"|' panel/lprojd-panel > $(DESTDIR)$(BINDIR)/lprojd-panel
	chmod 0755 $(DESTDIR)$(BINDIR)/lprojd-panel
	sed 's|^Exec=lprojd-panel|Exec=$(BINDIR)/lprojd-panel|' panel/org.lprojd.Panel.desktop > $(DESTDIR)$(DATADIR)/applications/org.lprojd.Panel.desktop
	chmod 0644 $(DESTDIR)$(DATADIR)/applications/org.lprojd.Panel.desktop
	install -m 0644 panel/org.lprojd.Panel.svg $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/

# The language panel against the demo daemon (make demo's, or none: it then
# says lprojd is not running), its texts registered with it by a drop-in
# file, as an installed panel's are. Needs a display.
panel: deps-app
	$(MAKE) -C clients/c
	mkdir -p $(DEMO_DIR)/bundles.d
	sed 's|^directory: .*|directory: $(CURDIR)/panel/Localizations|' panel/org.lprojd.Panel.conf \
	  > $(DEMO_DIR)/bundles.d/org.lprojd.Panel.conf
	GI_TYPELIB_PATH=$(CLIENT_BUILD) LD_LIBRARY_PATH=$(CLIENT_BUILD) LPROJD_SOCKET=$(DEMO_SOCKET) panel/lprojd-panel

# The GTK 4 app (Examples/GtkDemo) against the demo daemon: the one `make
# demo` runs, else one started for it. Needs a display.
demo-app: deps-app
	$(SWIFT) build $(BUILD_FLAGS)
	Examples/GtkDemo/run-demo-app --lprojd $(CURDIR)/.build/debug/lprojd --socket $(DEMO_SOCKET)

install-binaries:
	@test -x $(BUILD_DIR)/lprojd -a -x $(BUILD_DIR)/lprojctl || { echo "No binaries in $(BUILD_DIR): run 'make release' first."; exit 1; }
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BUILD_DIR)/lprojd $(BUILD_DIR)/lprojctl $(DESTDIR)$(BINDIR)/

# lproj-extract (built by extract-binary, or make extract): the translators'
# tools, apart from `install` as the packages have them apart. It has no
# completions of its own: it names itself `lprojctl extract`, which is how
# it is run, and lprojctl's completions complete that.
install-extract:
	@test -x $(EXTRACT_BUILD_DIR)/lproj-extract || { echo "No lproj-extract in $(EXTRACT_BUILD_DIR): run 'make extract' first."; exit 1; }
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(EXTRACT_BUILD_DIR)/lproj-extract $(DESTDIR)$(BINDIR)/

install-man:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 man/lprojctl.1 man/lproj-extract.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/lprojd.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/lprojd.8 $(DESTDIR)$(MANDIR)/man8/

# The completions are the programs' own (swift-argument-parser writes them),
# so they are written from the binaries being installed. bash-completion
# sources its files: the bash one loses its #! line, which says otherwise.
install-completions:
	@test -x $(BUILD_DIR)/lprojd -a -x $(BUILD_DIR)/lprojctl || { echo "No binaries in $(BUILD_DIR): run 'make release' first."; exit 1; }
	install -d $(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	for program in lprojd lprojctl; do \
	  $(BUILD_DIR)/$$program --generate-completion-script bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/$$program && \
	  sed -i '1{/^#!/d}' $(DESTDIR)$(BASH_COMPLETION_DIR)/$$program && \
	  $(BUILD_DIR)/$$program --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$program && \
	  $(BUILD_DIR)/$$program --generate-completion-script fish > $(DESTDIR)$(FISH_COMPLETION_DIR)/$$program.fish && \
	  chmod 0644 $(DESTDIR)$(BASH_COMPLETION_DIR)/$$program $(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$program \
	    $(DESTDIR)$(FISH_COMPLETION_DIR)/$$program.fish || exit 1; \
	done

# The units name /usr/bin/lprojd and /etc/lprojd; they are rewritten for
# BINDIR and SYSCONFDIR. An existing configuration is never overwritten.
UNIT_PATHS := -e 's|/usr/bin/lprojd|$(BINDIR)/lprojd|g' -e 's|/etc/lprojd/|$(SYSCONFDIR)/lprojd/|g'

# The sample configuration serves no bundle; the drop-in directories are
# made, for the administrator's files and the packages'.
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
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/lprojd/bundles.d $(DESTDIR)$(DATADIR)/lprojd/bundles.d

# The demo bundle, world-readable as the service's dynamic user needs, and
# the drop-in file that registers it, as an app's package would: lprojd
# serves it at once, as org.lprojd.Demo.
install-examples:
	install -d $(DESTDIR)$(DATADIR)/lprojd/demo $(DESTDIR)$(DATADIR)/lprojd/bundles.d
	cd Examples/DemoApp && for folder in *.lproj; do \
	  install -d $(DESTDIR)$(DATADIR)/lprojd/demo/$$folder; \
	  install -m 0644 $$folder/* $(DESTDIR)$(DATADIR)/lprojd/demo/$$folder/; \
	done
	sed -e 's|/usr/share/lprojd/|$(DATADIR)/lprojd/|g' Examples/bundles.d/org.lprojd.Demo.conf \
	  > $(DESTDIR)$(DATADIR)/lprojd/bundles.d/.org.lprojd.Demo.conf.new
	chmod 0644 $(DESTDIR)$(DATADIR)/lprojd/bundles.d/.org.lprojd.Demo.conf.new
	mv -f $(DESTDIR)$(DATADIR)/lprojd/bundles.d/.org.lprojd.Demo.conf.new $(DESTDIR)$(DATADIR)/lprojd/bundles.d/org.lprojd.Demo.conf

clean:
	rm -rf .build
	$(MAKE) -C clients/c clean
	$(MAKE) -C Examples/CDemo clean
