"""Change callbacks on a GLib main loop: they run on the loop's thread, as GTK needs."""

from __future__ import annotations

import threading
import uuid

import pytest

from conftest import CHANGE_TIMEOUT
from lprojd import Localizer

GLib = pytest.importorskip("gi.repository.GLib", reason="PyGObject (gi) is not installed")


def run_loop_until_called(localizer, daemon, locale):
    """Runs a main loop while another process selects `locale`; returns the threads the callback ran on."""
    loop = GLib.MainLoop()
    threads = []

    def on_change(change):
        if "locale" in change.what:
            threads.append(threading.current_thread())
            loop.quit()

    def fail():
        loop.quit()
        pytest.fail(f"no change callback within {CHANGE_TIMEOUT} s")

    def select_elsewhere():
        with daemon.connection() as connection:
            connection.SelectLocale(client=localizer.client, bundle="demo", locale=locale)

    localizer.add_change_callback(on_change)
    # Once the loop runs: the callback must wait for it, not race it.
    GLib.idle_add(lambda: threading.Thread(target=select_elsewhere).start())
    timeout = GLib.timeout_add_seconds(int(CHANGE_TIMEOUT), fail)
    loop.run()
    GLib.source_remove(timeout)
    return threads


@pytest.mark.parametrize("explicit", [True, False], ids=["main_context", "auto"])
def test_callbacks_run_on_the_main_loop(daemon, cache_directory, explicit):
    options = {"main_context": GLib.MainContext.default()} if explicit else {}
    with Localizer(
        "demo", f"org.lprojd.test.{uuid.uuid4().hex[:8]}", daemon.socket, languages=["fr"],
        cache_directory=cache_directory, **options,
    ) as localizer:
        threads = run_loop_until_called(localizer, daemon, "ar")
        assert threads == [threading.main_thread()]
        assert localizer.localized("welcome.title") == "مرحبًا بك في Demo"
