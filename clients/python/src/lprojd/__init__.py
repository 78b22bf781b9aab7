"""lprojd's localizer for Python apps: strings from memory, kept live over Varlink.

    from lprojd import Localizer
    localizer = Localizer("demo", "org.example.App")
    print(localizer.localized("greeting", placeholders={"name": "Ada"}))
"""

from .aio import AsyncChangeStream, AsyncLocalizer
from .changes import Change, ChangeStream
from .environment import preferred_languages
from .errors import (
    BundleNotFound,
    DaemonError,
    InternalError,
    InvalidArguments,
    InvalidLocale,
    InvalidValue,
    LimitExceeded,
    LprojdError,
    PermissionDenied,
    StateUnavailable,
    TableNotFound,
    Unavailable,
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
