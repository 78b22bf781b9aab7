"""The panel as an application: lprojd's calls and events on GTK's main loop.

For tests (a debug channel): LPROJD_PANEL_TRACE=1 prints one JSON line per
state shown ({"event": "shown", "apps": [...]}, and "chose" with what was
sent), and reads commands from standard input, one JSON object a line:
{"command": "choose", "client": ID, "locale": TAG or null} picks the entry
in that app's list as a person does; {"command": "search", "text": ...};
{"command": "screenshot", "path": ...}; {"command": "quit"}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import gi

gi.require_version("Adw", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Adw, Gio, GLib, Gtk  # noqa: E402

from .varlink import Connection, default_socket_path  # noqa: E402
from .window import AppRow, PanelWindow  # noqa: E402

APP_ID = "org.lprojd.Panel"
RETRY_MS = 1000


def display_locale() -> str | None:
    """The panel's own language, as a BCP 47 tag, to name the languages in (None in the C locale)."""
    for name in GLib.get_language_names():
        base = name.split(".", 1)[0].split("@", 1)[0]
        if base and base not in ("C", "POSIX"):
            return base.replace("_", "-")
    return None


class PanelApplication(Adw.Application):
    def __init__(self, socket_path: str):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.socket_path = socket_path
        self.trace = os.environ.get("LPROJD_PANEL_TRACE") == "1"
        self.window: PanelWindow | None = None
        self.calls: Connection | None = None
        self.events: Connection | None = None
        self.refreshing = False
        self.refresh_again = False

    def do_activate(self) -> None:
        if self.window is None:
            self.window = PanelWindow(self, self.on_choice)
            self.window.search.connect("search-changed", lambda *_: self.emit_shown())
            if self.trace:
                GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                                  GLib.IOCondition.IN | GLib.IOCondition.HUP, self.on_command)
            self.connect_lprojd()
        self.window.present()

    # lprojd

    def connect_lprojd(self) -> bool:
        try:
            self.calls = Connection(self.socket_path, on_close=self.on_lost)
            self.events = Connection(self.socket_path, on_close=self.on_lost)
        except GLib.Error as error:
            self.emit_trace({"event": "offline", "reason": error.message})
            self.window.show_offline(True)
            GLib.timeout_add(RETRY_MS, self.connect_lprojd)
            return GLib.SOURCE_REMOVE
        # Every event of this user's apps (a subscription without a client).
        self.events.call("Subscribe", {}, self.on_event, more=True)
        return GLib.SOURCE_REMOVE

    def on_lost(self) -> None:
        for connection in (self.calls, self.events):
            if connection is not None and not connection.closed:
                connection.close()
        if self.calls is None:
            return
        self.calls = self.events = None
        self.window.show_offline(True)
        self.emit_trace({"event": "offline", "reason": "disconnected"})
        GLib.timeout_add(RETRY_MS, self.connect_lprojd)

    def on_event(self, reply: dict[str, Any] | None, error: dict[str, Any] | None) -> None:
        if error is not None:
            return
        kind = reply["event"]["type"]
        if kind == "ready":
            self.window.show_offline(False)
        if kind in ("ready", "localeChanged", "localesChanged", "bundleChanged", "preferencesChanged"):
            self.refresh()

    def refresh(self) -> None:
        """Asks for the list again; changes that come meanwhile ask once more after it."""
        if self.refreshing:
            self.refresh_again = True
            return
        if self.calls is None:
            return
        self.refreshing = True
        self.calls.call("ListClients", {"locale": display_locale()}, self.on_clients)

    def on_clients(self, reply: dict[str, Any] | None, error: dict[str, Any] | None) -> None:
        self.refreshing = False
        if reply is not None:
            self.window.show_clients(reply)
            self.emit_shown()
        if self.refresh_again:
            self.refresh_again = False
            self.refresh()

    def on_choice(self, row: AppRow, locale: str | None) -> None:
        """A person chose a language (None: the system's) for an app: every bundle of it, every process of it."""
        if self.calls is None:
            return
        self.emit_trace({"event": "chose", "client": row.client, "locale": locale})
        for bundle in row.bundles:
            if locale is None:
                self.calls.call("ResetSelection", {"client": row.client, "bundle": bundle}, self.on_changed)
            else:
                self.calls.call("SelectLocale", {"client": row.client, "bundle": bundle, "locale": locale}, self.on_changed)

    def on_changed(self, reply: dict[str, Any] | None, error: dict[str, Any] | None) -> None:
        if error is not None:
            self.emit_trace({"event": "error", "error": error})
        # The event that follows refreshes the list.

    # The debug channel

    def emit_shown(self) -> None:
        if not self.trace:
            return
        rows = self.window.visible_rows()
        self.emit_trace({
            "event": "shown",
            "search": self.window.search.get_text(),
            "apps": [{"client": row.client, "name": row.name, "locale": row.locale, "reason": row.reason,
                      "subtitle": row.get_subtitle(), "chosen": row.chosen_label, "languages": row.labels}
                     for row in sorted(rows, key=lambda row: row.name.casefold())],
        })

    def emit_trace(self, record: dict[str, Any]) -> None:
        if self.trace:
            print(json.dumps(record, ensure_ascii=False), flush=True)

    def on_command(self, channel: GLib.IOChannel, condition: GLib.IOCondition) -> bool:
        line = channel.readline()
        if not line:
            self.quit()
            return GLib.SOURCE_REMOVE
        command = json.loads(line)
        if command["command"] == "choose":
            self.window.rows[command["client"]].choose(command.get("locale"))
        elif command["command"] == "search":
            # As typed: the list is filtered, and shown, on search-changed.
            self.window.search.set_text(command["text"])
        elif command["command"] == "screenshot":
            self.screenshot_after_paint(command["path"])
        elif command["command"] == "quit":
            self.quit()
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE

    def screenshot_after_paint(self, path: str) -> None:
        """Saves the window as a PNG once the next frame is painted (GTK renders it itself)."""
        window = self.window
        clock = window.get_frame_clock()

        def after_paint(*_):
            clock.disconnect(handler)
            GLib.idle_add(save)

        def save():
            paintable = Gtk.WidgetPaintable.new(window)
            snapshot = Gtk.Snapshot()
            paintable.snapshot(snapshot, window.get_width(), window.get_height())
            texture = window.get_renderer().render_texture(snapshot.to_node(), None)
            texture.save_to_png(path)
            self.emit_trace({"event": "screenshot", "path": path})
            return GLib.SOURCE_REMOVE

        handler = clock.connect("after-paint", after_paint)
        window.queue_draw()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Choose each app's language; apps that use lprojd switch at once.")
    parser.add_argument("--socket", help="lprojd's socket (default: $LPROJD_SOCKET, the user's, the system's)")
    options = parser.parse_args(argv)
    return PanelApplication(options.socket or default_socket_path()).run([sys.argv[0]])
