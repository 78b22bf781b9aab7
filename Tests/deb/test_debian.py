"""The Debian packaging, checked without building it (make test-deb, part of
make test): `make deb-test` (debian/tests/install-test) is the whole run,
which builds, installs, uses and purges the packages.

Each test here fails when what it names breaks: debian/control and its
build dependencies, the DEP-5 copyright and what it covers, the changelog's
version against `make print-version`, the units' paths and where the
packages put them, the C client's flags (dpkg-buildflags' hardening, no
-Werror but in development) and its .pc file, the symbols file against the
header, the record of the Swift dependencies, and that neither `make
install` nor the package build installs anything."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DEBIAN = REPOSITORY / "debian"
PACKAGES = {
    "lprojd",
    "lprojctl",
    "lprojd-translator-tools",
    "liblprojd-client0",
    "liblprojd-client-dev",
    "python3-lprojd",
    "python3-varlink",
}
# Debian's python3, with python3-debian (APT_DEB), whichever python3 runs pytest.
DEBIAN_PYTHON = "/usr/bin/python3"


def run(arguments: list[str], **options) -> subprocess.CompletedProcess[str]:
    return subprocess.run(arguments, capture_output=True, text=True, timeout=300, check=False, **options)


def output(arguments: list[str], **options) -> str:
    result = run(arguments, **options)
    assert result.returncode == 0, f"{' '.join(map(str, arguments))} failed ({result.returncode}):\n{result.stderr}"
    return result.stdout


def make_version() -> str:
    return output(["make", "-s", "-C", str(REPOSITORY), "print-version"]).strip()


# debian/control


def test_control_lists_the_packages_and_its_build_dependencies_are_installed():
    packages = set(output(["dh_listpackages"], cwd=REPOSITORY).split())
    assert packages == PACKAGES
    # The Swift toolchain is the one build dependency Debian lacks
    # (README.source); every other is named, and installed by make deps.
    output(["dpkg-checkbuilddeps"], cwd=REPOSITORY)
    assert "Swift" in (DEBIAN / "README.source").read_text()
    assert shutil.which("swift"), "the Swift toolchain is not on PATH"


def test_packages_declare_what_shlibs_cannot_see():
    control = (DEBIAN / "control").read_text()
    stanzas = {re.search(r"^Package: (.+)$", s, re.M).group(1): s for s in control.split("\n\n") if "Package:" in s}
    # ICU is opened with dlopen: declared, for each binary that formats.
    for package in ("lprojd", "lprojctl"):
        assert "${icu:Depends}" in stanzas[package] and "${shlibs:Depends}" in stanzas[package]
    assert "-Vicu:Depends=libicu$(ICU_MAJOR)" in (DEBIAN / "rules").read_text()
    assert re.search(r"libicui18n\.so\.\" U_ICU_VERSION_SHORT", (REPOSITORY / "Sources/CLprojICU/icu_loader.c").read_text())
    assert "${python3:Depends}" in stanzas["python3-lprojd"]
    assert "liblprojd-client0 (= ${binary:Version})" in stanzas["liblprojd-client-dev"]
    # The .pc file's Requires and Requires.private are -dev packages.
    pc = (REPOSITORY / "clients/c/lprojd-client.pc.in").read_text()
    assert "gio-2.0" in pc and "libglib2.0-dev" in stanzas["liblprojd-client-dev"]
    assert "json-glib-1.0" in pc and "libjson-glib-dev" in stanzas["liblprojd-client-dev"]


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
    assert re.search(rf"^VERSION = {re.escape(version)}$", (REPOSITORY / "clients/c/Makefile").read_text(), re.M)
    symbols = (DEBIAN / "liblprojd-client0.symbols").read_text()
    assert symbols.startswith("liblprojd-client.so.0 liblprojd-client0 #MINVER#\n")


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
        "third_party/python-varlink/LICENSE.txt",
        "Tests/Fixtures/WhistleYoo/LICENSE",
        "Tests/LprojExchangeTests/Fixtures/Xcode27/LICENSE-MIT",
    }
    assert parsed["files"]["third_party/python-varlink/varlink/client.py"] == "Apache-2.0"
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


# The C client's build: flags, -Werror, .pc


def c_client_commands(tmp_path: Path, *variables: str, target: str = "all") -> str:
    """What `make` would run in clients/c, in a build folder of its own."""
    return output(["make", "-n", "-B", "-C", str(REPOSITORY / "clients/c"), f"BUILD={tmp_path}", *variables, target])


def test_c_client_takes_the_callers_flags(tmp_path):
    commands = c_client_commands(
        tmp_path, "CFLAGS=-O1 -fstack-protector-strong", "CPPFLAGS=-D_FORTIFY_SOURCE=2", "LDFLAGS=-Wl,-z,relro -Wl,-z,now")
    compiles = [line for line in commands.splitlines() if " -c src/" in line]
    assert compiles and all("-D_FORTIFY_SOURCE=2" in line and "-O1 -fstack-protector-strong" in line for line in compiles)
    links = [line for line in commands.splitlines() if " -shared " in line]
    assert len(links) == 1 and "-Wl,-z,relro -Wl,-z,now" in links[0]


def test_c_client_uses_werror_only_in_development(tmp_path):
    assert "-Werror" not in c_client_commands(tmp_path)
    assert "-Werror" in c_client_commands(tmp_path, "WERROR=-Werror")
    # make test builds it so; make install and the package build do not.
    makefile = (REPOSITORY / "Makefile").read_text()
    assert re.search(r"^\t\$\(MAKE\) -C clients/c check WERROR=-Werror ", makefile, re.M)
    install = output(["make", "-n", "-C", str(REPOSITORY), "install-client", "PREFIX=/usr"])
    assert "-Werror" not in install and "WERROR=-Werror" not in (DEBIAN / "rules").read_text()


def test_c_client_pc_file_follows_prefix(tmp_path):
    client = REPOSITORY / "clients/c"
    pc = tmp_path / "lprojd-client.pc"
    output(["make", "-s", "-C", str(client), f"BUILD={tmp_path}", str(pc)])
    assert "prefix=/usr/local\n" in pc.read_text()
    output(["make", "-s", "-C", str(client), f"BUILD={tmp_path}", str(pc), "PREFIX=/usr", "LIBDIR=/usr/lib/x86_64-linux-gnu"])
    text = pc.read_text()
    assert "prefix=/usr\n" in text and "libdir=/usr/lib/x86_64-linux-gnu\n" in text
    # Unchanged variables leave it alone.
    before = pc.stat().st_mtime_ns
    output(["make", "-s", "-C", str(client), f"BUILD={tmp_path}", str(pc), "PREFIX=/usr", "LIBDIR=/usr/lib/x86_64-linux-gnu"])
    assert pc.stat().st_mtime_ns == before


def test_symbols_file_is_the_headers_public_functions():
    header = (REPOSITORY / "clients/c/include/lprojd/localizer.h").read_text()
    public = set(re.findall(r"LPROJD_PUBLIC [^;]*?\b(lprojd_\w+)\(", header))
    for module in re.findall(r"G_DECLARE_\w+_TYPE\(\w+, (\w+),", header):
        public.add(f"{module}_get_type")
    lines = (DEBIAN / "liblprojd-client0.symbols").read_text().splitlines()
    symbols = {line.split("@")[0].strip() for line in lines if line.startswith(" ")}
    assert public and symbols == public
    assert "DPKG_GENSYMBOLS_CHECK_LEVEL = 4" in (DEBIAN / "rules").read_text()


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
    assert {p.name for p in tmp_path.iterdir() if p.is_dir()} == set(names) - {"lprojd"} | {"swift", "swift-foundation-icu"}
    assert "Runtime Library Exception" in (tmp_path / "swift/LICENSE.txt").read_text()
    assert "Unicode" in (tmp_path / "swift-foundation-icu/LICENSE").read_text()
    assert "Package.resolved" in (REPOSITORY / ".gitignore").read_text().splitlines()


# The README and the lintian warnings


def test_readme_lists_every_lintian_warning_allowed():
    """The README's section names every package and links README.Debian,
    which explains every lintian warning allowed and every override."""
    readme_debian = (DEBIAN / "README.Debian").read_text()
    expected = [line.split()[0] for line in (DEBIAN / "tests/lintian-warnings").read_text().splitlines()
                if line and not line.startswith("#")]
    for overrides in DEBIAN.glob("*.lintian-overrides"):
        expected += [line.split()[0] for line in overrides.read_text().splitlines() if line and not line.startswith("#")]
    assert expected
    for tag in expected:
        assert f"\n  {tag}" in readme_debian, f"debian/README.Debian does not explain lintian's {tag}"
    readme = (REPOSITORY / "README.md").read_text()
    section = readme.split("## Installing from the Debian package", 1)[1].split("\n## ", 1)[0]
    assert "(debian/README.Debian)" in section
    for package in PACKAGES:
        assert f"`{package}`" in section, f"README's Debian section does not say what {package} holds"
    registering = readme.split("## Registering your app's bundle", 1)[1].split("\n## ", 1)[0]
    assert "debian/<app>.install" in registering and "usr/share/lprojd/bundles.d" in registering
