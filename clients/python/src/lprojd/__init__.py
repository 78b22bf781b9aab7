"""lprojd's localizer for Python apps: strings from memory, kept live over Varlink.

    from lprojd import Localizer
    localizer = Localizer("demo", "org.example.App")
    print(localizer.localized("greeting", placeholders={"name": "Ada"}))
"""

from .aio import AsyncChangeStream, AsyncLocalizer
from .changes import Change, ChangeStream
from .environment import preferred_languages
from .connection import Connection
from .errors import DaemonError, LprojdError, Unavailable
from .interface import (
    BundleNotFound,
    InternalError,
    InvalidArguments,
    InvalidLocale,
    InvalidValue,
    LimitExceeded,
    PermissionDenied,
    StateUnavailable,
    TableNotFound,
)
from .localizer import Localizer
from .mirror import LocaleName, LocalizedValue
from .placeholders import substitute as substitute_placeholders

__all__ = [
    "AsyncChangeStream",
    "AsyncLocalizer",
    "BundleNotFound",
    "Change",
    "ChangeStream",
    "Connection",
    "DaemonError",
    "InternalError",
    "InvalidArguments",
    "InvalidLocale",
    "InvalidValue",
    "LimitExceeded",
    "LocaleName",
    "LocalizedValue",
    "Localizer",
    "LprojdError",
    "PermissionDenied",
    "StateUnavailable",
    "TableNotFound",
    "Unavailable",
    "preferred_languages",
    "substitute_placeholders",
]
