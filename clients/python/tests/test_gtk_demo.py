"""The GTK demo (Examples/GtkDemo) under Xvfb follows the three kinds of change, with screenshots.

Its trace channel (LPROJD_GTK_DEMO_TRACE=1) prints each render's label
texts as a JSON line and takes commands on standard input; each render's
screenshot is kept in LPROJD_TEST_ARTIFACTS (default clients/python/test-artifacts/).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from conftest import CHANGE_TIMEOUT
from daemon import REPOSITORY

DEMO_APP = REPOSITORY / "Examples" / "GtkDemo" / "demo_app.py"
# Starting Xvfb and GTK takes a few seconds on a loaded machine.
START_TIMEOUT = 60.0


def gtk4_available() -> bool:
    try:
        import gi

        gi.require_version("Gtk", "4.0")
        from gi.repository import Gtk  # noqa: F401
    except (ImportError, ValueError):
        return False
    return True


pytestmark = [
    pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is missing (Debian package xvfb)"),
    pytest.mark.skipif(not gtk4_available(), reason="PyGObject with GTK 4 is missing (python3-gi, gir1.2-gtk-4.0)"),
]


@pytest.fixture
def artifacts() -> Path:
    directory = Path(os.environ.get("LPROJD_TEST_ARTIFACTS") or REPOSITORY / "clients" / "python" / "test-artifacts")
    directory = directory / "gtk-demo"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory


class DemoApp:
    """The demo app under xvfb-run, read through its trace channel."""

    def __init__(self, socket: str, client: str, screenshots: Path, log: Path):
        environment = dict(os.environ, LPROJD_GTK_DEMO_TRACE="1", LPROJD_GTK_DEMO_SCREENSHOTS=str(screenshots))
        # The C locale: no preferred languages, so the bundle's development locale (en).
        environment.update(LANG="C.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="", NO_AT_BRIDGE="1")
        with open(log, "wb") as errors:
            self.process = subprocess.Popen(
                ["xvfb-run", "-a", sys.executable, str(DEMO_APP), "--socket", socket, "--client", client],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=environment, text=True,
            )
        self.records: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            if line.startswith("{"):
                self.records.put(json.loads(line))
        self.records.put(None)

    def command(self, **command) -> None:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def wait_for(self, event: str, timeout: float = CHANGE_TIMEOUT, **expected) -> dict:
        """The next trace record of this event whose fields (and labels) match; fails the test after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                record = self.records.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"the demo app did not {event} with {expected} within {timeout} s")
            assert record is not None, "the demo app exited"
            labels = expected.get("labels", {})
            if record["event"] == event and all(record.get(key) == value for key, value in expected.items()
                                                if key != "labels") and all(
                record["labels"].get(name) == text for name, text in labels.items()
            ):
                return record

    def quit(self) -> None:
        self.command(command="quit")
        self.process.wait(START_TIMEOUT)


def expected_labels(daemon, locale: str) -> dict[str, str]:
    """What the window must show in `locale`, as lprojd's Lookup says."""
    with daemon.connection() as connection:
        inbox = connection.Lookup(bundle="demo", key="inbox.unread", locale=locale, arguments=[{"int": 3}])["value"]
    return dict(daemon.demo_labels(locale), inbox=inbox)


def test_the_window_follows_every_kind_of_change(daemon, artifacts, tmp_path):
    client = f"org.lprojd.GtkDemo.test.{uuid.uuid4().hex[:8]}"
    app = DemoApp(daemon.socket, client, tmp_path, artifacts / "demo-app.log")
    try:
        render = app.wait_for("render", START_TIMEOUT, locale="en", labels=expected_labels(daemon, "en"))
        assert render["labels"]["title"] == "Welcome to Demo"
        before = app.wait_for("screenshot", render=render["render"])["path"]

        def keep(step: str, before: str, render: dict) -> str:
            """Keeps the screenshots before and after a step; returns the new one's path."""
            after = app.wait_for("screenshot", render=render["render"])["path"]
            shutil.copy(before, artifacts / f"{step}-before.png")
            shutil.copy(after, artifacts / f"{step}-after.png")
            return after

        # 1. The user chooses German in the app's own menu.
        app.command(command="choose-language", locale="de")
        render = app.wait_for("render", locale="de", labels=expected_labels(daemon, "de"))
        assert render["labels"]["title"] == "Willkommen bei Demo"
        assert render["labels"]["number"] == "1.234.567,891"
        before = keep("1-menu-de", before, render)

        # 2. Another process selects Russian for the same app, as `lprojctl select` does.
        with daemon.connection() as connection:
            connection.SelectLocale(client=client, bundle="demo", locale="ru")
        render = app.wait_for("render", locale="ru", labels=expected_labels(daemon, "ru"))
        assert render["labels"]["files"] == "Выбрано: 3 файла"
        before = keep("2-lprojctl-select-ru", before, render)

        # 3. A translator edits the Russian strings.
        strings = daemon.bundle_directory / "ru.lproj" / "Localizable.strings"
        text = strings.read_text(encoding="utf-8")
        assert "Добро пожаловать в Demo" in text
        daemon.write_strings("ru", "Localizable", text.replace("Добро пожаловать в Demo", "Demo: новая версия"))
        render = app.wait_for("render", locale="ru", labels={"title": "Demo: новая версия"})
        keep("3-edited-strings-ru", before, render)

        # The count asks lprojd for the plural again.
        app.command(command="set-count", count=5)
        app.wait_for("render", labels={"files": "Выбрано: 5 файлов"})
        app.quit()
    finally:
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
