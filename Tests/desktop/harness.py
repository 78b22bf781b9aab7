"""What the desktop tests start: the real lprojd, a system bus with accountsservice, and traced apps.

Nothing here sleeps to wait: each wait reads what a process says (its
notify socket, its trace lines, the bus's answer) until a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
DEMO_BUNDLE = REPOSITORY / "Examples" / "DemoApp"
GTK_DEMO = REPOSITORY / "Examples" / "GtkDemo"
PANEL = REPOSITORY / "panel" / "lprojd-panel"
# The panel's own texts, served as the bundle org.lprojd.Panel (what its drop-in file registers when installed).
PANEL_BUNDLE = f"org.lprojd.Panel={REPOSITORY / 'panel' / 'Localizations'}@en"
# The C library's build (make -C clients/c): its typelib and library, for what imports gi.repository.Lprojd.
CLIENT_BUILD = Path(os.environ.get("LPROJD_CLIENT_BUILD") or REPOSITORY / "clients" / "c" / "build")
INTERFACE = "org.lprojd.Localization"
START_TIMEOUT = 60.0
STANDARD_SYSTEM_BUS = "/run/dbus/system_bus_socket"


def lprojd_binary() -> str:
    return os.environ.get("LPROJD_BINARY") or str(REPOSITORY / ".build" / "release" / "lprojd")


def artifacts_directory(name: str) -> Path:
    """Where a test keeps its screenshots: LPROJD_TEST_ARTIFACTS, else Tests/desktop/artifacts."""
    directory = Path(os.environ.get("LPROJD_TEST_ARTIFACTS") or REPOSITORY / "Tests" / "desktop" / "artifacts") / name
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory


class Lprojd:
    """The real lprojd on a temporary socket, serving the demo bundle as `demo` (and `bundles`); its log kept."""

    def __init__(self, system_bus: str | None = None, as_user: int | None = None, bundles: tuple[str, ...] = ()):
        # Under /tmp: a socket's path has at most 107 bytes. World-readable,
        # for the tests that act as another user.
        self.directory = Path(tempfile.mkdtemp(prefix="lprojd-desktop-"))
        os.chmod(self.directory, 0o755)
        self.socket = str(self.directory / INTERFACE)
        self.log_path = self.directory / "lprojd.log"
        self.environment = {key: value for key, value in os.environ.items()
                            if not key.startswith(("LISTEN_", "WATCHDOG_", "NOTIFY_SOCKET"))}
        # Only the bus a test names: never the machine's by chance.
        self.environment["DBUS_SYSTEM_BUS_ADDRESS"] = system_bus or f"unix:path={self.directory}/no-system-bus"
        self.process: subprocess.Popen | None = None
        self.bundles = [argument for bundle in bundles for argument in ("--bundle", bundle)]
        # A user's lprojd (not root's, which is the system's): setpriv runs it as that user, in a directory of theirs.
        self.as_user = as_user
        if as_user is not None:
            os.chown(self.directory, as_user, as_user)

    def start(self) -> Lprojd:
        notify_path = str(self.directory / "notify")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(notify_path)  # a start again, after stop()
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(notify_path)
            os.chmod(notify_path, 0o777)
            wrapper = [] if self.as_user is None else [
                "setpriv", f"--reuid={self.as_user}", f"--regid={self.as_user}", "--clear-groups"]
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    wrapper + [lprojd_binary(), "--socket", self.socket, "--state-directory", str(self.directory / "state"),
                     "--bundle", f"demo={DEMO_BUNDLE}@en", "--drop-in-directory", str(self.directory / "bundles.d"),
                     "--log-level", "debug", *self.bundles],
                    env=dict(self.environment, NOTIFY_SOCKET=notify_path), stdout=subprocess.DEVNULL, stderr=log)
            notify.settimeout(0.2)
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline:
                try:
                    if "READY=1" in notify.recv(4096).decode().splitlines():
                        os.chmod(self.socket, 0o666)
                        return self
                except socket.timeout:
                    if self.process.poll() is not None:
                        raise RuntimeError(f"lprojd exited with {self.process.returncode}:\n{self.log()}")
        raise RuntimeError(f"lprojd was not ready in {START_TIMEOUT} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_for_log(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log():
            if time.monotonic() > deadline:
                raise AssertionError(f"lprojd did not log {text!r}:\n{self.log()}")
            time.sleep(0.02)  # polling the log file, with a deadline

    def call(self, method: str, **parameters: Any) -> dict[str, Any]:
        """One call on a connection of its own (a NUL-framed Varlink message); errors are returned as they come."""
        message = {"method": f"{INTERFACE}.{method}",
                   "parameters": {name: value for name, value in parameters.items() if value is not None}}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(10)
            connection.connect(self.socket)
            connection.sendall(json.dumps(message).encode() + b"\0")
            data = b""
            while not data.endswith(b"\0"):
                chunk = connection.recv(65536)
                if not chunk:
                    raise RuntimeError(f"lprojd closed the connection during {method}")
                data += chunk
        reply = json.loads(data[:-1])
        return reply if "error" in reply else reply["parameters"]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


class Traced:
    """A process that prints one JSON object a line (its trace) and reads commands on stdin."""

    def __init__(self, name: str, arguments: list[str], environment: dict[str, str], log: Path,
                 quit: str = '{"command": "quit"}'):
        self.name = name
        self.quit = quit
        self.log_path = log
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._log = open(log, "ab")
        self.process = subprocess.Popen(arguments, env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self._log, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            line = line.strip()
            if line.startswith("{"):
                self.lines.put(json.loads(line))
        self.lines.put({"event": "exited"})

    def send(self, command: dict[str, Any]) -> None:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = START_TIMEOUT) -> dict[str, Any]:
        """The first trace record from now on that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{self.name} never traced what was awaited; last: {self.seen[-3:]}\n{self.stderr()}")
            try:
                record = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            self.seen.append(record)
            if record.get("event") == "exited":
                raise AssertionError(f"{self.name} exited ({self.process.wait()}):\n{self.stderr()}")
            if predicate(record):
                return record

    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.process.stdin.write(self.quit + "\n")
                self.process.stdin.flush()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def demo_app(socket_path: str, log: Path, environment: dict[str, str] | None = None, screenshots: Path | None = None,
             client: str = "org.lprojd.GtkDemo") -> Traced:
    """The GTK demo (Examples/GtkDemo) on the display the test runs on, with its trace."""
    env = dict(environment or os.environ, LPROJD_GTK_DEMO_TRACE="1", LPROJD_SOCKET=socket_path)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY / "clients" / "python" / "src"), env.get("PYTHONPATH")]))
    if screenshots is not None:
        env["LPROJD_GTK_DEMO_SCREENSHOTS"] = str(screenshots)
    return Traced("the GTK demo", ["python3", str(GTK_DEMO / "demo_app.py"), "--client", client], env, log)


