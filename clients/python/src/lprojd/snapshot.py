"""Snapshots (docs/snapshot-format.md): one bundle's strings for one locale, in a file this process maps.

`lprojctl snapshot` writes them for an app to ship; a localizer given their
directory as `fallback` answers from them when lprojd is not running. The
reader checks the header and that every section lies in the file when it
opens one, and every offset and length it follows at each lookup: a
truncated, corrupted or hostile snapshot raises `SnapshotError` at opening
or gives no answer for what it garbles, never an IndexError or a hang.
"""

from __future__ import annotations

import mmap
import os
import stat
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

MAGIC = b"LPROJSNP"
MAJOR_VERSION = 1
HEADER_SIZE = 96
ENTRY_SIZE = 32
PLURAL_HEADER_SIZE = 20
VARIABLE_SIZE = 64
ABSENT = 0xFFFFFFFF
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
EXTENSION = ".lprojsnap"


class SnapshotError(ValueError):
    """Why a snapshot was refused: it is not one, is of another major version, or is truncated or damaged."""


@dataclass(frozen=True)
class SnapshotEntry:
    """One key's value as written (a plural entry's format key), where it came from, and its argument signature."""

    value: str
    source: str
    signature: str
    plural: Mapping[str, object] | None = field(default=None)


def _fnv1a(table: bytes, key: bytes) -> int:
    value = 2166136261
    for byte in table + b"\0" + key:
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


