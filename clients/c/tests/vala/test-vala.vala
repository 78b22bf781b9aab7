/* The localizer from Vala, built against lprojd-2.vapi, against the real
 * lprojd (run by with-lprojd: $LPROJD_SOCKET). An async construction, a
 * lookup, a plural, a formatted number, an async select, a change made by
 * another localizer of the same app (notify::locale and `changed`), the
 * language menu, and Lprojd.Error. Prints TAP. */

int checks = 0;

void check (string name, string? actual, string? expected) throws GLib.Error {
    checks++;
    if (actual != expected) {
        throw new IOError.FAILED ("%s: \"%s\", expected \"%s\"", name, actual ?? "(null)", expected ?? "(null)");
    }
    print ("ok %d - %s\n", checks, name);
}

delegate bool Condition ();

/* Runs the main loop until `condition` holds, failing after 20 s. */
async void wait_until (owned Condition condition, string what) throws GLib.Error {
    var deadline = get_monotonic_time () + 20 * TimeSpan.SECOND;
    while (!condition ()) {
        if (get_monotonic_time () > deadline) {
            throw new IOError.TIMED_OUT ("no %s within 20 s", what);
        }
        Timeout.add (10, wait_until.callback);
        yield;
    }
}

async void run () throws GLib.Error {
    var socket = Environment.get_variable ("LPROJD_SOCKET");
    var localizer = yield new Lprojd.Localizer ("demo", "org.example.Vala", socket, null);
    check ("an async construction in the development locale", localizer.locale, "en");
    check ("connected", localizer.connected.to_string (), "true");
    check ("a lookup from the mirror", localizer.lookup ("welcome.title", null, null), "Welcome to Demo");
    var values = new HashTable<string, string> (str_hash, str_equal);
    values["name"] = "Ada";
    check ("placeholders", localizer.lookup_with_placeholders ("greeting", null, null, values), "Hello, Ada!");

    var plural = yield localizer.format_async ("files.selected", null, new Variant ("(x)", (int64) 1), null, null);
    check ("a plural, formatted by lprojd", plural, "1 file selected");

    string? german = null;
    var names = localizer.supported_locales ();   /* the array owns its entries: keep it while they are read */
    foreach (unowned Lprojd.LocaleName name in names.data) {
        if (name.get_locale () == "de") {
            german = name.get_native_name ();
        }
    }
    check ("the language menu names German in itself", german, "Deutsch");

    var notified = 0;
    localizer.notify["locale"].connect (() => notified++);
    yield localizer.select_async ("de", null);
    check ("select_async applies the locale", localizer.locale, "de");
    check ("lookups are in German", localizer.lookup ("welcome.title", null, null), "Willkommen bei Demo");
    var number = yield localizer.format_value_async ("decimal", new Variant.parsed ("{'number': <1234.5>}"), null);
    check ("a number written the German way", number, "1.234,5");

    /* Another localizer of the same app selects French: this one follows. */
    var other = yield new Lprojd.Localizer ("demo", "org.example.Vala", socket, null);
    var changed = false;
    localizer.changed.connect ((what) => {
        if ((what & Lprojd.Change.LOCALE) != 0) {
            changed = true;
        }
    });
    yield other.select_async ("fr", null);
    yield wait_until (() => changed, "changed(LOCALE)");
    check ("changed(LOCALE) follows another process's choice", localizer.locale, "fr");
    check ("notify::locale came for each change", notified.to_string (), "2");
    check ("the strings follow", localizer.lookup ("welcome.title", null, null), "Bienvenue dans Demo");

    try {
        yield localizer.select_async ("not a locale!", null);
        check ("an invalid locale is refused", "accepted", "refused");
    } catch (Lprojd.Error.INVALID_LOCALE error) {
        check ("an invalid locale is Lprojd.Error.INVALID_LOCALE", "refused", "refused");
    }
    try {
        yield new Lprojd.Localizer ("no-such-bundle", "org.example.Vala", socket, null);
        check ("an unknown bundle is refused", "accepted", "refused");
    } catch (Lprojd.Error.BUNDLE_NOT_FOUND error) {
        check ("an unknown bundle is Lprojd.Error.BUNDLE_NOT_FOUND", "refused", "refused");
    }
    yield localizer.reset_async (null);
    check ("reset_async", localizer.locale, "en");
}

int main () {
    var loop = new MainLoop ();
    int status = 0;
    run.begin ((source, result) => {
        try {
            run.end (result);
        } catch (GLib.Error error) {
            print ("not ok %d - %s\n", checks + 1, error.message);
            status = 1;
        }
        loop.quit ();
    });
    loop.run ();
    print ("1..%d\n", checks + status);
    return status;
}
