"""Fixtures: a real lprojd on a copy of the demo bundle, and a cache directory per test."""

from __future__ import annotations

import pytest

from daemon import Daemon, lprojd_binary

# How long a test waits for a change before it fails.
CHANGE_TIMEOUT = 10.0


@pytest.fixture
def daemon():
    if not lprojd_binary().exists():
        pytest.fail(
            f"no lprojd at {lprojd_binary()}: build it (swift build -c release --product lprojd) "
            "or set LPROJD_BINARY"
        )
    running = Daemon()
    running.start()
    yield running
    running.close()


@pytest.fixture
def cache_directory(tmp_path):
    return str(tmp_path / "mirrors")
