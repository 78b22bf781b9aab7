/* LprojdLocalizer: the object, its properties, its creation, its answers
 * from the mirror, and telling the app. */
#include "localizer-private.h"
#include "placeholders.h"
#include "sync-wait.h"

/**
 * LprojdLocalizer:
 *
 * One bundle's strings for one app, answered from memory and kept live by
 * lprojd.
 *
 * A localizer subscribes to lprojd, fetches the app's locale, every table
 * of the bundle in that locale and the names of its supported locales (the
 * *mirror*), and answers [method@Lprojd.Localizer.lookup] from memory, as
 * fast as a hash table. It then follows every change lprojd announces: a
 * language chosen by any process of the app, an edited translation, a new
 * locale folder, a restarted daemon. Each change is fetched in the
 * background and swapped in whole; the app is then told with
 * [signal@Lprojd.Localizer::changed] and `notify` on the properties that
 * changed, on the main context of the thread that created the localizer.
 *
 * Nothing the localizer does blocks that main context unless its name ends
 * in `_sync`: create one with [func@Lprojd.Localizer.new_async], and ask
 * lprojd with the `_async` calls ([method@Lprojd.Localizer.format_async],
 * [method@Lprojd.Localizer.select_async]…), each with a
 * [class@Gio.Cancellable]; each finishes on the thread-default main context
 * of the thread that made it. Changes of the mirror (a select, a reset, a
 * refresh after lprojd's events) are made one at a time, in order, on a
 * thread of the library's own that also reads and writes its connections
 * ([class@Lprojd.Connection]), so a large reply never holds the app's main
 * loop.
 *
 * Without lprojd, a localizer answers from the mirror it cached on its last
 * run and keeps trying to connect; see [func@Lprojd.Localizer.new_async].
 */

static void lprojd_localizer_initable_init(GInitableIface *iface);
static void lprojd_localizer_async_initable_init(GAsyncInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(LprojdLocalizer, lprojd_localizer, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_INITABLE, lprojd_localizer_initable_init)
                                  G_IMPLEMENT_INTERFACE(G_TYPE_ASYNC_INITABLE,
                                                        lprojd_localizer_async_initable_init))

enum {
  PROP_0,
  PROP_BUNDLE,
  PROP_CLIENT_ID,
  PROP_SOCKET_PATH,
  PROP_PREFERRED_LANGUAGES,
  PROP_LOCALE,
  PROP_GENERATION,
  PROP_CONNECTED,
  N_PROPERTIES,
};
static GParamSpec *properties[N_PROPERTIES];

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The type, kept by class_init for the checks of calls made often:
 * LPROJD_IS_LOCALIZER calls lprojd_localizer_get_type(). Before class_init
 * (no localizer exists yet) it is 0, which no instance is. (The lookups
 * check for NULL only: any type check costs them 3 of their 50 ns.) */
static GType localizer_type;
#define IS_LOCALIZER(pointer) G_TYPE_CHECK_INSTANCE_TYPE((pointer), localizer_type)

static void lprojd_localizer_init(LprojdLocalizer *self) { self->context = g_main_context_ref_thread_default(); }

static void tell(GObject *owner, guint changes);

static void lprojd_localizer_constructed(GObject *object) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  G_OBJECT_CLASS(lprojd_localizer_parent_class)->constructed(object);
  if (self->socket_path == NULL) self->socket_path = lprojd_default_socket_path();
  if (self->preferred_languages == NULL) {
    g_auto(GStrv) environment = g_get_environ();
    self->preferred_languages = lprojd_preferred_languages_from_environ((const char *const *)environment);
  }
  LiveMirrorSettings settings = {self->bundle, self->client_id, self->socket_path,
                                 (const char *const *)self->preferred_languages};
  self->live = live_mirror_new(&settings, object, self->context, tell);
}

