"""Where the documentation's examples run: the demo daemon as `make demo`
starts it, in a directory of its own, and a shell in which the examples'
commands run one after another, as a reader would type them.

The shell runs in a copy of the repository's layout: every top-level entry
is a link to the repository, but `Examples/DemoApp` is a copy (the examples
edit it) and `.build/debug` holds only the binaries the Makefile names
(LPROJCTL, LPROJD_BINARY, LPROJ_SWIFT_DEMO). XDG_RUNTIME_DIR, HOME and the
XDG directories are the session's own, so that `${XDG_RUNTIME_DIR:-/tmp}/lprojd-demo`
is the test's demo daemon and nothing of the user's is read or written."""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from doc_pages import REPOSITORY

# How long lprojd may take to say READY=1 (a debug build on a loaded machine
# takes seconds), a command to finish, and its output to arrive once it has
# (a background job's may come later than the command's end).
START_TIMEOUT = 60.0
COMMAND_TIMEOUT = 120.0
OUTPUT_TIMEOUT = 10.0
# How long a program that is being typed to may take to show what it shows.
TYPED_TIMEOUT = 30.0

# What ends each command's output in the shell's stream (then taken out).
END = "\x1f"
END_PATTERN = re.compile(END + r"done (\d+)" + END)


def binary(variable: str, default: str) -> Path:
    """A binary the Makefile names in `variable`, else this repository's build."""
    path = Path(os.environ.get(variable) or REPOSITORY / default)
    if not path.exists():
        raise RuntimeError(f"no {path}: build it, or set {variable} (make test-docs sets it)")
    return path


