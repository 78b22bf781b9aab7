"""The Debian packaging, checked without building it (make test-deb, part of
make test): `make deb-test` (debian/tests/install-test) is the whole run,
which builds, installs, uses and purges the packages.

Each test here fails when what it names breaks: debian/control and its
build dependencies (installed, and installed by `make deps-deb` and `make
deps`), the DEP-5 copyright and what it covers, the changelog's version
against `make print-version`, the units' paths and where the packages put
them, the C client's meson set-up as debian/rules does it (dpkg-buildflags'
hardening, no -Werror but in development, Debian's paths in its .pc file,
whose requirements the -dev package depends on), the symbols file against
the version script, the panel's packaging (its imports against its
dependencies, what `make install-panel` installs, its desktop file and
manual page), the record of the Swift dependencies, and that neither `make
install` nor the package build installs anything."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DEBIAN = REPOSITORY / "debian"
PACKAGES = {
    "lprojd",
    "lprojctl",
    "lprojd-translator-tools",
    "liblprojd-2-0",
    "gir1.2-lprojd-2.0",
    "liblprojd-2-dev",
    "liblprojd-2-doc",
    "lprojd-panel",
    "python3-lprojd",
}
# Debian's python3, with python3-debian (APT_DEB), whichever python3 runs pytest.
DEBIAN_PYTHON = "/usr/bin/python3"


def run(arguments: list[str], **options) -> subprocess.CompletedProcess[str]:
    if arguments and arguments[0] == "make" and "env" not in options:
        # As a command of its own, even when make test runs these tests: a
        # make under make prints "Entering directory" around its output.
        options["env"] = {key: value for key, value in os.environ.items()
                          if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    return subprocess.run(arguments, capture_output=True, text=True, timeout=300, check=False, **options)


def output(arguments: list[str], **options) -> str:
    result = run(arguments, **options)
    assert result.returncode == 0, f"{' '.join(map(str, arguments))} failed ({result.returncode}):\n{result.stderr}"
    return result.stdout


def make_version() -> str:
    return output(["make", "-s", "-C", str(REPOSITORY), "print-version"]).strip()


def rules_variable(name: str) -> str:
    """A variable of debian/rules, as the package build sees it."""
    return output(["make", "-s", "-f", "debian/rules", "--eval", "print-%: ; @: $(info $($*))", f"print-{name}"],
                  cwd=REPOSITORY).strip()


def control_stanzas() -> dict[str, str]:
    control = (DEBIAN / "control").read_text()
    stanzas = {re.search(r"^Package: (.+)$", s, re.M).group(1): s for s in control.split("\n\n") if "Package:" in s}
    stanzas["source"] = control.split("\n\n", 1)[0]
    return stanzas


def field(stanza: str, name: str) -> list[str]:
    """A relationship field's entries, one per comma, each as written."""
    match = re.search(rf"^{name}:(.*(?:\n[ #].*)*)", stanza, re.M)
    if not match:
        return []
    text = "\n".join(line for line in match.group(1).splitlines() if not line.lstrip().startswith("#"))
    return [entry.strip() for entry in text.split(",") if entry.strip()]


def package_names(entries: list[str]) -> set[str]:
    """Each entry's package (a substitution variable as written), without version or architecture."""
    return {re.match(r"\$\{[^}]*\}|[^\s(:\[]+", entry.strip()).group(0) for entry in entries}


# debian/control


def test_control_lists_the_packages_and_its_build_dependencies_are_installed():
    packages = set(output(["dh_listpackages"], cwd=REPOSITORY).split())
    assert packages == PACKAGES
    # The Swift toolchain is the one build dependency Debian lacks
    # (README.source); every other is named, and installed by make deps.
    output(["dpkg-checkbuilddeps"], cwd=REPOSITORY)
    assert "Swift" in (DEBIAN / "README.source").read_text()
    assert shutil.which("swift"), "the Swift toolchain is not on PATH"


