"""The localizer for asyncio: an async constructor, async calls to lprojd, and an async iterator of changes.

    from lprojd.aio import AsyncLocalizer

    async with await AsyncLocalizer.create("demo", "org.example.Service") as localizer:
        print(localizer.localized("welcome.title"))         # from memory, never waits
        await localizer.select("de")                          # saved in lprojd, applied before it returns
        async for change in localizer.changes():             # as lprojd announces them
            print(change.what, localizer.localized("welcome.title"))

It wraps the threaded `Localizer`: what waits for lprojd (creating, select, reset, formatted lookups,
Format) runs in the event loop's default executor, so the loop never blocks; the localizer's thread
hands each change to the loop with `call_soon_threadsafe`. Lookups without arguments answer from the
mirror at once, as `Localizer`'s do.

It works on any asyncio event loop: asyncio's own, and GLib's main loop where asyncio runs on it
(PyGObject 3.50 and later: `asyncio.set_event_loop_policy(gi.events.GLibEventLoopPolicy())`), where a GTK
app may `await` these calls from its handlers. Debian 12's PyGObject (3.42) has no such integration: a
GTK app there runs GLib's loop, not asyncio's, and uses `Localizer` with `main_context=` for its change
callbacks, or the C library's own `_async` calls through `gi.repository.Lprojd` (README.md).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Callable, TypeVar

from .changes import Change
from .localizer import Localizer
from .mirror import LocaleName, LocalizedValue

T = TypeVar("T")


class AsyncChangeStream:
    """An async iterator of changes, from its creation on, until the localizer closes.

    A reader that falls more than `capacity` changes behind loses the oldest: a change only says
    what to read again from the localizer, which is always up to date.
    """

    _END = object()

    def __init__(self, loop: asyncio.AbstractEventLoop, on_close: Callable[[AsyncChangeStream], None],
                 capacity: int = 256):
        self._loop = loop
        self._pending: collections.deque[Any] = collections.deque(maxlen=capacity)
        self._ready = asyncio.Event()
        self._on_close = on_close

    def put_threadsafe(self, change: Change) -> None:
        """From any thread: the change is queued on the event loop."""
        self._call_soon(self._put, change)

    def end_threadsafe(self) -> None:
        self._call_soon(self._put, self._END)

    def _call_soon(self, function: Callable[..., None], *arguments: Any) -> None:
        try:
            self._loop.call_soon_threadsafe(function, *arguments)
        except RuntimeError:
            pass  # the loop is closed: nobody is left to read

    def _put(self, item: Any) -> None:
        self._pending.append(item)
        self._ready.set()

    def __aiter__(self) -> AsyncChangeStream:
        return self

    async def __anext__(self) -> Change:
        while not self._pending:
            self._ready.clear()
            await self._ready.wait()
        if self._pending[0] is self._END:
            raise StopAsyncIteration
        change: Change = self._pending.popleft()
        return change

    async def get(self, timeout: float | None = None) -> Change | None:
        """The next change (None once the localizer closed); TimeoutError after `timeout` seconds."""
        try:
            return await asyncio.wait_for(self.__anext__(), timeout)
        except StopAsyncIteration:
            return None
        except asyncio.TimeoutError:
            raise TimeoutError(f"no change from lprojd in {timeout} s") from None

    def close(self) -> None:
        """Stops receiving changes; the iteration ends."""
        self._on_close(self)
        self._put(self._END)


class AsyncLocalizer:
    """A `Localizer` for asyncio code. Create it with `await AsyncLocalizer.create(...)`."""

    def __init__(self, localizer: Localizer, loop: asyncio.AbstractEventLoop):
        """Wraps a localizer (made with `main_context=False`); `create` is the way to get one."""
        self.localizer = localizer
        self._loop = loop
        self._streams: list[AsyncChangeStream] = []
        self._streams_lock = threading.Lock()  # the loop adds streams, the localizer's thread feeds them
        localizer.add_change_callback(self._on_change)

    @classmethod
    async def create(cls, bundle: str, client: str, socket_path: str | None = None, **options: Any) -> AsyncLocalizer:
        """Subscribes to lprojd and fetches the app's strings without blocking the event loop.

        The options are `Localizer`'s (`languages`, `environ`, `cache_directory`). Without lprojd it is
        made all the same, from the cached mirror, and connects when it can, as `Localizer` does.
        """
        loop = asyncio.get_running_loop()
        # Changes come on the localizer's thread; this class hands them to the loop.
        factory = functools.partial(Localizer, bundle, client, socket_path, main_context=False, **options)
        localizer = await loop.run_in_executor(None, factory)
        return cls(localizer, loop)

    # From memory: these never wait.

    @property
    def locale(self) -> str:
        """The locale the app's strings are in."""
        return self.localizer.locale

    @property
    def origin(self) -> str:
        """Where the answers come from: "daemon", "cache" or "none"."""
        return self.localizer.origin

    def localized(self, key: str, table: str = "Localizable", default: str | None = None,
                  placeholders: Mapping[str, str] | None = None) -> str:
        """The key's string in the app's language, from memory."""
        return self.localizer.localized(key, table, default, placeholders)

    def lookup(self, key: str, table: str = "Localizable", default: str | None = None,
               placeholders: Mapping[str, str] | None = None) -> LocalizedValue:
        """The key's value, whether it was found, and where it came from, from memory."""
        return self.localizer.lookup(key, table, default, placeholders)

    def supported_locales(self) -> list[LocaleName]:
        """The bundle's locales with their names: a language menu."""
        return self.localizer.supported_locales()

    # Asking lprojd: awaited, in the executor.

    async def _run(self, function: Callable[..., T], *arguments: Any, **keywords: Any) -> T:
        return await self._loop.run_in_executor(None, functools.partial(function, *arguments, **keywords))

    async def formatted(self, key: str, arguments: Sequence[Any], table: str = "Localizable",
                        default: str | None = None, placeholders: Mapping[str, str] | None = None) -> str:
        """The key formatted with arguments (plurals, numbers) by lprojd; Unavailable without it."""
        value = await self._run(self.localizer.lookup, key, table, default, placeholders, list(arguments))
        return value.value

    async def format(self, style: str, **parameters: Any) -> str:
        """A number, date or text in the app's language, by lprojd's `Format`."""
        return await self._run(self.localizer.format, style, **parameters)

    async def select(self, locale: str) -> str:
        """Saves the app's language in lprojd; the new strings answer once this returns. Returns the locale chosen."""
        return await self._run(self.localizer.select, locale)

    async def reset(self) -> str:
        """Forgets the app's saved language; returns the locale that applies now."""
        return await self._run(self.localizer.reset)

    # Changes.

    def changes(self) -> AsyncChangeStream:
        """An async iterator of the changes from now on; it ends when the localizer closes."""
        stream = AsyncChangeStream(self._loop, self._remove_stream)
        with self._streams_lock:
            self._streams.append(stream)
        return stream

    def _on_change(self, change: Change) -> None:
        # On the localizer's thread: each stream takes it on the loop.
        with self._streams_lock:
            streams = list(self._streams)
        for stream in streams:
            stream.put_threadsafe(change)

    def _remove_stream(self, stream: AsyncChangeStream) -> None:
        with self._streams_lock:
            if stream in self._streams:
                self._streams.remove(stream)

    async def aclose(self) -> None:
        """Stops following lprojd (lookups still answer from the last mirror); ends the change iterators."""
        await self._run(self.localizer.close)
        with self._streams_lock:
            streams, self._streams = self._streams, []
        for stream in streams:
            stream.end_threadsafe()

    async def __aenter__(self) -> AsyncLocalizer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

