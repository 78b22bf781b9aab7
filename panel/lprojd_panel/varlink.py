"""Varlink on GLib's main loop: calls to lprojd, and a subscription, without threads.

The panel needs ListClients, which the Python localizer does not offer, and
it lives on GTK's main loop; so it speaks Varlink itself, in a few lines:
a message is JSON followed by a NUL byte, and replies come in call order.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable
from typing import Any

from gi.repository import Gio, GLib

INTERFACE = "org.lprojd.Localization"

Reply = Callable[[dict[str, Any] | None, dict[str, Any] | None], None]


def default_socket_path(environ=os.environ) -> str:
    """LPROJD_SOCKET, else the user's lprojd socket if it exists, else the system's."""
    if environ.get("LPROJD_SOCKET"):
        return environ["LPROJD_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        path = os.path.join(runtime, "lprojd", INTERFACE)
        if os.path.exists(path):
            return path
    return "/run/lprojd/" + INTERFACE


class Connection:
    """One connection to lprojd. `call` sends at once; each reply goes to its callback on the main loop.

    A callback gets (parameters, None) for a reply, (None, {"error": name,
    "parameters": ...}) for an error; a call with more gets each reply until
    one without `continues`. When the connection ends, every waiting call gets
    (None, {"error": "disconnected"}) and `on_close` runs once.
    """

    def __init__(self, path: str, on_close: Callable[[], None] | None = None):
        self._connection = Gio.SocketClient().connect(Gio.UnixSocketAddress.new(path), None)
        self._input = self._connection.get_input_stream()
        self._output = self._connection.get_output_stream()
        self._waiting: deque[tuple[Reply, bool]] = deque()
        self._buffer = b""
        self._closed = False
        self._on_close = on_close
        self._cancellable = Gio.Cancellable()
        self._read()

    def call(self, method: str, parameters: dict[str, Any] | None = None, reply: Reply | None = None, more: bool = False) -> None:
        if self._closed:
            if reply:
                GLib.idle_add(lambda: reply(None, {"error": "disconnected"}) and False)
            return
        message: dict[str, Any] = {"method": f"{INTERFACE}.{method}"}
        parameters = {name: value for name, value in (parameters or {}).items() if value is not None}
        if parameters:
            message["parameters"] = parameters
        if more:
            message["more"] = True
        self._waiting.append((reply or (lambda *_: None), more))
        try:
            self._output.write_all(json.dumps(message).encode() + b"\0", None)
        except GLib.Error:
            self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._cancellable.cancel()
        try:
            self._connection.close(None)
        except GLib.Error:
            pass
        waiting, self._waiting = self._waiting, deque()
        for reply, _ in waiting:
            reply(None, {"error": "disconnected"})
        if self._on_close:
            self._on_close()

    @property
    def closed(self) -> bool:
        return self._closed

    def _read(self) -> None:
        self._input.read_bytes_async(65536, GLib.PRIORITY_DEFAULT, self._cancellable, self._on_read)

    def _on_read(self, stream: Gio.InputStream, result: Gio.AsyncResult) -> None:
        try:
            data = stream.read_bytes_finish(result).get_data()
        except GLib.Error:
            self.close()
            return
        if not data:
            self.close()
            return
        self._buffer += data
        *messages, self._buffer = self._buffer.split(b"\0")
        for text in messages:
            self._deliver(json.loads(text))
            if self._closed:
                return
        self._read()

    def _deliver(self, message: dict[str, Any]) -> None:
        if not self._waiting:
            return
        reply, more = self._waiting[0]
        if "error" in message:
            self._waiting.popleft()
            reply(None, message)
            return
        if not (more and message.get("continues")):
            self._waiting.popleft()
        reply(message.get("parameters", {}), None)