class App:
    """An app as a person starts it: no trace, no commands; what it shows is read from the screen and AT-SPI."""

    def __init__(self, arguments: list[str], environment: dict[str, str], log: Path):
        self._log = open(log, "ab")
        self.log_path = log
        self.process = subprocess.Popen(arguments, env=environment, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=self._log)

    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def with_client_library(environment: dict[str, str]) -> dict[str, str]:
    """`environment` with the C library's build first where GObject introspection and the loader look."""
    env = dict(environment)
    for variable in ("GI_TYPELIB_PATH", "LD_LIBRARY_PATH"):
        env[variable] = os.pathsep.join(filter(None, [str(CLIENT_BUILD), env.get(variable)]))
    return env


def panel(socket_path: str, log: Path, environment: dict[str, str] | None = None) -> App:
    """The panel, through the C library's typelib of this clone."""
    env = with_client_library(dict(environment or os.environ, LPROJD_SOCKET=socket_path))
    return App(["python3", str(PANEL)], env, log)


def screenshot(title: str, path: Path) -> None:
    """An X window's pixels as the screen shows them (GDK 3 reads the root window; xdotool says where it is)."""
    import gi

    gi.require_version("Gdk", "3.0")
    from gi.repository import Gdk

    found = subprocess.run(["xdotool", "search", "--name", f"^{title}$"], capture_output=True, text=True, timeout=30)
    window = found.stdout.split()[0]
    geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True,
                              timeout=30, check=True).stdout
    where = dict(line.split("=", 1) for line in geometry.split())
    x, y, width, height = (int(where[name]) for name in ("X", "Y", "WIDTH", "HEIGHT"))
    Gdk.init([])
    pixels = Gdk.pixbuf_get_from_window(Gdk.get_default_root_window(), x, y, width, height)
    if pixels is None:
        raise AssertionError(f"the window {title!r} could not be read from the screen")
    pixels.savev(str(path), "png", [], [])


