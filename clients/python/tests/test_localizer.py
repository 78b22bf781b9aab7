"""The localizer against the real lprojd: the mirror, formatting, live changes, reconnecting, the cache."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import uuid

import pytest

from conftest import CHANGE_TIMEOUT
from lprojd import (
    BundleNotFound,
    InvalidArguments,
    InvalidLocale,
    Localizer,
    LocalizedValue,
    Unavailable,
)
from lprojd.mirror import cache_file_name

LOCALES = ["en", "en-GB", "fr", "de", "ru", "ar", "ja", "pt-BR", "zh-Hans", "zh-Hant"]


def client_id() -> str:
    """A client id of the test's own: selections are saved per client."""
    return f"org.lprojd.test.{uuid.uuid4().hex[:8]}"


def next_change(stream, what: str):
    """The next change that includes `what`; fails the test after CHANGE_TIMEOUT."""
    deadline = time.monotonic() + CHANGE_TIMEOUT
    while True:
        change = stream.get(timeout=max(0.0, deadline - time.monotonic()))
        assert change is not None, "the localizer closed"
        if what in change.what:
            return change


def daemon_lookup(connection, client, **parameters) -> LocalizedValue:
    reply = connection.Lookup(bundle="demo", client=client, **parameters)
    return LocalizedValue(reply["value"], reply["found"], reply.get("locale"))


@pytest.fixture
def localizer(daemon, cache_directory):
    with Localizer("demo", client_id(), daemon.socket, languages=["fr"], cache_directory=cache_directory) as localizer:
        yield localizer


def all_keys(connection) -> dict[str, set[str]]:
    """Every key of every table in any locale, and keys no table has."""
    keys: dict[str, set[str]] = {}
    for locale in LOCALES:
        for table in ("Localizable", "Menu"):
            reply = connection.GetTable(bundle="demo", table=table, locale=locale)
            keys.setdefault(table, {"no.such.key"}).update(reply["strings"], reply["plurals"])
    return keys


@pytest.mark.parametrize("locale", LOCALES)
def test_the_mirror_answers_as_lookup_does(daemon, cache_directory, locale):
    client = client_id()
    with daemon.connection() as connection, Localizer(
        "demo", client, daemon.socket, languages=[locale], cache_directory=cache_directory
    ) as localizer:
        assert (localizer.locale, localizer.origin) == (locale, "daemon")
        for table, keys in all_keys(connection).items():
            for key in sorted(keys):
                expected = daemon_lookup(connection, client, key=key, table=table, locale=locale)
                assert localizer.lookup(key, table) == expected, (table, key)
                expected = daemon_lookup(
                    connection, client, key=key, table=table, locale=locale, defaultValue="fallback {name}",
                    placeholders={"name": "Ada"},
                )
                assert localizer.lookup(key, table, "fallback {name}", {"name": "Ada"}) == expected, (table, key)


def test_placeholders(localizer):
    assert localizer.localized("greeting", placeholders={"name": "Ada"}) == "Bonjour, Ada !"
    assert localizer.localized("greeting") == "Bonjour, {name} !"
    assert localizer.localized("missing", default="Hi {name}", placeholders={"name": "Ada"}) == "Hi Ada"
    assert localizer.localized("missing") == "missing"


def test_formatted_plurals_are_lprojds(daemon, cache_directory):
    client = client_id()
    with daemon.connection() as connection, Localizer(
        "demo", client, daemon.socket, languages=["ru"], cache_directory=cache_directory
    ) as localizer:
        assert localizer.localized("files.selected", arguments=[3]) == "Выбрано: 3 файла"
        for count in [0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111, 1000000]:
            for key in ("files.selected", "inbox.unread"):
                expected = daemon_lookup(connection, client, key=key, locale="ru", arguments=[{"int": count}])
                assert localizer.lookup(key, arguments=[count]) == expected, (key, count)
        expected = daemon_lookup(
            connection, client, key="download.progress", locale="ru", arguments=[{"float": 42.5}, {"string": "a.zip"}]
        )
        assert localizer.lookup("download.progress", arguments=[42.5, "a.zip"]) == expected
        assert "42,5" in expected.value
        with pytest.raises(InvalidArguments) as raised:
            localizer.localized("inbox.unread", arguments=["x"])
        assert raised.value.parameters["position"] == 1


