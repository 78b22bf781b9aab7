"""The package's annotations pass mypy --strict, and it says so to type checkers (py.typed)."""

from __future__ import annotations

import importlib.resources
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]


def test_the_package_passes_mypy_strict():
    mypy = shutil.which("mypy")
    if mypy is None:
        pytest.fail("no mypy: make deps installs it (Debian: mypy)")
    # The configuration (pyproject.toml) sets strict and names the untyped libraries.
    run = subprocess.run(
        [mypy, "--strict", "--config-file", str(PACKAGE / "pyproject.toml"), "--python-executable", sys.executable,
         "--no-incremental", str(PACKAGE / "src" / "lprojd")],
        capture_output=True, text=True, cwd=PACKAGE,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_installed_package_is_marked_typed():
    assert (importlib.resources.files("lprojd") / "py.typed").is_file()
