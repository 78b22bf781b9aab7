#!/usr/bin/env python3
"""The localizer through its typelib, from Python (gi.repository.Lprojd), against the real lprojd.

Run by with-lprojd ($LPROJD_SOCKET). Written for Debian 12's PyGObject 3.42, which has no asyncio
integration: every _async call takes a callback and the GLib main loop runs until it comes. Async
construction, a lookup, a plural, a formatted number, an async select, a change made by another
localizer of the same app (notify::locale and `changed`), the language menu, and errors in the
Lprojd.Error domain; then the generated connection: calls of the interface with its boxed types,
the subscription's signal, an error of the interface by its code, notify::closed. Prints TAP; a failure ends the
script non-zero.
"""

import os
import sys

import gi

gi.require_version("Lprojd", "2.0")
from gi.repository import GLib, GObject, Lprojd  # noqa: E402
from tap import TIMEOUT_SECONDS, check, finish, run_until  # noqa: E402

SOCKET = os.environ["LPROJD_SOCKET"]
CLIENT = "org.example.PyGI"


def run(start):
    """Calls start(callback) and runs the main loop until the callback comes; returns its result."""
    loop = GLib.MainLoop()
    outcome = {}

    def callback(source, result, *user_data):
        outcome["source"], outcome["result"] = source, result
        loop.quit()

    def late():
        outcome["late"] = True
        loop.quit()
        return GLib.SOURCE_REMOVE

    timeout = GLib.timeout_add_seconds(TIMEOUT_SECONDS, late)
    start(callback)
    loop.run()
    if "late" in outcome:
        raise AssertionError(f"no callback within {TIMEOUT_SECONDS} s")
    GLib.source_remove(timeout)
    return outcome["source"], outcome["result"]


def new_localizer(bundle="demo"):
    _, result = run(lambda callback: Lprojd.Localizer.new_async(bundle, CLIENT, SOCKET, None, callback))
    return Lprojd.Localizer.new_finish(result)


def call(localizer, method, *arguments):
    """localizer.METHOD_async(*arguments, None, callback), then METHOD_finish."""
    _, result = run(lambda callback: getattr(localizer, f"{method}_async")(*arguments, None, callback))
    return getattr(localizer, f"{method}_finish")(result)




def main():
    localizer = new_localizer()
    check("new_async gives a localizer", isinstance(localizer, Lprojd.Localizer), True)
    check("its locale is the development locale", localizer.props.locale, "en")
    check("the connected property", localizer.props.connected, True)
    check("the client-id property", localizer.props.client_id, CLIENT)
    check("the generation property counts", localizer.props.generation > 0, True)
    check("a lookup from the mirror", localizer.lookup("welcome.title", None, None), "Welcome to Demo")
    check("where it came from", localizer.lookup_source("welcome.title", None), "en")
    check("a missing key gives its default", localizer.lookup("no.such.key", None, "Fallback"), "Fallback")
    check("placeholders", localizer.lookup_with_placeholders("greeting", None, None, {"name": "Ada"}), "Hello, Ada!")

    check("a plural, formatted by lprojd",
          call(localizer, "format", "files.selected", None, GLib.Variant("(x)", (1,)), None), "1 file selected")
    check("a float and a string", call(localizer, "format", "download.progress", None,
                                       GLib.Variant("(ds)", (42.5, "a.zip")), None), "Downloaded 42.5% of a.zip")

    menu = {name.get_locale(): (name.get_name(), name.get_native_name()) for name in localizer.supported_locales()}
    check("the language menu", menu["de"], ("German", "Deutsch"))

    check("select_async", call(localizer, "select", "ru"), True)
    check("applies the locale", localizer.props.locale, "ru")
    check("lookups are in Russian", localizer.lookup("welcome.title", None, None), "Добро пожаловать в Demo")
    check("a Russian plural", call(localizer, "format", "files.selected", None, GLib.Variant("(x)", (22,)), None),
          "Выбрано: 22 файла")
    number = call(localizer, "format_value", "decimal", GLib.Variant("a{sv}", {"number": GLib.Variant("d", 1234.5)}))
    check("a number written the Russian way", number, "1\u00a0234,5")

    # Another localizer of the same app selects French: this one follows.
    other = new_localizer()
    notified, changes = [], []
    localizer.connect("notify::locale", lambda *_: notified.append(localizer.props.locale))
    localizer.connect("changed", lambda _, what: changes.append(int(what)))
    call(other, "select", "fr")
    run_until(lambda: any(what & Lprojd.Change.LOCALE for what in changes), "changed(LOCALE)")
    check("changed says LOCALE, and the locale follows", localizer.props.locale, "fr")
    check("notify::locale came first", notified, ["fr"])
    check("the strings follow", localizer.lookup("welcome.title", None, None), "Bienvenue dans Demo")

    # A property binding, as a GTK label would have it.
    class Label(GObject.Object):
        label = GObject.Property(type=str)

    label = Label()
    localizer.bind_property("locale", label, "label", GObject.BindingFlags.SYNC_CREATE)
    check("a bound property shows the locale", label.props.label, "fr")

    try:
        call(localizer, "select", "not a locale!")
        check("an invalid locale is refused", False, True)
    except GLib.Error as error:
        check("an invalid locale is Lprojd.Error.INVALID_LOCALE",
              error.matches(Lprojd.error_quark(), Lprojd.Error.INVALID_LOCALE), True)
    try:
        new_localizer("no-such-bundle")
        check("an unknown bundle is refused", False, True)
    except GLib.Error as error:
        check("an unknown bundle is Lprojd.Error.BUNDLE_NOT_FOUND",
              error.matches(Lprojd.error_quark(), Lprojd.Error.BUNDLE_NOT_FOUND), True)

    # The blocking variants, from Python too.
    check("select_sync", localizer.select_sync("de", None), True)
    check("format_sync", localizer.format_sync("files.selected", None, GLib.Variant("(x)", (3,)), None, None),
          "3 Dateien ausgewählt")
    check("reset", call(localizer, "reset"), True)
    check("the development locale again", localizer.props.locale, "en")
    connection_calls()