static void lprojd_localizer_dispose(GObject *object) {
  /* The app let go of the localizer: its background work ends now, and no
   * signal comes after this. */
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  if (self->live != NULL) live_mirror_stop(self->live);
  G_OBJECT_CLASS(lprojd_localizer_parent_class)->dispose(object);
}

static void lprojd_localizer_finalize(GObject *object) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  g_clear_pointer(&self->live, live_mirror_unref);
  g_main_context_unref(self->context);
  g_free(self->bundle);
  g_free(self->client_id);
  g_free(self->socket_path);
  g_strfreev(self->preferred_languages);
  g_free(self->told_locale);
  G_OBJECT_CLASS(lprojd_localizer_parent_class)->finalize(object);
}

static void lprojd_localizer_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  switch (id) {
    case PROP_BUNDLE: g_value_set_string(value, self->bundle); break;
    case PROP_CLIENT_ID: g_value_set_string(value, self->client_id); break;
    case PROP_SOCKET_PATH: g_value_set_string(value, self->socket_path); break;
    case PROP_PREFERRED_LANGUAGES: g_value_set_boxed(value, self->preferred_languages); break;
    case PROP_LOCALE: {
      g_autoptr(Mirror) mirror = live_mirror_ref_current(self->live);
      g_value_set_string(value, mirror->locale);
      break;
    }
    case PROP_GENERATION: g_value_set_int64(value, lprojd_localizer_get_generation(self)); break;
    case PROP_CONNECTED: g_value_set_boolean(value, lprojd_localizer_get_connected(self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void lprojd_localizer_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  switch (id) {
    case PROP_BUNDLE: self->bundle = g_value_dup_string(value); break;
    case PROP_CLIENT_ID: self->client_id = g_value_dup_string(value); break;
    case PROP_SOCKET_PATH: self->socket_path = g_value_dup_string(value); break;
    case PROP_PREFERRED_LANGUAGES: self->preferred_languages = g_value_dup_boxed(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void lprojd_localizer_class_init(LprojdLocalizerClass *class) {
  GObjectClass *object_class = G_OBJECT_CLASS(class);
  localizer_type = G_TYPE_FROM_CLASS(class);
  object_class->constructed = lprojd_localizer_constructed;
  object_class->dispose = lprojd_localizer_dispose;
  object_class->finalize = lprojd_localizer_finalize;
  object_class->get_property = lprojd_localizer_get_property;
  object_class->set_property = lprojd_localizer_set_property;

  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  const GParamFlags state = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  /**
   * LprojdLocalizer:bundle: (getter get_bundle)
   *
   * The bundle's name, as lprojd serves it (`org.example.Editor`).
   */
  properties[PROP_BUNDLE] = g_param_spec_string("bundle", NULL, NULL, NULL, construct);

  /**
   * LprojdLocalizer:client-id: (getter get_client_id)
   *
   * The app's id: lprojd keeps the app's chosen language per user under it,
   * and every process of the app that uses the same id follows the choice.
   */
  properties[PROP_CLIENT_ID] = g_param_spec_string("client-id", NULL, NULL, NULL, construct);

  /**
   * LprojdLocalizer:socket-path: (getter get_socket_path)
   *
   * lprojd's socket. Unset (%NULL): `$LPROJD_SOCKET` if set, else
   * `$XDG_RUNTIME_DIR/lprojd/org.lprojd.Localization` if it exists (the
   * user's lprojd), else `/run/lprojd/org.lprojd.Localization` (the
   * system's). Reading it gives the path in use.
   */
  properties[PROP_SOCKET_PATH] = g_param_spec_string("socket-path", NULL, NULL, NULL, construct);

  /**
   * LprojdLocalizer:preferred-languages: (getter get_preferred_languages)
   *
   * The user's languages, most preferred first, as BCP 47 tags: lprojd
   * picks the app's locale from them until the app selects one. Unset
   * (%NULL): read from the environment as gettext reads it
   * ([func@Lprojd.preferred_languages_from_environ]).
   */
  properties[PROP_PREFERRED_LANGUAGES] = g_param_spec_boxed("preferred-languages", NULL, NULL, G_TYPE_STRV, construct);

  /**
   * LprojdLocalizer:locale: (getter get_locale)
   *
   * The locale the mirror is in (`de`, `pt-BR`): the app's language. %NULL
   * until the localizer has a mirror (from lprojd or from its cache).
   * Notified on the localizer's main context once the strings of a new
   * locale answer lookups, so a binding to it (g_object_bind_property())
   * always shows the language of the strings.
   */
  properties[PROP_LOCALE] = g_param_spec_string("locale", NULL, NULL, NULL, state);

  /**
   * LprojdLocalizer:generation: (getter get_generation)
   *
   * The bundle's generation as of the mirror's last fetch: lprojd counts
   * up each time it reloads any of the bundle's tables. 0 until known.
   */
  properties[PROP_GENERATION] = g_param_spec_int64("generation", NULL, NULL, 0, G_MAXINT64, 0, state);

  /**
   * LprojdLocalizer:connected: (getter get_connected)
   *
   * Whether the localizer is connected to lprojd and its mirror is
   * lprojd's. While it is not, lookups answer from the last mirror (or the
   * cached one), and calls that need lprojd fail with
   * %LPROJD_ERROR_UNAVAILABLE.
   */
  properties[PROP_CONNECTED] = g_param_spec_boolean("connected", NULL, NULL, FALSE, state);

  g_object_class_install_properties(object_class, N_PROPERTIES, properties);

  /**
   * LprojdLocalizer::changed:
   * @self: the localizer
   * @what: what changed
   *
   * Emitted on the localizer's main context after a change is in place:
   * lookups already answer with the new strings. Read again whatever
   * @what says may differ (every string for %LPROJD_CHANGE_LOCALE). The
   * properties that changed are notified first.
   */
  signals[SIGNAL_CHANGED] = g_signal_new("changed", LPROJD_TYPE_LOCALIZER, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, LPROJD_TYPE_CHANGE);
}

/* ---- creation ---- */

static gboolean check_construction(LprojdLocalizer *self, GError **error) {
  if (self->bundle == NULL || self->client_id == NULL) {
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "a localizer needs a bundle and a client id");
    return FALSE;
  }
  self->initialized = TRUE;
  return TRUE;
}

static void lprojd_localizer_init_async(GAsyncInitable *initable, int priority, GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data) {
  (void)priority;
  LprojdLocalizer *self = LPROJD_LOCALIZER(initable);
  g_autoptr(GTask) task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_source_tag(task, lprojd_localizer_init_async);
  GError *error = NULL;
  if (self->initialized || !check_construction(self, &error)) {
    /* Once: calling again is harmless. */
    if (error != NULL)
      g_task_return_error(task, error);
    else
      g_task_return_boolean(task, TRUE);
    return;
  }
  live_mirror_start(self->live, g_steal_pointer(&task));
}

static gboolean lprojd_localizer_init_finish(GAsyncInitable *initable, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, initable), FALSE);
  return g_task_propagate_boolean(G_TASK(result), error);
}

static void lprojd_localizer_async_initable_init(GAsyncInitableIface *iface) {
  iface->init_async = lprojd_localizer_init_async;
  iface->init_finish = lprojd_localizer_init_finish;
}

static gboolean lprojd_localizer_initable_init_sync(GInitable *initable, GCancellable *cancellable, GError **error) {
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_init_async(G_ASYNC_INITABLE(initable), G_PRIORITY_DEFAULT, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_init_finish(G_ASYNC_INITABLE(initable), result, error);
}

static void lprojd_localizer_initable_init(GInitableIface *iface) { iface->init = lprojd_localizer_initable_init_sync; }

/**
 * lprojd_localizer_new_async:
 * @bundle: the bundle's name, as lprojd serves it
 * @client_id: the app's id (`org.example.Editor`)
 * @socket_path: (nullable): lprojd's socket, or %NULL for the default (see
 *   [property@Lprojd.Localizer:socket-path])
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called when the localizer is ready
 * @user_data: data for @callback
 *
 * Creates a localizer without blocking: it subscribes to lprojd, waits for
 * the subscription to be ready (so that no change is missed), and fetches
 * the app's locale, every table of the bundle in it and the names of the
 * supported locales. @callback then runs on the thread-default main
 * context of the calling thread; call [ctor@Lprojd.Localizer.new_finish]
 * there. The localizer's signals and notifications run on that same
 * context, for as long as it lives.
 *
 * When lprojd cannot be reached, or does not answer, the localizer is still
 * created (this is not an error): it answers from the mirror cached by its
 * last run with the same bundle and client id (or gives every key's
 * default), with [property@Lprojd.Localizer:connected] %FALSE, and keeps
 * trying to connect; once it does, it fetches everything and emits
 * [signal@Lprojd.Localizer::changed] with %LPROJD_CHANGE_RECONNECTED. The
 * errors are lprojd's (an unknown bundle is %LPROJD_ERROR_BUNDLE_NOT_FOUND),
 * a malformed reply, or `G_IO_ERROR_CANCELLED`.
 *
 * The localizer's own construction properties are available through
 * g_async_initable_new_async() as well (`preferred-languages`).
 */
void lprojd_localizer_new_async(const char *bundle, const char *client_id, const char *socket_path,
                                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
  g_return_if_fail(bundle != NULL);
  g_return_if_fail(client_id != NULL);
  g_async_initable_new_async(LPROJD_TYPE_LOCALIZER, G_PRIORITY_DEFAULT, cancellable, callback, user_data, "bundle",
                             bundle, "client-id", client_id, "socket-path", socket_path, NULL);
}

/**
 * lprojd_localizer_new_finish:
 * @result: the result given to the callback of [func@Lprojd.Localizer.new_async]
 * @error: return location for an error
 *
 * Finishes creating a localizer.
 *
 * Returns: (transfer full) (nullable): the localizer, or %NULL with @error set
 */
LprojdLocalizer *lprojd_localizer_new_finish(GAsyncResult *result, GError **error) {
  g_autoptr(GObject) source = g_async_result_get_source_object(result);
  GObject *object = g_async_initable_new_finish(G_ASYNC_INITABLE(source), result, error);
  return object != NULL ? LPROJD_LOCALIZER(object) : NULL;
}

/**
 * lprojd_localizer_new_sync:
 * @bundle: the bundle's name, as lprojd serves it
 * @client_id: the app's id (`org.example.Editor`)
 * @socket_path: (nullable): lprojd's socket, or %NULL for the default (see
 *   [property@Lprojd.Localizer:socket-path])
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Creates a localizer as [func@Lprojd.Localizer.new_async] does, blocking
 * the calling thread until it is ready: a few local round trips when lprojd
 * answers, up to 10 seconds when it is stuck. Do not call it on a GUI's
 * main thread; its signals run on the calling thread's thread-default main
 * context.
 *
 * Returns: (transfer full) (nullable): the localizer, or %NULL with @error set
 */
LprojdLocalizer *lprojd_localizer_new_sync(const char *bundle, const char *client_id, const char *socket_path,
                                           GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(bundle != NULL, NULL);
  g_return_val_if_fail(client_id != NULL, NULL);
  return g_initable_new(LPROJD_TYPE_LOCALIZER, cancellable, error, "bundle", bundle, "client-id", client_id,
                        "socket-path", socket_path, NULL);
}

/* ---- telling the app ---- */

/* On the localizer's context: notifies each property whose value differs
 * from what the app was last told, then `changed` if anything did. */
static void tell(GObject *owner, guint changes) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(owner);
  const char *locale = live_mirror_peek(self->live)->locale;
  if (g_strcmp0(locale, self->told_locale) != 0) {
    g_free(self->told_locale);
    self->told_locale = g_strdup(locale);
    g_object_notify_by_pspec(owner, properties[PROP_LOCALE]);
  }
  gint64 generation = lprojd_localizer_get_generation(self);
  if (generation != self->told_generation) {
    self->told_generation = generation;
    g_object_notify_by_pspec(owner, properties[PROP_GENERATION]);
  }
  gboolean connected = lprojd_localizer_get_connected(self);
  if (connected != self->told_connected) {
    self->told_connected = connected;
    g_object_notify_by_pspec(owner, properties[PROP_CONNECTED]);
  }
  if (changes != 0) g_signal_emit(self, signals[SIGNAL_CHANGED], 0, (LprojdChange)changes);
}

/* ---- properties ---- */

/**
 * lprojd_localizer_get_bundle: (get-property bundle)
 * @self: a localizer
 *
 * The bundle the localizer mirrors ([property@Lprojd.Localizer:bundle]).
 *
 * Returns: the bundle's name
 */
const char *lprojd_localizer_get_bundle(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  return self->bundle;
}

/**
 * lprojd_localizer_get_client_id: (get-property client-id)
 * @self: a localizer
 *
 * The app's id ([property@Lprojd.Localizer:client-id]).
 *
 * Returns: the app's id
 */
const char *lprojd_localizer_get_client_id(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  return self->client_id;
}

/**
 * lprojd_localizer_get_socket_path: (get-property socket-path)
 * @self: a localizer
 *
 * lprojd's socket ([property@Lprojd.Localizer:socket-path]).
 *
 * Returns: the path of lprojd's socket the localizer connects to
 */
const char *lprojd_localizer_get_socket_path(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  return self->socket_path;
}

/**
 * lprojd_localizer_get_preferred_languages: (get-property preferred-languages)
 * @self: a localizer
 *
 * The user's languages ([property@Lprojd.Localizer:preferred-languages]).
 *
 * Returns: (transfer none) (array zero-terminated=1): the user's languages
 *   given to lprojd, most preferred first (possibly none)
 */
const char *const *lprojd_localizer_get_preferred_languages(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  return (const char *const *)self->preferred_languages;
}

/**
 * lprojd_localizer_get_locale: (get-property locale)
 * @self: a localizer
 *
 * The locale of the mirror: the language of the strings lookups give. As
 * with [method@Lprojd.Localizer.lookup], the string is borrowed from the
 * mirror: it stays valid until the localizer's main context runs again
 * after a change. Call it on that context's thread.
 *
 * Returns: (nullable): the locale, or %NULL without any mirror
 */
const char *lprojd_localizer_get_locale(LprojdLocalizer *self) {
  g_return_val_if_fail(IS_LOCALIZER(self), NULL);
  return live_mirror_peek(self->live)->locale;
}

/**
 * lprojd_localizer_get_generation: (get-property generation)
 * @self: a localizer
 *
 * The bundle's generation ([property@Lprojd.Localizer:generation]).
 *
 * Returns: the bundle's generation as of the mirror's last fetch, 0 if unknown
 */
gint64 lprojd_localizer_get_generation(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), 0);
  g_autoptr(Mirror) mirror = live_mirror_ref_current(self->live);
  return mirror->generation;
}

