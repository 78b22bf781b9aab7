"""The gettext rules for preferred languages, and the small pure parts."""

import pytest

from lprojd import preferred_languages, substitute_placeholders
from lprojd.mirror import cache_file_name


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        # The table in clients/README.md.
        ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, ["fr", "de"]),
        ({"LANG": "pt_BR.UTF-8"}, ["pt-BR"]),
        ({"LC_ALL": "C", "LANGUAGE": "fr"}, []),
        ({"LC_MESSAGES": "sr_RS@latin"}, ["sr-Latn-RS"]),
        # The rules behind it.
        ({"LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "ja_JP"}, ["de-DE"]),
        ({"LC_ALL": "", "LC_MESSAGES": "fr_FR", "LANG": "ja_JP"}, ["fr-FR"]),
        ({"LANG": "C.UTF-8", "LANGUAGE": "fr"}, []),
        ({"LANG": "POSIX"}, []),
        ({"LANGUAGE": "fr"}, ["fr"]),
        ({}, []),
        ({"LANG": "de_DE@euro"}, ["de-DE"]),
        ({"LANG": "sr_RS.UTF-8@cyrillic"}, ["sr-Cyrl-RS"]),
        ({"LANG": "en_US", "LANGUAGE": ":fr::C:de_AT:fr:POSIX"}, ["fr", "de-AT"]),
        ({"LANG": "en_US", "LANGUAGE": ""}, ["en-US"]),
    ],
)
def test_preferred_languages_follow_gettext(environ, expected):
    assert preferred_languages(environ) == expected


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("Hello, {name}!", {"name": "Ada"}, "Hello, Ada!"),
        ("{a}{b}", {"a": "{b}", "b": "x"}, "{b}x"),
        ("{missing} {name}", {"name": "Ada"}, "{missing} Ada"),
        ("{1st} {_ok} {a.b-c}", {"1st": "no", "_ok": "yes", "a.b-c": "dotted"}, "{1st} yes dotted"),
        ("{{name}}", {"name": "Ada"}, "{Ada}"),
        ("{" + "n" * 64 + "}", {"n" * 64: "long"}, "long"),
        ("{" + "n" * 65 + "}", {"n" * 65: "too long"}, "{" + "n" * 65 + "}"),
        ("{näme}", {"näme": "x"}, "{näme}"),
        ("{name}", {}, "{name}"),
    ],
)
def test_placeholders_are_replaced_as_lprojd_does(text, values, expected):
    assert substitute_placeholders(text, values) == expected


def test_cache_file_names_cannot_become_paths():
    assert cache_file_name("demo", "org.example.App") == "demo@org.example.App.json"
    assert cache_file_name("../x", "a/b c") == "%2E.%2Fx@a%2Fb%20c.json"
    assert cache_file_name(".hidden", "é") == "%2Ehidden@%C3%A9.json"
