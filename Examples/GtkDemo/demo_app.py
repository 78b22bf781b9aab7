#!/usr/bin/env python3
"""A GTK 4 window whose texts come from lprojd through the Python localizer.

Run it with `run-demo-app` (README.md). For tests: LPROJD_GTK_DEMO_TRACE=1
prints one JSON line per render (every label's text) and reads commands from
standard input (one JSON object a line: {"command": "choose-language",
"locale": "de"}, {"command": "set-count", "count": 5}, {"command": "quit"});
LPROJD_GTK_DEMO_SCREENSHOTS=DIR saves a PNG of the window after each render
is painted, and traces its path.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

from lprojd import Change, LprojdError, Localizer  # noqa: E402

# A fixed moment, so that a screenshot shows the same date every run: 14 November 2023.
SAMPLE_DATE = 1700000000
SAMPLE_NUMBER = 1234567.891


class DemoWindow(Gtk.ApplicationWindow):
    """The demo bundle's strings, a plural count, a number, a date and a language menu."""

    def __init__(self, application: Gtk.Application, localizer: Localizer, trace: bool, screenshots: str | None):
        super().__init__(application=application, default_width=520, default_height=440)
        self.localizer = localizer
        self.trace = trace
        self.screenshots = screenshots
        self.renders = 0
        # Set while the window changes the menu itself, so that only the user's choices call select().
        self.updating_menu = False
        self.locales: list[str] = []

        self.labels: dict[str, Gtk.Label] = {}
        content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=10, margin_top=18, margin_bottom=18,
                          margin_start=18, margin_end=18)
        self.set_child(content)

        self.menu = Gtk.DropDown(model=Gtk.StringList())
        self.menu.connect("notify::selected", self.on_language_chosen)
        self.menu.set_halign(Gtk.Align.END)
        content.append(self.menu)

        content.append(self.add_label("title", css_classes=["title-1"]))
        content.append(self.add_label("greeting"))
        content.append(self.add_label("settings", css_classes=["heading"]))
        menu_row = Gtk.Box(spacing=16, homogeneous=True)
        for name in ("menu.file", "menu.edit", "menu.help"):
            menu_row.append(self.add_label(name))
        content.append(menu_row)

        self.count = Gtk.SpinButton.new_with_range(0, 1000, 1)
        self.count.set_value(3)
        self.count.connect("value-changed", lambda _: self.render("count"))
        count_row = Gtk.Box(spacing=8)
        count_row.append(self.count)
        count_row.append(self.add_label("files", hexpand=True))
        content.append(count_row)
        content.append(self.add_label("inbox"))
        content.append(self.add_label("number"))
        content.append(self.add_label("date"))
        content.append(self.add_label("origin", css_classes=["dim-label"]))

    def add_label(self, name: str, xalign: float = 0.5, **properties) -> Gtk.Label:
        label = Gtk.Label(xalign=xalign, wrap=True, **properties)
        self.labels[name] = label
        return label

    def render(self, reason: str) -> None:
        """Every text again from the localizer; the menu too if the locale or its names changed."""
        localizer = self.localizer
        count = self.count.get_value_as_int()
        texts = {
            "title": localizer.localized("welcome.title"),
            "greeting": localizer.localized("greeting", placeholders={"name": "Ada"}),
            "settings": localizer.localized("settings.title"),
            "menu.file": localizer.localized("menu.file", table="Menu"),
            "menu.edit": localizer.localized("menu.edit", table="Menu"),
            "menu.help": localizer.localized("menu.help", table="Menu"),
            # Plurals and numbers need lprojd's ICU: asked of the daemon, shown as unavailable without it.
            "files": self.ask(lambda: localizer.localized("files.selected", arguments=[count])),
            "inbox": self.ask(lambda: localizer.localized("inbox.unread", arguments=[count])),
            "number": self.ask(lambda: localizer.format("decimal", number=SAMPLE_NUMBER)),
            "date": self.ask(lambda: localizer.format("template", template="yMMMMd", date=SAMPLE_DATE)),
            "origin": f"{localizer.locale} · {localizer.origin}",
        }
        for name, text in texts.items():
            self.labels[name].set_text(text)
        self.set_title(texts["title"])
        self.update_menu()
        self.renders += 1
        self.emit_trace({"event": "render", "render": self.renders, "reason": reason, "locale": localizer.locale,
                         "labels": texts})
        if self.screenshots:
            self.screenshot_after_paint(self.renders)

    @staticmethod
    def ask(lookup) -> str:
        try:
            return lookup()
        except LprojdError as error:
            return f"({type(error).__name__})"

    def update_menu(self) -> None:
        names = self.localizer.supported_locales()
        self.updating_menu = True
        try:
            self.locales = [name.locale for name in names]
            self.menu.set_model(Gtk.StringList.new([
                name.native_name if name.native_name == name.name else f"{name.native_name} — {name.name}"
                for name in names
            ]))
            if self.localizer.locale in self.locales:
                self.menu.set_selected(self.locales.index(self.localizer.locale))
        finally:
            self.updating_menu = False

    def on_language_chosen(self, menu: Gtk.DropDown, _property) -> None:
        if self.updating_menu or menu.get_selected() >= len(self.locales):
            return
        try:
            # The change callback renders, as for a choice made elsewhere.
            self.localizer.select(self.locales[menu.get_selected()])
        except LprojdError as error:
            self.labels["origin"].set_text(f"{self.localizer.locale} · {error}")

    def choose_language(self, locale: str) -> None:
        """What the user does with the menu: selects the entry."""
        self.menu.set_selected(self.locales.index(locale))

    def screenshot_after_paint(self, render: int) -> None:
        """Saves the window as a PNG once the render is on screen."""
        clock = self.get_frame_clock()

        def after_paint(*_):
            clock.disconnect(handler)
            # After the paint has finished, not inside it.
            GLib.idle_add(self.save_screenshot, render)

        handler = clock.connect("after-paint", after_paint)
        self.queue_draw()

    def save_screenshot(self, render: int) -> bool:
        paintable = Gtk.WidgetPaintable.new(self)
        width, height = self.get_width(), self.get_height()
        snapshot = Gtk.Snapshot()
        paintable.snapshot(snapshot, width, height)
        texture = self.get_renderer().render_texture(snapshot.to_node(), None)
        path = os.path.join(self.screenshots, f"render-{render:03d}.png")
        texture.save_to_png(path)
        self.emit_trace({"event": "screenshot", "render": render, "path": path})
        return GLib.SOURCE_REMOVE

    def emit_trace(self, record: dict) -> None:
        if self.trace:
            print(json.dumps(record, ensure_ascii=False), flush=True)