class Snapshot:
    """A snapshot's bytes (mapped, or read into memory), answering lookups without parsing anything first."""

    def __init__(self, data: bytes | mmap.mmap):
        self._data = data
        size = len(data)
        if size < HEADER_SIZE or bytes(data[0:8]) != MAGIC:
            raise SnapshotError("not a snapshot (no LPROJSNP header)")
        major, _minor, header_size, self.generation, file_size = struct.unpack_from("<HHIQI", data, 8)
        if major != MAJOR_VERSION:
            raise SnapshotError(f"a snapshot of format {major}, where this reader reads format {MAJOR_VERSION}")
        if header_size < HEADER_SIZE or header_size > size:
            raise SnapshotError(f"its header size {header_size} is wrong")
        if file_size != size:
            raise SnapshotError(f"it says it has {file_size} bytes, and has {size}: truncated or extended")
        (
            self._table_count,
            self._tables_offset,
            self._source_count,
            self._sources_offset,
            self.entry_count,
            self._entries_offset,
            self._bucket_count,
            self._index_offset,
        ) = struct.unpack_from("<8I", data, 56)
        if self._table_count > 0xFFFF or self._source_count > 0xFFFF:
            raise SnapshotError("more than 65,535 tables or sources")
        buckets = self._bucket_count
        if buckets <= self.entry_count or buckets & (buckets - 1):
            raise SnapshotError(f"its index of {buckets} buckets cannot hold {self.entry_count} entries")
        for name, offset, length in (
            ("tables", self._tables_offset, 8 * self._table_count),
            ("sources", self._sources_offset, 8 * self._source_count),
            ("entries", self._entries_offset, ENTRY_SIZE * self.entry_count),
            ("index", self._index_offset, 4 * buckets),
        ):
            if offset < header_size or offset % 4 or length > size - offset:
                raise SnapshotError(f"its {name} lie outside the file")
        header: list[str] = []
        for field_at in (32, 40, 88, 48):
            text = self._text(field_at, strict=True)
            if text is None:
                raise SnapshotError("a name in its header is outside the file or not UTF-8")
            header.append(text)
        self.bundle, self.locale, self.development_locale, self.plural_rules_locale = header
        self._tables: dict[str, int] = {}
        for index in range(self._table_count):
            table_name = self._text(self._tables_offset + 8 * index, strict=False)
            if table_name is not None and table_name not in self._tables:
                self._tables[table_name] = index

    @classmethod
    def open(cls, path: str, maximum_size: int = 1 << 30) -> Snapshot:
        """The snapshot in a file: mapped if only its reader's user or root can write it, else read into memory.

        (A mapped file that someone truncates ends the process with SIGBUS.)
        """
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as error:
            raise SnapshotError(f"{path}: cannot be opened ({error.strerror})") from None
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                raise SnapshotError(f"{path}: not a regular file")
            if status.st_size > maximum_size:
                raise SnapshotError(f"{path}: {status.st_size} bytes, over the {maximum_size} a snapshot may have")
            if status.st_size < HEADER_SIZE:
                raise SnapshotError(f"{path}: {status.st_size} bytes, too short for a snapshot")
            trusted = status.st_uid in (0, os.geteuid()) and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            if trusted:
                return cls(mmap.mmap(descriptor, status.st_size, prot=mmap.PROT_READ))
            with os.fdopen(os.dup(descriptor), "rb") as file:
                data = file.read(status.st_size + 1)
            return cls(data)
        finally:
            os.close(descriptor)

    # Lookups.

    @property
    def table_names(self) -> list[str]:
        return list(self._tables)

    def value(self, key: str, table: str = "Localizable") -> str | None:
        """A key's value as written, or None when the snapshot has none (or garbles it)."""
        position = self._find(key, table)
        if position is None:
            return None
        return self._text(self._entries_offset + ENTRY_SIZE * position + 8, strict=False)

    def lookup(self, key: str, table: str = "Localizable") -> SnapshotEntry | None:
        """A key's entry, its plural entry included; None when the snapshot has none (or garbles it)."""
        position = self._find(key, table)
        return None if position is None else self._entry(position, strict=False)

    def _find(self, key: str, table: str) -> int | None:
        table_index = self._tables.get(table)
        if table_index is None:
            return None
        wanted = key.encode("utf-8", "surrogatepass")
        mask = self._bucket_count - 1
        bucket = _fnv1a(table.encode("utf-8"), wanted) & mask
        data = self._data
        for _ in range(self._bucket_count):
            (slot,) = struct.unpack_from("<I", data, self._index_offset + 4 * bucket)
            if slot == 0:
                return None
            if slot <= self.entry_count:
                at = self._entries_offset + ENTRY_SIZE * (slot - 1)
                (entry_table,) = struct.unpack_from("<H", data, at + 16)
                if entry_table == table_index and self._region(at) == wanted:
                    return int(slot) - 1
            bucket = (bucket + 1) & mask
        return None

    def _entry_with_key(self, position: int, table: str) -> tuple[str, SnapshotEntry] | None:
        """The key and entry at a position, if it is of `table` (for reading a whole table)."""
        at = self._entries_offset + ENTRY_SIZE * position
        (entry_table,) = struct.unpack_from("<H", self._data, at + 16)
        key = self._text(at, strict=False)
        if self._tables.get(table) != entry_table or key is None:
            return None
        entry = self._entry(position, strict=False)
        return None if entry is None else (key, entry)

    def _entry(self, position: int, strict: bool) -> SnapshotEntry | None:
        at = self._entries_offset + ENTRY_SIZE * position
        (source_index, plural_offset) = struct.unpack_from("<HI", self._data, at + 18)
        if source_index >= self._source_count:
            return None
        value = self._text(at + 8, strict)
        source = self._text(self._sources_offset + 8 * source_index, strict)
        signature = self._text(at + 24, strict)
        if value is None or source is None or signature is None:
            return None
        plural = None
        if plural_offset:
            plural = self._plural(plural_offset, strict)
            if plural is None:
                return None
        return SnapshotEntry(value, source, signature, plural)

    def _plural(self, offset: int, strict: bool) -> Mapping[str, object] | None:
        size = len(self._data)
        if offset < self._index_offset + 4 * self._bucket_count or offset % 4 or PLURAL_HEADER_SIZE > size - offset:
            return None
        (count,) = struct.unpack_from("<I", self._data, offset + 16)
        if count > (size - offset - PLURAL_HEADER_SIZE) // VARIABLE_SIZE:
            return None
        format_key, locale = self._text(offset, strict), self._text(offset + 8, strict)
        if format_key is None or locale is None:
            return None
        variables: dict[str, object] = {}
        for position in range(count):
            at = offset + PLURAL_HEADER_SIZE + VARIABLE_SIZE * position
            name = self._text(at, strict)
            if name is None:
                return None
            variable: dict[str, str] = {}
            for slot, field_name in enumerate(("valueType",) + CATEGORIES):
                (length,) = struct.unpack_from("<I", self._data, at + 8 + 8 * slot + 4)
                if length == ABSENT:
                    continue
                text = self._text(at + 8 + 8 * slot, strict)
                if text is None:
                    return None
                variable[field_name] = text
            variables[name] = variable
        return {"format": format_key, "locale": locale, "variables": variables}

    # Checking everything.

    def verify(self) -> None:
        """Checks everything: the checksum, every entry and text (UTF-8), every plural record, the index."""
        data = self._data
        (stored,) = struct.unpack_from("<I", data, 28)
        computed = zlib.crc32(data[32:], zlib.crc32(data[:28]))
        if stored != computed:
            raise SnapshotError("its checksum is wrong: corrupted")
        names = [self._text(self._tables_offset + 8 * index, strict=True) for index in range(self._table_count)]
        if any(name is None for name in names):
            raise SnapshotError("a table's name is outside the file or not UTF-8")
        for position in range(self.entry_count):
            at = self._entries_offset + ENTRY_SIZE * position
            (table,) = struct.unpack_from("<H", data, at + 16)
            key = self._text(at, strict=True)
            if table >= self._table_count or key is None or self._entry(position, strict=True) is None:
                raise SnapshotError(f"entry {position} is garbled")
            if self._find(key, str(names[table])) != position:
                raise SnapshotError(f"the index does not find entry {position}")

    # Bytes, every one checked.

    def _region(self, field_at: int) -> bytes | None:
        size = len(self._data)
        if field_at < 0 or field_at > size - 8:
            return None
        offset, length = struct.unpack_from("<II", self._data, field_at)
        if length == ABSENT or offset > size or length > size - offset:
            return None
        return bytes(self._data[offset : offset + length])

    def _text(self, field_at: int, strict: bool) -> str | None:
        region = self._region(field_at)
        if region is None:
            return None
        try:
            return region.decode("utf-8", "strict" if strict else "replace")
        except UnicodeDecodeError:
            return None


