"""The panel's window: one row per app, its language chosen from a list, kept live by lprojd's events."""

from __future__ import annotations

import re

import gi

gi.require_version("Adw", "1")
gi.require_version("Gtk", "4.0")
gi.require_version("Lprojd", "2.0")
from gi.repository import Adw, Gio, GLib, Gtk, Lprojd  # noqa: E402

# A `{name}` placeholder, as lprojd reads one (for the English held here when lprojd is away).
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.-]*)\}")


class Texts:
    """The panel's own texts: from its localizer once it has one, else the English written beside each key.

    Called as `texts("key", "English", name=value)`: lproj-extract reads the
    calls (`--routine texts:1,,2`) into panel/Localizations.
    """

    def __init__(self) -> None:
        self.localizer: Lprojd.Localizer | None = None

    def __call__(self, key: str, english: str, **values: str) -> str:
        if self.localizer is not None:
            return self.localizer.lookup_with_placeholders(key, None, english, values)
        return PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), english)

    def locale(self) -> str:
        return self.localizer.get_locale() if self.localizer is not None else "en"


def why(texts: Texts, reason: Lprojd.ClientBundleReason) -> str:
    """Why an app is in the language it is in."""
    if reason == Lprojd.ClientBundleReason.SELECTED:
        return texts("reason.selected", "chosen for this app")
    if reason == Lprojd.ClientBundleReason.PREFERRED:
        return texts("reason.preferred", "the system language")
    return texts("reason.default", "the app's own language")


def app_identity(client: str) -> tuple[str, Gio.Icon | None]:
    """An app's name and icon from its desktop file (`client`.desktop, GNOME's convention); the client id without one."""
    try:
        info = Gio.DesktopAppInfo.new(client + ".desktop")
    except (TypeError, GLib.Error):
        info = None
    if info is None:
        return client, None
    return info.get_name() or client, info.get_icon()


def language_label(name: Lprojd.LocaleName) -> str:
    """A language in its own name, and in the panel's when that differs."""
    if name.get_native_name() == name.get_name():
        return name.get_native_name()
    return f"{name.get_native_name()} — {name.get_name()}"


class AppRow(Adw.ComboRow):
    """One app: its icon and name, the language in effect and why, and the list to choose another from."""

    def __init__(self, client: str, texts: Texts, on_choice):
        name, icon = app_identity(client)
        super().__init__(title=name, use_subtitle=False)
        self.client = client
        self.name = name
        self.texts = texts
        self.codes: list[str | None] = []
        self.labels: list[str] = []
        self.locale = ""
        self.reason: Lprojd.ClientBundleReason | None = None
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

    def update(self, client: Lprojd.Client, bundles: dict[str, Lprojd.ClientBundleLocales]) -> None:
        """Shows what lprojd says now, without calling lprojd back."""
        uses = client.get_bundles()
        self.bundles = [use.get_bundle() for use in uses]
        use = uses[0]
        known = bundles.get(use.get_bundle())
        names = known.get_locales() if known is not None else []
        by_code = {name.get_locale(): name for name in names}
        self.locale, self.reason = use.get_locale(), use.get_reason()
        shown = by_code.get(self.locale)
        language = language_label(shown) if shown else self.locale
        reason = why(self.texts, self.reason)
        self.set_subtitle(self.texts("row.subtitle", "{language} · {why}", language=language, why=reason))
        codes = [None] + [name.get_locale() for name in names]
        labels = [self.texts("language.system", "Use the system language")] + [language_label(name) for name in names]
        self.updating = True
        try:
            if codes != self.codes or labels != self.labels:
                self.codes, self.labels = codes, labels
                self.set_model(Gtk.StringList.new(labels))
            selected = self.reason == Lprojd.ClientBundleReason.SELECTED
            index = codes.index(self.locale) if selected and self.locale in codes else 0
            if self.get_selected() != index:
                self.set_selected(index)
        finally:
            self.updating = False
        # The row's name says what the list chooses; its title label would
        # otherwise be read again after it (AdwActionRow labels the row by it).
        self.reset_relation(Gtk.AccessibleRelation.LABELLED_BY)
        self.update_property(
            [Gtk.AccessibleProperty.LABEL, Gtk.AccessibleProperty.DESCRIPTION],
            [self.texts("row.name", "Language of {app}", app=self.name),
             self.texts("row.description", "{language}, {why}", language=language, why=reason)],
        )

    def _chosen(self, *_):
        if self.updating or not self.codes:
            return
        self._on_choice(self, self.codes[self.get_selected()])