def connection_calls():
    """The generated connection: any method of the interface, its replies typed."""
    _, result = run(lambda callback: Lprojd.Connection.new_async(SOCKET, None, callback))
    connection = Lprojd.Connection.new_finish(result)
    check("Connection.new_async", connection.props.socket_path, SOCKET)
    bundles = call(connection, "list_bundles", None).get_bundles()
    demo = next(bundle for bundle in bundles if bundle.get_name() == "demo")
    check("ListBundles: a bundle's tables", "Menu" in demo.get_tables(), True)
    parameters = Lprojd.LookupParameters.new("demo", "files.selected")
    parameters.set_locale("de")
    argument = Lprojd.Argument.new()
    argument.set_int(2)
    parameters.set_arguments([argument])
    reply = call(connection, "lookup", parameters)
    check("Lookup with an Argument", (reply.get_value(), reply.get_found()), ("2 Dateien ausgewählt", True))
    selection = connection.get_selection_sync(Lprojd.GetSelectionParameters.new(CLIENT, "demo"), None).get_selection()
    check("GetSelection's enum", selection.get_reason(), Lprojd.SelectionReason.DEFAULT)
    try:
        connection.get_table_sync(Lprojd.GetTableParameters.new("no-such-bundle"), None)
        check("an unknown bundle is refused", False, True)
    except GLib.Error as error:
        check("GetTable: BundleNotFound by its code",
              error.matches(Lprojd.error_quark(), Lprojd.Error.BUNDLE_NOT_FOUND), True)

    # A subscription on a connection of its own: ready first, then an event as its signal. A client
    # id of its own: the localizers above (one still follows CLIENT) may save CLIENT's choice meanwhile.
    client = CLIENT + ".Calls"
    _, result = run(lambda callback: Lprojd.Connection.new_async(SOCKET, None, callback))
    subscription = Lprojd.Connection.new_finish(result)
    events = []
    subscription.connect("subscribe-reply", lambda _, reply: events.append(reply.get_event()))
    subscribe = Lprojd.SubscribeParameters.new()
    subscribe.set_client(client)
    subscribe.set_bundle("demo")
    first = call(subscription, "subscribe", subscribe)
    check("Subscribe's first reply", first.get_event().get_kind(), Lprojd.EventKind.READY)
    connection.select_locale_sync(Lprojd.SelectLocaleParameters.new(client, "demo", "ja"), None)
    def to_japanese(event):
        return event.get_kind() == Lprojd.EventKind.LOCALE_CHANGED and event.get_locale() == "ja"

    run_until(lambda: any(to_japanese(event) for event in events), "localeChanged to ja")
    changed = next(event for event in events if to_japanese(event))
    check("the event's client and previous locale", (changed.get_client(), changed.get_previous_locale()), (client, "en"))
    ended = []
    subscription.connect("stream-ended", lambda _, error: ended.append(error))
    subscription.close()
    run_until(lambda: ended, "stream-ended")
    check("closing ends the subscription", ended[0].matches(Lprojd.error_quark(), Lprojd.Error.DISCONNECTED), True)
    connection.reset_selection_sync(Lprojd.ResetSelectionParameters.new(client, "demo"), None)

    # notify::closed comes on the context that made the connection, also for one made with new_sync
    # (which connects in a context of its own).
    made_sync = Lprojd.Connection.new_sync(SOCKET, None)
    closed = []
    made_sync.connect("notify::closed", lambda source, _: closed.append(source.props.closed))
    made_sync.close()
    run_until(lambda: closed, "notify::closed")
    check("notify::closed on the context that made the connection", closed, [True])


if __name__ == "__main__":
    print(f"# PyGObject {'.'.join(map(str, gi.version_info))}, Python {sys.version.split()[0]}", flush=True)
    finish(main)
