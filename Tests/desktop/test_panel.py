"""The panel (panel/) and the GTK demo against one real lprojd, under xvfb-run and dbus-run-session.

A person chooses French for the demo app in the panel, with the keyboard
alone; the demo's window shows French within a second, without a restart.
The panel is read as a screen reader reads it (AT-SPI) and typed on as a
person types (xdotool): it has no channel for tests. It stands on the C
library of this clone through introspection, and its own texts come from
lprojd (its bundle org.lprojd.Panel). Screenshots, read off the screen, are
kept in Tests/desktop/artifacts/panel/ (LPROJD_TEST_ARTIFACTS).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import accessibility
from harness import (GTK_DEMO, PANEL, PANEL_BUNDLE, REPOSITORY, Keyboard, Lprojd, artifacts_directory, demo_app, panel, running,
                     screenshot)

SWITCH_TIMEOUT = 1.0
DEMO = "org.lprojd.GtkDemo"
TITLE = "App Languages"
DEMO_ROW = "Language of lprojd GTK Demo"

pytestmark = [
    pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="no display (make test runs these under xvfb-run)"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is missing (Debian package xdotool)"),
    pytest.mark.skipif(accessibility.available() is not None, reason=str(accessibility.available())),
]


def desktop_environment(directory: Path) -> dict[str, str]:
    """The C locale (the panel in English), and the apps' desktop files where GIO looks for them."""
    applications = directory / "share" / "applications"
    applications.mkdir(parents=True)
    shutil.copy(GTK_DEMO / f"{DEMO}.desktop", applications / f"{DEMO}.desktop")
    # GIO takes an app's file only if its command exists: the panel's, from this clone.
    desktop_file = (REPOSITORY / "panel" / "org.lprojd.Panel.desktop").read_text()
    (applications / "org.lprojd.Panel.desktop").write_text(desktop_file.replace("Exec=lprojd-panel", f"Exec={PANEL}"))
    environment = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    environment["LANG"] = "C.UTF-8"
    environment["XDG_DATA_HOME"] = str(directory / "home")
    environment["XDG_DATA_DIRS"] = f"{directory / 'share'}:/usr/local/share:/usr/share"
    return environment


def side_by_side(left: Path, right: Path, output: Path) -> None:
    """The two windows in one picture (the README's), as GdkPixbuf composes it."""
    import gi

    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf

    first, second = GdkPixbuf.Pixbuf.new_from_file(str(left)), GdkPixbuf.Pixbuf.new_from_file(str(right))
    gap = 16
    width, height = first.get_width() + gap + second.get_width(), max(first.get_height(), second.get_height())
    canvas = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, True, 8, width, height)
    canvas.fill(0x00000000)
    first.copy_area(0, 0, first.get_width(), first.get_height(), canvas, 0, 0)
    second.copy_area(0, 0, second.get_width(), second.get_height(), canvas, first.get_width() + gap, 0)
    canvas.savev(str(output), "png", [], [])


def rows(window) -> dict[str, str]:
    """The apps the panel lists, as a screen reader says them: each row's name and description, in order."""
    return {node.get_name(): node.get_description() for node in accessibility.walk(window)
            if node.get_role_name() == "combo box"}


def chosen(window, name: str) -> str:
    """The entry a row's list shows as chosen: the last label inside the row."""
    row = next(node for node in accessibility.walk(window) if node.get_role_name() == "combo box" and node.get_name() == name)
    return [node.get_name() for node in accessibility.walk(row) if node.get_role_name() == "label"][-1]


def wait_for_rows(window, predicate, what: str, timeout: float = 10.0) -> dict[str, str]:
    return accessibility.wait_until(lambda: rows(window), predicate, what, timeout)


def offered(lprojd: Lprojd) -> list[str]:
    """The demo row's list as the panel offers it: the system language, then each language the bundle has."""
    reply = lprojd.call("ListClients", locale="en")
    names = next(bundle for bundle in reply["bundles"] if bundle["bundle"] == "demo")["locales"]
    return ["Use the system language"] + [
        name["nativeName"] if name["nativeName"] == name["name"] else f"{name['nativeName']} — {name['name']}"
        for name in names]


def search(keyboard: Keyboard, text: str) -> None:
    """Ctrl+F, everything typed before selected, then the text (none: the search emptied)."""
    keyboard.press("ctrl+f", "ctrl+a", "BackSpace")
    if text:
        keyboard.type(text)


