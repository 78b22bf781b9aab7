"""Drives lprojd through the reference Python Varlink client.

Usage: python3 varlink_client.py SOCKET. Prints one line per check and
exits non-zero on the first failure.
"""
import sys
import threading

import varlink

address = "unix:" + sys.argv[1]


def check(label, actual, expected):
    if actual != expected:
        print(f"FAIL {label}: expected {expected!r}, got {actual!r}")
        sys.exit(1)
    print(f"ok {label}")


with varlink.Client(address=address) as client:
    with client.open("org.lprojd.Localization") as lprojd:
        reply = lprojd.Lookup(bundle="demo", key="files.selected", locale="ru", arguments=[{"int": 3}])
        check("lookup formats Russian plurals", reply["value"], "Выбрано: 3 файла")
        check("lookup says where the value came from", reply["locale"], "ru")

        reply = lprojd.Lookup(bundle="demo", key="greeting", locale="ja", placeholders={"name": "Ada"})
        check("placeholders", reply["value"], "こんにちは、Ada さん")

        table = lprojd.GetTable(bundle="demo", locale="de")
        check("tables merge the chain", table["sources"]["greeting"], "de")
        check("plural entries carry their rules' locale", table["plurals"]["files.selected"]["locale"], "de")

        try:
            lprojd.Lookup(bundle="nope", key="x")
            check("unknown bundle raises", False, True)
        except varlink.VarlinkError as error:
            check("unknown bundle raises BundleNotFound", error.error(), "org.lprojd.Localization.BundleNotFound")
            check("the error names the bundle", error.parameters()["bundle"], "nope")

        try:
            lprojd.Lookup(bundle="demo", key="inbox.unread", locale="de", arguments=[{"string": "x"}])
            check("bad arguments raise", False, True)
        except varlink.VarlinkError as error:
            check("bad arguments raise InvalidArguments", error.error(), "org.lprojd.Localization.InvalidArguments")
            check("the error says which argument", error.parameters()["position"], 1)

        # Subscribe with more; the first reply says it is ready, then events come.
        events = []
        ready = threading.Event()
        changed = threading.Event()

        def watch():
            with client.open("org.lprojd.Localization") as subscriber:
                for reply in subscriber.Subscribe(client="py.app", _more=True):
                    events.append(reply["event"])
                    if reply["event"]["type"] == "ready":
                        ready.set()
                    if reply["event"]["type"] == "localeChanged":
                        changed.set()
                        return

        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        check("the subscription is ready", ready.wait(10), True)
        selection = lprojd.SelectLocale(client="py.app", bundle="demo", locale="pt-BR")["selection"]
        check("SelectLocale saves", (selection["locale"], selection["reason"]), ("pt-BR", "saved"))
        check("the change is pushed", changed.wait(10), True)
        check("the event says what changed", (events[-1]["locale"], events[-1]["previousLocale"]), ("pt-BR", "en"))

        reply = lprojd.Lookup(bundle="demo", key="files.selected", client="py.app", arguments=[{"int": 1000000}])
        check("the client's locale applies", reply["value"], "1.000.000 de arquivos selecionados")

        # Formatting in the client's language, with its preferences.
        reply = lprojd.Format(style="currency", bundle="demo", client="py.app", number=1234.5)
        check("Format follows the client's locale", (reply["value"], reply["locale"]), ("R$\u00a01.234,50", "pt-BR"))
        reply = lprojd.SetPreferences(client="py.app", bundle="demo", preferences={"timeZone": "Asia/Tokyo"})
        check("SetPreferences reports the change", reply["changed"], ["timeZone"])
        reply = lprojd.Format(style="time24", bundle="demo", client="py.app", date=1700000000)
        check("the client's time zone applies", (reply["value"], reply["timeZone"]), ("07:13", "Asia/Tokyo"))
        check("the server format parses", lprojd.ParseDate(text="2023-11-14 22:13:20.000")["date"], 1700000000)
        names = {entry["locale"]: entry for entry in lprojd.SupportedLocales(bundle="demo", client="py.app")["locales"]}
        check("locales are named in the client's language", names["de"]["name"], "Alemão")
        check("and in their own", names["ja"]["nativeName"], "日本語")
        try:
            lprojd.SetPreferences(client="py.app", bundle="demo", preferences={"calendar": "mayan"})
            check("a bad calendar raises", False, True)
        except varlink.VarlinkError as error:
            check("a bad calendar raises InvalidValue", (error.error(), error.parameters()["parameter"]), ("org.lprojd.Localization.InvalidValue", "preferences.calendar"))

print("all checks passed")