def demo_arguments(socket_path: str, demo_directory: str, repository: str) -> list[str]:
    """lprojd's arguments as the Makefile's `demo` target gives them, for a
    demo directory and a repository of the test's own."""
    makefile = (REPOSITORY / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "the Makefile has no demo target"
    line = next((line for line in recipe.group(1).splitlines() if re.search(r"\blprojd\b", line) and "--" in line), None)
    assert line, "the Makefile's demo target runs no lprojd"
    words = shlex.split(line.strip())
    arguments = words[words.index("lprojd") + 1 :]
    values = {"DEMO_SOCKET": socket_path, "DEMO_DIR": demo_directory, "CURDIR": repository}

    def substitute(match: re.Match) -> str:
        assert match.group(1) in values, f"the demo target uses $({match.group(1)}), which the docs' tests do not know"
        return values[match.group(1)]

    return [re.sub(r"\$\((\w+)\)", substitute, argument) for argument in arguments]


def wait_ready(process: subprocess.Popen, notify: socket.socket, log: Path) -> None:
    """Returns once lprojd said READY=1 on its notify socket."""
    deadline = time.monotonic() + START_TIMEOUT
    # Short receive timeouts only to notice that lprojd exited instead.
    notify.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            message = notify.recv(4096).decode()
        except socket.timeout:
            if process.poll() is not None:
                raise RuntimeError(f"lprojd exited with {process.returncode}:\n{log.read_text(errors='replace')}")
            continue
        if "READY=1" in message.splitlines():
            return
    raise RuntimeError(f"lprojd did not say READY=1 in {START_TIMEOUT} s:\n{log.read_text(errors='replace')}")


class Workspace:
    """A temporary home for one page's examples: the repository's layout
    with a copy of the demo bundle, and the environment they run in."""

    def __init__(self) -> None:
        # Under /tmp: a Unix socket's path has at most 107 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="lprojd-docs-"))
        self.repository = self.root / "lprojd"
        self.runtime = self.root / "run"
        self.demo_directory = self.runtime / "lprojd-demo"
        self.socket = str(self.demo_directory / "org.lprojd.Localization")
        self._lay_out()
        self.environment = self._environment()

    def _lay_out(self) -> None:
        self.repository.mkdir()
        for entry in REPOSITORY.iterdir():
            if entry.name in (".build", ".git", "Examples"):
                continue
            (self.repository / entry.name).symlink_to(entry)
        examples = self.repository / "Examples"
        examples.mkdir()
        for entry in (REPOSITORY / "Examples").iterdir():
            if entry.name == "DemoApp":
                shutil.copytree(entry, examples / entry.name)
            else:
                (examples / entry.name).symlink_to(entry)
        debug = self.repository / ".build" / "debug"
        debug.mkdir(parents=True)
        (debug / "lprojctl").symlink_to(binary("LPROJCTL", ".build/debug/lprojctl"))
        (debug / "lprojd").symlink_to(binary("LPROJD_BINARY", ".build/debug/lprojd"))
        (debug / "lproj-swift-demo").symlink_to(binary("LPROJ_SWIFT_DEMO", ".build/debug/lproj-swift-demo"))
        for directory in ("run", "home", "cache", "config", "state", "snippets", "tmp"):
            (self.root / directory).mkdir(exist_ok=True)
        self.runtime.chmod(0o700)

    def _environment(self) -> dict[str, str]:
        environment = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("LC_", "LPROJD_", "LPROJ_", "LISTEN_", "WATCHDOG_", "NOTIFY_", "XDG_", "PYTHON"))
            and key not in ("LANGUAGE", "LANG", "HOME", "TMPDIR", "LPROJCTL", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "TERM", "COLUMNS")
        }
        environment.update(
            HOME=str(self.root / "home"),
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_CACHE_HOME=str(self.root / "cache"),
            XDG_CONFIG_HOME=str(self.root / "config"),
            XDG_STATE_HOME=str(self.root / "state"),
            # mktemp's files go with the workspace.
            TMPDIR=str(self.root / "tmp"),
            # An English session: the localizers take the user's languages
            # from the environment, and C.UTF-8 gives none (the development locale).
            LANG="C.UTF-8",
            # The Python client of this repository, as `pip install ./clients/python` would give it.
            PYTHONPATH=str(self.repository / "clients" / "python" / "src"),
            PYTHONDONTWRITEBYTECODE="1",
            # A terminal such as a reader's, without colours or a pager.
            TERM="xterm-256color",
            NO_COLOR="1",
            PAGER="cat",
            SYSTEMD_PAGER="cat",
            SYSTEMD_COLORS="0",
        )
        return environment

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class Daemon:
    """The demo daemon: the real lprojd, with the demo target's arguments."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.log = workspace.root / "lprojd.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        arguments = demo_arguments(
            self.workspace.socket, str(self.workspace.demo_directory), str(self.workspace.repository)
        )
        self.process = start_lprojd(arguments, self.workspace, self.log)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def start_lprojd(arguments: list[str], workspace: Workspace, log: Path) -> subprocess.Popen:
    """The real lprojd with these arguments, once it said READY=1."""
    notify_path = str(workspace.root / f"notify-{len(list(workspace.root.glob('notify-*')))}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        environment = dict(workspace.environment, NOTIFY_SOCKET=notify_path)
        with open(log, "ab") as output:
            process = subprocess.Popen(
                [str(binary("LPROJD_BINARY", ".build/debug/lprojd")), *arguments],
                cwd=workspace.repository,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_ready(process, notify, log)
        except BaseException:
            process.kill()
            process.wait()
            raise
    return process


class Mismatch(AssertionError):
    pass


@dataclass
class Command:
    """A command of a console block: what to type, what should come back
    (with `…` elisions), and lines typed while it runs."""

    text: str
    expected: list[str]
    typed: list[str]


def expected_pattern(lines: list[str]) -> re.Pattern:
    """Expected output as a pattern: `…` in a line stands for any text in
    it, and a line of only `…` for any number of lines. Trailing spaces do
    not count."""
    parts = []
    for line in lines:
        line = line.rstrip()
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[^\n]*?".join(re.escape(piece) for piece in line.split("…")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def normalized(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


class Shell:
    """bash, fed one command at a time, with everything it and its
    background jobs write (stdout and stderr, as a terminal shows them)."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        # Output goes to a terminal, as a reader's does: programs then write
        # stdout a line at a time (through a pipe, C's stdio and Python hold
        # it until they exit, after what they wrote to stderr). The terminal
        # writes newlines as they are (no \r), and commands still come
        # through a pipe, so bash stays a non-interactive shell.
        self.terminal, terminal = os.openpty()
        attributes = termios.tcgetattr(terminal)
        attributes[1] &= ~termios.OPOST
        termios.tcsetattr(terminal, termios.TCSANOW, attributes)
        try:
            self.process = subprocess.Popen(
                ["bash", "--noprofile", "--norc"],
                cwd=workspace.repository,
                env=workspace.environment,
                stdin=subprocess.PIPE,
                stdout=terminal,
                stderr=terminal,
                start_new_session=True,
            )
        finally:
            os.close(terminal)
        self.output = ""
        self.ends: list[tuple[int, int]] = []  # (position in output, exit status)
        self.consumed = 0
        self.ends_before = 0
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.fifos = 0

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(self.terminal, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            with self.changed:
                while pending:
                    start = pending.find(END)
                    if start < 0:
                        self.output += pending
                        pending = ""
                        break
                    self.output += pending[:start]
                    pending = pending[start:]
                    match = END_PATTERN.match(pending)
                    if not match:
                        break  # the rest of the marker is yet to come
                    if self.output and not self.output.endswith("\n"):
                        self.output += "\n"
                    self.ends.append((len(self.output), int(match.group(1))))
                    pending = pending[match.end() :]
                self.changed.notify_all()
            if not chunk:
                return

    def run(self, command: Command) -> None:
        """Runs a command and checks its output; raises Mismatch."""
        assert self.process.stdin is not None
        ends_before = self.ends_before = len(self.ends)
        fifo = None
        if command.typed:
            self.fifos += 1
            fifo = str(self.workspace.root / f"typed-{self.fifos}")
            os.mkfifo(fifo)
            redirect = shlex.quote(fifo)
        else:
            redirect = "/dev/null"
        self.process.stdin.write(
            f"{{ {command.text}\n}} < {redirect}\nprintf '{END}done %d{END}' $?\n".encode()
        )
        self.process.stdin.flush()
        if fifo is None:
            self._wait_end(command, ends_before)
            self._expect(command, command.expected, OUTPUT_TIMEOUT)
            return
        # Each line is typed once what comes before it has been shown; the
        # end of input follows what the last one shows.
        writer = os.open(fifo, os.O_RDWR)
        try:
            segments = split_typed(command)
            for index, segment in enumerate(segments):
                self._expect(command, segment, TYPED_TIMEOUT)
                if index < len(command.typed):
                    os.write(writer, (command.typed[index] + "\n").encode())
        finally:
            os.close(writer)
        self._wait_end(command, ends_before)
        self._expect(command, [], OUTPUT_TIMEOUT)

    def _wait_end(self, command: Command, ends_before: int) -> None:
        deadline = time.monotonic() + COMMAND_TIMEOUT
        with self.changed:
            while len(self.ends) <= ends_before:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise Mismatch(
                        f"$ {command.text}\ndid not finish in {COMMAND_TIMEOUT:.0f} s; its output so far:\n"
                        + self.output[self.consumed :]
                    )
                self.changed.wait(left)

    def _expect(self, command: Command, expected: list[str], timeout: float) -> None:
        """Waits until the output since the last match is `expected`."""
        pattern = expected_pattern(expected)
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                complete = self.output[self.consumed : self.output.rfind("\n") + 1]
                text = normalized(complete) if complete else ""
                match = pattern.fullmatch(text)
                if match:
                    self.consumed += len(complete)
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
            got = self.output[self.consumed :]
            # What did not match is this command's: the next starts afresh.
            self.consumed = len(self.output)
        expected_text = "".join(line + "\n" for line in expected)
        ended = self.ends[self.ends_before :]
        status = f" (exit status {ended[0][1]})" if ended else ""
        raise Mismatch(f"$ {command.text}\nexpected:\n{indent(expected_text)}got{status}:\n{indent(got)}")

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.reader.join(10)
        os.close(self.terminal)


def split_typed(command: Command) -> list[list[str]]:
    """The expected output cut at the lines typed: one part more than lines."""
    segments: list[list[str]] = [[]]
    typed = list(command.typed)
    for line in command.expected:
        if typed and line.rstrip() == typed[0]:
            typed.pop(0)
            segments.append([])
        else:
            segments[-1].append(line)
    if typed:
        raise Mismatch(f"$ {command.text}\nthe lines to type {typed!r} are not in the example's transcript")
    return segments


def indent(text: str) -> str:
    if not text:
        return "    (nothing)\n"
    return "".join("    " + line + "\n" for line in text.splitlines())
