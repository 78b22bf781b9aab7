"""The two implementations kept in step: this package's Localizer and the C library through its typelib
(gi.repository.Lprojd) give the same answer for every key of every table in every locale of the demo
bundle, with the same source, and the same language menu. Runs where the typelib is found
(GI_TYPELIB_PATH: make test-clients points it at clients/c/build)."""

from __future__ import annotations

import uuid

import pytest

from lprojd import Localizer
from test_localizer import LOCALES, all_keys

gi = pytest.importorskip("gi", reason="PyGObject (gi) is not installed")


@pytest.fixture(scope="module")
def Lprojd():
    try:
        gi.require_version("Lprojd", "2.0")
        from gi.repository import Lprojd
    except (ValueError, ImportError) as error:
        pytest.skip(f"no Lprojd-2.0 typelib ({error}): build clients/c and set GI_TYPELIB_PATH")
    return Lprojd


@pytest.mark.parametrize("locale", LOCALES)
def test_the_python_and_c_localizers_answer_alike(daemon, cache_directory, Lprojd, locale):
    client = f"org.lprojd.test.{uuid.uuid4().hex[:8]}"
    native = Lprojd.Localizer.new_sync("demo", client, daemon.socket, None)
    with daemon.connection() as connection, Localizer(
        "demo", client, daemon.socket, cache_directory=cache_directory, main_context=False
    ) as localizer:
        # Both start in the development locale; the Python one selects, the C one is told and follows.
        localizer.select(locale)
        assert native.select_sync(locale, None)
        assert (localizer.locale, native.props.locale) == (locale, locale)
        for table, keys in all_keys(connection).items():
            for key in sorted(keys):
                python = localizer.lookup(key, table)
                assert (native.lookup(key, table, None), native.lookup_source(key, table)) == (
                    python.value, python.locale), (table, key)
                assert native.lookup_with_placeholders(key, table, "x {name}", {"name": "Ada"}) == localizer.localized(
                    key, table, "x {name}", {"name": "Ada"}), (table, key)
        assert [(n.get_locale(), n.get_name(), n.get_native_name(), n.get_bundle_name())
                for n in native.supported_locales()] == [
            (n.locale, n.name, n.native_name, n.bundle_name) for n in localizer.supported_locales()]
