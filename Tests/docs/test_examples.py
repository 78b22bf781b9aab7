"""Every example of the README, of docs/ and of the examples' READMEs is run,
or checked against the file it is taken from, or says why it is not.

How a fenced block is treated depends on its language and on the marker,
an HTML comment on the line right above it (docs/development.md has the
whole convention):

- ```console: a session. `$ ` starts a command (a line ending in `\\`
  continues it); the lines up to the next command are its output, where
  `…` stands for any text within a line and a line of only `…` for any
  number of lines. The commands run in one shell per page, in order, in a
  copy of the repository's layout, against the demo daemon started as
  `make demo` starts it. `<!-- example: typed: LINE; LINE -->` says which
  lines of a transcript the reader types while the command runs.
- ```python: a script, run in the same shell (`python3 FILE`), whose output
  is the next block, marked `<!-- example: output -->`, or nothing.
- `<!-- example: excerpt of PATH -->`: the block's lines appear in PATH, in
  order; a line of only `…` (or `// …`, `/* … */`, `# …`) skips lines.
- `<!-- example: configuration -->`: lprojd starts with this configuration.
- `<!-- example: synopsis -->`: each `lprojctl` line names a subcommand and
  options that `lprojctl SUBCOMMAND --help` knows, and every subcommand has
  a line.
- `<!-- example: not run: REASON -->`: not run, for the reason given.

Any other block fails the test: every example either runs or says why not."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from doc_pages import REPOSITORY, Block, blocks, name, pages
from doc_session import Command, Daemon, Mismatch, Shell, Workspace, binary, start_lprojd

SESSION_LANGUAGES = {"console", "python"}
# At most this many blocks may be left unrun: each is an example that can
# go stale unseen.
MOST_NOT_RUN = 10


@dataclass
class Kind:
    name: str  # console, python, output, excerpt, configuration, synopsis, not-run
    argument: str = ""


def kind(block: Block) -> Kind:
    """What the tests do with a block; raises ValueError for a block that
    neither runs nor says why."""
    marker = block.marker
    if marker is None:
        if block.language in SESSION_LANGUAGES:
            return Kind(block.language)
        raise ValueError(
            f"{block.where}: a ```{block.language or '(no language)'} block with no marker: "
            "make it a ```console or ```python example, or mark it "
            "(<!-- example: excerpt of PATH -->, <!-- example: not run: REASON -->, …)"
        )
    if marker == "output":
        return Kind("output")
    if marker == "configuration":
        return Kind("configuration")
    if marker == "synopsis":
        return Kind("synopsis")
    match = re.fullmatch(r"typed:\s*(.+)", marker)
    if match:
        if block.language != "console":
            raise ValueError(f"{block.where}: 'typed:' is for ```console blocks")
        return Kind("console", match.group(1))
    match = re.fullmatch(r"excerpt of\s+(\S+)", marker)
    if match:
        return Kind("excerpt", match.group(1))
    match = re.fullmatch(r"not run:\s*(.*)", marker)
    if match:
        if len(match.group(1).split()) < 3:
            raise ValueError(f"{block.where}: 'not run:' needs a reason a reader can follow")
        return Kind("not-run", match.group(1))
    raise ValueError(f"{block.where}: unknown marker <!-- example: {marker} -->")


def every_block() -> list[Block]:
    return [block for page in pages() for block in blocks(page)]


def blocks_of(kind_name: str) -> list[Block]:
    found = []
    for block in every_block():
        try:
            if kind(block).name == kind_name:
                found.append(block)
        except ValueError:
            pass
    return found


def ids(found: list[Block]) -> list[str]:
    return [block.where for block in found]


# Static checks


def test_every_block_runs_or_says_why():
    problems = []
    for page in pages():
        previous: Block | None = None
        for block in blocks(page):
            try:
                this = kind(block)
            except ValueError as error:
                problems.append(str(error))
                previous = block
                continue
            if this.name == "output" and (previous is None or previous.language != "python" or previous.marker):
                problems.append(f"{block.where}: an output block must follow a ```python example")
            previous = block
    assert not problems, "\n".join(problems)


def test_few_blocks_are_not_run():
    left = blocks_of("not-run")
    listing = "\n".join(f"  {block.where}: {kind(block).argument}" for block in left)
    assert len(left) <= MOST_NOT_RUN, f"{len(left)} blocks are not run (at most {MOST_NOT_RUN}):\n{listing}"


def test_the_demos_socket_has_its_fallback():
    """`make demo` puts its socket under /tmp where XDG_RUNTIME_DIR is unset:
    an example that writes `$XDG_RUNTIME_DIR/lprojd-demo` alone names no
    socket there (and the Swift demo then shows raw keys)."""
    problems = [
        f"{block.where}: {line.strip()}"
        for block in every_block()
        for line in block.lines
        if re.search(r"\$\{?XDG_RUNTIME_DIR\}?/lprojd-demo", line)
    ]
    assert not problems, "write ${XDG_RUNTIME_DIR:-/tmp}/lprojd-demo, as the Makefile does:\n" + "\n".join(problems)


def test_binaries_are_the_builds_the_examples_make():
    """`make demo` builds the debug products (.build/debug). A path to
    another build belongs only in a block that makes it."""
    problems = []
    for block in every_block():
        for line in block.lines:
            for build in re.findall(r"\.build/(?:\w+/)*?(release|static)/", line):
                if not re.search(r"make (release|bench)|-c release", block.text):
                    problems.append(f"{block.where}: {line.strip()} (.build/{build} is not what `make demo` builds)")
    assert not problems, "\n".join(problems)


# Excerpts, configurations, synopses


ELISION = re.compile(r"^\s*(…|//\s*…|/\*\s*…\s*\*/|#\s*…)\s*$")


@pytest.mark.parametrize("block", blocks_of("excerpt"), ids=ids(blocks_of("excerpt")))
def test_an_excerpt_is_in_its_file(block):
    path = REPOSITORY / kind(block).argument
    assert path.is_file(), f"{block.where}: no file {kind(block).argument}"
    source = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    runs: list[list[str]] = [[]]
    for line in block.lines:
        if ELISION.match(line):
            runs.append([])
        else:
            runs[-1].append(line.strip())
    position = 0
    for run in runs:
        if not run:
            continue
        found = next(
            (start for start in range(position, len(source) - len(run) + 1) if source[start : start + len(run)] == run),
            None,
        )
        assert found is not None, (
            f"{block.where}: these lines are not in {kind(block).argument} (after line {position}), in this order:\n"
            + "\n".join("    " + line for line in run)
        )
        position = found + len(run)


@pytest.mark.parametrize("block", blocks_of("configuration"), ids=ids(blocks_of("configuration")))
def test_lprojd_starts_with_a_configuration(block):
    workspace = Workspace()
    try:
        configuration = workspace.root / "lprojd.conf"
        configuration.write_text(block.text, encoding="utf-8")
        log = workspace.root / "configuration.log"
        process = start_lprojd(
            ["--config", str(configuration), "--socket", str(workspace.root / "configured.sock"),
             "--state-directory", str(workspace.root / "configured-state")],
            workspace, log,
        )  # fmt: skip
        process.terminate()
        process.wait(30)
    finally:
        workspace.close()


@pytest.mark.parametrize("block", blocks_of("synopsis"), ids=ids(blocks_of("synopsis")))
def test_a_synopsis_is_what_lprojctl_knows(block):
    lprojctl = str(binary("LPROJCTL", ".build/debug/lprojctl"))
    overview = subprocess.run([lprojctl, "--help"], capture_output=True, text=True, timeout=60).stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]+)\s", overview.split("SUBCOMMANDS:")[1], re.MULTILINE)
    listed: set[str] = set()
    problems = []
    current = None
    forms: list[tuple[str, str]] = []  # (subcommand, what the line says of it)
    for line in block.lines:
        if not line.strip():
            continue
        if line.startswith("lprojctl "):
            for form in line[len("lprojctl "):].split(" | "):
                current = form.split()[0]
                forms.append((current, form))
        elif current is not None:
            forms.append((current, line))  # the line above, continued
        else:
            problems.append(f"{line.strip()}: not a lprojctl line")
    helps: dict[str, str] = {}
    for subcommand, form in forms:
        listed.add(subcommand)
        if subcommand not in subcommands:
            problems.append(f"{subcommand}: lprojctl has no such subcommand")
            continue
        # A command of commands (`po export`): its own command's help.
        words = form.split()
        command = [subcommand]
        if subcommand not in helps:
            helps[subcommand] = subprocess.run(
                [lprojctl, subcommand, "--help"], capture_output=True, text=True, timeout=60
            ).stdout
            if subcommand == "extract":
                helps[subcommand] += extract_options()
        if "SUBCOMMANDS:" in helps[subcommand] and len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*", words[1]):
            command = [subcommand, words[1]]
            key = " ".join(command)
            if key not in helps:
                helps[key] = subprocess.run([lprojctl, *command, "--help"], capture_output=True, text=True, timeout=60).stdout
        help_text = helps[" ".join(command)]
        for option in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", form):
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text):
                problems.append(f"{' '.join(command)} {option}: not in `lprojctl {' '.join(command)} --help`")
    for subcommand in subcommands:
        if subcommand != "help" and subcommand not in listed:
            problems.append(f"{subcommand}: lprojctl has it, the synopsis does not")
    assert not problems, f"{block.where}:\n" + "\n".join(problems)


def extract_options() -> str:
    """The options of lproj-extract, which `lprojctl extract` hands its
    arguments to: it is a package of its own (Extract/), not built by the
    tests, so they are read from its declarations."""
    found = []
    for path in (REPOSITORY / "Extract" / "Sources" / "lproj-extract").glob("*.swift"):
        # A declaration may span lines (`@Option(\n name: …,\n help: …)\n var x`).
        for declaration in re.finditer(r"@(?:Option|Flag)\((.*?)\)\s*var (\w+)", path.read_text(encoding="utf-8"), re.S):
            arguments, name = declaration.groups()
            long = re.search(r'customLong\("([^"]+)"\)', arguments)
            found.append("--" + (long.group(1) if long else re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()))
            if "shortAndLong" in arguments:
                found.append("-" + name[0])
    return "\n" + " ".join(found)


# The sessions


def commands(block: Block, typed: str) -> list[Command]:
    """A console block's commands, each with its transcript."""
    found: list[Command] = []
    lines = list(block.lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("$ "):
            if not found:
                raise Mismatch(f"{block.where}: a console block starts with a command (`$ `), not {line!r}")
            found[-1].expected.append(line)
            index += 1
            continue
        text = [line[2:]]
        while text[-1].endswith("\\") and index + 1 < len(lines):
            index += 1
            text.append(lines[index])
        found.append(Command("\n".join(text), [], []))
        index += 1
    if typed:
        # Typed lines belong to the command whose transcript has them.
        wanted = [line.strip() for line in typed.split(";")]
        for command in found:
            while wanted and wanted[0] in (line.rstrip() for line in command.expected):
                command.typed.append(wanted.pop(0))
        if wanted:
            raise Mismatch(f"{block.where}: the lines to type {wanted!r} are in no transcript")
    return found


def session_pages() -> list[Path]:
    return [page for page in pages() if blocks_of_page(page)]


def blocks_of_page(page: Path) -> list[Block]:
    found = []
    for block in blocks(page):
        try:
            if kind(block).name in SESSION_LANGUAGES:
                found.append(block)
        except ValueError:
            pass
    return found


def python_output(page: Path, block: Block) -> list[str]:
    """The output block right after a python block, if there is one."""
    following = [later for later in blocks(page) if later.line > block.line]
    if following and following[0].marker == "output":
        return following[0].lines
    return []


@pytest.mark.parametrize("page", session_pages(), ids=[name(page) for page in session_pages()])
def test_the_examples_of_a_page(page):
    workspace = Workspace()
    daemon = Daemon(workspace)
    shell = None
    failures = []
    try:
        daemon.start()
        shell = Shell(workspace)
        for number, block in enumerate(blocks_of_page(page)):
            this = kind(block)
            try:
                if this.name == "python":
                    script = workspace.root / "snippets" / f"example-{number}.py"
                    script.write_text(block.text, encoding="utf-8")
                    shell.run(Command(f"python3 {script}", python_output(page, block), []))
                else:
                    for command in commands(block, this.argument):
                        shell.run(command)
            except Mismatch as mismatch:
                failures.append(f"{block.where}:\n{mismatch}")
    finally:
        if shell is not None:
            shell.close()
        daemon.stop()
        if failures:
            failures.append("lprojd's log:\n" + (daemon.log.read_text(errors="replace") if daemon.log.exists() else ""))
        workspace.close()
    assert not failures, "\n\n".join(failures)
