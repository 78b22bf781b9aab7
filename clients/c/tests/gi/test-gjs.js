// The localizer through its typelib, from GJS, against the real lprojd
// (run by with-lprojd: $LPROJD_SOCKET). Async construction, a lookup, a
// plural, a formatted number, an async select, a change made by another
// localizer of the same app (notify::locale and `changed`), errors in the
// Lprojd.Error domain, and, when a display is there, a Gtk.Label bound to
// the `locale` property. Prints TAP; any failure ends the script non-zero.
imports.gi.versions.Lprojd = '1.0';
const {GLib, GObject, Gio, Lprojd} = imports.gi;
const System = imports.system;

Gio._promisify(Lprojd.Localizer, 'new_async', 'new_finish');
for (const method of ['select', 'reset', 'format', 'format_value', 'fetch_supported_locales'])
    Gio._promisify(Lprojd.Localizer.prototype, `${method}_async`, `${method}_finish`);

const socket = GLib.getenv('LPROJD_SOCKET');
const CLIENT = 'org.example.Gjs';
const TIMEOUT_SECONDS = 20;
let count = 0;

function check(name, actual, expected) {
    count++;
    if (actual !== expected)
        throw new Error(`${name}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    print(`ok ${count} - ${name}`);
}

// Resolves once `test()` holds, checked on each of the localizer's signals.
function until(localizer, signal, test) {
    return new Promise((resolve, reject) => {
        const timeout = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, TIMEOUT_SECONDS, () => {
            reject(new Error(`no ${signal} within ${TIMEOUT_SECONDS} s`));
            return GLib.SOURCE_REMOVE;
        });
        const handler = localizer.connect(signal, (...args) => {
            if (!test(...args))
                return;
            localizer.disconnect(handler);
            GLib.source_remove(timeout);
            resolve(args);
        });
    });
}

async function main() {
    const localizer = await Lprojd.Localizer.new_async('demo', CLIENT, socket, null);
    check('new_async gives a localizer', localizer instanceof Lprojd.Localizer, true);
    check('its locale is the development locale', localizer.locale, 'en');
    check('the connected property', localizer.connected, true);
    check('the client-id property', localizer.client_id, CLIENT);
    check('the generation property counts', localizer.generation > 0, true);
    check('a lookup from the mirror', localizer.lookup('welcome.title', null, null), 'Welcome to Demo');
    check('a missing key gives its default', localizer.lookup('no.such.key', null, 'Fallback'), 'Fallback');
    check('a table', localizer.lookup('menu.file', 'Menu', null), 'File');
    check('placeholders', localizer.lookup_with_placeholders('greeting', null, null, {name: 'Ada'}), 'Hello, Ada!');

    const plural = await localizer.format_async('files.selected', null, new GLib.Variant('(x)', [1]), null, null);
    check('a plural, formatted by lprojd', plural, '1 file selected');
    const many = await localizer.format_async('files.selected', null, new GLib.Variant('(x)', [3]), null, null);
    check('another plural form', many, '3 files selected');

    const names = localizer.supported_locales();
    const german = names.find(name => name.locale === 'de');
    check('the language menu names German in itself', german.native_name, 'Deutsch');
    check('and in English', german.name, 'German');

    await localizer.select_async('de', null);
    check('select_async applies the locale', localizer.locale, 'de');
    check('lookups are in German', localizer.lookup('welcome.title', null, null), 'Willkommen bei Demo');
    const number = await localizer.format_value_async('decimal',
        new GLib.Variant('a{sv}', {number: new GLib.Variant('d', 1234567.5)}), null);
    check('a number written the German way', number, '1.234.567,5');
    const plural_de = await localizer.format_async('files.selected', null, new GLib.Variant('(x)', [3]), null, null);
    check('a plural in German', plural_de, '3 Dateien ausgewählt');

    // A label bound to the locale, when GTK can open a display.
    let label = null;
    imports.gi.versions.Gtk = '4.0';
    const {Gtk} = imports.gi;
    if (Gtk.init_check()) {
        label = new Gtk.Label();
        localizer.bind_property('locale', label, 'label', GObject.BindingFlags.SYNC_CREATE);
        check('a Gtk.Label bound to the locale', label.label, 'de');
    } else {
        print('# no display: the Gtk.Label binding is not tried (the C tests bind to an object of their own)');
    }

    // Another localizer of the same app selects French: this one follows.
    const other = await Lprojd.Localizer.new_async('demo', CLIENT, socket, null);
    const notified = until(localizer, 'notify::locale', () => localizer.locale === 'fr');
    const changed = until(localizer, 'changed', (_self, what) => (what & Lprojd.Change.LOCALE) !== 0);
    await other.select_async('fr', null);
    await notified;
    await changed;
    check('notify::locale follows another process\'s choice', localizer.locale, 'fr');
    check('and the strings', localizer.lookup('welcome.title', null, null), 'Bienvenue dans Demo');
    if (label !== null)
        check('the bound label follows', label.label, 'fr');

    try {
        await localizer.select_async('not a locale!', null);
        check('an invalid locale is refused', false, true);
    } catch (error) {
        check('an invalid locale is Lprojd.Error.INVALID_LOCALE',
            error.matches(Lprojd.Error, Lprojd.Error.INVALID_LOCALE), true);
    }
    try {
        await Lprojd.Localizer.new_async('no-such-bundle', CLIENT, socket, null);
        check('an unknown bundle is refused', false, true);
    } catch (error) {
        check('an unknown bundle is Lprojd.Error.BUNDLE_NOT_FOUND',
            error.matches(Lprojd.Error, Lprojd.Error.BUNDLE_NOT_FOUND), true);
    }
    await localizer.reset_async(null);
    check('reset_async', localizer.locale, 'en');
}

const loop = new GLib.MainLoop(null, false);
let status = 0;
main().catch(error => {
    logError(error);
    print(`not ok ${count + 1} - ${error.message}`);
    status = 1;
}).finally(() => loop.quit());
loop.run();
print(`1..${count + status}`);
System.exit(status);
