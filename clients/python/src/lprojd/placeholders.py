"""`{name}` placeholders, replaced exactly as lprojd replaces them.

The daemon's rules (Sources/LprojFormatStrings/Placeholders/Placeholders.swift): a
name is ASCII letters, digits, `_`, `.` and `-`, starts with a letter or
`_`, and has at most 64 bytes; a name with no value stays as written; one
pass, so a value containing `{other}` is not expanded again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.\-]{0,63})\}", re.ASCII)


def substitute(text: str, values: Mapping[str, str] | None) -> str:
    """`text` with every `{name}` that `values` has replaced by its value."""
    if not values or "{" not in text:
        return text
    given = values
    return _PLACEHOLDER.sub(lambda match: given.get(match.group(1), match.group(0)), text)