class SystemBus:
    """A system bus with accountsservice for uid 0: the real accounts-daemon on the standard address when it is
    free (CI is root), else a python3-dbusmock object with the same interface on a private bus.

    `kind` says which, `address` is the bus's, `set_language` changes root's Language as GNOME Settings does.
    """

    def __init__(self, directory: Path):
        self.directory = directory
        self.started: list[subprocess.Popen | int] = []
        self.kind = ""
        self.address = ""
        self.previous_language: str | None = None
        self.bus_pid: int | None = None

    def busctl(self, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["busctl", f"--address={self.address}", *arguments], capture_output=True, text=True,
                              check=check, timeout=30)

    def start(self, prefer_real: bool = True) -> SystemBus:
        if prefer_real and os.geteuid() == 0 and not self._standard_bus_answers() and shutil.which("dbus-daemon") \
                and os.path.exists("/usr/libexec/accounts-daemon"):
            try:
                self._start_real()
                return self
            except (RuntimeError, subprocess.SubprocessError) as error:
                print(f"the real accounts-daemon did not start ({error}); using python3-dbusmock")
                self.stop()
        self._start_mock()
        return self

    @staticmethod
    def _standard_bus_answers() -> bool:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(STANDARD_SYSTEM_BUS)
                return True
            except OSError:
                return False

    def _wait_for_accounts(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            found = self.busctl("call", "org.freedesktop.Accounts", "/org/freedesktop/Accounts",
                                "org.freedesktop.Accounts", "FindUserById", "x", "0", check=False)
            if found.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"accountsservice does not answer: {found.stderr.strip()}")
            time.sleep(0.05)  # polling the bus, with a deadline

    def _start_real(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(STANDARD_SYSTEM_BUS)
        os.makedirs("/run/dbus", exist_ok=True)
        output = subprocess.run(["dbus-daemon", "--system", "--fork", "--print-pid", "--nopidfile"],
                                capture_output=True, text=True, check=True, timeout=30).stdout
        self.bus_pid = int(output.split()[0])
        self.address = f"unix:path={STANDARD_SYSTEM_BUS}"
        accounts = subprocess.Popen(["/usr/libexec/accounts-daemon"], stdout=subprocess.DEVNULL,
                                    stderr=open(self.directory / "accounts-daemon.log", "ab"))
        self.started.append(accounts)
        self._wait_for_accounts()
        self.kind = "the real accounts-daemon"
        previous = self.busctl("get-property", "org.freedesktop.Accounts", "/org/freedesktop/Accounts/User0",
                               "org.freedesktop.Accounts.User", "Language").stdout.strip()
        # `s "fr_FR.UTF-8"`
        self.previous_language = previous[3:-1] if previous.startswith('s "') else ""

    def start_bus_only(self) -> SystemBus:
        """A private bus with no accountsservice on it (yet: see `start_mock_accounts`), open to every user as
        the system bus is."""
        path = self.directory / "system_bus_socket"
        configuration = self.directory / "bus.conf"
        configuration.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="false"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
""")
        os.chmod(self.directory, 0o755)
        output = subprocess.run(
            ["dbus-daemon", f"--config-file={configuration}", "--fork", "--print-pid", "--nopidfile"],
            capture_output=True, text=True, check=True, timeout=30).stdout
        self.bus_pid = int(output.split()[0])
        self.address = f"unix:path={path}"
        return self

    def start_mock_accounts(self, parameters: dict[str, Any] | None = None) -> SystemBus:
        mock = subprocess.Popen(
            ["/usr/bin/python3", "-m", "dbusmock", "--system", "--template",
             str(Path(__file__).with_name("accounts_template.py")), "--parameters", json.dumps(parameters or {"uids": [0]})],
            env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address), stdout=subprocess.DEVNULL,
            stderr=open(self.directory / "dbusmock.log", "ab"))
        self.started.append(mock)
        self._wait_for_accounts()
        self.kind = "a python3-dbusmock object with accountsservice's interface"
        return self

    def _start_mock(self) -> None:
        self.start_bus_only()
        self.start_mock_accounts()

    def set_language(self, language: str) -> None:
        self.busctl("call", "org.freedesktop.Accounts", "/org/freedesktop/Accounts/User0",
                    "org.freedesktop.Accounts.User", "SetLanguage", "s", language)

    def stop(self) -> None:
        if self.kind.startswith("the real") and self.previous_language is not None:
            with contextlib.suppress(subprocess.SubprocessError):
                self.set_language(self.previous_language)
        polkit = None
        if self.kind.startswith("the real"):
            status = self.busctl("status", "org.freedesktop.PolicyKit1", check=False).stdout
            for line in status.splitlines():
                if line.startswith("PID="):
                    polkit = int(line[4:])
        for process in self.started:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        for pid in (polkit, self.bus_pid):
            if pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
        if self.address == f"unix:path={STANDARD_SYSTEM_BUS}":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(STANDARD_SYSTEM_BUS)
        self.started = []


@contextlib.contextmanager
def running(*things) -> Iterator[None]:
    try:
        yield
    finally:
        for thing in reversed(things):
            thing.close()


class Keyboard:
    """A person's keyboard on one X window (xdotool: the window gets the input focus, then XTest key presses)."""

    def __init__(self, title: str, timeout: float = 30.0):
        found = subprocess.run(["xdotool", "search", "--sync", "--name", f"^{title}$"], capture_output=True, text=True,
                               timeout=timeout)
        if found.returncode != 0 or not found.stdout.split():
            raise AssertionError(f"no X window named {title!r}: {found.stderr}")
        self.window = found.stdout.split()[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], check=True, timeout=timeout)

    def press(self, *keys: str) -> None:
        subprocess.run(["xdotool", "key", "--delay", "20", *keys], check=True, timeout=30)

    def type(self, text: str) -> None:
        subprocess.run(["xdotool", "type", "--delay", "20", text], check=True, timeout=30)


AS_ANOTHER_USER = r"""
import json, socket, sys
path, method, parameters = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
    connection.settimeout(10)
    connection.connect(path)
    connection.sendall(json.dumps({"method": "org.lprojd.Localization." + method, "parameters": parameters}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
print(data[:-1].decode())
"""


def call_as(uid: int, socket_path: str, method: str, **parameters: Any) -> dict[str, Any]:
    """One call from another user (setpriv; Debian's python3, which any user may run)."""
    finished = subprocess.run(
        ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "/usr/bin/python3", "-c", AS_ANOTHER_USER,
         socket_path, method, json.dumps(parameters)], capture_output=True, text=True, timeout=30, check=True)
    reply = json.loads(finished.stdout)
    return reply if "error" in reply else reply["parameters"]


def eventually(probe: Callable[[], Any], expected: Any, timeout: float = 10.0) -> Any:
    """Polls `probe` (a call to lprojd) until it returns `expected`, with a deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value == expected:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r}, not {expected!r}, after {timeout} s")
        time.sleep(0.02)  # polling lprojd, with a deadline
