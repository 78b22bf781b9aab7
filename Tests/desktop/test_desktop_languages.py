"""lprojd follows the desktop's languages (accountsservice on the system bus), live.

The bus is a real dbus-daemon. accountsservice is the real accounts-daemon
where it can run (as root, on the standard system bus address, which must be
free: it needs polkit, whose helper serves only that address); elsewhere a
python3-dbusmock object with the same interface (Tests/desktop/accounts_template.py).
Each test prints which it used.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness import REPOSITORY, Lprojd, SystemBus, Traced, artifacts_directory, call_as, demo_app, eventually, running

# "At once": from the bus's answer to SetLanguage to the app's new render.
SWITCH_TIMEOUT = 1.0

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="no display (make test runs these under xvfb-run)")
needs_bus = pytest.mark.skipif(shutil.which("dbus-daemon") is None or shutil.which("busctl") is None,
                               reason="dbus-daemon and busctl are missing (Debian packages dbus-daemon, systemd)")


def c_locale() -> dict[str, str]:
    """An environment whose process sends no languages of its own (the C locale): the desktop's decide."""
    environment = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    environment["LANG"] = "C.UTF-8"
    return environment


def session_locale(lang: str) -> dict[str, str]:
    """An environment as GNOME's session gives the apps it starts: the desktop's language at login, in LANG."""
    environment = c_locale()
    environment["LANG"] = lang
    return environment


# root's desktop in German, nobody's in Japanese.
TWO_USERS = {"uids": [0, 65534], "language_by_uid": {"0": "de_DE.UTF-8", "65534": "ja_JP.UTF-8"}}


@contextmanager
def system_bus_only() -> Iterator[SystemBus]:
    """A system bus of the test's own, without accountsservice until the test starts it; gone after."""
    directory = Path(tempfile.mkdtemp(prefix="lprojd-bus-"))
    bus = SystemBus(directory).start_bus_only()
    try:
        yield bus
    finally:
        bus.stop()
        shutil.rmtree(directory, ignore_errors=True)


def lookup(lprojd: Lprojd, key: str, locale: str) -> str:
    return lprojd.call("Lookup", bundle="demo", key=key, locale=locale)["value"]


def test_without_a_system_bus_lprojd_works_as_before_and_says_once_why():
    lprojd = Lprojd().start()
    with running(lprojd):
        # Calls with client ids make the system's lprojd follow their user's desktop, which it cannot.
        selection = lprojd.call("GetSelection", client="org.example.App", bundle="demo", preferredLanguages=["de_AT"])
        assert selection["selection"] == {"client": "org.example.App", "bundle": "demo", "locale": "de", "reason": "preferred"}
        assert lprojd.call("Lookup", bundle="demo", key="welcome.title", client="org.example.App")["value"] == "Willkommen bei Demo"
        assert lprojd.call("GetSelection", client="org.example.Other", bundle="demo")["selection"]["reason"] == "default"
        lprojd.wait_for_log("not following the desktop's languages: no system bus")
        assert lprojd.log().count("not following the desktop's languages") == 1


@needs_bus
def test_without_accountsservice_lprojd_works_as_before_and_says_once_why():
    directory = Path(tempfile.mkdtemp(prefix="lprojd-bus-"))
    path = directory / "bus"
    pid = int(subprocess.run(["dbus-daemon", "--session", f"--address=unix:path={path}", "--fork", "--print-pid",
                              "--nopidfile"], capture_output=True, text=True, check=True, timeout=30).stdout.split()[0])
    lprojd = Lprojd(system_bus=f"unix:path={path}").start()
    try:
        assert lprojd.call("GetSelection", client="org.example.App", bundle="demo",
                           preferredLanguages=["fr"])["selection"]["locale"] == "fr"
        lprojd.wait_for_log("accountsservice does not answer on the system bus")
        assert lprojd.call("GetSelection", client="org.example.Other", bundle="demo")["selection"]["reason"] == "default"
        assert lprojd.log().count("not following the desktop's languages") == 1
    finally:
        lprojd.close()
        os.kill(pid, 15)
        shutil.rmtree(directory, ignore_errors=True)


@needs_bus
def test_accountsservice_that_starts_later_is_followed():
    with system_bus_only() as bus:
        lprojd = Lprojd(system_bus=bus.address).start()
        with running(lprojd):
            def follower() -> str:
                return lprojd.call("GetSelection", client="org.example.Follower", bundle="demo")["selection"]["locale"]

            assert follower() == "en"
            lprojd.wait_for_log("accountsservice does not answer on the system bus")
            bus.start_mock_accounts({"uids": [0], "language": "ja_JP.UTF-8"})
            print(f"accountsservice: {bus.kind}")
            # NameOwnerChanged: lprojd reads root's languages, and the app follows them.
            eventually(follower, "ja")
            assert lprojd.call("ListClients")["clients"][0]["bundles"][0]["reason"] == "preferred"


