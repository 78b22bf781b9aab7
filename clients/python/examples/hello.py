#!/usr/bin/env python3
"""hello.py: an app's strings from lprojd, in Python.

    pip install ./clients/python        # first: the package (pure Python, no dependency)
    python3 clients/python/examples/hello.py [LANGUAGE]

Shows the demo bundle's strings in the app's language, chooses LANGUAGE for
the app when given (saved in lprojd: every process of the app follows), and
names the bundles lprojd serves. lprojd's socket: $LPROJD_SOCKET, else the
user's, else the system's. The C library's hello.js and hello.vala print the same.
"""

import sys

from lprojd import Connection, Localizer


def show(localizer: Localizer) -> None:
    print(f"language: {localizer.locale}")
    print(localizer.localized("welcome.title"))                              # from memory
    print(localizer.localized("greeting", placeholders={"name": "Ada"}))
    print(localizer.localized("files.selected", arguments=[3]))              # a plural: asked of lprojd


def main(language: str | None) -> None:
    with Localizer("demo", "org.example.Hello") as localizer:
        show(localizer)
        if language is not None and language != localizer.locale:
            # Applied when it returns: no change to wait for (none would
            # come if the app were already in that language).
            localizer.select(language)
            show(localizer)
    # Any method of lprojd's interface, on a connection of the app's own.
    with Connection() as connection:
        bundles = connection.list_bundles()["bundles"]
        print("bundles: " + ", ".join(bundle["name"] for bundle in bundles))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