/**
 * lprojd_localizer_get_connected: (get-property connected)
 * @self: a localizer
 *
 * Whether lprojd answers ([property@Lprojd.Localizer:connected]). Callable
 * from any thread.
 *
 * Returns: whether the localizer is connected to lprojd, its mirror lprojd's
 */
gboolean lprojd_localizer_get_connected(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), FALSE);
  return live_mirror_get_connected(self->live);
}

/* ---- answers from the mirror ---- */

/**
 * lprojd_localizer_lookup:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 * @default_value: (nullable): what to answer when no table has the key, or
 *   %NULL for the key itself
 *
 * The key's string in the app's language, from the mirror, in process: the
 * table's value, else a plural entry's format key, else @default_value,
 * else @key, as lprojd's `Lookup` answers without arguments. It never
 * blocks and takes no lock: two hash probes and no copy.
 *
 * The string is borrowed: it stays valid until the localizer's main
 * context runs again after a change (the retired mirror is released then).
 * Use it at once (set a label) or copy it, and call this on that context's
 * thread; from other threads, use [method@Lprojd.Localizer.dup_lookup].
 *
 * It checks only that @self and @key are not %NULL, not @self's type: a
 * GObject type check costs a twentieth of a lookup.
 *
 * Returns: the string
 */
const char *lprojd_localizer_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                    const char *default_value) {
  g_return_val_if_fail(self != NULL && key != NULL, NULL);
  const char *value = mirror_lookup(live_mirror_peek(self->live), key, table);
  if (value != NULL) return value;
  return default_value != NULL ? default_value : key;
}

