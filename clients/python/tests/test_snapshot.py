"""The snapshot reader: what `lprojctl snapshot` writes reads back as lprojd's GetTable says; a damaged file is refused."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from conftest import CHANGE_TIMEOUT
from daemon import DEMO_BUNDLE, REPOSITORY
from lprojd import Localizer, Unavailable
from lprojd.snapshot import Snapshot, SnapshotError, choose_locale

LOCALES = ["en", "en-GB", "fr", "de", "ru", "ar", "ja", "pt-BR", "zh-Hans", "zh-Hant"]


def lprojctl() -> Path:
    """LPROJCTL, else the debug build in this repository."""
    return Path(os.environ.get("LPROJCTL") or REPOSITORY / ".build" / "debug" / "lprojctl")


@pytest.fixture
def shipped(tmp_path) -> Path:
    if not lprojctl().exists():
        pytest.fail(f"no lprojctl at {lprojctl()}: build it (swift build --product lprojctl) or set LPROJCTL")
    subprocess.run([lprojctl(), "snapshot", DEMO_BUNDLE, "-o", tmp_path, "--name", "demo"], check=True, capture_output=True)
    return tmp_path


def test_every_value_is_what_get_table_sends(shipped, daemon):
    with daemon.connection() as connection:
        for locale in LOCALES:
            snapshot = Snapshot.open(str(shipped / f"{locale}.lprojsnap"))
            snapshot.verify()
            assert (snapshot.bundle, snapshot.locale, snapshot.development_locale) == ("demo", locale, "en")
            for table in ["Localizable", "Menu"]:
                reply = connection.GetTable(bundle="demo", table=table, locale=locale)
                for key, value in reply["strings"].items():
                    assert snapshot.value(key, table) == value, (locale, table, key)
                    assert snapshot.lookup(key, table).source == reply["sources"][key]
                for key, entry in reply["plurals"].items():
                    found = snapshot.lookup(key, table)
                    assert found.value == entry["format"] and found.plural["format"] == entry["format"]
                    assert found.plural["variables"] == entry["variables"], (locale, key)
                assert snapshot.value("no such key", table) is None
    assert Snapshot.open(str(shipped / "ru.lprojsnap")).lookup("files.selected").signature == "i"


def test_a_truncated_or_damaged_snapshot_is_refused(shipped):
    data = (shipped / "ru.lprojsnap").read_bytes()
    for length in range(len(data)):
        with pytest.raises(SnapshotError):
            Snapshot(data[:length])
    for position in range(len(data)):
        damaged = bytearray(data)
        damaged[position] ^= 0x5A
        try:
            snapshot = Snapshot(bytes(damaged))
        except SnapshotError:
            continue
        for key in ["welcome.title", "files.selected", "greeting", "", "missing"]:
            snapshot.lookup(key)
        with pytest.raises(SnapshotError):
            snapshot.verify()


def test_a_file_others_can_write_is_read_not_mapped(shipped):
    path = shipped / "de.lprojsnap"
    for mode in (0o644, 0o666):
        os.chmod(path, mode)
        assert Snapshot.open(str(path)).value("welcome.title") == "Willkommen bei Demo"
    with pytest.raises(SnapshotError):
        Snapshot.open(str(shipped))
    with pytest.raises(SnapshotError):
        Snapshot.open(str(shipped / "missing.lprojsnap"))


def test_choosing_among_shipped_locales():
    shipped = ["ar", "de", "en", "en-GB", "pt-BR", "sr-Latn", "zh-Hans", "zh-Hant"]
    assert choose_locale(shipped, ["de-AT", "fr"], "en") == "de"
    assert choose_locale(shipped, ["fr", "en_GB"], "en") == "en-GB"
    assert choose_locale(shipped, ["zh-Hant-TW"], "en") == "zh-Hant"
    assert choose_locale(shipped, ["sr-Latn-RS"], "en") == "sr-Latn"
    assert choose_locale(shipped, ["pt-PT", "ar-EG"], "en") == "ar"
    assert choose_locale(shipped, ["sv"], "en") == "en"


def test_without_lprojd_the_shipped_snapshots_answer_until_it_comes(shipped, daemon, tmp_path):
    expected = daemon.demo_labels("ru")
    with daemon.connection() as connection:
        as_written = connection.Lookup(bundle="demo", key="files.selected", locale="ru")["value"]
    daemon.stop()
    client = f"org.lprojd.test.{uuid.uuid4().hex[:8]}"
    cache = str(tmp_path / "mirrors")
    with Localizer("demo", client, daemon.socket, languages=["ru-RU"], cache_directory=cache, fallback=str(shipped)) as localizer:
        assert (localizer.origin, localizer.locale) == ("snapshot", "ru")
        assert localizer.localized("welcome.title") == expected["title"]
        assert localizer.localized("menu.file", table="Menu") == expected["menu.file"]
        assert localizer.localized("files.selected") == as_written
        assert localizer.lookup("no.such.key", default="Default").value == "Default"
        assert "ja" in [name.locale for name in localizer.supported_locales()]
        with pytest.raises(Unavailable):
            localizer.localized("files.selected", arguments=[2])
        stream = localizer.changes()
        daemon.start()
        deadline = time.monotonic() + CHANGE_TIMEOUT
        while True:
            change = stream.get(timeout=max(0.0, deadline - time.monotonic()))
            assert change is not None, "the localizer closed"
            if "reconnected" in change.what:
                break
        assert (localizer.origin, localizer.locale) == ("daemon", "ru")
        assert localizer.localized("files.selected", arguments=[22]) == "Выбрано: 22 файла"
