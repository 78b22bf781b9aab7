"""The errors a localizer raises: lprojd's own, by name, and unavailability."""

from __future__ import annotations

from typing import Any

import varlink

INTERFACE = "org.lprojd.Localization"


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


class BundleNotFound(DaemonError):
    """No bundle by this name is configured."""


class InvalidLocale(DaemonError):
    """Not a locale identifier, or one this system and the bundle do not know."""


class TableNotFound(DaemonError):
    """No folder of the bundle has this table."""


class InvalidArguments(DaemonError):
    """The format arguments do not fit the format."""


class PermissionDenied(DaemonError):
    """The caller may not do this."""


class LimitExceeded(DaemonError):
    """A limit of lprojd was reached."""


class InvalidValue(DaemonError):
    """A value is well formed but unusable (a date pattern, a time zone)."""


class StateUnavailable(DaemonError):
    """Selections and preferences cannot be saved now."""


class InternalError(DaemonError):
    """Something failed inside lprojd."""


# The interface's errors, by their short name: the one place they are mapped.
_BY_NAME: dict[str, type[DaemonError]] = {
    cls.__name__: cls
    for cls in (
        BundleNotFound,
        InvalidLocale,
        TableNotFound,
        InvalidArguments,
        PermissionDenied,
        LimitExceeded,
        InvalidValue,
        StateUnavailable,
        InternalError,
    )
}


def from_varlink(error: varlink.VarlinkError) -> DaemonError:
    """The exception for an error reply: its class if it is one of the interface's."""
    name = str(error.error() or "")
    parameters: dict[str, Any] = dict(error.parameters() or {})
    interface, _, short = name.rpartition(".")
    cls: type[DaemonError] = _BY_NAME.get(short, DaemonError) if interface == INTERFACE else DaemonError
    return cls(name, parameters)