def test_build_dependencies_are_what_make_deps_deb_and_make_deps_install():
    """Every package Build-Depends names (or the installed package that
    provides it, for virtual ones: debhelper-compat, dh-sequence-gir) is one
    that `make deps-deb` installs (make deb, make deb-test), and `make deps`
    (make test, whose test-deb runs dpkg-checkbuilddeps)."""
    build_depends = package_names(field(control_stanzas()["source"], "Build-Depends"))
    real, provided = set(), {}
    for line in output(["dpkg-query", "-W", "-f", "${Package}\t${Provides}\n"]).splitlines():
        package, _, provides = line.partition("\t")
        real.add(package)
        for name in package_names([entry for entry in provides.split(",") if entry.strip()]):
            provided.setdefault(name, package)
    wanted = {name if name in real else provided.get(name, name) for name in build_depends}
    assert {"debhelper", "gobject-introspection", "meson", "valac", "gi-docgen", "desktop-file-utils"} <= wanted
    for target in ("deps-deb", "deps"):
        commands = output(["make", "-n", "-C", str(REPOSITORY), target])
        installed = set()
        for packages in re.findall(r"for package in ([^;]*); do", commands):
            installed |= set(packages.split())
        assert wanted <= installed, f"make {target} does not install {sorted(wanted - installed)}, which Build-Depends names"


def test_packages_declare_what_shlibs_cannot_see():
    stanzas = control_stanzas()
    # ICU is opened with dlopen: declared, for each binary that formats.
    for package in ("lprojd", "lprojctl"):
        assert "${icu:Depends}" in stanzas[package] and "${shlibs:Depends}" in stanzas[package]
    assert "-Vicu:Depends=libicu$(ICU_MAJOR)" in (DEBIAN / "rules").read_text()
    assert re.search(r"libicui18n\.so\.\" U_ICU_VERSION_SHORT", (REPOSITORY / "Sources/CLprojICU/icu_loader.c").read_text())
    assert "${python3:Depends}" in stanzas["python3-lprojd"]


def test_the_library_packages_are_split_as_debian_splits_them():
    stanzas = control_stanzas()
    library = stanzas["liblprojd-2-0"]
    assert re.search(r"^Section: libs$", library, re.M) and re.search(r"^Multi-Arch: same$", library, re.M)
    assert "${shlibs:Depends}" in library
    typelib = stanzas["gir1.2-lprojd-2.0"]
    assert re.search(r"^Section: introspection$", typelib, re.M) and re.search(r"^Multi-Arch: same$", typelib, re.M)
    assert "${gir:Depends}" in field(typelib, "Depends")
    # dh_girepository, through its sequence in Build-Depends, fills ${gir:Depends}.
    assert "dh-sequence-gir" in package_names(field(stanzas["source"], "Build-Depends"))
    doc = stanzas["liblprojd-2-doc"]
    assert re.search(r"^Section: doc$", doc, re.M) and re.search(r"^Architecture: all$", doc, re.M)
    assert re.search(r"^Multi-Arch: foreign$", doc, re.M)
    dev = field(stanzas["liblprojd-2-dev"], "Depends")
    # (dh_girepository fills ${gir:Depends} for typelibs only: the gir's
    # package depends on the typelib's, as introspection's policy asks.)
    assert {"liblprojd-2-0 (= ${binary:Version})", "gir1.2-lprojd-2.0 (= ${binary:Version})"} <= set(dev)
    installs = {package: (DEBIAN / f"{package}.install").read_text().split() for package in
                ("liblprojd-2-0", "gir1.2-lprojd-2.0", "liblprojd-2-dev", "liblprojd-2-doc")}
    assert installs["liblprojd-2-0"] == ["usr/lib/${DEB_HOST_MULTIARCH}/liblprojd-2.so.*"]
    assert installs["gir1.2-lprojd-2.0"] == ["usr/lib/${DEB_HOST_MULTIARCH}/girepository-1.0/Lprojd-2.0.typelib"]
    assert {"usr/share/gir-1.0/Lprojd-2.0.gir", "usr/share/vala/vapi/lprojd-2.vapi", "usr/include/lprojd-2/",
            "usr/lib/${DEB_HOST_MULTIARCH}/pkgconfig/lprojd-2.pc"} <= set(installs["liblprojd-2-dev"])
    assert installs["liblprojd-2-doc"] == ["usr/share/doc/Lprojd-2.0/"]


