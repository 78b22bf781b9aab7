"""The panel's window: one row per app, its language chosen from a list, kept live by lprojd's events."""

from __future__ import annotations

from typing import Any

import gi

gi.require_version("Adw", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Adw, Gio, GLib, Gtk  # noqa: E402

SYSTEM = "Use the system language"


def app_identity(client: str) -> tuple[str, Gio.Icon | None]:
    """An app's name and icon from its desktop file (`client`.desktop, GNOME's convention); the client id without one."""
    try:
        info = Gio.DesktopAppInfo.new(client + ".desktop")
    except (TypeError, GLib.Error):
        info = None
    if info is None:
        return client, None
    return info.get_name() or client, info.get_icon()


def language_label(name: dict[str, Any]) -> str:
    """A language in its own name, and in the panel's when that differs."""
    if name["nativeName"] == name["name"]:
        return name["nativeName"]
    return f"{name['nativeName']} — {name['name']}"


class AppRow(Adw.ComboRow):
    """One app: its icon and name, the language in effect and why, and the list to choose another from."""

    def __init__(self, client: str, on_choice):
        name, icon = app_identity(client)
        super().__init__(title=name, use_subtitle=False)
        self.client = client
        self.name = name
        self.codes: list[str | None] = []
        self.labels: list[str] = []
        self.locale = ""
        self.reason = ""
        self.bundles: list[str] = []
        self.updating = False
        self._on_choice = on_choice
        # The icon is decoration: the row's name says which app it is.
        image = Gtk.Image(accessible_role=Gtk.AccessibleRole.PRESENTATION, pixel_size=32)
        if icon is not None:
            image.set_from_gicon(icon)
        else:
            image.set_from_icon_name("application-x-executable")
        self.add_prefix(image)
        self.connect("notify::selected", self._chosen)

    def update(self, client: dict[str, Any], bundles: dict[str, dict[str, Any]]) -> None:
        """Shows what lprojd says now, without calling lprojd back."""
        self.bundles = [use["bundle"] for use in client["bundles"]]
        use = client["bundles"][0]
        names = bundles.get(use["bundle"], {"locales": []})["locales"]
        by_code = {name["locale"]: name for name in names}
        self.locale, self.reason = use["locale"], use["reason"]
        shown = by_code.get(self.locale)
        language = language_label(shown) if shown else self.locale
        why = {
            "selected": "chosen for this app",
            "preferred": "the system language",
            "default": "the app's own language",
        }[self.reason]
        self.set_subtitle(f"{language} · {why}")
        codes = [None] + [name["locale"] for name in names]
        labels = [SYSTEM] + [language_label(name) for name in names]
        self.updating = True
        try:
            if codes != self.codes or labels != self.labels:
                self.codes, self.labels = codes, labels
                self.set_model(Gtk.StringList.new(labels))
            index = codes.index(self.locale) if self.reason == "selected" and self.locale in codes else 0
            if self.get_selected() != index:
                self.set_selected(index)
        finally:
            self.updating = False
        # The row's name says what the list chooses; its title label would
        # otherwise be read again after it (AdwActionRow labels the row by it).
        self.reset_relation(Gtk.AccessibleRelation.LABELLED_BY)
        self.update_property(
            [Gtk.AccessibleProperty.LABEL, Gtk.AccessibleProperty.DESCRIPTION],
            [f"Language of {self.name}", f"{language}, {why}"],
        )

    def choose(self, locale: str | None) -> None:
        """What a person does with the list: picks the entry (None: the system language)."""
        self.set_selected(self.codes.index(locale))

    @property
    def chosen_label(self) -> str:
        index = self.get_selected()
        return self.labels[index] if 0 <= index < len(self.labels) else ""

    def _chosen(self, *_):
        if self.updating or not self.codes:
            return
        self._on_choice(self, self.codes[self.get_selected()])


class PanelWindow(Adw.ApplicationWindow):
    """A search field over the list of apps; a status page while lprojd cannot be reached."""

    def __init__(self, application: Adw.Application, on_choice):
        super().__init__(application=application, title="App Languages", default_width=560, default_height=520)
        self.rows: dict[str, AppRow] = {}
        self._on_choice = on_choice

        self.search = Gtk.SearchEntry(placeholder_text="Search apps", hexpand=True)
        self.search.update_property([Gtk.AccessibleProperty.LABEL], ["Search apps"])
        self.search.connect("search-changed", lambda *_: self.list.invalidate_filter())
        header = Adw.HeaderBar(title_widget=Adw.WindowTitle(title="App Languages", subtitle="Each app in the language you choose"))

        self.list = Gtk.ListBox(selection_mode=Gtk.SelectionMode.NONE, css_classes=["boxed-list"])
        self.list.update_property([Gtk.AccessibleProperty.LABEL], ["Apps"])
        self.list.set_sort_func(lambda a, b: (a.name.casefold() > b.name.casefold()) - (a.name.casefold() < b.name.casefold()))
        self.list.set_filter_func(self._matches)
        empty = Gtk.Label(label="No apps use lprojd yet.", margin_top=24, margin_bottom=24, css_classes=["dim-label"])
        self.list.set_placeholder(empty)

        content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_bottom=12,
                          margin_start=12, margin_end=12)
        content.append(self.search)
        content.append(self.list)
        clamp = Adw.Clamp(child=content, maximum_size=640)
        self.scroller = Gtk.ScrolledWindow(child=clamp, vexpand=True)
        self.status = Adw.StatusPage(icon_name="dialog-warning-symbolic", title="lprojd is not running",
                                     description="The panel connects as soon as it starts.")
        self.stack = Gtk.Stack()
        self.stack.add_named(self.scroller, "apps")
        self.stack.add_named(self.status, "offline")

        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(header)
        box.append(self.stack)
        self.set_content(box)
        # Ctrl+F searches, as in GNOME's own apps.
        shortcuts = Gtk.ShortcutController()
        shortcuts.add_shortcut(Gtk.Shortcut.new(
            Gtk.ShortcutTrigger.parse_string("<Control>f"),
            Gtk.CallbackAction.new(lambda *_: self.search.grab_focus() or True)))
        self.add_controller(shortcuts)

    def _matches(self, row: AppRow) -> bool:
        text = self.search.get_text().strip().casefold()
        return not text or text in row.name.casefold() or text in row.client.casefold()

    def show_offline(self, offline: bool) -> None:
        self.stack.set_visible_child_name("offline" if offline else "apps")

    def show_clients(self, reply: dict[str, Any]) -> None:
        """Adds, updates and removes rows in place, so that focus stays where the person left it."""
        bundles = {bundle["bundle"]: bundle for bundle in reply["bundles"]}
        present = set()
        for client in reply["clients"]:
            if not client["bundles"]:
                continue
            present.add(client["client"])
            row = self.rows.get(client["client"])
            if row is None:
                row = AppRow(client["client"], self._on_choice)
                self.rows[client["client"]] = row
                self.list.append(row)
            row.update(client, bundles)
        for client in list(self.rows):
            if client not in present:
                self.list.remove(self.rows.pop(client))
        self.list.invalidate_sort()

    def visible_rows(self) -> list[AppRow]:
        return [row for row in self.rows.values() if self._matches(row)]