class PanelWindow(Adw.ApplicationWindow):
    """A search field over the list of apps; a status page while lprojd cannot be reached."""

    def __init__(self, application: Adw.Application, texts: Texts, on_choice):
        super().__init__(application=application, default_width=560, default_height=520)
        self.texts = texts
        self.rows: dict[str, AppRow] = {}
        self.offline = False
        self._on_choice = on_choice
        self._last_reply: Lprojd.ListClientsReply | None = None

        self.search = Gtk.SearchEntry(hexpand=True)
        self.search.connect("search-changed", lambda *_: self._searched())
        self.heading = Adw.WindowTitle()
        header = Adw.HeaderBar(title_widget=self.heading)

        self.list = Gtk.ListBox(selection_mode=Gtk.SelectionMode.NONE, css_classes=["boxed-list"])
        self.list.set_sort_func(lambda a, b: (a.name.casefold() > b.name.casefold()) - (a.name.casefold() < b.name.casefold()))
        self.list.set_filter_func(self._filter)
        self.empty = Gtk.Label(margin_top=24, margin_bottom=24, css_classes=["dim-label"])
        self.list.set_placeholder(self.empty)

        content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_bottom=12,
                          margin_start=12, margin_end=12)
        content.append(self.search)
        content.append(self.list)
        clamp = Adw.Clamp(child=content, maximum_size=640)
        self.scroller = Gtk.ScrolledWindow(child=clamp, vexpand=True)
        self.status = Adw.StatusPage(icon_name="dialog-warning-symbolic")
        self.stack = Gtk.Stack()
        self.stack.add_named(self.scroller, "apps")
        self.stack.add_named(self.status, "offline")
        self.show_offline(False)

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
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the window in the panel's language now (its rows too)."""
        texts = self.texts
        title = texts("window.title", "App Languages")
        self.set_title(title)
        self.heading.set_title(title)
        self.heading.set_subtitle(texts("window.subtitle", "Each app in the language you choose"))
        search = texts("search.placeholder", "Search apps")
        self.search.set_property("placeholder-text", search)  # GTK 4.8 has no setter
        self.search.update_property([Gtk.AccessibleProperty.LABEL], [search])
        self.list.update_property([Gtk.AccessibleProperty.LABEL], [texts("list.name", "Apps")])
        self._searched()
        self.status.set_title(texts("offline.title", "lprojd is not running"))
        self.status.set_description(texts("offline.description", "The panel connects as soon as it starts."))
        if self._last_reply is not None:
            self.show_clients(self._last_reply)

    def _searched(self) -> None:
        text = self.search.get_text().strip()
        if text:
            self.empty.set_label(self.texts("search.none", "No app matches “{search}”.", search=text))
        else:
            self.empty.set_label(self.texts("list.empty", "No apps use lprojd yet."))
        self.list.invalidate_filter()

    def _matches(self, row: AppRow) -> bool:
        text = self.search.get_text().strip().casefold()
        return not text or text in row.name.casefold() or text in row.client.casefold()

    def _filter(self, row: AppRow) -> bool:
        # A row the search hides is hidden from screen readers too (GTK 4.8
        # leaves a filtered row in the accessibility tree).
        shown = self._matches(row)
        row.update_state([Gtk.AccessibleState.HIDDEN], [not shown])
        return shown

    def show_offline(self, offline: bool) -> None:
        self.offline = offline
        self.stack.set_visible_child_name("offline" if offline else "apps")
        # The page not shown is hidden from screen readers too (GTK 4.8
        # leaves a stack's other pages in the accessibility tree).
        self.status.update_state([Gtk.AccessibleState.HIDDEN], [not offline])
        self.scroller.update_state([Gtk.AccessibleState.HIDDEN], [offline])

    def show_clients(self, reply: Lprojd.ListClientsReply) -> None:
        """Adds, updates and removes rows in place, so that focus stays where the person left it."""
        self._last_reply = reply
        bundles = {bundle.get_bundle(): bundle for bundle in reply.get_bundles()}
        present = set()
        for client in reply.get_clients():
            if not client.get_bundles():
                continue
            present.add(client.get_client())
            row = self.rows.get(client.get_client())
            if row is None:
                row = AppRow(client.get_client(), self.texts, self._on_choice)
                self.rows[client.get_client()] = row
                self.list.append(row)
            row.update(client, bundles)
        for client in list(self.rows):
            if client not in present:
                self.list.remove(self.rows.pop(client))
        self.list.invalidate_sort()