# debian/changelog and the versions


def test_changelog_version_is_make_print_version():
    changelog = output(["dpkg-parsechangelog", "-S", "Version"], cwd=REPOSITORY).strip()
    assert changelog == make_version()
    # A native package: no Debian revision.
    assert (DEBIAN / "source/format").read_text().strip() == "3.0 (native)"


def test_the_clients_versions_are_lprojds():
    version = make_version()
    pyproject = (REPOSITORY / "clients/python/pyproject.toml").read_text()
    assert re.search(rf'^version = "{re.escape(version)}"$', pyproject, re.M)
    # The C library has a version of its own (its soname's): the package's
    # is lprojd's, and the symbols file names the soname meson.build gives.
    meson = (REPOSITORY / "clients/c/meson.build").read_text()
    soversion = re.search(r"^soversion = (\d+)$", meson, re.M).group(1)
    api = re.search(r"^api_name = '(lprojd-\d+)'$", meson, re.M).group(1)
    symbols = (DEBIAN / f"lib{api}-{soversion}.symbols").read_text()
    assert symbols.startswith(f"lib{api}.so.{soversion} lib{api}-{soversion} #MINVER#\n")


# debian/copyright


def copyright_paragraphs() -> dict:
    """The DEP-5 file as python3-debian reads it: it refuses anything else."""
    script = """
import json, subprocess, sys
from debian.copyright import Copyright
with open("debian/copyright") as file:
    parsed = Copyright(file, strict=True)
files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True,
                       text=True, check=True).stdout.split("\\0")[:-1]
print(json.dumps({
    "header": parsed.header.comment or "",
    "licenses": sorted(p.license.synopsis for p in parsed.all_license_paragraphs()),
    "used": sorted({p.license.synopsis for p in parsed.all_files_paragraphs()}),
    "files": {f: parsed.find_files_paragraph(f).license.synopsis for f in files},
}))
"""
    return json.loads(output([DEBIAN_PYTHON, "-c", script], cwd=REPOSITORY))


def test_copyright_is_dep5_and_covers_every_file():
    parsed = copyright_paragraphs()
    # Every file in git has a paragraph, and each license used has its text.
    assert parsed["files"] and all(parsed["files"].values())
    assert set(parsed["used"]) <= set(parsed["licenses"]) | {"Apache-2.0"}
    assert parsed["files"]["Sources/lprojd/Lprojd.swift"] == "Apache-2.0"
    assert parsed["files"]["debian/rules"] == "Apache-2.0"
    # Third-party code keeps its own license: every folder with a license
    # file of its own below the top is covered by a paragraph of its own.
    licensed = {f for f in parsed["files"] if re.search(r"/(LICEN[CS]E|COPYING)[^/]*$", f)}
    assert licensed == {
        "Tests/Fixtures/WhistleYoo/LICENSE",
        "Tests/LprojExchangeTests/Fixtures/Xcode27/LICENSE-MIT",
    }
    assert parsed["files"]["Tests/Fixtures/WhistleYoo/Localizable.xcstrings"] == "Expat"
    assert parsed["files"]["Tests/LprojExchangeTests/Fixtures/Xcode27/README.md"] == "Expat"


def test_copyright_names_every_swift_package_linked_in():
    header = copyright_paragraphs()["header"]
    for manifest in ("Package.swift", "Extract/Package.swift"):
        for url in re.findall(r'\.package\(url: "([^"]+)"', (REPOSITORY / manifest).read_text()):
            name = url.rstrip("/").removesuffix(".git").rsplit("/", 1)[-1]
            assert name in header, f"debian/copyright does not name {name} ({manifest}), which the binaries link"


def test_no_package_ships_the_shared_corpus():
    for install in DEBIAN.glob("*.install"):
        assert "corpus" not in install.read_text().lower(), install.name
    assert "corpus" not in (DEBIAN / "rules").read_text().lower()


# The units, and where the packages put them


