/* hello.vala: an app's strings from lprojd, in Vala.
 *
 *   valac --pkg lprojd-2 --pkg gio-2.0 hello.vala && ./hello [LANGUAGE]
 *
 * Shows the demo bundle's strings in the app's language, chooses LANGUAGE
 * for the app when given (saved in lprojd: every process of the app
 * follows), and names the bundles lprojd serves. Against a build of this
 * repository, not installed: valac --vapidir clients/c/build
 * -X -Iclients/c/include -X -Iclients/c/build/include -X -Lclients/c/build
 * -X -llprojd-2 --pkg lprojd-2 --pkg gio-2.0 hello.vala, then run it with
 * LD_LIBRARY_PATH=clients/c/build (docs/clients.md). lprojd's socket:
 * $LPROJD_SOCKET, else the user's, else the system's. hello.js and hello.py
 * print the same. */

async void show (Lprojd.Localizer localizer) throws GLib.Error {
    print ("language: %s\n", localizer.locale);
    print ("%s\n", localizer.lookup ("welcome.title", null, "Welcome"));
    var name = new HashTable<string, string> (str_hash, str_equal);
    name["name"] = "Ada";
    print ("%s\n", localizer.lookup_with_placeholders ("greeting", null, null, name));
    /* A plural, with its argument typed as the string's %lld wants: asked of lprojd. */
    print ("%s\n", yield localizer.format_async ("files.selected", null, new Variant ("(x)", (int64) 3), null, null));
}

async void run (string? language) throws GLib.Error {
    var localizer = yield new Lprojd.Localizer ("demo", "org.example.Hello", null, null);
    yield show (localizer);
    if (language != null && language != localizer.locale) {
        /* Applied when it returns: no need to wait for `changed` (which
         * would never come if the app were already in that language). */
        yield localizer.select_async (language, null);
        yield show (localizer);
    }
    /* Any method of lprojd's interface, on a connection of the app's own. */
    var connection = yield new Lprojd.Connection (null, null);
    var reply = yield connection.list_bundles_async (null, null);
    string[] names = {};
    foreach (unowned Lprojd.Bundle bundle in reply.get_bundles ()) {
        names += bundle.get_name ();
    }
    print ("bundles: %s\n", string.joinv (", ", names));
    connection.close ();
}

int main (string[] args) {
    /* The environment's locale, so that print () writes UTF-8 as it is. */
    Intl.setlocale (LocaleCategory.ALL, "");
    var loop = new MainLoop ();
    int status = 0;
    run.begin (args.length > 1 ? args[1] : null, (source, result) => {
        try {
            run.end (result);
        } catch (GLib.Error error) {
            printerr ("hello: %s\n", error.message);
            status = 1;
        }
        loop.quit ();
    });
    loop.run ();
    return status;
}