def test_choosing_a_language_in_the_panel_switches_the_running_app_live():
    directory = Path(tempfile.mkdtemp(prefix="lprojd-panel-"))
    artifacts = artifacts_directory("panel")
    environment = desktop_environment(directory)
    lprojd = Lprojd(bundles=(PANEL_BUNDLE,)).start()
    demo = demo_app(lprojd.socket, artifacts / "demo.log", environment=environment, screenshots=artifacts)
    the_panel = panel(lprojd.socket, artifacts / "panel.log", environment=environment)
    with running(lprojd, demo, the_panel):
        # Another app of this user, with no desktop file here: shown by its client id.
        lprojd.call("Lookup", bundle="demo", key="welcome.title", client="org.example.Editor")
        first = demo.wait_for(lambda r: r.get("event") == "render")
        assert first["locale"] == "en"
        # The panel lists the demo by its desktop file's name, in the language it uses, following the system;
        # and itself, whose own texts lprojd serves.
        window = accessibility.window(TITLE)
        shown = wait_for_rows(window, lambda found: DEMO_ROW in found and "org.example.Editor" in str(found), "the demo's row")
        assert shown[DEMO_ROW] == "English, the app's own language"
        assert chosen(window, DEMO_ROW) == "Use the system language"
        assert list(shown) == ["Language of App Languages", DEMO_ROW, "Language of org.example.Editor"]
        screenshot(TITLE, artifacts / "panel-before.png")

        # A person chooses French for the demo, with the keyboard alone: Ctrl+F, the app's name, Tab to
        # its row, Enter opens its list, the arrows go to French, Enter chooses it.
        keyboard = Keyboard(TITLE)
        search(keyboard, "gtk")
        wait_for_rows(window, lambda found: list(found) == [DEMO_ROW], "only the demo's row")
        keyboard.press("Tab", "Return")
        keyboard.press(*["Down"] * offered(lprojd).index("Français — French"))
        started = time.monotonic()
        keyboard.press("Return")
        french = demo.wait_for(lambda r: r.get("event") == "render" and r["locale"] == "fr", timeout=10)
        elapsed = time.monotonic() - started
        print(f"the demo showed French {elapsed * 1000:.0f} ms after the choice in the panel")
        assert elapsed < SWITCH_TIMEOUT
        for label, key in (("title", "welcome.title"), ("settings", "settings.title")):
            assert french["labels"][label] == lprojd.call("Lookup", bundle="demo", key=key, locale="fr")["value"]
        assert french["labels"]["title"] == "Bienvenue dans Demo"
        assert lprojd.call("GetSelection", client=DEMO, bundle="demo")["selection"]["locale"] == "fr"
        wait_for_rows(window, lambda found: found.get(DEMO_ROW) == "Français — French, chosen for this app", "French")
        assert chosen(window, DEMO_ROW) == "Français — French"
        demo.wait_for(lambda r: r.get("event") == "screenshot" and r["render"] == french["render"])
        shutil.copy(artifacts / f"render-{french['render']:03d}.png", artifacts / "demo-french.png")
        search(keyboard, "")
        wait_for_rows(window, lambda found: len(found) == 3, "every app again")
        screenshot(TITLE, artifacts / "panel-french.png")
        side_by_side(artifacts / "panel-french.png", artifacts / "demo-french.png", artifacts / "panel-and-demo.png")

        # Both windows as a screen reader reads them: every control named.
        demo_window = accessibility.window("Bienvenue dans Demo")
        accessibility.wait_for_text(demo_window, "Bienvenue dans Demo")
        assert lprojd.call("Lookup", bundle="demo", key="settings.title", locale="fr")["value"] in accessibility.texts(demo_window)
        assert accessibility.unnamed_controls(window) == []
        assert [accessibility.describe(node)["role"] for node in accessibility.walk(window)
                if node.get_name() == "Search apps"] == ["entry"]

        # A change made elsewhere (lprojctl select, the app's own menu): the panel follows.
        lprojd.call("SelectLocale", client=DEMO, bundle="demo", locale="de")
        wait_for_rows(window, lambda found: found.get(DEMO_ROW) == "Deutsch — German, chosen for this app", "German")
        demo.wait_for(lambda r: r.get("event") == "render" and r["locale"] == "de")

        # "Use the system language", chosen with the keyboard (Home: the list's first entry): the choice goes (no desktop here: the
        # development locale).
        search(keyboard, "gtk")
        wait_for_rows(window, lambda found: list(found) == [DEMO_ROW], "only the demo's row")
        keyboard.press("Tab", "Return")
        keyboard.press("Home", "Return")
        demo.wait_for(lambda r: r.get("event") == "render" and r["locale"] == "en", timeout=10)
        wait_for_rows(window, lambda found: found.get(DEMO_ROW) == "English, the app's own language", "the system's")
        assert chosen(window, DEMO_ROW) == "Use the system language"
        assert lprojd.call("GetSelection", client=DEMO, bundle="demo")["selection"]["reason"] == "default"

        # The search filters by name or client id, and says when nothing matches.
        search(keyboard, "nothing like it")
        wait_for_rows(window, lambda found: found == {}, "no row")
        accessibility.wait_for_text(window, "No app matches “nothing like it”.")
        search(keyboard, "editor")
        wait_for_rows(window, lambda found: list(found) == ["Language of org.example.Editor"], "the editor by name")
        search(keyboard, "GtkDemo")
        wait_for_rows(window, lambda found: list(found) == [DEMO_ROW], "the demo by its client id")
        search(keyboard, "")

        # The panel's own language, chosen for it (here as lprojctl select would): it speaks French at once.
        lprojd.call("SelectLocale", client="org.lprojd.Panel", bundle="org.lprojd.Panel", locale="fr")
        window = accessibility.window("Langues des applications")
        shown = wait_for_rows(window, lambda found: "Langue de lprojd GTK Demo" in found, "the rows in French")
        assert shown["Langue de lprojd GTK Demo"] == "English — Anglais, la langue propre de l’application", shown
        assert "Rechercher des applications" in [node.get_name() for node in accessibility.walk(window)]
        screenshot("Langues des applications", artifacts / "panel-in-french.png")

        # lprojd goes away: the panel says so; it comes back: the panel connects again by itself.
        lprojd.stop()
        accessibility.wait_for_text(window, "lprojd ne fonctionne pas")
        assert rows(window) == {}
        lprojd.start()
        wait_for_rows(window, lambda found: "Langue de lprojd GTK Demo" in found, "the rows once lprojd is back",
                      timeout=20)
        assert "lprojd ne fonctionne pas" not in accessibility.texts(window)
    shutil.rmtree(directory, ignore_errors=True)
