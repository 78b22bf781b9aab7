"""The manual pages in man/ and the completions: written again from the
programs, they are the bytes checked in; each command page names every
option and command its program's help names; groff renders each without a
warning; and `make install` puts pages and completions where man and each
shell look, the completions valid in their shell.

The programs are the debug builds, as `make test-man` gives them: LPROJD,
LPROJCTL and LPROJ_EXTRACT. (lprojd.conf(5) is held against the
configuration reader's settings by LprojConfigurationTests, in Swift.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
MAN = REPOSITORY / "man"
PROGRAMS = {"lprojd": "LPROJD", "lprojctl": "LPROJCTL", "lproj-extract": "LPROJ_EXTRACT"}
PAGES = {"lprojd": "lprojd.8", "lprojctl": "lprojctl.1", "lproj-extract": "lproj-extract.1"}
ALL_PAGES = [*PAGES.values(), "lprojd.conf.5"]
# What every subcommand takes, as the program itself does.
COMMON = {"-h", "--help", "--version"}


def program(name: str) -> str:
    path = os.environ.get(PROGRAMS[name])
    assert path and os.access(path, os.X_OK), f"${PROGRAMS[name]} names no program ({path!r}); `make test-man` sets it"
    return path


def output(arguments: list[str], **options) -> str:
    result = subprocess.run(arguments, capture_output=True, text=True, timeout=120, check=False, **options)
    assert result.returncode == 0, f"{' '.join(map(str, arguments))} failed ({result.returncode}):\n{result.stderr}"
    return result.stdout


@cache
def version() -> str:
    return output([program("lprojd"), "--version"]).strip()


@cache
def dump(name: str) -> dict:
    return json.loads(output([program(name), "--experimental-dump-help"]))["command"]


@cache
def rendered(page: str) -> str:
    """The page as man shows it, in plain text, on lines long enough that
    nothing is broken."""
    return output(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=250n", str(MAN / page)], env={**os.environ, "GROFF_NO_SGR": "1"})


def section(text: str, heading: str, indent: str) -> str:
    """The lines under a heading of the rendered page (a section's heading
    starts a line; a subsection's is indented by three spaces), up to the
    next heading of that level or above."""
    lines = text.split("\n")
    start = lines.index(indent + heading)
    end = start + 1
    while end < len(lines) and not re.match(r"^(\S| {3}\S)" if indent else r"^\S", lines[end]):
        end += 1
    return "\n".join(lines[start + 1 : end])


def names(text: str, option: str) -> bool:
    """Whether the text names the option as a word of its own."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def help_options(arguments: list[str]) -> set[str]:
    """The options and flags a --help lists (the lines of its OPTIONS that
    start with a dash), each of their names."""
    text = output(arguments + ["--help"])
    names: set[str] = set()
    in_options = False
    for line in text.split("\n"):
        if re.match(r"^[A-Z ]+:$", line):
            in_options = line == "OPTIONS:"
            continue
        match = re.match(r"^  (-[^ ]*(?:, -[^ ]*)*)", line)
        if in_options and match:
            names.update(name.strip(",") for name in match.group(1).split(", "))
    return names


def help_subcommands(arguments: list[str]) -> list[str]:
    text = output(arguments + ["--help"])
    if "\nSUBCOMMANDS:\n" not in text:
        return []
    block = text.split("\nSUBCOMMANDS:\n", 1)[1].split("\n\n", 1)[0]
    return [match.group(1) for match in re.finditer(r"^  (\S+)", block, re.M)]


def help_tree(arguments: list[str], command: dict) -> list[tuple[list[str], dict, bool]]:
    """Every subcommand that --help names, under groups too (`lprojctl po
    export`): its words after the program, its part of the parser's JSON,
    and whether it is a group of commands."""
    subcommands = help_subcommands(arguments)
    dumped = {sub["commandName"]: sub for sub in command.get("subcommands") or [] if sub["commandName"] != "help"}
    assert set(subcommands) == set(dumped), f"the subcommands of `{' '.join(arguments)} --help` and of --experimental-dump-help differ"
    tree = []
    for subcommand in subcommands:
        nested = help_tree(arguments + [subcommand], dumped[subcommand])
        tree.append((arguments[1:] + [subcommand], dumped[subcommand], bool(nested)))
        tree += nested
    return tree


def test_the_pages_are_fresh(tmp_path):
    """man/generate writes, from these programs, the bytes checked in."""
    arguments = [str(MAN / "generate"), str(tmp_path)] + [f"{name}={program(name)}" for name in PROGRAMS]
    output(arguments)
    stale = [page for page in ALL_PAGES if (tmp_path / page).read_bytes() != (MAN / page).read_bytes()]
    assert not stale, f"stale manual pages, written again by `make man`: {stale}"
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(ALL_PAGES)


@pytest.mark.parametrize("page", ALL_PAGES)
def test_a_page_has_its_name_section_and_the_programs_version(page):
    name, section_number = page.rsplit(".", 1)
    title = next(line for line in (MAN / page).read_text(encoding="utf-8").split("\n") if line.startswith(".TH "))
    assert title.startswith(f".TH {name.upper()} {section_number} "), title
    assert f'"lprojd {version()}"' in title, title
    assert section_number == ("8" if name == "lprojd" else "5" if name == "lprojd.conf" else "1")


@pytest.mark.parametrize("page", ALL_PAGES)
def test_groff_renders_a_page_without_a_warning(page):
    result = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", "-rCHECKSTYLE=3", str(MAN / page)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    environment = {**os.environ, "MANWIDTH": "80"}
    shown = subprocess.run(["man", "-l", str(MAN / page)], capture_output=True, text=True, env=environment, check=False)
    assert shown.returncode == 0 and "NAME" in shown.stdout, shown.stderr


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_command_page_names_every_option_of_its_help(name):
    """Each option --help lists is in the page's OPTIONS; for lprojctl, each
    subcommand's options are in its own subsection, and every subcommand
    has one and a synopsis line. The options of the parser's JSON, and
    each positional argument's name, are checked the same way."""
    text = rendered(PAGES[name])
    options = section(text, "OPTIONS", "")
    missing = sorted(option for option in help_options([program(name)]) if not names(options, option))
    assert not missing, f"options of `{name} --help` missing from the OPTIONS of {PAGES[name]}: {missing}"
    command = dump(name)
    for argument in command.get("arguments") or []:
        if argument.get("shouldDisplay", True) and argument["kind"] == "positional":
            assert argument["valueName"] in section(text, "ARGUMENTS", ""), argument["valueName"]

    subcommands = help_tree([program(name)], command)
    synopsis = section(text, "SYNOPSIS", "")
    if subcommands:
        said = section(text, "COMMANDS", "").split("\n   ", 1)[0]
        assert all(names(said, option) for option in COMMON), f"COMMANDS does not say that every command takes {COMMON}"
    for words, dumped, is_group in subcommands:
        full = " ".join([name, *words])
        own = section(section(text, "COMMANDS", ""), full, "   ")
        if is_group:
            continue  # run as one of its commands, each checked below
        assert re.search(rf"^\s+{re.escape(full)}(\s|$)", synopsis, re.M), f"no synopsis of {full}"
        # -h, --help and --version, which every command takes, are said once.
        expected = help_options([program(name), *words]) - COMMON
        for argument in dumped.get("arguments") or []:
            if argument.get("shouldDisplay", True) and argument["kind"] != "positional":
                expected |= {("-" if n["kind"] == "short" else "--") + n["name"] for n in argument["names"]} - COMMON
        missing = sorted(option for option in expected if not names(own, option))
        assert not missing, f"options of `{full} --help` missing from its subsection of {PAGES[name]}: {missing}"
        for argument in dumped.get("arguments") or []:
            if argument.get("shouldDisplay", True) and argument["kind"] == "positional":
                value = argument["valueName"]
                assert re.search(rf"^\s+{re.escape(value)}", own, re.M), f"{full}: no paragraph for {value}"


def test_install_puts_the_pages_and_the_completions_where_man_and_the_shells_look(tmp_path):
    """`make install-man install-completions`, staged in DESTDIR under
    PREFIX=/usr as a Debian package would be; each completion script is
    valid in its shell (zsh's and fish's where they are installed)."""
    binaries = Path(program("lprojd")).parent
    stage = tmp_path / "stage"
    targets = ["install-man", "install-completions"]
    output(["make", "-s", "-C", str(REPOSITORY), *targets, f"DESTDIR={stage}", "PREFIX=/usr", f"BUILD_DIR={binaries}"])
    share = stage / "usr/share"
    for page in ALL_PAGES:
        installed = share / "man" / f"man{page.rsplit('.', 1)[1]}" / page
        assert installed.read_bytes() == (MAN / page).read_bytes(), installed
    for name in ("lprojd", "lprojctl"):
        bash = share / "bash-completion/completions" / name
        zsh = share / "zsh/vendor-completions" / f"_{name}"
        fish = share / "fish/vendor_completions.d" / f"{name}.fish"
        for script in (bash, zsh, fish):
            assert script.stat().st_size > 0 and oct(script.stat().st_mode & 0o777) == "0o644", script
        assert "--version" in bash.read_text(encoding="utf-8"), bash
        output(["bash", "-n", str(bash)])
        # Loaded, it completes the program's options.
        loaded = output(["bash", "-c", f'source "{bash}" && complete -p {name}'])
        assert name in loaded, loaded
        assert zsh.read_text(encoding="utf-8").startswith(f"#compdef {name}"), zsh
        if shutil.which("zsh"):
            output(["zsh", "-n", str(zsh)])
        if shutil.which("fish"):
            output(["fish", "--no-execute", str(fish)])
    assert "select" in (share / "bash-completion/completions/lprojctl").read_text(encoding="utf-8")
