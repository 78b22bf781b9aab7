"""How an app hears of changes: callbacks (on a GLib main loop if it runs one) and blocking streams."""

from __future__ import annotations

import collections
import logging
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("lprojd")


@dataclass(frozen=True)
class Change:
    """What changed, told after the new mirror is in place.

    `what` holds some of "locale", "tables", "locales", "preferences",
    "bundle" and "reconnected"; `tables` names the tables that were fetched
    again (all of them when the locale changed).
    """

    what: frozenset[str]
    locale: str
    previous_locale: str | None = None
    tables: frozenset[str] = frozenset()


class ChangeStream:
    """A blocking iterator of changes, from its creation on, until the localizer closes.

    A reader that falls more than `capacity` changes behind loses the oldest:
    each change only says what to read again from the localizer, which is
    always up to date.
    """

    _END = object()

    def __init__(self, on_close: Callable[[ChangeStream], None], capacity: int = 256):
        self._pending: collections.deque[Any] = collections.deque(maxlen=capacity)
        self._ready = threading.Condition()
        self._on_close = on_close

    def put(self, change: Change) -> None:
        with self._ready:
            self._pending.append(change)
            self._ready.notify_all()

    def end(self) -> None:
        with self._ready:
            self._pending.append(self._END)
            self._ready.notify_all()

    def get(self, timeout: float | None = None) -> Change | None:
        """The next change, None once the stream or the localizer is closed.

        TimeoutError if none comes within `timeout` seconds.
        """
        with self._ready:
            if not self._ready.wait_for(lambda: self._pending, timeout):
                raise TimeoutError(f"no change from lprojd in {timeout} s")
            if self._pending[0] is self._END:
                return None
            change: Change = self._pending.popleft()
            return change

    def __iter__(self) -> Iterator[Change]:
        return self

    def __next__(self) -> Change:
        change = self.get()
        if change is None:
            raise StopIteration
        return change

    def close(self) -> None:
        """Stops receiving changes."""
        self._on_close(self)
        self.end()

    def __enter__(self) -> ChangeStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Dispatcher:
    """Runs change callbacks on a GLib main context, or on the localizer's own thread.

    `main_context` is a GLib.MainContext, False (never GLib), or None: then
    the default main context while a main loop runs it, if the app imported
    GLib; else the localizer's thread.
    """

    def __init__(self, main_context: Any = None):
        self._main_context = main_context

    def dispatch(self, function: Callable[[], None]) -> None:
        context = self._context()
        if context is None:
            function()
            return
        from gi.repository import GLib

        def run_once(*_: object) -> bool:
            function()
            return False  # GLib.SOURCE_REMOVE

        source = GLib.Idle()
        source.set_callback(run_once)
        source.attach(context)

    def _context(self) -> Any:
        if self._main_context is not None:
            return self._main_context or None
        # Only an app that uses GLib has imported it; a plain script is not made to load it.
        glib = sys.modules.get("gi.repository.GLib")
        if glib is None:
            return None
        context = glib.MainContext.default()
        # A running main loop holds its context: if this thread can take it, no loop runs.
        if bool(context.acquire()):
            context.release()
            return None
        return context


def call_safely(callback: Callable[[Change], None], change: Change) -> None:
    """Calls a change callback; its exception is logged, not let through to the localizer."""
    try:
        callback(change)
    except Exception:
        log.exception("a change callback of the localizer failed")
