"""The panel as an application: lprojd's calls and events on GTK's main loop.

It stands on lprojd's C library through introspection (gi.repository.Lprojd,
the typelib Lprojd-2.0), as any GNOME app would: a `Lprojd.Connection` for
its calls and another for its subscription, whose replies come on the main
loop; and a `Lprojd.Localizer` of its own bundle (org.lprojd.Panel) for its
own texts, in the language chosen for it (in itself, too), else the
desktop's, else English.
"""

from __future__ import annotations

import argparse
import sys

import gi

gi.require_version("Adw", "1")
gi.require_version("Gtk", "4.0")
gi.require_version("Lprojd", "2.0")
from gi.repository import Adw, Gio, GLib, Lprojd  # noqa: E402

from .window import AppRow, PanelWindow, Texts  # noqa: E402

APP_ID = "org.lprojd.Panel"
# The bundle of the panel's own texts, and the client id its language is saved under.
BUNDLE = APP_ID
RETRY_MS = 1000


class PanelApplication(Adw.Application):
    def __init__(self, socket_path: str | None):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.socket_path = socket_path or Lprojd.default_socket_path()
        self.texts = Texts()
        self.window: PanelWindow | None = None
        self.calls: Lprojd.Connection | None = None
        self.events: Lprojd.Connection | None = None
        self.cancellable = Gio.Cancellable()
        self.refreshing = False
        self.refresh_again = False
        self.retrying = False
        self.localizing = False

    def do_activate(self) -> None:
        if self.window is None:
            self.window = PanelWindow(self, self.texts, self.on_choice)
            self.connect_lprojd()
        self.window.present()

    def do_shutdown(self) -> None:
        self.cancellable.cancel()
        for connection in (self.calls, self.events):
            if connection is not None:
                connection.close()
        Adw.Application.do_shutdown(self)

    # Its own texts

    def make_localizer(self) -> None:
        """Its own texts' localizer, once lprojd answers (it then follows lprojd, even across restarts)."""
        if self.texts.localizer is None and not self.localizing:
            self.localizing = True
            Lprojd.Localizer.new_async(BUNDLE, APP_ID, self.socket_path, self.cancellable, self.on_localizer)

    def on_localizer(self, _source, result) -> None:
        self.localizing = False
        try:
            localizer = Lprojd.Localizer.new_finish(result)
        except GLib.Error as error:
            # No bundle of its own (lprojd serves no org.lprojd.Panel): English.
            print(f"lprojd-panel: its texts are in English: {error.message}", file=sys.stderr)
            return
        self.texts.localizer = localizer
        localizer.connect("changed", lambda *_: self.on_language())
        self.on_language()

    def on_language(self) -> None:
        """The panel's language changed (or came): every text again, the languages named in it."""
        self.window.retranslate()
        self.refresh()

    # lprojd

    def connect_lprojd(self) -> None:
        Lprojd.Connection.new_async(self.socket_path, self.cancellable, self.on_calls_made)

    def on_calls_made(self, _source, result) -> None:
        try:
            self.calls = Lprojd.Connection.new_finish(result)
        except GLib.Error as error:
            self.offline(error.message)
            return
        self.calls.connect("notify::closed", lambda connection, _: connection is self.calls and self.on_lost())
        Lprojd.Connection.new_async(self.socket_path, self.cancellable, self.on_events_made)

    def on_events_made(self, _source, result) -> None:
        try:
            self.events = Lprojd.Connection.new_finish(result)
        except GLib.Error as error:
            self.offline(error.message)
            return
        self.events.connect("subscribe-reply", lambda _, reply: self.on_event(reply.get_event()))
        self.events.connect("stream-ended", lambda connection, _: connection is self.events and self.on_lost())
        # Every event of this user's apps: a subscription without a client.
        self.events.subscribe_async(None, self.cancellable, self.on_subscribed)

    def on_subscribed(self, connection, result) -> None:
        try:
            first = connection.subscribe_finish(result)
        except GLib.Error as error:
            self.offline(error.message)
            return
        self.on_event(first.get_event())

    def offline(self, reason: str) -> None:
        if not self.cancellable.is_cancelled():
            print(f"lprojd-panel: lprojd is not reachable: {reason}", file=sys.stderr)
            self.on_lost()

    def on_lost(self) -> None:
        """lprojd went away (or is not there): the status page, and another try in a second."""
        if self.cancellable.is_cancelled():
            return
        for connection in (self.calls, self.events):
            if connection is not None:
                connection.close()
        self.calls = self.events = None
        self.refreshing = False
        self.window.show_offline(True)
        if not self.retrying:
            self.retrying = True
            GLib.timeout_add(RETRY_MS, self.retry)

    def retry(self) -> bool:
        self.retrying = False
        self.connect_lprojd()
        return GLib.SOURCE_REMOVE

    def on_event(self, event: Lprojd.Event) -> None:
        kind = event.get_kind()
        if kind == Lprojd.EventKind.READY:
            self.window.show_offline(False)
            self.make_localizer()
        if kind in (Lprojd.EventKind.READY, Lprojd.EventKind.LOCALE_CHANGED, Lprojd.EventKind.LOCALES_CHANGED,
                    Lprojd.EventKind.BUNDLE_CHANGED, Lprojd.EventKind.PREFERENCES_CHANGED):
            self.refresh()

    def refresh(self) -> None:
        """Asks for the list again; changes that come meanwhile ask once more after it."""
        if self.refreshing:
            self.refresh_again = True
            return
        if self.calls is None:
            return
        self.refreshing = True
        parameters = Lprojd.ListClientsParameters.new()
        parameters.set_locale(self.texts.locale())
        self.calls.list_clients_async(parameters, self.cancellable, self.on_clients)

    def on_clients(self, connection, result) -> None:
        self.refreshing = False
        try:
            self.window.show_clients(connection.list_clients_finish(result))
        except GLib.Error as error:
            print(f"lprojd-panel: ListClients failed: {error.message}", file=sys.stderr)
        if self.refresh_again:
            self.refresh_again = False
            self.refresh()

    def on_choice(self, row: AppRow, locale: str | None) -> None:
        """A person chose a language (None: the system's) for an app: every bundle of it, every process of it."""
        if self.calls is None:
            return
        for bundle in row.bundles:
            if locale is None:
                parameters = Lprojd.ResetSelectionParameters.new(row.client, bundle)
                self.calls.reset_selection_async(parameters, self.cancellable, self.on_reset)
            else:
                parameters = Lprojd.SelectLocaleParameters.new(row.client, bundle, locale)
                self.calls.select_locale_async(parameters, self.cancellable, self.on_selected)

    # The event that follows a choice refreshes the list.

    def on_selected(self, connection, result) -> None:
        try:
            connection.select_locale_finish(result)
        except GLib.Error as error:
            print(f"lprojd-panel: the choice was not saved: {error.message}", file=sys.stderr)

    def on_reset(self, connection, result) -> None:
        try:
            connection.reset_selection_finish(result)
        except GLib.Error as error:
            print(f"lprojd-panel: the choice was not forgotten: {error.message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Choose each app's language; apps that use lprojd switch at once.")
    parser.add_argument("--socket", help="lprojd's socket (default: $LPROJD_SOCKET, the user's, the system's)")
    options = parser.parse_args(argv)
    return PanelApplication(options.socket).run([sys.argv[0]])