def test_units_run_the_installed_daemon_on_the_installed_configuration():
    system = (REPOSITORY / "systemd/lprojd.service").read_text()
    assert re.findall(r"^ExecStart=(.*)$", system, re.M) == ["/usr/bin/lprojd --system --config /etc/lprojd/lprojd.conf"]
    assert re.search(r"^StateDirectory=lprojd$", system, re.M) and re.search(r"^DynamicUser=yes$", system, re.M)
    user = (REPOSITORY / "systemd/user/lprojd.service").read_text()
    assert re.findall(r"^ExecStart=(.*)$", user, re.M) == ["/usr/bin/lprojd"]
    socket = (REPOSITORY / "systemd/lprojd.socket").read_text()
    assert re.findall(r"^ListenStream=(.*)$", socket, re.M) == ["/run/lprojd/org.lprojd.Localization"]


def test_units_go_where_systemd_says():
    system_dir = output(["pkg-config", "--variable=systemdsystemunitdir", "systemd"]).strip()
    user_dir = output(["pkg-config", "--variable=systemduserunitdir", "systemd"]).strip()
    installed = (DEBIAN / "lprojd.install").read_text().split("\n")
    for unit in ("lprojd.socket", "lprojd.service"):
        assert f"{system_dir.lstrip('/')}/{unit}" in installed
        assert f"{user_dir.lstrip('/')}/{unit}" in installed
    rules = (DEBIAN / "rules").read_text()
    assert "pkg-config --variable=systemdsystemunitdir systemd" in rules
    assert "pkg-config --variable=systemduserunitdir systemd" in rules


def test_the_socket_is_enabled_and_purge_removes_the_state():
    rules = (DEBIAN / "rules").read_text()
    assert re.search(r"^\tdh_installsystemd -plprojd lprojd\.socket$", rules, re.M)
    assert re.search(r"^\tdh_installsystemd -plprojd --no-enable --no-start --restart-after-upgrade lprojd\.service$", rules, re.M)
    # Stopping the socket on removal stops the service: it Requires= it.
    assert re.search(r"^Requires=lprojd\.socket$", (REPOSITORY / "systemd/lprojd.service").read_text(), re.M)
    postrm = (DEBIAN / "lprojd.postrm").read_text()
    assert re.search(r'if \[ "\$1" = "purge" \]; then\n\trm -rf /var/lib/lprojd /var/lib/private/lprojd\n', postrm)
    assert "#DEBHELPER#" in postrm


# The C client's build (meson), set up as debian/rules sets it up


@pytest.fixture(scope="module")
def c_setup(tmp_path_factory) -> dict:
    """clients/c set up by its Makefile, called as debian/rules calls it
    (its INSTALL_PATHS, with dpkg-buildflags' flags in the environment),
    in a build folder of its own; meson sets up but compiles nothing."""
    build = tmp_path_factory.mktemp("c-build") / "build"
    meson = build.parent / "meson-setup-only"
    meson.write_text('#!/bin/sh\n[ "$1" = setup ] || exit 0\nexec meson "$@"\n')
    meson.chmod(0o755)
    # (A makefile of its own: --eval would reach the Makefile's make too.)
    makefile = build.parent / "set-up.mk"
    makefile.write_text(f"include {DEBIAN}/rules\nc-set-up:\n\t$(MAKE) --no-print-directory -C clients/c $(INSTALL_PATHS) "
                        f"BUILD={build} MESON={meson}\n")
    output(["make", "-s", "-f", str(makefile), "c-set-up"], cwd=REPOSITORY)
    options = {option["name"]: option["value"] for option in
               json.loads(output(["meson", "introspect", str(build), "--buildoptions"]))}
    return {"options": options, "pc": (build / "meson-private/lprojd-2.pc").read_text()}


