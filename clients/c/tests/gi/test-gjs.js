// The localizer through its typelib, from GJS, against the real lprojd
// (run by with-lprojd: $LPROJD_SOCKET). Async construction, a lookup, a
// plural, a formatted number, an async select, a change made by another
// localizer of the same app (notify::locale and `changed`), errors in the
// Lprojd.Error domain, and, when a display is there, a Gtk.Label bound to
// the `locale` property; then the generated connection: calls of the
// interface with its boxed types, the subscription's signal, an error of
// the interface by its code. Prints TAP; any failure ends the script non-zero.
imports.gi.versions.Lprojd = '2.0';
const {GLib, GObject, Gio, Lprojd} = imports.gi;
const System = imports.system;

Gio._promisify(Lprojd.Localizer, 'new_async', 'new_finish');
for (const method of ['select', 'reset', 'format', 'format_value', 'fetch_supported_locales'])
    Gio._promisify(Lprojd.Localizer.prototype, `${method}_async`, `${method}_finish`);
Gio._promisify(Lprojd.Connection, 'new_async', 'new_finish');
for (const method of ['list_bundles', 'lookup', 'subscribe', 'get_table', 'select_locale', 'reset_selection'])
    Gio._promisify(Lprojd.Connection.prototype, `${method}_async`, `${method}_finish`);

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
    const german = names.find(name => name.get_locale() === 'de');
    check('the language menu names German in itself', german.get_native_name(), 'Deutsch');
    check('and in English', german.get_name(), 'German');

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
    await connectionCalls();
}

// The generated connection: any method of the interface, its replies typed.
async function connectionCalls() {
    const connection = await Lprojd.Connection.new_async(socket, null);
    check('Connection.new_async', connection.socket_path, socket);
    const bundles = (await connection.list_bundles_async(null, null)).get_bundles();
    const demo = bundles.find(bundle => bundle.get_name() === 'demo');
    check('ListBundles: a bundle\'s development locale', demo.get_development_locale(), 'en');
    const parameters = Lprojd.LookupParameters.new('demo', 'files.selected');
    parameters.set_locale('fr');
    const argument = Lprojd.Argument.new();
    argument.set_int(3);
    parameters.set_arguments([argument]);
    const reply = await connection.lookup_async(parameters, null);
    check('Lookup with an Argument', reply.get_value(), '3 fichiers sélectionnés');
    try {
        await connection.get_table_async(Lprojd.GetTableParameters.new('no-such-bundle'), null);
        check('an unknown bundle is refused', false, true);
    } catch (error) {
        check('GetTable: BundleNotFound by its code', error.matches(Lprojd.Error, Lprojd.Error.BUNDLE_NOT_FOUND), true);
    }

    // A subscription on a connection of its own: ready first, then an event as its signal.
    const subscription = await Lprojd.Connection.new_async(socket, null);
    const subscribe = Lprojd.SubscribeParameters.new();
    subscribe.set_client(CLIENT);
    subscribe.set_bundle('demo');
    const event = until(subscription, 'subscribe-reply',
        (_self, next) => next.get_event().get_kind() === Lprojd.EventKind.LOCALE_CHANGED &&
            next.get_event().get_locale() === 'ja');
    const first = await subscription.subscribe_async(subscribe, null);
    check('Subscribe\'s first reply', first.get_event().get_kind(), Lprojd.EventKind.READY);
    await connection.select_locale_async(Lprojd.SelectLocaleParameters.new(CLIENT, 'demo', 'ja'), null);
    const [, changed] = await event;
    check('the event\'s client', changed.get_event().get_client(), CLIENT);
    const ended = until(subscription, 'stream-ended', () => true);
    subscription.close();
    const [, why] = await ended;
    check('closing ends the subscription', why.matches(Lprojd.Error, Lprojd.Error.DISCONNECTED), true);
    await connection.reset_selection_async(Lprojd.ResetSelectionParameters.new(CLIENT, 'demo'), null);
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
