"""Where the localizer looks: the user's languages, lprojd's socket, the cache.

All three are read from an environment mapping passed in, so that they are
pure functions of it (clients/README.md has the rules and examples).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

# gettext's modifiers that name a script; any other modifier is dropped.
_SCRIPT_MODIFIERS = {"latin": "Latn", "cyrillic": "Cyrl"}


def preferred_languages(environ: Mapping[str, str]) -> list[str]:
    """The user's preferred languages as BCP 47 tags, in gettext's order.

    The locale of messages is the first non-empty of LC_ALL, LC_MESSAGES and
    LANG. In the C locale there are none (gettext ignores LANGUAGE there);
    else LANGUAGE's entries if it is set, else the locale of messages.
    """
    messages = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), None)
    if messages is not None and _is_c_locale(messages):
        return []
    if environ.get("LANGUAGE"):
        entries = environ["LANGUAGE"].split(":")
    elif messages is not None:
        entries = [messages]
    else:
        return []
    languages: list[str] = []
    for entry in entries:
        if not entry or _is_c_locale(entry):
            continue
        tag = _language_tag(entry)
        if tag and tag not in languages:
            languages.append(tag)
    return languages


def _is_c_locale(name: str) -> bool:
    """`C`, `POSIX`, `C.UTF-8`: the locale that means "no translation"."""
    base = name.split("@", 1)[0].split(".", 1)[0]
    return base in ("C", "POSIX")


def _language_tag(entry: str) -> str | None:
    """`sr_RS.UTF-8@latin` becomes `sr-Latn-RS`; None for a name without a language."""
    name, _, modifier = entry.partition("@")
    parts = name.split(".", 1)[0].split("_")
    if not parts[0]:
        return None
    if modifier in _SCRIPT_MODIFIERS:
        parts.insert(1, _SCRIPT_MODIFIERS[modifier])
    return "-".join(parts)


def default_socket_path(environ: Mapping[str, str]) -> str:
    """LPROJD_SOCKET, else the user's lprojd socket if it exists, else the system's."""
    if environ.get("LPROJD_SOCKET"):
        return environ["LPROJD_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        user_socket = os.path.join(runtime, "lprojd", "org.lprojd.Localization")
        if os.path.exists(user_socket):
            return user_socket
    return "/run/lprojd/org.lprojd.Localization"


def default_cache_directory(environ: Mapping[str, str]) -> str:
    """Where cached mirrors live: $XDG_CACHE_HOME/lprojd/mirrors, else ~/.cache/lprojd/mirrors."""
    cache_home = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache_home, "lprojd", "mirrors")