# A localizer's mirror from shipped snapshots.


def shipped_locales(directory: str) -> dict[str, str]:
    """The snapshots in a directory by locale (`LOCALE.lprojsnap`), at most 4,096 of them."""
    try:
        names = sorted(os.listdir(directory))[:4096]
    except OSError:
        return {}
    return {name[: -len(EXTENSION)]: os.path.join(directory, name) for name in names if name.endswith(EXTENSION)}


def choose_locale(available: list[str], languages: list[str], development: str) -> str:
    """The shipped locale for the preferred languages, as lprojd chooses with nothing saved.

    For each preferred language in turn: the locale itself, else its
    language with the script it writes (`sr-Latn-RS` → `sr-Latn`), else the
    next language; else the development locale. (lprojd also knows the
    scripts CLDR's likely subtags imply, `zh-TW` → `zh-Hant`; this reader
    has no CLDR data, so a preference must name such a script to match.)
    """

    def key(tag: str) -> str:
        return tag.replace("_", "-").lower()

    by_key = {key(locale): locale for locale in available}
    for language in languages:
        wanted = key(language)
        if wanted in by_key:
            return by_key[wanted]
        parts = wanted.split("-")
        shorter = "-".join(parts[:2]) if len(parts) > 1 and len(parts[1]) == 4 else parts[0]
        if shorter in by_key:
            return by_key[shorter]
    return development


class _Part(Mapping[str, Any]):
    """One part of a table's `GetTable` reply ("strings", "plurals" or "sources"), read from a snapshot as asked."""

    def __init__(self, snapshot: Snapshot, table: str, part: str):
        self._snapshot, self._table, self._part = snapshot, table, part
        self._everything: dict[str, Any] | None = None

    def _answer(self, entry: SnapshotEntry) -> Any:
        if self._part == "sources":
            return entry.source
        if self._part == "plurals":
            return entry.plural if entry.plural is not None else _NOT_HERE
        return entry.value if entry.plural is None else _NOT_HERE

    def __getitem__(self, key: str) -> Any:
        entry = self._snapshot.lookup(key, self._table)
        answer = _NOT_HERE if entry is None else self._answer(entry)
        if answer is _NOT_HERE:
            raise KeyError(key)
        return answer

    def __contains__(self, key: object) -> bool:
        try:
            self[key]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def _all(self) -> dict[str, Any]:
        # Only comparing two mirrors reads a whole table.
        if self._everything is None:
            everything: dict[str, Any] = {}
            for position in range(self._snapshot.entry_count):
                pair = self._snapshot._entry_with_key(position, self._table)
                if pair is not None and self._answer(pair[1]) is not _NOT_HERE:
                    everything[pair[0]] = self._answer(pair[1])
            self._everything = everything
        return self._everything

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


_NOT_HERE = object()


def snapshot_tables(snapshot: Snapshot) -> dict[str, Mapping[str, Any]]:
    """The snapshot's tables as the mirror holds `GetTable` replies, each part read as asked."""
    return {
        table: {part: _Part(snapshot, table, part) for part in ("strings", "plurals", "sources")}
        for table in snapshot.table_names
    }
