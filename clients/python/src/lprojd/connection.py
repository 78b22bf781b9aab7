"""Connections to lprojd: a call for each method of its interface (the
generated `Calls`), over the package's own transport."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .environment import default_socket_path
from .errors import LprojdError, Unavailable
from .interface import INTERFACE, METHODS, Calls
from .transport import Transport

# How long a call may take before lprojd counts as unreachable: it answers
# in milliseconds, so this only catches a daemon that hangs.
CALL_TIMEOUT = 10.0


class Connection(Calls):
    """One connection for calls, one call at a time: `connection.get_selection(client=..., bundle=...)`.

    `path` is lprojd's socket: by default $LPROJD_SOCKET, else the user's, else the system's.
    As a context manager, it closes on leaving.
    """

    def __init__(self, path: str | None = None):
        self._transport = Transport(path or default_socket_path(os.environ), CALL_TIMEOUT)

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def _call(self, method: str, parameters: dict[str, Any]) -> dict[str, Any]:
        self._transport.send(f"{INTERFACE}.{method}", parameters)
        try:
            reply, _ = self._transport.receive()
        except Unavailable:
            # A reply that did not come whole leaves the connection unusable.
            self.close()
            raise
        return reply

    def _stream(self, method: str, parameters: dict[str, Any]) -> Iterator[dict[str, Any]]:
        self._transport.send(f"{INTERFACE}.{method}", parameters, more=True)
        return self._transport.replies()

    def call(self, method: str, **parameters: Any) -> dict[str, Any]:
        """Calls `method` by its name in the interface, with its parameters as the wire names them."""
        known = METHODS.get(method)
        if known is None or known.streams:
            raise TypeError(f"{method} is not a method of {INTERFACE} that answers once")
        unknown = set(parameters) - set(known.required) - set(known.optional)
        if unknown:
            raise TypeError(f"{method} has no parameter {', '.join(sorted(unknown))}")
        return self._call(method, parameters)

    def close(self) -> None:
        self._transport.close()


class Subscription:
    """A `Subscribe` call with more, on a connection of its own, once `ready` came."""

    def __init__(self, path: str, client_id: str, bundle: str):
        self._connection = Connection(path)
        try:
            self._replies = self._connection.subscribe(client=client_id, bundle=bundle)
            first = next(self._replies)["event"]
        except StopIteration as error:
            self.close()
            raise Unavailable("lprojd ended the subscription at once") from error
        except KeyError as error:
            self.close()
            raise Unavailable(f"lprojd's subscription began without an event: {error!r}") from error
        except LprojdError:
            self.close()
            raise
        if not isinstance(first, dict) or first.get("type") != "ready":
            self.close()
            raise Unavailable(f"lprojd's subscription did not begin with ready: {first!r}")
        # Events may be hours apart: from now on, only the end of the connection ends a read.
        self._connection._transport.settimeout(None)

    def events(self) -> Iterator[dict[str, Any]]:
        """The events as they come; ends when the daemon ends the subscription or the connection."""
        try:
            for reply in self._replies:
                event = reply.get("event")
                if isinstance(event, dict):
                    yield event
        except LprojdError:
            return

    def close(self) -> None:
        """Ends the subscription; a thread reading `events` stops."""
        self._connection.close()
