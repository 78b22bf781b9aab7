"""Varlink over a Unix socket, as lprojd speaks it: messages of JSON, each
ended by a NUL, a call's replies in order. What comes back is bounded
before it is parsed: a reply over 64 MiB (1 MiB for each of a stream's
after the first) or nested deeper than 64 ends the connection, as the C
library's does."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

from .errors import Unavailable
from .interface import daemon_error

MAX_REPLY = 64 * 1024 * 1024
MAX_STREAMED = 1024 * 1024
MAX_DEPTH = 64
_READ_CHUNK = 64 * 1024


def _depth_ok(text: bytes, limit: int) -> bool:
    """Whether no array or object nests deeper than `limit` (brackets in strings are text)."""
    depth = 0
    in_string = escaped = False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


class Transport:
    """One connection to lprojd: a call at a time, its replies read as they come."""

    def __init__(self, path: str, timeout: float | None):
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._socket.settimeout(timeout)
            self._socket.connect(path)
        except OSError as error:
            self._socket.close()
            raise Unavailable(f"lprojd is not reachable at {path}: {error}") from error
        self._buffer = bytearray()

    def settimeout(self, timeout: float | None) -> None:
        self._socket.settimeout(timeout)

    def send(self, method: str, parameters: dict[str, Any], more: bool = False) -> None:
        """Sends a call; parameters that are None are left out."""
        message: dict[str, Any] = {
            "method": method,
            "parameters": {name: value for name, value in parameters.items() if value is not None},
        }
        if more:
            message["more"] = True
        try:
            self._socket.sendall(json.dumps(message).encode() + b"\0")
        except OSError as error:
            raise Unavailable(f"lprojd did not take {method}: {error}") from error

    def receive(self, limit: int = MAX_REPLY) -> tuple[dict[str, Any], bool]:
        """The next reply's parameters and whether more follow; an error reply is raised as its class."""
        while True:
            end = self._buffer.find(b"\0")
            if end >= 0:
                break
            if len(self._buffer) > limit:
                raise Unavailable(f"a reply of lprojd is over {limit} bytes")
            try:
                chunk = self._socket.recv(_READ_CHUNK)
            except OSError as error:
                raise Unavailable(f"lprojd did not answer: {error}") from error
            if not chunk:
                raise Unavailable("lprojd closed the connection")
            self._buffer += chunk
        if end > limit:
            raise Unavailable(f"a reply of lprojd is over {limit} bytes")
        text = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        if not _depth_ok(text, MAX_DEPTH):
            raise Unavailable(f"a reply of lprojd nests more than {MAX_DEPTH} deep")
        try:
            message = json.loads(text)
        except ValueError as error:
            raise Unavailable(f"a reply of lprojd is not JSON: {error}") from error
        if not isinstance(message, dict):
            raise Unavailable("a reply of lprojd is not a JSON object")
        parameters = message.get("parameters") or {}
        if not isinstance(parameters, dict):
            raise Unavailable("a reply's parameters are not an object")
        error_name = message.get("error")
        if error_name is not None:
            raise daemon_error(str(error_name), parameters)
        return parameters, message.get("continues") is True

    def replies(self, first_limit: int = MAX_REPLY) -> Iterator[dict[str, Any]]:
        """The replies of a call that continues, until its last."""
        limit = first_limit
        while True:
            parameters, continues = self.receive(limit)
            yield parameters
            if not continues:
                return
            limit = MAX_STREAMED

    def close(self) -> None:
        """Closes it; a thread reading it stops (shutdown, not only close, wakes it)."""
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