/**
 * lprojd_localizer_lookup_source:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 *
 * Where a key's value comes from, as lprojd's `Lookup` says (its `found`
 * and `locale`): a locale of the fallback chain, or `Base`. Borrowed, as
 * [method@Lprojd.Localizer.lookup]'s answer is.
 *
 * Returns: (nullable): the locale the value comes from, or %NULL when no
 *   table has the key
 */
const char *lprojd_localizer_lookup_source(LprojdLocalizer *self, const char *key, const char *table) {
  g_return_val_if_fail(self != NULL && key != NULL, NULL);
  return mirror_source(live_mirror_peek(self->live), key, table);
}

/**
 * lprojd_localizer_dup_lookup:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 * @default_value: (nullable): what to answer when no table has the key, or
 *   %NULL for the key itself
 *
 * As [method@Lprojd.Localizer.lookup], as a copy: callable from any thread.
 *
 * Returns: (transfer full): the string
 */
char *lprojd_localizer_dup_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                  const char *default_value) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_return_val_if_fail(key != NULL, NULL);
  g_autoptr(Mirror) mirror = live_mirror_ref_current(self->live);
  const char *value = mirror_lookup(mirror, key, table);
  return g_strdup(value != NULL ? value : default_value != NULL ? default_value : key);
}

/**
 * lprojd_localizer_lookup_with_placeholders:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 * @default_value: (nullable): what to answer when no table has the key, or
 *   %NULL for the key itself
 * @placeholders: (nullable) (element-type utf8 utf8): values for `{name}`
 *   placeholders, by name
 *
 * The lookup with each `{name}` of the string replaced by its value in
 * @placeholders, exactly as lprojd replaces them (a name is ASCII letters,
 * digits, `_`, `.` and `-`, starting with a letter or `_`; a name without a
 * value stays as written; one pass). From the mirror, in process; callable
 * from any thread.
 *
 * Returns: (transfer full): the string
 */
char *lprojd_localizer_lookup_with_placeholders(LprojdLocalizer *self, const char *key, const char *table,
                                                const char *default_value, GHashTable *placeholders) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_return_val_if_fail(key != NULL, NULL);
  g_autofree char *text = lprojd_localizer_dup_lookup(self, key, table, default_value);
  return placeholders_substitute(text, placeholders);
}

/**
 * lprojd_localizer_supported_locales:
 * @self: a localizer
 *
 * The bundle's supported locales with their names in the app's language
 * and in their own, from the mirror: the entries of a language menu. It
 * never blocks; [method@Lprojd.Localizer.fetch_supported_locales_async]
 * names them in another language. The array frees its entries.
 *
 * Returns: (transfer container) (element-type LprojdLocaleName): the
 *   locales (empty without any mirror)
 */
GPtrArray *lprojd_localizer_supported_locales(LprojdLocalizer *self) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_autoptr(Mirror) mirror = live_mirror_ref_current(self->live);
  return mirror_supported_names(mirror);
}
