"""The panel's files as a package ships them: its AppStream metainfo and its own translated texts (no display needed)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from harness import REPOSITORY

PANEL = REPOSITORY / "panel"
KEY = re.compile(r'^"([^"\\]+)"\s*=', re.MULTILINE)


def keys(table) -> set[str]:
    return set(KEY.findall(table.read_text(encoding="utf-8")))


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli is missing (Debian package appstream)")
def test_appstream_accepts_the_metainfo():
    result = subprocess.run(["appstreamcli", "validate", "--no-net", str(PANEL / "org.lprojd.Panel.metainfo.xml")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Validation was successful" in result.stdout


def test_every_language_of_the_panel_has_every_text():
    tables = sorted(PANEL.glob("Localizations/*.lproj/Localizable.strings"))
    english = keys(PANEL / "Localizations" / "en.lproj" / "Localizable.strings")
    assert len(english) > 10 and len(tables) >= 3
    for table in tables:
        assert keys(table) == english, table

