"""The errors a localizer raises: unavailability, and lprojd's own.

The classes of the interface's errors (`BundleNotFound`…) and the table
that maps their names are generated from its definition (`interface.py`).
"""

from __future__ import annotations

from typing import Any


class LprojdError(Exception):
    """Anything that went wrong talking to lprojd."""


class Unavailable(LprojdError):
    """lprojd cannot be reached: the answer would need it, and no approximation is given."""


class DaemonError(LprojdError):
    """An error reply from lprojd: its Varlink name and parameters."""

    def __init__(self, name: str, parameters: dict[str, Any] | None = None):
        self.name = name
        self.parameters = parameters or {}
        super().__init__(f"{name} {self.parameters}" if self.parameters else name)
