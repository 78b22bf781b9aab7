"""The package's example (examples/hello.py) as a reader runs it, against the real lprojd: what it
prints is what the demo bundle says, the same as the C library's hello.js and hello.vala print
(clients/c/tests/check-hello); run again once German is saved, it shows German at once and ends
(it waits for no change that will not come)."""

from __future__ import annotations

import os
import subprocess
import sys

from daemon import REPOSITORY

EXAMPLE = REPOSITORY / "clients" / "python" / "examples" / "hello.py"
ENGLISH = ["language: en", "Welcome to Demo", "Hello, Ada!", "3 files selected"]
GERMAN = ["language: de", "Willkommen bei Demo", "Hallo, Ada!", "3 Dateien ausgewählt"]


def run_example(daemon, cache_directory) -> list[str]:
    environment = dict(os.environ, LPROJD_SOCKET=daemon.socket, XDG_CACHE_HOME=cache_directory, LANG="C.UTF-8",
                       LC_ALL="", LC_MESSAGES="", LANGUAGE="")
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPOSITORY / "clients" / "python" / "src"), environment.get("PYTHONPATH")]))
    finished = subprocess.run([sys.executable, str(EXAMPLE), "de"], env=environment, capture_output=True,
                              text=True, timeout=60, check=True)
    return finished.stdout.splitlines()


def test_the_example_shows_the_bundles_strings_then_german(daemon, cache_directory):
    assert run_example(daemon, cache_directory) == ENGLISH + GERMAN + ["bundles: demo"]


def test_the_example_ends_when_german_is_already_saved(daemon, cache_directory):
    run_example(daemon, cache_directory)
    assert run_example(daemon, cache_directory) == GERMAN + ["bundles: demo"]


def test_the_readme_quotes_the_example_as_it_is():
    readme = (REPOSITORY / "clients" / "python" / "README.md").read_text(encoding="utf-8")
    quoted = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert quoted.startswith("from lprojd import") and quoted in EXAMPLE.read_text(encoding="utf-8")