class DemoApplication(Gtk.Application):
    def __init__(self, options: argparse.Namespace):
        # NON_UNIQUE: several demos (and tests) may run at once, with or without a session bus.
        super().__init__(application_id="org.lprojd.GtkDemo", flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.options = options
        self.trace = os.environ.get("LPROJD_GTK_DEMO_TRACE") == "1"
        self.screenshots = os.environ.get("LPROJD_GTK_DEMO_SCREENSHOTS")
        self.window: DemoWindow | None = None
        self.localizer: Localizer | None = None

    def do_activate(self) -> None:
        if self.window is not None:
            self.window.present()
            return
        # Changes come on this main loop, so the window is only touched from its thread.
        self.localizer = Localizer(self.options.bundle, self.options.client, self.options.socket,
                                   on_change=self.on_change, main_context=GLib.MainContext.default())
        self.window = DemoWindow(self, self.localizer, self.trace, self.screenshots)
        self.window.present()
        self.window.render("start")
        if self.trace:
            GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                              GLib.IOCondition.IN | GLib.IOCondition.HUP, self.on_command)

    def do_shutdown(self) -> None:
        if self.localizer is not None:
            self.localizer.close()
        Gtk.Application.do_shutdown(self)

    def on_change(self, change: Change) -> None:
        self.window.render("change:" + ",".join(sorted(change.what)))

    def on_command(self, channel: GLib.IOChannel, condition: GLib.IOCondition) -> bool:
        """One test command a line on standard input; its end quits."""
        line = channel.readline()
        if not line:
            self.quit()
            return GLib.SOURCE_REMOVE
        command = json.loads(line)
        if command["command"] == "choose-language":
            self.window.choose_language(command["locale"])
        elif command["command"] == "set-count":
            self.window.count.set_value(command["count"])
        elif command["command"] == "quit":
            self.quit()
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="lprojd's socket (default: $LPROJD_SOCKET, the user's, the system's)")
    parser.add_argument("--bundle", default="demo", help="the bundle (default: demo)")
    parser.add_argument("--client", default="org.lprojd.GtkDemo", help="the app's client id")
    options = parser.parse_args()
    return DemoApplication(options).run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
