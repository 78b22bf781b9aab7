"""Connections to lprojd through the reference `varlink` client."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import varlink

from .errors import INTERFACE, Unavailable, from_varlink

# How long a call may take before lprojd counts as unreachable: it answers
# in milliseconds, so this only catches a daemon that hangs.
CALL_TIMEOUT = 10.0


def _connect(client: varlink.Client, path: str, timeout: float | None) -> tuple[socket.socket, Any]:
    """A new connection and its interface handle (the first one also reads the interface)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
        return sock, client.open(INTERFACE, connection=sock)
    except varlink.VarlinkError as error:
        sock.close()
        raise from_varlink(error) from None
    except (OSError, ValueError) as error:
        sock.close()
        raise Unavailable(f"lprojd is not reachable at {path}: {error}") from error


class Connection:
    """One connection for calls, one call at a time; errors become the package's."""

    def __init__(self, client: varlink.Client, path: str):
        _, self._handle = _connect(client, path, CALL_TIMEOUT)

    def call(self, method: str, **parameters: Any) -> dict[str, Any]:
        """Calls `method`; parameters that are None are left out."""
        try:
            reply: dict[str, Any] = getattr(self._handle, method)(**parameters)
            return reply
        except varlink.VarlinkError as error:
            raise from_varlink(error) from None
        except (OSError, ValueError) as error:
            # A reply that does not parse also means the connection is unusable.
            self.close()
            raise Unavailable(f"lprojd did not answer {method}: {error}") from error

    def close(self) -> None:
        self._handle.close()


class Subscription:
    """A `Subscribe` call with more, on a connection of its own, once `ready` came."""

    def __init__(self, client: varlink.Client, path: str, client_id: str, bundle: str):
        self._socket, self._handle = _connect(client, path, CALL_TIMEOUT)
        try:
            self._replies = self._handle.Subscribe(client=client_id, bundle=bundle, _more=True)
            first = next(self._replies)["event"]
        except varlink.VarlinkError as error:
            self.close()
            raise from_varlink(error) from None
        except (OSError, ValueError, StopIteration) as error:
            self.close()
            raise Unavailable(f"lprojd did not accept the subscription: {error!r}") from error
        if first.get("type") != "ready":
            self.close()
            raise Unavailable(f"lprojd's subscription began with {first.get('type')}, not ready")
        # Events may be hours apart: from now on, only the end of the connection ends a read.
        self._socket.settimeout(None)

    def events(self) -> Iterator[dict[str, Any]]:
        """The events as they come; ends when the daemon ends the subscription or the connection."""
        try:
            for reply in self._replies:
                yield reply["event"]
        except (OSError, ValueError, varlink.VarlinkError):
            return

    def close(self) -> None:
        """Ends the subscription; a thread reading `events` stops."""
        try:
            # shutdown, not only close, wakes a thread blocked reading the socket.
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
