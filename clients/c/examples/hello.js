#!/usr/bin/env -S gjs -m
// hello.js: an app's strings from lprojd, in GJS.
//
//   gjs -m hello.js [LANGUAGE]
//
// Shows the demo bundle's strings in the app's language, chooses LANGUAGE
// for the app when given (saved in lprojd: every process of the app
// follows), and names the bundles lprojd serves. Against a build of this
// repository, not installed: GI_TYPELIB_PATH=clients/c/build
// LD_LIBRARY_PATH=clients/c/build gjs -m clients/c/examples/hello.js de
// (docs/clients.md). lprojd's socket: $LPROJD_SOCKET, else the user's, else
// the system's. hello.vala and hello.py print the same.
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Lprojd from 'gi://Lprojd?version=2.0';
import System from 'system';

Gio._promisify(Lprojd.Localizer, 'new_async', 'new_finish');
Gio._promisify(Lprojd.Localizer.prototype, 'select_async', 'select_finish');
Gio._promisify(Lprojd.Localizer.prototype, 'format_async', 'format_finish');
Gio._promisify(Lprojd.Connection, 'new_async', 'new_finish');
Gio._promisify(Lprojd.Connection.prototype, 'list_bundles_async', 'list_bundles_finish');

async function show(localizer) {
    print(`language: ${localizer.locale}`);
    print(localizer.lookup('welcome.title', null, 'Welcome'));
    print(localizer.lookup_with_placeholders('greeting', null, null, {name: 'Ada'}));
    // A plural, with its argument typed as the string's %lld wants: asked of lprojd.
    print(await localizer.format_async('files.selected', null, new GLib.Variant('(x)', [3]), null, null));
}

async function main(language) {
    const localizer = await Lprojd.Localizer.new_async('demo', 'org.example.Hello', null, null);
    await show(localizer);
    if (language !== undefined && language !== localizer.locale) {
        // Applied when it returns: no need to wait for `changed` (which
        // would never come if the app were already in that language).
        await localizer.select_async(language, null);
        await show(localizer);
    }
    // Any method of lprojd's interface, on a connection of the app's own.
    const connection = await Lprojd.Connection.new_async(null, null);
    const reply = await connection.list_bundles_async(null, null);
    print(`bundles: ${reply.get_bundles().map(bundle => bundle.get_name()).join(', ')}`);
    connection.close();
}

const loop = new GLib.MainLoop(null, false);
let status = 0;
main(ARGV[0]).catch(error => {
    printerr(`hello.js: ${error.message}`);
    status = 1;
}).finally(() => loop.quit());
loop.run();
System.exit(status);
