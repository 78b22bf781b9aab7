"""The asyncio API against the real lprojd: an async constructor, async select and reset, formatted
lookups, and an async iterator of changes; the event loop runs while lprojd is stopped (SIGSTOP); and,
where PyGObject has asyncio integration (3.50 on), the same on GLib's main loop."""

from __future__ import annotations

import asyncio
import os
import signal
import uuid

import pytest

from conftest import CHANGE_TIMEOUT
from lprojd import AsyncLocalizer, InvalidLocale


def client_id() -> str:
    return f"org.lprojd.test.{uuid.uuid4().hex[:8]}"


async def next_change(stream, what: str):
    """The next change that includes `what`, failing after CHANGE_TIMEOUT."""
    async def find():
        async for change in stream:
            if what in change.what:
                return change
        pytest.fail("the stream ended")

    return await asyncio.wait_for(find(), CHANGE_TIMEOUT)


async def select_elsewhere(daemon, client: str, locale: str) -> None:
    """Another process selects for the app (in a thread: the reference client blocks)."""
    def select():
        with daemon.connection() as connection:
            connection.SelectLocale(client=client, bundle="demo", locale=locale)

    await asyncio.get_running_loop().run_in_executor(None, select)


async def scenario(daemon, cache_directory) -> None:
    client = client_id()
    async with await AsyncLocalizer.create(
        "demo", client, daemon.socket, languages=["en"], cache_directory=cache_directory
    ) as localizer:
        assert (localizer.locale, localizer.origin) == ("en", "daemon")
        assert localizer.localized("welcome.title") == "Welcome to Demo"
        assert localizer.localized("greeting", placeholders={"name": "Ada"}) == "Hello, Ada!"
        assert await localizer.formatted("files.selected", [1]) == "1 file selected"
        changes = localizer.changes()
        assert await localizer.select("de") == "de"
        assert localizer.localized("welcome.title") == "Willkommen bei Demo"
        assert (await next_change(changes, "locale")).locale == "de"
        assert await localizer.format("decimal", number=1234.5) == "1.234,5"
        with pytest.raises(InvalidLocale):
            await localizer.select("not a locale!")

        await select_elsewhere(daemon, client, "fr")
        change = await next_change(changes, "locale")
        assert (change.locale, change.previous_locale) == ("fr", "de")
        assert localizer.localized("welcome.title") == "Bienvenue dans Demo"
        assert [name.native_name for name in localizer.supported_locales() if name.locale == "ru"] == ["Русский"]
        assert await localizer.reset() == "en"
    # Closing ends the iterators (after the changes not read yet).
    while await changes.get(timeout=CHANGE_TIMEOUT) is not None:
        pass


def test_asyncio(daemon, cache_directory):
    asyncio.run(scenario(daemon, cache_directory))


def signal_and_wait(daemon, sig: int) -> None:
    """Sends SIGSTOP or SIGCONT, and returns once lprojd is stopped, or runs again (not before: kill returns
    before every thread stopped). The process stays waitable."""
    daemon.process.send_signal(sig)
    os.waitid(os.P_PID, daemon.process.pid, (os.WSTOPPED if sig == signal.SIGSTOP else os.WCONTINUED) | os.WNOWAIT)


async def ticks_while(awaitable, interval: float = 0.02):
    """Awaits `awaitable` while a task counts ticks of the loop; returns its result and the ticks."""
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            await asyncio.sleep(interval)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        result = await awaitable
    finally:
        ticker.cancel()
    return result, ticks


def test_the_event_loop_runs_while_lprojd_is_stopped(daemon, cache_directory):
    async def stopped_for_a_while():
        await asyncio.sleep(0.5)
        signal_and_wait(daemon, signal.SIGCONT)

    async def run():
        signal_and_wait(daemon, signal.SIGSTOP)
        asyncio.get_running_loop().create_task(stopped_for_a_while())
        localizer, ticks = await ticks_while(AsyncLocalizer.create(
            "demo", client_id(), daemon.socket, languages=["en"], cache_directory=cache_directory))
        assert ticks >= 10, "the event loop waited for lprojd while it was stopped"
        async with localizer:
            assert localizer.origin == "daemon"
            signal_and_wait(daemon, signal.SIGSTOP)
            asyncio.get_running_loop().create_task(stopped_for_a_while())
            locale, ticks = await ticks_while(localizer.select("ru"))
            assert (locale, ticks >= 10) == ("ru", True)
            assert localizer.localized("welcome.title") == "Добро пожаловать в Demo"

    asyncio.run(run())


def test_on_glibs_main_loop(daemon, cache_directory):
    """asyncio on GLib's main loop (PyGObject 3.50 on): a GLib timeout fires while the calls are awaited."""
    GLib = pytest.importorskip("gi.repository.GLib", reason="PyGObject (gi) is not installed")
    events = pytest.importorskip(
        "gi.events", reason="this PyGObject has no asyncio integration (Debian 12's is 3.42; it came in 3.50)")
    fired = []

    def on_timeout():
        fired.append(True)
        return GLib.SOURCE_CONTINUE

    async def run():
        source = GLib.timeout_add(10, on_timeout)
        try:
            await scenario(daemon, cache_directory)
        finally:
            GLib.source_remove(source)

    # The loop of GLib's default main context, as a GTK app's is: asyncio.run() would make another.
    policy = asyncio.get_event_loop_policy()
    asyncio.set_event_loop_policy(events.GLibEventLoopPolicy())
    try:
        loop = asyncio.get_event_loop()
        loop.run_until_complete(run())
        loop.close()
    finally:
        asyncio.set_event_loop_policy(policy)
    assert fired, "GLib's timeout never fired: asyncio did not run on GLib's main loop"
