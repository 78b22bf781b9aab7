"""What the Python-GI test scripts share: TAP checks, running GLib's main loop
until something holds (with a deadline), and the script's end."""

import sys

from gi.repository import GLib

TIMEOUT_SECONDS = 20
count = 0


def check(name, actual, expected):
    global count
    count += 1
    if actual != expected:
        raise AssertionError(f"{name}: {actual!r}, expected {expected!r}")
    print(f"ok {count} - {name}", flush=True)


def run_until(condition, what):
    """Runs the main loop until condition() holds."""
    loop = GLib.MainLoop()

    def poll():
        if condition():
            loop.quit()
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE

    def late():
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.idle_add(poll)
    check_source = GLib.timeout_add(10, poll)
    timeout = GLib.timeout_add_seconds(TIMEOUT_SECONDS, late)
    loop.run()
    for source in (check_source, timeout):
        if GLib.main_context_default().find_source_by_id(source):
            GLib.source_remove(source)
    if not condition():
        raise AssertionError(f"no {what} within {TIMEOUT_SECONDS} s")


def finish(main, failures=(AssertionError, GLib.Error)):
    """Runs main(); a failure is the next test, not ok, and the script's exit status."""
    try:
        main()
    except failures as error:
        print(f"not ok {count + 1} - {type(error).__name__}: {error}", flush=True)
        print(f"1..{count + 1}")
        sys.exit(1)
    print(f"1..{count}")
