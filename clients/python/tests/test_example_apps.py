"""The terminal apps on the C and Swift localizers (Examples/CDemo, Examples/SwiftDemo) follow a
language chosen in the app, one chosen by another process, an edited table and a restarted lprojd,
without being restarted.

Each app prints what it shows as a JSON line at start and after each change it is told of, and
takes commands on standard input (see their sources). What each must show is what lprojd's Lookup
answers for the same key and locale. The binaries come from `make -C Examples/CDemo` and the
debug build (`swift build`, which `make test` runs first); LPROJD_C_DEMO and LPROJD_SWIFT_DEMO
name others.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from conftest import CHANGE_TIMEOUT
from daemon import REPOSITORY

APPS = {
    "c": Path(os.environ.get("LPROJD_C_DEMO") or REPOSITORY / "Examples" / "CDemo" / "build" / "lprojd-c-demo"),
    "swift": Path(os.environ.get("LPROJD_SWIFT_DEMO") or REPOSITORY / ".build" / "debug" / "lproj-swift-demo"),
}
START_TIMEOUT = 30.0


class TerminalApp:
    """An example app, read through the JSON lines it prints."""

    def __init__(self, binary: Path, socket: str, client: str, log: Path):
        if not binary.exists():
            pytest.fail(f"no example app at {binary}: run `make -C Examples/CDemo` and `swift build`")
        # The C locale: no preferred languages, so the bundle's development locale (en).
        environment = dict(os.environ, LANG="C.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="")
        with open(log, "wb") as errors:
            self.process = subprocess.Popen(
                [str(binary), "--socket", socket, "--client", client],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=environment, text=True,
                encoding="utf-8",
            )
        self.records: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                self.records.put(json.loads(line))
            except json.JSONDecodeError:
                self.records.put({"event": "error", "message": f"not a JSON line: {line!r}"})
        self.records.put(None)

    def command(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for_render(self, locale: str, labels: dict[str, str], reason: str | None = None,
                        timeout: float = CHANGE_TIMEOUT) -> dict:
        """The next render in `locale` showing `labels` (and given `reason`); fails the test after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                record = self.records.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no render in {locale} with {labels} (reason {reason}) within {timeout} s; "
                            f"the app showed: {self.seen[-3:]}")
            assert record is not None, f"the app exited; it showed: {self.seen[-3:]}"
            assert record["event"] != "error", record["message"]
            self.seen.append(record)
            if (record["locale"] == locale and all(record["labels"].get(k) == v for k, v in labels.items())
                    and (reason is None or reason in record["reasons"])):
                return record

    def quit(self) -> None:
        self.command("quit")
        self.process.wait(START_TIMEOUT)


@pytest.mark.parametrize("language", sorted(APPS))
def test_the_app_follows_every_kind_of_change_and_a_restarted_daemon(language, daemon, tmp_path):
    client = f"org.lprojd.{language}-demo.test.{uuid.uuid4().hex[:8]}"
    app = TerminalApp(APPS[language], daemon.socket, client, tmp_path / "app.log")
    try:
        first = app.wait_for_render("en", daemon.demo_labels("en"), timeout=START_TIMEOUT)
        assert first["labels"]["title"] == "Welcome to Demo"

        # 1. The user chooses German in the app itself.
        app.command("select de")
        german = app.wait_for_render("de", daemon.demo_labels("de"), reason="locale")
        assert german["labels"]["files"] == "3 Dateien ausgewählt"

        # 2. Another process selects Russian for the same app, as `lprojctl select` does.
        with daemon.connection() as connection:
            connection.SelectLocale(client=client, bundle="demo", locale="ru")
        russian = app.wait_for_render("ru", daemon.demo_labels("ru"), reason="locale")
        assert russian["labels"]["files"] == "Выбрано: 3 файла"

        # 3. A translator edits the Russian strings.
        strings = daemon.bundle_directory / "ru.lproj" / "Localizable.strings"
        text = strings.read_text(encoding="utf-8")
        assert "Добро пожаловать в Demo" in text
        daemon.write_strings("ru", "Localizable", text.replace("Добро пожаловать в Demo", "Demo: новая версия"))
        app.wait_for_render("ru", {"title": "Demo: новая версия"}, reason="tables")

        # 4. lprojd dies (SIGKILL) and comes back on the same socket: the app keeps its language and
        # strings meanwhile, reconnects, and follows the next selection.
        daemon.stop(signal.SIGKILL)
        daemon.start()
        edited = dict(daemon.demo_labels("ru"), title="Demo: новая версия")
        app.wait_for_render("ru", edited, reason="reconnected", timeout=START_TIMEOUT)
        with daemon.connection() as connection:
            connection.SelectLocale(client=client, bundle="demo", locale="fr")
        app.wait_for_render("fr", daemon.demo_labels("fr"), reason="locale")
        app.quit()
        assert app.process.returncode == 0
    finally:
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