def test_c_client_takes_dpkg_buildflags(c_setup):
    options = c_setup["options"]
    for flag in rules_variable("CFLAGS").split() + rules_variable("CPPFLAGS").split():
        assert flag in options["c_args"], f"meson's c_args lack {flag}: {options['c_args']}"
    assert "-D_FORTIFY_SOURCE=2" in options["c_args"] and "-fstack-protector-strong" in options["c_args"]
    for flag in rules_variable("LDFLAGS").split():
        assert flag in options["c_link_args"], f"meson's c_link_args lack {flag}"
    assert "-Wl,-z,relro" in options["c_link_args"] and "-Wl,-z,now" in options["c_link_args"]
    # Debian's build type: no optimisation or debug flags but dpkg-buildflags'.
    assert options["buildtype"] == "plain"
    assert options["introspection"] == options["vapi"] == options["docs"] == "enabled"
    assert options["lprojd_binary"] == rules_variable("SWIFT_SCRATCH") + "/release/lprojd"


def test_c_client_uses_werror_only_in_development(c_setup):
    assert c_setup["options"]["werror"] is False
    meson = (REPOSITORY / "clients/c/meson.build").read_text()
    assert "werror" not in re.search(r"default_options: \[[^]]*\]", meson).group(0)
    # make test builds it so; make install and the package build do not.
    makefile = (REPOSITORY / "Makefile").read_text()
    assert re.search(r"^\t\$\(MAKE\) -C clients/c check MESON_OPTIONS=-Dwerror=true ", makefile, re.M)
    install = output(["make", "-n", "-C", str(REPOSITORY), "install-client", "PREFIX=/usr"])
    assert "werror" not in install and "werror" not in (DEBIAN / "rules").read_text()


def test_c_client_pc_file_has_debians_paths_and_the_dev_package_its_requirements(c_setup):
    pc = c_setup["pc"]
    multiarch = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"]).strip()
    assert "prefix=/usr\n" in pc and f"libdir=${{prefix}}/lib/{multiarch}\n" in pc
    required = set()
    for name in ("Requires", "Requires.private"):
        line = re.search(rf"^{re.escape(name)}: (.*)$", pc, re.M)
        required |= {re.split(r"[\s<>=]", module.strip())[0] for module in line.group(1).split(",")} if line else set()
    assert {"gio-2.0", "json-glib-1.0"} <= required
    # Each module the .pc requires, by the -dev package that has its .pc file.
    dev_depends = package_names(field(control_stanzas()["liblprojd-2-dev"], "Depends"))
    for module in required:
        path = output(["pkg-config", "--variable=pcfiledir", module]).strip() + f"/{module}.pc"
        package = output(["dpkg-query", "-S", path]).split(":")[0]
        assert package in dev_depends, f"lprojd-2.pc requires {module} ({package}), which the -dev package lacks"


def test_symbols_file_is_the_headers_functions():
    """Every public function of the headers (the generated ones among them),
    at the version script's node, as dpkg-gensymbols lists them."""
    meson = (REPOSITORY / "clients/c/meson.build").read_text()
    soversion = re.search(r"^soversion = (\d+)$", meson, re.M).group(1)
    api = re.search(r"^api_name = '(lprojd-\d+)'$", meson, re.M).group(1)
    version_script = (REPOSITORY / "clients/c/src/lprojd.map").read_text()
    node = re.search(r"^(LPROJD_[\d.]+) \{", version_script, re.M).group(1)
    declared = {name for header in (REPOSITORY / "clients/c/include/lprojd").glob("*.h")
                for name in re.findall(r"\b(lprojd_\w+)\s*\(", header.read_text())}
    declared |= {"lprojd_change_get_type"}  # written by glib-mkenums
    lines = (DEBIAN / f"lib{api}-{soversion}.symbols").read_text().splitlines()
    assert lines[0] == f"lib{api}.so.{soversion} lib{api}-{soversion} #MINVER#"
    assert f"* Build-Depends-Package: lib{api}-dev" in lines
    symbols = dict(re.fullmatch(r" (\S+) (\S+)", line).groups() for line in lines if line.startswith(" "))
    assert set(symbols) == {f"{name}@{node}" for name in declared} | {f"{node}@{node}"}
    assert declared and set(symbols.values()) == {"0.1.0"}
    rules = (DEBIAN / "rules").read_text()
    assert "DPKG_GENSYMBOLS_CHECK_LEVEL = 4" in rules
    assert f"dh_dwz -plib{api}-{soversion}" in rules