@needs_bus
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv to act as a second user")
def test_the_systems_lprojd_follows_each_users_own_desktop():
    with system_bus_only() as bus:
        bus.start_mock_accounts(TWO_USERS)
        print(f"accountsservice: {bus.kind}")
        lprojd = Lprojd(system_bus=bus.address).start()
        with running(lprojd):
            def mine() -> str:
                return lprojd.call("GetSelection", client="org.example.App", bundle="demo")["selection"]["locale"]

            def nobodys() -> str:
                return call_as(65534, lprojd.socket, "GetSelection", client="org.example.App",
                               bundle="demo")["selection"]["locale"]

            eventually(mine, "de")
            # Another user's app of the same id: that user's desktop, once its first call made lprojd follow it.
            eventually(nobodys, "ja")
            assert mine() == "de"
            assert [client["client"] for client in call_as(65534, lprojd.socket, "ListClients")["clients"]] == ["org.example.App"]
            bus.busctl("call", "org.freedesktop.Accounts", "/org/freedesktop/Accounts/User65534",
                       "org.freedesktop.Accounts.User", "SetLanguage", "s", "fr_FR.UTF-8")
            eventually(nobodys, "fr")
            assert mine() == "de"


@needs_bus
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv to act as a second user")
def test_a_users_lprojd_follows_its_own_users_desktop():
    with system_bus_only() as bus:
        bus.start_mock_accounts(TWO_USERS)
        print(f"accountsservice: {bus.kind}")
        # nobody's own lprojd, as `systemctl --user` runs it: it follows nobody's desktop from the start.
        lprojd = Lprojd(system_bus=bus.address, as_user=65534).start()
        with running(lprojd):
            lprojd.wait_for_log("the desktop's languages of uid 65534 are now ja-JP")
            assert call_as(65534, lprojd.socket, "GetSelection", client="org.example.App",
                           bundle="demo")["selection"] == {"client": "org.example.App", "bundle": "demo", "locale": "ja",
                                                           "reason": "preferred"}
            assert "uid 0" not in lprojd.log()


@needs_bus
@needs_display
def test_the_desktops_language_switches_every_app_that_follows_it_live():
    directory = Path(tempfile.mkdtemp(prefix="lprojd-desktop-bus-"))
    artifacts = artifacts_directory("desktop-language")
    bus = SystemBus(directory).start()
    print(f"accountsservice: {bus.kind}, on {bus.address}")
    try:
        bus.set_language("de_DE.UTF-8")
        lprojd = Lprojd(system_bus=bus.address).start()
        with running(lprojd):
            # An app's own choice, and an app whose process's languages the bundle has: both stay.
            lprojd.call("SelectLocale", client="org.example.Chooser", bundle="demo", locale="ja")
            assert lprojd.call("GetSelection", client="org.example.Russian", bundle="demo",
                               preferredLanguages=["ru_RU"])["selection"]["locale"] == "ru"
            # Started as GNOME's session starts apps: with the login's language, which they keep until the next login.
            demo = demo_app(lprojd.socket, artifacts / "demo.log", environment=session_locale("de_DE.UTF-8"),
                            screenshots=artifacts)
            apps: list[Traced] = [demo]
            swift_demo = os.environ.get("LPROJ_SWIFT_DEMO") or str(REPOSITORY / ".build" / "debug" / "lproj-swift-demo")
            swift = None
            if os.access(swift_demo, os.X_OK):
                swift = Traced("the Swift demo", [swift_demo, "--socket", lprojd.socket], session_locale("de_DE.UTF-8"),
                               artifacts / "swift.log", quit="quit")
                apps.append(swift)
            with running(*apps):
                # The desktop says German, and so does the apps' LANG, which the desktop gave them.
                german = demo.wait_for(lambda r: r.get("event") == "render" and r["locale"] == "de")
                assert german["labels"]["title"] == lookup(lprojd, "welcome.title", "de")
                if swift:
                    swift.wait_for(lambda r: r.get("event") == "render" and r.get("locale") == "de")

                started = time.monotonic()
                bus.set_language("fr_FR.UTF-8")
                french = demo.wait_for(lambda r: r.get("event") == "render" and r["locale"] == "fr", timeout=10)
                elapsed = time.monotonic() - started
                print(f"the GTK demo showed French {elapsed * 1000:.0f} ms after SetLanguage")
                assert elapsed < SWITCH_TIMEOUT
                assert french["labels"]["title"] == lookup(lprojd, "welcome.title", "fr") == "Bienvenue dans Demo"
                assert french["labels"]["settings"] == lookup(lprojd, "settings.title", "fr")
                if swift:
                    swift.wait_for(lambda r: r.get("event") == "render" and r.get("locale") == "fr", timeout=10)
                demo.wait_for(lambda r: r.get("event") == "screenshot" and r["render"] == french["render"])

                # The apps' LANG still says German, the desktop's language before: the desktop's count first.
                # Choices stay; a process's own languages (Russian, which the desktop never had) count first.
                assert lprojd.call("GetSelection", client="org.example.Chooser", bundle="demo")["selection"]["locale"] == "ja"
                assert lprojd.call("GetSelection", client="org.example.Russian", bundle="demo")["selection"]["locale"] == "ru"
                demo_selection = lprojd.call("GetSelection", client="org.lprojd.GtkDemo", bundle="demo")["selection"]
                assert demo_selection == {"client": "org.lprojd.GtkDemo", "bundle": "demo", "locale": "fr", "reason": "preferred"}
                listed = {client["client"]: client["bundles"][0] for client in lprojd.call("ListClients")["clients"]}
                assert listed["org.lprojd.GtkDemo"]["reason"] == "preferred" and listed["org.lprojd.GtkDemo"]["locale"] == "fr"
                assert listed["org.example.Chooser"]["reason"] == "selected"
                # The names are in the desktop's language now.
                names = {name["locale"]: name["name"] for name in lprojd.call("ListClients")["bundles"][0]["locales"]}
                assert names["de"] == "Allemand"
    finally:
        bus.stop()
        shutil.rmtree(directory, ignore_errors=True)
