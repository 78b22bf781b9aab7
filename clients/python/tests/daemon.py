"""The real lprojd, started for a test on a temporary copy of a bundle."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import varlink

REPOSITORY = Path(__file__).resolve().parents[3]
DEMO_BUNDLE = REPOSITORY / "Examples" / "DemoApp"
INTERFACE = "org.lprojd.Localization"
# How long lprojd may take to start (a release build starts in milliseconds;
# a debug build under a loaded machine much later).
START_TIMEOUT = 30.0


def lprojd_binary() -> Path:
    """LPROJD_BINARY, else the release build in this repository."""
    return Path(os.environ.get("LPROJD_BINARY") or REPOSITORY / ".build" / "release" / "lprojd")


class Daemon:
    """lprojd on `socket`, serving a copy of a bundle at `bundle_directory` as `bundle_name`."""

    def __init__(self, bundle_source: Path = DEMO_BUNDLE, bundle_name: str = "demo", development_locale: str = "en"):
        # Under /tmp, not pytest's deep tmp_path: a Unix socket's path has at most 107 bytes.
        self.directory = Path(tempfile.mkdtemp(prefix="lprojd-py-"))
        self.socket = str(self.directory / "org.lprojd.Localization")
        self.bundle_name = bundle_name
        self.bundle_directory = self.directory / "bundle"
        shutil.copytree(bundle_source, self.bundle_directory)
        self.log_path = self.directory / "lprojd.log"
        self._arguments = [
            str(lprojd_binary()),
            "--socket",
            self.socket,
            "--state-directory",
            str(self.directory / "state"),
            "--bundle",
            f"{bundle_name}={self.bundle_directory}@{development_locale}",
            "--log-level",
            "debug",
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Starts lprojd and returns once it said READY=1 on its notify socket."""
        notify_path = str(self.directory / "notify")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(notify_path)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(notify_path)
            environment = {
                key: value
                for key, value in os.environ.items()
                if key not in ("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID")
            }
            environment["NOTIFY_SOCKET"] = notify_path
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    self._arguments, env=environment, stdout=subprocess.DEVNULL, stderr=log
                )
            deadline = time.monotonic() + START_TIMEOUT
            # Short receive timeouts only to notice that lprojd exited instead of becoming ready.
            notify.settimeout(0.2)
            while time.monotonic() < deadline:
                try:
                    message = notify.recv(4096).decode()
                except socket.timeout:
                    if self.process.poll() is not None:
                        raise RuntimeError(f"lprojd exited with {self.process.returncode}:\n{self.log()}")
                    continue
                if "READY=1" in message.splitlines():
                    return
            raise RuntimeError(f"lprojd did not say READY=1 in {START_TIMEOUT} s:\n{self.log()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops lprojd (SIGKILL: as if it crashed) and waits for it to exit."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(START_TIMEOUT)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A connection of the test's own, through the reference client: another process's view."""
        with varlink.Client(address=f"unix:{self.socket}") as client, client.open(INTERFACE) as connection:
            yield connection

    def demo_labels(self, locale: str) -> dict[str, str]:
        """What the demo apps show in `locale` (title, greeting, settings, menu, three files), as Lookup says."""
        with self.connection() as connection:
            def lookup(key, **parameters):
                return connection.Lookup(bundle=self.bundle_name, key=key, locale=locale, **parameters)["value"]

            return {
                "title": lookup("welcome.title"),
                "greeting": lookup("greeting", placeholders={"name": "Ada"}),
                "settings": lookup("settings.title"),
                "menu.file": lookup("menu.file", table="Menu"),
                "files": lookup("files.selected", arguments=[{"int": 3}]),
            }

    def write_strings(self, locale: str, table: str, text: str) -> None:
        """Replaces a .strings file as editors do: a new file renamed over the old one."""
        path = self.bundle_directory / f"{locale}.lproj" / f"{table}.strings"
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