# The language panel


def test_panel_depends_on_what_it_imports():
    """Each typelib the panel requires by its package, PyGObject, and
    nothing else outside Python's standard library."""
    stanza = control_stanzas()["lprojd-panel"]
    depends = package_names(field(stanza, "Depends"))
    assert {"python3-gi", "${python3:Depends}", "${misc:Depends}"} <= depends
    assert "lprojd" in package_names(field(stanza, "Recommends"))
    girs = {"Adw": "gir1.2-adw-1", "Gtk": "gir1.2-gtk-4.0", "Lprojd": "gir1.2-lprojd-2.0"}
    for module in (REPOSITORY / "panel/lprojd_panel").glob("*.py"):
        text = module.read_text()
        for namespace, version in re.findall(r'gi\.require_version\("(\w+)", "([\d.]+)"\)', text):
            assert girs[namespace] in depends and girs[namespace].endswith(version), f"{module.name}: {namespace}"
        for imported in re.findall(r"^(?:from|import) (\w+)", text, re.M):
            assert imported in sys.stdlib_module_names or imported in {"gi", "__future__", "lprojd_panel"} or \
                (REPOSITORY / "panel/lprojd_panel" / f"{imported}.py").exists(), f"{module.name} imports {imported}"
    # dh_python3 finds the modules' private directory by the package's name,
    # /usr/share/lprojd-panel, where make install-panel puts them.
    assert "usr/share/lprojd-panel/" in (DEBIAN / "lprojd-panel.install").read_text().split()
    assert "override_dh_python3" not in (DEBIAN / "rules").read_text()


def test_panel_package_has_what_make_install_panel_installs(tmp_path):
    output(["make", "-s", "-C", str(REPOSITORY), "install-panel", "PREFIX=/usr", f"DESTDIR={tmp_path}"])
    installed = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*") if path.is_file())
    patterns = (DEBIAN / "lprojd-panel.install").read_text().split()
    for path in installed:
        assert any(path == pattern or path.startswith(pattern.rstrip("/") + "/") for pattern in patterns), path
    assert "usr/bin/lprojd-panel" in installed and "usr/share/lprojd-panel/lprojd_panel/app.py" in installed
    desktop = tmp_path / "usr/share/applications/org.lprojd.Panel.desktop"
    assert "Exec=/usr/bin/lprojd-panel\n" in desktop.read_text()
    result = run(["desktop-file-validate", str(desktop)])
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    assert "desktop-file-validate debian/tmp/usr/share/applications/org.lprojd.Panel.desktop" in (DEBIAN / "rules").read_text()
    # Its texts, and the drop-in file that makes lprojd serve them from where they are installed.
    assert "usr/share/lprojd-panel/Localizations/fr.lproj/Localizable.strings" in installed
    drop_in = (tmp_path / "usr/share/lprojd/bundles.d/org.lprojd.Panel.conf").read_text()
    assert "\ndirectory: /usr/share/lprojd-panel/Localizations\n" in drop_in
    assert "usr/share/metainfo/org.lprojd.Panel.metainfo.xml" in installed


def test_panel_manual_page_names_every_option():
    app = (REPOSITORY / "panel/lprojd_panel/app.py").read_text()
    options = set(re.findall(r'add_argument\("(--[\w-]+)"', app)) | {"--help"}
    page = (DEBIAN / "lprojd-panel.1").read_text()
    for option in options:
        assert option.replace("-", "\\-") in page, f"debian/lprojd-panel.1 does not name {option}"
    assert (DEBIAN / "lprojd-panel.manpages").read_text().split() == ["debian/lprojd-panel.1"]
    result = run(["groff", "-man", "-ww", "-z", "-Tutf8", str(DEBIAN / "lprojd-panel.1")])
    assert result.returncode == 0 and not result.stderr, result.stderr


# Reproducible builds, and builds that install nothing


