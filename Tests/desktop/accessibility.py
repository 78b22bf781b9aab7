"""The accessibility tree, as a screen reader reads it: AT-SPI on the session's accessibility bus."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import gi

try:
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi
except (ImportError, ValueError):  # gir1.2-atspi-2.0 missing
    Atspi = None

# The roles of what a person operates: each must have a name a screen reader says.
CONTROL_ROLES = {"combo box", "push button", "toggle button", "check box", "radio button", "text", "entry",
                 "spin button", "menu item", "slider", "switch", "link", "list box"}


def available() -> str | None:
    """None when the tree can be read, else why not."""
    if Atspi is None:
        return "AT-SPI's introspection data is missing (Debian package gir1.2-atspi-2.0)"
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return "no session bus (run the tests under dbus-run-session, as make test does)"
    return None


def walk(node, depth: int = 0) -> Iterator:
    """Every accessible under `node`, depth first (bounded: a tree of a few windows)."""
    if node is None or depth > 40:
        return
    yield node
    try:
        count = node.get_child_count()
    except gi.repository.GLib.Error:
        return
    for index in range(min(count, 500)):
        try:
            child = node.get_child_at_index(index)
        except gi.repository.GLib.Error:
            continue
        yield from walk(child, depth + 1)


def window(title_contains: str, timeout: float = 30.0):
    """The application whose window's title contains the text, once AT-SPI shows it."""
    deadline = time.monotonic() + timeout
    while True:
        desktop = Atspi.get_desktop(0)
        for index in range(desktop.get_child_count()):
            application = desktop.get_child_at_index(index)
            if application is None:
                continue
            for child in range(application.get_child_count()):
                frame = application.get_child_at_index(child)
                if frame is not None and title_contains in (frame.get_name() or ""):
                    return frame
        if time.monotonic() > deadline:
            raise AssertionError(f"no window titled {title_contains!r} in the accessibility tree")
        time.sleep(0.05)  # polling the tree, with a deadline


def describe(node) -> dict[str, str]:
    return {"role": node.get_role_name(), "name": node.get_name() or "", "description": node.get_description() or ""}


def texts(frame) -> list[str]:
    """The names of every label under a window: what a screen reader reads of it."""
    return [node.get_name() for node in walk(frame) if node.get_role_name() == "label" and node.get_name()]


def unnamed_controls(frame) -> list[dict[str, str]]:
    """The controls under a window a screen reader could only call by their role."""
    found = []
    for node in walk(frame):
        if node.get_role_name() in CONTROL_ROLES and not (node.get_name() or "").strip():
            found.append(describe(node))
    return found


def wait_for_text(frame, text: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in texts(frame):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} is not in the window's accessible texts: {texts(frame)}")
        time.sleep(0.05)  # polling the tree, with a deadline


def wait_until(probe, predicate, what: str, timeout: float = 10.0):
    """Reads the tree with `probe` until `predicate` holds of what it read; returns that."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if predicate(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {value!r} after {timeout} s")
        time.sleep(0.05)  # polling the tree, with a deadline
