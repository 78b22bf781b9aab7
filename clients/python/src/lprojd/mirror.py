"""The mirror: one immutable snapshot of an app's language and tables.

A localizer answers plain lookups from its mirror, in process. It never
changes a mirror: it builds a new one and swaps it in with one attribute
assignment, so a lookup sees the old snapshot or the new one, never half.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from . import placeholders as _placeholders

log = logging.getLogger("lprojd")

# The cached mirror's layout (clients/README.md); a file of another is ignored.
CACHE_FORMAT = 1


@dataclass(frozen=True)
class LocalizedValue:
    """A looked-up string, whether a table had the key, and the locale it came from (as `Lookup` says)."""

    value: str
    found: bool
    locale: str | None


@dataclass(frozen=True)
class LocaleName:
    """A supported locale's names: in the app's language, in itself, and the bundle's own name for it."""

    locale: str
    name: str
    native_name: str
    bundle_name: str | None = None


@dataclass(frozen=True)
class Mirror:
    """What the localizer knows: the locale, `GetTable` replies by table, `SupportedLocales`' reply.

    `origin` says where it came from: "daemon", "snapshot" (a shipped
    snapshot, lprojd unreachable), "cache" (a cached mirror,
    lprojd unreachable) or "none" (nothing yet: keys answer for themselves).
    """

    bundle: str
    client: str
    locale: str
    development_locale: str
    tables: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    supported_locales: Mapping[str, Any] = field(default_factory=dict)
    origin: str = "daemon"

    def __post_init__(self) -> None:
        # Read-only views: a snapshot that is shared between threads must not change.
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))
        object.__setattr__(self, "supported_locales", MappingProxyType(dict(self.supported_locales)))

    @classmethod
    def empty(cls, bundle: str, client: str) -> Mirror:
        """No tables: every lookup gives its default or its key."""
        return cls(bundle, client, locale="", development_locale="", origin="none")

    def replacing(
        self, locale: str, tables: Mapping[str, Mapping[str, Any]], supported_locales: Mapping[str, Any] | None
    ) -> Mirror:
        """A new mirror from lprojd with this locale and tables (and the same locale names if None)."""
        names = self.supported_locales if supported_locales is None else supported_locales
        return Mirror(self.bundle, self.client, locale, self.development_locale, tables, names)

    def lookup(
        self, key: str, table: str, default: str | None, placeholders: Mapping[str, str] | None
    ) -> LocalizedValue:
        """`Lookup` without arguments: the string, else a plural entry's format key, else the default or the key."""
        reply = self.tables.get(table)
        if reply is not None and key in reply["strings"]:
            raw: str = reply["strings"][key]
        elif reply is not None and key in reply["plurals"]:
            raw = reply["plurals"][key]["format"]
        else:
            raw = default if default is not None else key
            return LocalizedValue(_placeholders.substitute(raw, placeholders), False, None)
        return LocalizedValue(_placeholders.substitute(raw, placeholders), True, reply["sources"].get(key))

    def locale_names(self) -> list[LocaleName]:
        """The supported locales with their names, for a language menu."""
        return [
            LocaleName(entry["locale"], entry["name"], entry["nativeName"], entry.get("bundleName"))
            for entry in self.supported_locales.get("locales", [])
        ]

    def same_answers(self, other: Mirror) -> bool:
        """Whether both answer every lookup alike (generations aside)."""

        def answers(mirror: Mirror) -> tuple[Any, ...]:
            tables = {
                name: (reply["strings"], reply["plurals"], reply["sources"]) for name, reply in mirror.tables.items()
            }
            return mirror.locale, mirror.development_locale, tables, dict(mirror.supported_locales)

        return answers(self) == answers(other)


def cache_file_name(bundle: str, client: str) -> str:
    """`<bundle>@<client>.json`, with every byte outside `A-Za-z0-9_-.` (and a leading `.`) as %XX."""

    def escape(name: str) -> str:
        escaped = "".join(
            chr(byte) if chr(byte).isascii() and (chr(byte).isalnum() or chr(byte) in "_-.") else f"%{byte:02X}"
            for byte in name.encode("utf-8")
        )
        return "%2E" + escaped[1:] if escaped.startswith(".") else escaped

    return f"{escape(bundle)}@{escape(client)}.json"


def write_cache(mirror: Mirror, directory: str) -> None:
    """Writes the mirror where a localizer started without lprojd finds it, replacing the file atomically."""
    document = {
        "format": CACHE_FORMAT,
        "bundle": mirror.bundle,
        "client": mirror.client,
        "locale": mirror.locale,
        "developmentLocale": mirror.development_locale,
        "tables": {name: dict(reply) for name, reply in mirror.tables.items()},
        "supportedLocales": dict(mirror.supported_locales),
    }
    try:
        os.makedirs(directory, exist_ok=True)
        # A temporary file in the same directory, renamed over the old one:
        # a reader (C or Python) sees the old file or the new one, never a part.
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, prefix=".", suffix=".tmp", delete=False
        ) as temporary:
            json.dump(document, temporary, ensure_ascii=False)
        os.replace(temporary.name, os.path.join(directory, cache_file_name(mirror.bundle, mirror.client)))
    except OSError as error:
        # The cache only helps when lprojd is gone; a read-only home must not stop the app.
        log.warning("cannot write the cached mirror in %s: %s", directory, error)


def read_cache(bundle: str, client: str, directory: str) -> Mirror | None:
    """The cached mirror of this bundle and client, or None if there is none usable."""
    path = os.path.join(directory, cache_file_name(bundle, client))
    try:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
        if document.get("format") != CACHE_FORMAT:
            return None
        tables = document["tables"]
        for reply in tables.values():
            if not all(isinstance(reply.get(part), dict) for part in ("strings", "plurals", "sources")):
                return None
        return Mirror(
            bundle,
            client,
            locale=document["locale"],
            development_locale=document["developmentLocale"],
            tables=tables,
            supported_locales=document["supportedLocales"],
            origin="cache",
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        if not isinstance(error, FileNotFoundError):
            log.warning("ignoring the cached mirror %s: %s", path, error)
        return None