def test_install_and_the_package_build_install_nothing():
    rules = (DEBIAN / "rules").read_text()
    targets = set()
    for line in re.findall(r"\$\(MAKE\) --no-print-directory (.*)", rules):
        directory = re.search(r"-C (\S+)", line)
        words = [word for word in line.split() if re.fullmatch(r"[a-z-]+", word)]
        targets.add((directory.group(1) if directory else ".", " ".join(words)))
    assert {(".", "release-binaries"), (".", "extract-binary"), (".", "install install-extract"), ("clients/c", "")} <= targets
    for directory, words in targets:
        commands = output(["make", "-n", "-C", str(REPOSITORY / directory), *words.split(), "PREFIX=/usr", "DESTDIR=/tmp/none"])
        assert not re.search(r"apt-get|\bpip\b|ensurepip|-m pip", commands), f"make {words} would install: {commands}"
    assert not re.search(r"apt-get|\bpip\b", re.sub(r"(?m)^\s*#.*$", "", rules))


def test_swift_dependencies_are_recorded_without_the_builds_paths(tmp_path):
    scratch = REPOSITORY / ".build"
    if not (scratch / "checkouts").is_dir():
        pytest.skip("no .build/checkouts: make test builds first")
    output([str(DEBIAN / "swift-dependencies"), "--package-path", str(REPOSITORY), "--scratch-path", str(scratch),
            "--output", str(tmp_path)])
    record = json.loads((tmp_path / "dependencies.json").read_text())
    assert record["toolchain"].startswith("Swift version")
    names = {}

    def walk(node):
        names[node["identity"]] = node["version"]
        for child in node["dependencies"]:
            walk(child)

    walk(record["package"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", names["swift-nio"]) and re.fullmatch(r"\d+\.\d+\.\d+", names["grdb.swift"])
    assert str(REPOSITORY) not in (tmp_path / "dependencies.json").read_text()
    # The license and notices of each package linked in.
    assert (tmp_path / "swift-nio/NOTICE.txt").is_file() and (tmp_path / "grdb.swift/LICENSE").is_file()
    # And the toolchain's: the runtime, Foundation and its ICU are linked in.
    # The root package is named by its directory (a clone may be anywhere).
    root = record["package"]["identity"]
    assert {p.name for p in tmp_path.iterdir() if p.is_dir()} == set(names) - {root} | {"swift", "swift-foundation-icu"}
    assert "Runtime Library Exception" in (tmp_path / "swift/LICENSE.txt").read_text()
    assert "Unicode" in (tmp_path / "swift-foundation-icu/LICENSE").read_text()
    assert "Package.resolved" in (REPOSITORY / ".gitignore").read_text().splitlines()


# The README and the lintian warnings


def test_readme_debian_says_what_each_package_holds_and_explains_lintian():
    """README.Debian says what every package holds and why, how an app's
    package registers its bundle, and explains every lintian warning allowed
    and every override (install-test checks the informational tags against
    it too); the README's section links it and gives the last deb-test run."""
    readme_debian = (DEBIAN / "README.Debian").read_text()
    expected = [line.split()[0] for line in (DEBIAN / "tests/lintian-warnings").read_text().splitlines()
                if line and not line.startswith("#")]
    for overrides in DEBIAN.glob("*.lintian-overrides"):
        expected += [line.split()[0] for line in overrides.read_text().splitlines() if line and not line.startswith("#")]
    assert expected
    for tag in expected:
        assert f"\n  {tag}" in readme_debian, f"debian/README.Debian does not explain lintian's {tag}"
    for package in PACKAGES:
        assert f"\n{package}\n    " in readme_debian, f"debian/README.Debian does not say what {package} holds"
    assert "debian/<app>.install" in readme_debian and "usr/share/lprojd/bundles.d" in readme_debian
    readme = (REPOSITORY / "README.md").read_text()
    section = readme.split("## Installing from the Debian package", 1)[1].split("\n## ", 1)[0]
    assert "(debian/README.Debian)" in section and "`make deb`" in section and "`make deb-test`" in section
    assert re.search(r"passed in \d+ s \(\d{4}-\d\d-\d\d, 2 cores\)", " ".join(section.split()))
