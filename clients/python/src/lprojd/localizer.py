"""The localizer: an app's strings from memory, kept live by lprojd (clients/README.md)."""

from __future__ import annotations

import functools
import logging
import os
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .changes import Change, ChangeStream, Dispatcher, call_safely
from .connection import CALL_TIMEOUT, Connection, Subscription
from .environment import default_cache_directory, default_socket_path, preferred_languages
from .errors import DaemonError, LprojdError, Unavailable
from .interface import BundleNotFound, TableNotFound
from .mirror import LocaleName, LocalizedValue, Mirror, read_cache, write_cache
from .snapshot import Snapshot, SnapshotError, choose_locale, shipped_locales, snapshot_tables

log = logging.getLogger("lprojd")

# Reconnecting: the first retry after 50 ms, each next one twice as late, at most 5 s apart.
FIRST_RETRY = 0.05
LAST_RETRY = 5.0

Call = Callable[..., dict[str, Any]]


class Localizer:
    """One app's localized strings for one bundle, answered from an immutable mirror.

    Created with a bundle name and a client id (the app id), it subscribes to
    lprojd, fetches the mirror, and answers `localized()` in process. A
    thread of its own follows lprojd's events: each change is fetched, the
    new mirror swapped in whole, then the app told, through `on_change` (on
    the GLib main loop if the app runs one, see `Dispatcher`) and through the
    streams of `changes()`. Started without lprojd, it answers from the
    mirror cached by its last run, else from the snapshots the app ships in
    `fallback` (`lprojctl snapshot`), and keeps trying to connect.
    """

    def __init__(
        self,
        bundle: str,
        client: str,
        socket_path: str | None = None,
        *,
        on_change: Callable[[Change], None] | None = None,
        main_context: Any = None,
        languages: Sequence[str] | None = None,
        environ: Mapping[str, str] | None = None,
        cache_directory: str | None = None,
        fallback: str | None = None,
    ):
        """`languages` overrides the preferred languages read from `environ` (default: os.environ).

        `fallback` is a directory of the snapshots the app ships (`LOCALE.lprojsnap`):
        without lprojd and without a cached mirror, plain lookups answer from
        the one for the preferred languages, mapped (`origin` "snapshot").
        """
        environ = os.environ if environ is None else environ
        self.bundle = bundle
        self.client = client
        self.socket_path = socket_path or default_socket_path(environ)
        self.languages = list(languages) if languages is not None else preferred_languages(environ)
        self._cache_directory = cache_directory or default_cache_directory(environ)
        self._fallback = fallback
        self._dispatcher = Dispatcher(main_context)
        self._callbacks: list[Callable[[Change], None]] = [on_change] if on_change else []
        self._streams: list[ChangeStream] = []
        self._listeners_lock = threading.Lock()
        # Held while fetching and swapping, so that two updates never interleave.
        self._update_lock = threading.RLock()
        self._calls_lock = threading.Lock()
        self._calls: Connection | None = None
        self._subscription: Subscription | None = None
        self._fetcher: Connection | None = None
        self._closed = threading.Event()
        self._mirror = Mirror.empty(bundle, client)
        # A refresh found no tables and kept the last mirror: fetch everything on the next event.
        self._refetch_all = False
        self._told_of_keeping = False
        try:
            self._connect()
        except Unavailable as error:
            log.info("lprojd is unavailable, answering from the cached mirror or the shipped snapshots: %s", error)
            self._mirror = read_cache(bundle, client, self._cache_directory) or self._shipped_mirror() or self._mirror
        self._thread = threading.Thread(target=self._follow, name=f"lprojd localizer {bundle}", daemon=True)
        self._thread.start()

    # What the app asks.

    @property
    def locale(self) -> str:
        """The locale the app's strings are in ("" with neither lprojd nor a cached mirror)."""
        return self._mirror.locale

    @property
    def origin(self) -> str:
        """Where the answers come from: "daemon", "cache", "snapshot" or "none"."""
        return self._mirror.origin

    def localized(
        self,
        key: str,
        table: str = "Localizable",
        default: str | None = None,
        placeholders: Mapping[str, str] | None = None,
        arguments: Sequence[Any] | None = None,
    ) -> str:
        """The key's string in the app's language; see `lookup`."""
        return self.lookup(key, table, default, placeholders, arguments).value

    def lookup(
        self,
        key: str,
        table: str = "Localizable",
        default: str | None = None,
        placeholders: Mapping[str, str] | None = None,
        arguments: Sequence[Any] | None = None,
    ) -> LocalizedValue:
        """The key's value, whether it was found, and where it came from.

        Without `arguments`, from the mirror: the string, else a plural
        entry's format key, else `default`, else the key, with `{name}`
        placeholders filled. With `arguments` (ints, floats, strings, or
        the interface's Argument as a dict), lprojd formats it, since
        plural rules and number formats need its ICU and CLDR data: raises
        Unavailable without lprojd, InvalidArguments if they do not fit.
        """
        mirror = self._mirror
        if arguments is None:
            return mirror.lookup(key, table, default, placeholders)
        reply = self._ask(
            mirror,
            "Lookup",
            bundle=self.bundle,
            key=key,
            table=table,
            locale=mirror.locale,
            client=self.client,
            defaultValue=default,
            arguments=[_argument(value) for value in arguments],
            placeholders=dict(placeholders) if placeholders else None,
        )
        return LocalizedValue(str(reply["value"]), bool(reply["found"]), reply.get("locale"))

    def format(self, style: str, **parameters: Any) -> str:
        """A number, date or text written in the app's language by lprojd's `Format` (`style` and its parameters)."""
        mirror = self._mirror
        reply = self._ask(
            mirror, "Format", style=style, bundle=self.bundle, client=self.client, locale=mirror.locale, **parameters
        )
        return str(reply["value"])

    def supported_locales(self) -> list[LocaleName]:
        """The bundle's locales with their names in the app's language and in their own: a language menu."""
        return self._mirror.locale_names()

    def select(self, locale: str) -> str:
        """Saves the app's language in lprojd (every process of the app follows); returns the locale chosen.

        The new strings are fetched and the app told before this returns.
        """
        selection = self._call("SelectLocale", client=self.client, bundle=self.bundle, locale=locale)["selection"]
        self._refresh(self._call, {"locale"}, locale=selection["locale"])
        return str(selection["locale"])

    def reset(self) -> str:
        """Forgets the app's saved language in lprojd; returns the locale that applies now."""
        selection = self._call("ResetSelection", client=self.client, bundle=self.bundle)["selection"]
        self._refresh(self._call, {"locale"}, locale=selection["locale"])
        return str(selection["locale"])

    # How the app hears of changes.

    def add_change_callback(self, callback: Callable[[Change], None]) -> None:
        """Calls `callback(change)` after each change (on the GLib main loop, if one is in use)."""
        with self._listeners_lock:
            self._callbacks.append(callback)

    def remove_change_callback(self, callback: Callable[[Change], None]) -> None:
        with self._listeners_lock:
            self._callbacks.remove(callback)

    def changes(self) -> ChangeStream:
        """A blocking iterator of the changes from now on; it ends when the localizer closes."""
        stream = ChangeStream(self._remove_stream)
        with self._listeners_lock:
            if self._closed.is_set():
                stream.end()
            else:
                self._streams.append(stream)
        return stream

    def close(self) -> None:
        """Stops following lprojd; lookups still answer from the last mirror."""
        self._closed.set()
        for connection in (self._subscription, self._fetcher):
            if connection is not None:
                connection.close()
        if threading.current_thread() is not self._thread:
            self._thread.join(CALL_TIMEOUT)
        with self._calls_lock:
            if self._calls is not None:
                self._calls.close()
                self._calls = None
        with self._listeners_lock:
            streams, self._streams = self._streams, []
        for stream in streams:
            stream.end()

    def __enter__(self) -> Localizer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Talking to lprojd.

    def _shipped_mirror(self) -> Mirror | None:
        """The mirror of the shipped snapshot for the preferred languages; None without one (or a damaged one)."""
        shipped = shipped_locales(self._fallback) if self._fallback else {}
        if not shipped:
            return None
        try:
            development = Snapshot.open(next(iter(shipped.values()))).development_locale
            locale = choose_locale(sorted(shipped), self.languages, development)
            if locale not in shipped:
                return None
            snapshot = Snapshot.open(shipped[locale])
        except SnapshotError as error:
            log.warning("not answering from the shipped snapshots: %s", error)
            return None
        names = {"locales": [{"locale": tag, "name": tag, "nativeName": tag} for tag in sorted(shipped)]}
        return Mirror(
            self.bundle, self.client, snapshot.locale, development, snapshot_tables(snapshot), names, origin="snapshot"
        )

    def _ask(self, mirror: Mirror, method: str, **parameters: Any) -> dict[str, Any]:
        """A call whose answer must be lprojd's: never made for a mirror lprojd did not give."""
        if mirror.origin != "daemon":
            raise Unavailable(f"lprojd is unavailable: {method} needs it (the localizer answers from a cache)")
        return self._call(method, **parameters)

    def _call(self, method: str, **parameters: Any) -> dict[str, Any]:
        """A call on the app's connection, opened again if lprojd restarted since it was last used."""
        with self._calls_lock:
            if self._calls is not None:
                try:
                    return self._calls.call(method, **parameters)
                except Unavailable:
                    # Perhaps only this connection is gone: one more try on a new one.
                    self._calls = None
            self._calls = Connection(self.socket_path)
            try:
                return self._calls.call(method, **parameters)
            except Unavailable:
                self._calls = None
                raise

    def _connect(self) -> Change | None:
        """Subscribes, then fetches everything: what it returns says whether the answers differ."""
        subscription = Subscription(self.socket_path, self.client, self.bundle)
        try:
            fetcher = Connection(self.socket_path)
        except LprojdError:
            subscription.close()
            raise
        try:
            change = self._refresh(fetcher.call, {"reconnected"}, everything=True, notify=False)
        except LprojdError:
            subscription.close()
            fetcher.close()
            raise
        # Assigned before `_follow` checks `_closed`, so that `close` always finds them.
        self._subscription, self._fetcher = subscription, fetcher
        return change

    def _disconnect(self) -> None:
        for connection in (self._subscription, self._fetcher):
            if connection is not None:
                connection.close()
        self._subscription = self._fetcher = None

    def _follow(self) -> None:
        """The localizer's thread: reads the events, and reconnects when lprojd goes away."""
        delay = FIRST_RETRY
        while not self._closed.is_set():
            if self._subscription is None:
                try:
                    change = self._connect()
                except LprojdError as error:
                    # Jitter, so that the apps of a restarted lprojd do not all come back at once.
                    self._closed.wait(random.uniform(delay / 2, delay))
                    delay = min(delay * 2, LAST_RETRY)
                    log.debug("lprojd still unavailable: %s", error)
                    continue
                delay = FIRST_RETRY
                log.info("connected to lprojd at %s", self.socket_path)
                if change is not None:
                    self._notify(change)
            subscription = self._subscription
            if self._closed.is_set() or subscription is None:
                break
            for event in subscription.events():
                try:
                    self._handle(event)
                except Unavailable:
                    break
                except DaemonError as error:
                    log.warning("lprojd refused a refresh after %s: %s", event.get("type"), error)
            self._disconnect()

    def _handle(self, event: Mapping[str, Any]) -> None:
        """Refreshes what an event says changed (clients/README.md's table)."""
        kind = event.get("type")
        if event.get("client") not in (None, self.client) or self._fetcher is None:
            return
        call = self._fetcher.call
        if self._refetch_all and kind != "preferencesChanged":
            self._refresh(call, {"bundle"}, everything=True)
        elif kind == "localeChanged":
            # The event's locale may be old news: it comes on the subscription, while select() and reset()
            # apply their reply from the call connection, so an earlier select's event can come after a
            # later reset was applied. The selection now is lprojd's answer.
            selection = call(
                "GetSelection", client=self.client, bundle=self.bundle, preferredLanguages=self.languages
            )["selection"]
            self._refresh(call, {"locale"}, locale=selection["locale"])
        elif kind == "tablesChanged":
            self._refresh(call, {"tables"}, tables=event.get("tables") or list(self._mirror.tables))
        elif kind == "localesChanged":
            # The saved locale may be gone with its folder.
            selection = call(
                "GetSelection", client=self.client, bundle=self.bundle, preferredLanguages=self.languages
            )["selection"]
            self._refresh(call, {"locales"}, locale=selection["locale"], tables=list(self._mirror.tables), names=True)
        elif kind == "preferencesChanged":
            self._notify(Change(frozenset({"preferences"}), self.locale))
        elif kind == "bundleChanged":
            try:
                self._refresh(call, {"bundle"}, everything=True)
            except BundleNotFound:
                # The bundle is gone from lprojd: the last strings are better than keys.
                log.warning("lprojd no longer serves %s; keeping its last strings", self.bundle)
                self._notify(Change(frozenset({"bundle"}), self.locale))

    def _refresh(
        self,
        call: Call,
        what: set[str],
        *,
        locale: str | None = None,
        tables: Sequence[str] = (),
        names: bool = False,
        everything: bool = False,
        notify: bool = True,
    ) -> Change | None:
        """Fetches what changed, swaps the new mirror in, caches it, then tells the app.

        A new `locale` fetches every table and the locale names; else the
        `tables` named, and the locale `names` if asked; `everything` is the
        start's fetch. Returns the change, or None if nothing changed.
        """
        with self._update_lock:
            old = self._mirror
            locale = locale or old.locale
            if everything or old.origin != "daemon":
                new = self._fetch_all(call)
            elif locale != old.locale:
                new = old.replacing(locale, self._fetch_tables(call, locale, old.tables), self._fetch_names(call, locale))
            elif tables or names:
                fetched = self._fetch_tables(call, locale, tables)
                kept = {name: reply for name, reply in old.tables.items() if name not in tables}
                new = old.replacing(locale, {**kept, **fetched}, self._fetch_names(call, locale) if names else None)
            else:
                return None
            # The bundle has no tables left (its directory vanished, during a
            # package upgrade say): the last strings lprojd gave stay until
            # tables come back, better than keys. The app is told, and the
            # next event fetches everything (a locale chosen meanwhile stays).
            # The cache keeps the last mirror too.
            keeping = not new.tables and bool(old.tables) and old.origin == "daemon"
            self._refetch_all = keeping
            # Told once, and not of a locale: the mirror keeps its own.
            told = frozenset(what) - {"locale"}
            tell = keeping and told and not self._told_of_keeping
            self._told_of_keeping = keeping and (self._told_of_keeping or bool(tell))
            if not keeping:
                self._mirror = new
                write_cache(new, self._cache_directory)
        if keeping:
            if not tell:
                return None
            change = Change(told, old.locale, None, frozenset())
            if notify:
                self._notify(change)
            return change
        # A reconnection is news if the answers differ, or if formatted
        # lookups work again (the mirror was the cached one).
        if "reconnected" in what and new.origin == old.origin and new.same_answers(old):
            return None
        changed_tables = frozenset(
            name for name in new.tables.keys() | old.tables.keys() if new.tables.get(name) != old.tables.get(name)
        )
        if new.locale != old.locale:
            what = what | {"locale"}
        change = Change(frozenset(what), new.locale, old.locale or None, changed_tables)
        if notify:
            self._notify(change)
        return change

    def _fetch_all(self, call: Call) -> Mirror:
        """The mirror as at the start: the selection, the bundle's tables, the locale names."""
        selection = call("GetSelection", client=self.client, bundle=self.bundle, preferredLanguages=self.languages)
        locale = selection["selection"]["locale"]
        bundle = next((b for b in call("ListBundles")["bundles"] if b["name"] == self.bundle), None)
        if bundle is None:
            raise BundleNotFound("org.lprojd.Localization.BundleNotFound", {"bundle": self.bundle})
        return Mirror(
            self.bundle,
            self.client,
            locale=locale,
            development_locale=bundle["developmentLocale"],
            tables=self._fetch_tables(call, locale, bundle["tables"]),
            supported_locales=self._fetch_names(call, locale),
        )

    def _fetch_tables(self, call: Call, locale: str, names: Iterable[str]) -> dict[str, Any]:
        """`GetTable`'s replies for the tables named, in `locale`."""
        tables = {}
        for name in names:
            try:
                tables[name] = call("GetTable", bundle=self.bundle, table=name, locale=locale, client=self.client)
            except TableNotFound:
                # Its files were all removed: it is no longer the bundle's.
                continue
        return tables

    def _fetch_names(self, call: Call, locale: str) -> dict[str, Any]:
        """`SupportedLocales`' reply: the locales' names in `locale` and in their own."""
        return call("SupportedLocales", bundle=self.bundle, client=self.client, locale=locale)

    # Telling the app.

    def _notify(self, change: Change) -> None:
        with self._listeners_lock:
            callbacks, streams = list(self._callbacks), list(self._streams)
        for stream in streams:
            stream.put(change)
        for callback in callbacks:
            self._dispatcher.dispatch(functools.partial(call_safely, callback, change))

    def _remove_stream(self, stream: ChangeStream) -> None:
        with self._listeners_lock:
            if stream in self._streams:
                self._streams.remove(stream)


def _argument(value: Any) -> dict[str, Any]:
    """A format argument as the interface's Argument."""
    if isinstance(value, bool):
        raise TypeError("a format argument is an int, a float, a string or an Argument dict, not a bool")
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": value}
    if isinstance(value, str):
        return {"string": value}
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"a format argument is an int, a float, a string or an Argument dict, not {type(value).__name__}")