def test_the_environment_chooses_the_locale(daemon, cache_directory):
    def locale_for(environ):
        with Localizer("demo", client_id(), daemon.socket, environ=environ, cache_directory=cache_directory) as loc:
            return loc.locale

    assert locale_for({"LANGUAGE": "ja:de", "LANG": "en_US.UTF-8"}) == "ja"
    assert locale_for({"LANG": "pt_BR.UTF-8"}) == "pt-BR"
    assert locale_for({"LC_ALL": "C", "LANGUAGE": "fr"}) == "en"
    assert locale_for({"LC_MESSAGES": "de_AT.UTF-8"}) == "de"


def test_select_changes_the_language_at_once(localizer):
    stream = localizer.changes()
    assert localizer.localized("welcome.title") == "Bienvenue dans Demo"
    assert localizer.select("de") == "de"
    # Applied before select returns, and told.
    assert localizer.locale == "de"
    assert localizer.localized("welcome.title") == "Willkommen bei Demo"
    change = next_change(stream, "locale")
    assert (change.locale, change.previous_locale) == ("de", "fr")
    assert change.tables == {"Localizable", "Menu"}
    assert [name.name for name in localizer.supported_locales() if name.locale == "fr"] == ["Französisch"]
    # Without its own choice, the app's preferred languages (its process's, French) apply again at once.
    assert localizer.reset() == "fr"
    assert localizer.localized("welcome.title") == "Bienvenue dans Demo"


def test_another_process_selecting_for_the_app_changes_it(daemon, localizer):
    stream = localizer.changes()
    with daemon.connection() as connection:
        connection.SelectLocale(client=localizer.client, bundle="demo", locale="ja")
    change = next_change(stream, "locale")
    assert change.locale == "ja"
    assert localizer.localized("welcome.title") == "Demo へようこそ"


def test_editing_a_strings_file_changes_the_strings(daemon, localizer):
    stream = localizer.changes()
    text = (daemon.bundle_directory / "fr.lproj" / "Localizable.strings").read_text(encoding="utf-8")
    daemon.write_strings("fr", "Localizable", text.replace("Bienvenue dans Demo", "Bienvenue, nouvelle version"))
    change = next_change(stream, "tables")
    assert "Localizable" in change.tables
    assert localizer.localized("welcome.title") == "Bienvenue, nouvelle version"
    assert localizer.localized("settings.title") == "Réglages"


def test_a_new_folder_for_the_preferred_language_is_taken(daemon, cache_directory):
    with Localizer("demo", client_id(), daemon.socket, languages=["it"], cache_directory=cache_directory) as localizer:
        assert localizer.locale == "en"
        stream = localizer.changes()
        # The folder is renamed in whole, as a package would install it.
        staged = daemon.bundle_directory.parent / "it.lproj"
        staged.mkdir()
        (staged / "Localizable.strings").write_text('"welcome.title" = "Benvenuto in Demo";\n', encoding="utf-8")
        staged.rename(daemon.bundle_directory / "it.lproj")
        change = next_change(stream, "locales")
        assert change.locale == "it" and "locale" in change.what
        assert localizer.localized("welcome.title") == "Benvenuto in Demo"
        assert "it" in [name.locale for name in localizer.supported_locales()]


def test_a_vanished_bundle_keeps_its_last_strings_until_it_comes_back(daemon, localizer):
    stream = localizer.changes()
    saved = daemon.bundle_directory.parent / "saved-bundle"
    daemon.bundle_directory.rename(saved)
    # Told once, of whichever event came first (bundle, locales, tables).
    assert stream.get(timeout=CHANGE_TIMEOUT) is not None
    with daemon.connection() as connection:
        assert connection.Lookup(bundle="demo", key="welcome.title", locale="fr")["value"] == "welcome.title"
    assert localizer.localized("welcome.title") == "Bienvenue dans Demo"

    (saved / "fr.lproj" / "Localizable.strings").write_text('"welcome.title" = "Revoilà";\n', encoding="utf-8")
    saved.rename(daemon.bundle_directory)
    # Events while it comes back may show a moment of it first.
    deadline = time.monotonic() + CHANGE_TIMEOUT
    while localizer.localized("welcome.title") != "Revoilà":
        assert stream.get(timeout=max(0.0, deadline - time.monotonic())) is not None, "the localizer closed"
    assert localizer.locale == "fr"


def test_callbacks_and_preferences(daemon, localizer):
    told = []
    called = threading.Event()

    def on_change(change):
        told.append((change, threading.current_thread()))
        called.set()

    localizer.add_change_callback(on_change)
    with daemon.connection() as connection:
        connection.SetPreferences(client=localizer.client, bundle="demo", preferences={"timeZone": "Asia/Tokyo"})
    assert called.wait(CHANGE_TIMEOUT)
    change, thread = told[0]
    assert change.what == {"preferences"}
    # No GLib main loop runs: the localizer's own thread calls.
    assert thread is not threading.main_thread()
    assert localizer.format("time24", date=1700000000) == "07:13"


