#!/usr/bin/env python3
"""Every method of lprojd's interface through the generated Lprojd.Connection, against the real lprojd.

Run by with-lprojd ($LPROJD_SOCKET), through the typelib (the C library's generated calls, their
parameter and reply boxed types, their enums). Each method is called with `_sync`, and each reply
checked against what lprojd must answer for the demo bundle; the streaming Subscribe with `_async`
and its signal. The last check: every `_sync` method the connection has was called here, so that a
method added to the interface is a failing test until it is covered. Prints TAP; a failure ends the
script non-zero.
"""

import os
import re
from pathlib import Path

import gi

gi.require_version("Lprojd", "2.0")
from gi.repository import GLib, Lprojd  # noqa: E402
from tap import check, finish, run_until  # noqa: E402

SOCKET = os.environ["LPROJD_SOCKET"]
INTERFACE = Path(__file__).resolve().parents[4] / "Sources" / "LprojInterface" / "org.lprojd.Localization.varlink"
CLIENT = "org.example.EveryMethod"
called = set()




class Recording:
    """The connection, noting each method called through it."""

    def __init__(self, connection):
        self.connection = connection

    def __getattr__(self, name):
        called.add(name.removesuffix("_sync").removesuffix("_async"))
        return getattr(self.connection, name)




def main():
    connection = Recording(Lprojd.Connection.new_sync(SOCKET, None))

    # Lookups and tables.
    lookup = Lprojd.LookupParameters.new("demo", "welcome.title")
    lookup.set_locale("fr")
    reply = connection.lookup_sync(lookup, None)
    check("Lookup", (reply.get_value(), reply.get_found(), reply.get_locale()), ("Bienvenue dans Demo", True, "fr"))
    table = Lprojd.GetTableParameters.new("demo")
    table.set_table("Menu")
    table.set_locale("de")
    reply = connection.get_table_sync(table, None)
    check("GetTable: its strings", (reply.get_table(), reply.get_locale(), reply.get_strings()["menu.file"]),
          ("Menu", "de", "Ablage"))
    snapshot = Lprojd.GetSnapshotParameters.new("demo")
    snapshot.set_locale("de-AT")
    reply = connection.get_snapshot_sync(snapshot, None)
    with open(reply.get_path(), "rb") as file:
        header = file.read(8)
    check("GetSnapshot: a file to map", (reply.get_locale(), reply.get_size() > 96, header), ("de", True, b"LPROJSNP"))
    reply = connection.list_bundles_sync(None, None)
    check("ListBundles", [bundle.get_name() for bundle in reply.get_bundles()], ["demo"])
    supported = Lprojd.SupportedLocalesParameters.new("demo")
    supported.set_locale("de")
    reply = connection.supported_locales_sync(supported, None)
    names = {name.get_locale(): name.get_name() for name in reply.get_locales()}
    check("SupportedLocales: names in German", (reply.get_display_locale(), names["fr"]), ("de", "Französisch"))

    # A language chosen, read back, forgotten.
    reply = connection.select_locale_sync(Lprojd.SelectLocaleParameters.new(CLIENT, "demo", "ja"), None)
    check("SelectLocale", (reply.get_selection().get_locale(), reply.get_selection().get_reason()),
          ("ja", Lprojd.SelectionReason.SAVED))
    reply = connection.get_selection_sync(Lprojd.GetSelectionParameters.new(CLIENT, "demo"), None)
    check("GetSelection", reply.get_selection().get_locale(), "ja")
    reply = connection.list_clients_sync(None, None)
    clients = {client.get_client(): client for client in reply.get_clients()}
    check("ListClients: the app and its language", clients[CLIENT].get_bundles()[0].get_locale(), "ja")
    reply = connection.reset_selection_sync(Lprojd.ResetSelectionParameters.new(CLIENT, "demo"), None)
    check("ResetSelection", reply.get_selection().get_reason(), Lprojd.SelectionReason.DEFAULT)

    # Negotiation and formatting.
    negotiate = Lprojd.NegotiateParameters.new()
    negotiate.set_available(["en", "de", "pt-BR"])
    negotiate.set_preferred_languages(["pt-PT", "de"])
    negotiate.set_specificity(Lprojd.NegotiateParametersSpecificity.LANGUAGE)
    reply = connection.negotiate_sync(negotiate, None)
    check("Negotiate: pt-PT finds pt-BR by its language", (reply.get_locale(), reply.get_match()),
          ("pt-BR", Lprojd.NegotiateReplyMatch.LANGUAGE))
    number = Lprojd.FormatParameters.new(Lprojd.FormatParametersStyle.DECIMAL)
    number.set_locale("de")
    number.set_number(1234.5)
    check("Format: a number in German", connection.format_sync(number, None).get_value(), "1.234,5")
    date = Lprojd.ParseDateParameters.new("2023-11-14")
    date.set_style(Lprojd.ParseDateParametersStyle.PATTERN)
    date.set_pattern("yyyy-MM-dd")
    date.set_time_zone("UTC")
    date.set_locale("en")
    check("ParseDate", connection.parse_date_sync(date, None).get_date(), 1699920000.0)

    # Formatting preferences, saved and cleared.
    preferences = Lprojd.Preferences.new()
    preferences.set_distance_unit("miles")
    saving = Lprojd.SetPreferencesParameters.new(CLIENT, "demo")
    saving.set_preferences(preferences)
    reply = connection.set_preferences_sync(saving, None)
    check("SetPreferences", (reply.get_preferences().get_distance_unit(), list(reply.get_changed())),
          ("miles", ["distanceUnit"]))
    reply = connection.get_preferences_sync(Lprojd.GetPreferencesParameters.new(CLIENT, "demo"), None)
    check("GetPreferences", reply.get_preferences().get_distance_unit(), "miles")
    clearing = Lprojd.SetPreferencesParameters.new(CLIENT, "demo")
    clearing.set_clear(["distanceUnit"])
    check("SetPreferences: cleared", connection.set_preferences_sync(clearing, None).get_preferences().get_distance_unit(),
          None)

    # Strings an app adds, and takes back.
    adding = Lprojd.AddStringsParameters.new(CLIENT, "demo", "en", {"added.key": "Added at run time"})
    check("AddStrings", connection.add_strings_sync(adding, None).get_count(), 1)
    added = Lprojd.LookupParameters.new("demo", "added.key")
    added.set_client(CLIENT)
    check("an added string is looked up", connection.lookup_sync(added, None).get_value(), "Added at run time")
    removing = Lprojd.RemoveAddedStringsParameters.new(CLIENT, "demo")
    check("RemoveAddedStrings", connection.remove_added_strings_sync(removing, None).get_removed(), 1)

    # What lprojd holds and what apps missed.
    status = connection.get_status_sync(None, None)
    check("GetStatus", (status.get_bundles(), status.get_generation() > 0), (1, True))
    missing = Lprojd.LookupParameters.new("demo", "no.such.key")
    missing.set_client(CLIENT)
    connection.lookup_sync(missing, None)
    misses = Lprojd.GetMissesParameters.new()
    misses.set_bundle("demo")
    reply = connection.get_misses_sync(misses, None)
    # A key no table has is an unknown key; a key missing from German only, a miss.
    unknown = [key for keys in reply.get_unknown_keys() for key in keys.get_sample()]
    check("GetMisses: a key no table has", "no.such.key" in unknown, True)
    resetting = Lprojd.ResetMissesParameters.new()
    resetting.set_bundle("demo")
    connection.reset_misses_sync(resetting, None)
    reply = connection.get_misses_sync(misses, None)
    check("ResetMisses: forgotten", [keys.get_sample() for keys in reply.get_unknown_keys()], [])
    reloading = Lprojd.ReloadParameters.new()
    reloading.set_bundle("demo")
    check("Reload", [bundle.get_name() for bundle in connection.reload_sync(reloading, None).get_bundles()], ["demo"])

    # The stream: its first reply, then an event as the signal.
    events = []
    connection.connect("subscribe-reply", lambda _, reply: events.append(reply.get_event()))
    subscribe = Lprojd.SubscribeParameters.new()
    subscribe.set_client(CLIENT)
    subscribe.set_bundle("demo")
    first = []
    connection.subscribe_async(subscribe, None, lambda source, result: first.append(source.subscribe_finish(result)))
    run_until(lambda: first, "Subscribe's first reply")
    check("Subscribe", first[0].get_event().get_kind(), Lprojd.EventKind.READY)

    # (new_sync is the constructor, called first.)
    every = {name.removesuffix("_sync") for name in dir(Lprojd.Connection) if name.endswith("_sync")} - {"new"}
    methods = re.findall(r"^method (\w+)", INTERFACE.read_text(), re.MULTILINE)
    snake = {re.sub(r"(?<!^)(?=[A-Z])", "_", method).lower() for method in methods}
    check("the connection has the interface's methods", sorted(every), sorted(snake))
    check("every method of the interface was called", sorted(every - called), [])


if __name__ == "__main__":
    finish(main, failures=(AssertionError, GLib.Error, KeyError))