def test_unknown_bundle_and_locale_errors(daemon, localizer, cache_directory):
    with pytest.raises(BundleNotFound) as raised:
        Localizer("nope", client_id(), daemon.socket, cache_directory=cache_directory)
    assert raised.value.parameters == {"bundle": "nope"}
    with pytest.raises(InvalidLocale):
        localizer.select("not a locale!")


def test_a_restarted_lprojd_is_followed(daemon, localizer):
    stream = localizer.changes()
    localizer.select("fr")
    daemon.stop(signal.SIGKILL)
    # Plain lookups go on from the mirror; what needs lprojd says it is unavailable.
    assert localizer.localized("welcome.title") == "Bienvenue dans Demo"
    with pytest.raises(Unavailable):
        localizer.localized("files.selected", arguments=[2])
    with pytest.raises(Unavailable):
        localizer.select("de")
    # Changed while lprojd was down: the reconnected localizer must notice.
    text = (daemon.bundle_directory / "fr.lproj" / "Localizable.strings").read_text(encoding="utf-8")
    daemon.write_strings("fr", "Localizable", text.replace("Bienvenue dans Demo", "De retour"))
    daemon.start()
    change = next_change(stream, "reconnected")
    assert change.locale == "fr"
    assert "Localizable" in change.tables
    assert localizer.localized("welcome.title") == "De retour"
    assert localizer.localized("files.selected", arguments=[2]) == "2 fichiers sélectionnés"


def test_without_lprojd_the_cached_mirror_answers(daemon, cache_directory):
    client = client_id()
    with Localizer("demo", client, daemon.socket, languages=["ru"], cache_directory=cache_directory) as localizer:
        expected = {key: localizer.localized(key) for key in ("welcome.title", "files.selected", "menu.file")}
        greeting = localizer.localized("greeting", placeholders={"name": "Ada"})
    cached = json.loads(open(os.path.join(cache_directory, cache_file_name("demo", client)), encoding="utf-8").read())
    assert (cached["format"], cached["bundle"], cached["client"], cached["locale"]) == (1, "demo", client, "ru")
    assert cached["developmentLocale"] == "en"
    assert set(cached["tables"]["Localizable"]) >= {"strings", "plurals", "sources", "generation"}
    assert cached["supportedLocales"]["displayLocale"] == "ru"
    daemon.stop()

    with Localizer("demo", client, daemon.socket, languages=["fr"], cache_directory=cache_directory) as localizer:
        assert (localizer.origin, localizer.locale) == ("cache", "ru")
        assert {key: localizer.localized(key) for key in expected} == expected
        assert localizer.localized("greeting", placeholders={"name": "Ada"}) == greeting
        assert [name.native_name for name in localizer.supported_locales() if name.locale == "ja"] == ["日本語"]
        with pytest.raises(Unavailable):
            localizer.localized("files.selected", arguments=[2])
        with pytest.raises(Unavailable):
            localizer.select("de")
        # When lprojd comes back, the localizer switches to it.
        stream = localizer.changes()
        daemon.start()
        next_change(stream, "reconnected")
        # The app never chose a language: lprojd answers for this process's own languages (French), not the last one's.
        assert (localizer.origin, localizer.locale) == ("daemon", "fr")
        assert localizer.localized("files.selected", arguments=[2]) == "2 fichiers sélectionnés"


def test_without_lprojd_or_cache_keys_answer_for_themselves(daemon, cache_directory):
    daemon.stop()
    with Localizer("demo", client_id(), daemon.socket, cache_directory=cache_directory) as localizer:
        assert (localizer.origin, localizer.locale) == ("none", "")
        assert localizer.localized("welcome.title") == "welcome.title"
        assert localizer.localized("welcome.title", default="Welcome") == "Welcome"
        assert localizer.supported_locales() == []


def test_a_damaged_cache_is_ignored(daemon, cache_directory):
    client = client_id()
    daemon.stop()
    os.makedirs(cache_directory)
    path = os.path.join(cache_directory, cache_file_name("demo", client))
    for content in ("{not json", json.dumps({"format": 2, "locale": "fr"})):
        with open(path, "w", encoding="utf-8") as file:
            file.write(content)
        with Localizer("demo", client, daemon.socket, cache_directory=cache_directory) as localizer:
            assert localizer.origin == "none"


def test_change_streams_end_when_the_localizer_closes(localizer):
    stream = localizer.changes()
    localizer.close()
    assert list(stream) == []
    assert localizer.localized("welcome.title") == "Bienvenue dans Demo"
