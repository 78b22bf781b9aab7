/* LprojdLocalizer: the object, its creation and its answers. */
#include "cache.h"
#include "localizer-private.h"
#include "placeholders.h"

G_DEFINE_TYPE(LprojdLocalizer, lprojd_localizer, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

GType lprojd_change_get_type(void) {
  static gsize type = 0;
  static const GFlagsValue values[] = {
      {LPROJD_CHANGE_LOCALE, "LPROJD_CHANGE_LOCALE", "locale"},
      {LPROJD_CHANGE_TABLES, "LPROJD_CHANGE_TABLES", "tables"},
      {LPROJD_CHANGE_LOCALES, "LPROJD_CHANGE_LOCALES", "locales"},
      {LPROJD_CHANGE_PREFERENCES, "LPROJD_CHANGE_PREFERENCES", "preferences"},
      {LPROJD_CHANGE_BUNDLE, "LPROJD_CHANGE_BUNDLE", "bundle"},
      {LPROJD_CHANGE_RECONNECTED, "LPROJD_CHANGE_RECONNECTED", "reconnected"},
      {0, NULL, NULL},
  };
  if (g_once_init_enter(&type)) g_once_init_leave(&type, g_flags_register_static("LprojdChange", values));
  return type;
}

static void lprojd_localizer_init(LprojdLocalizer *self) {
  g_rec_mutex_init(&self->lock);
  self->mirror = mirror_new(NULL, NULL, NULL, NULL);
  self->context = g_main_context_ref_thread_default();
}

static void lprojd_localizer_dispose(GObject *object) {
  localizer_stop(LPROJD_LOCALIZER(object));
  G_OBJECT_CLASS(lprojd_localizer_parent_class)->dispose(object);
}

static void lprojd_localizer_finalize(GObject *object) {
  LprojdLocalizer *self = LPROJD_LOCALIZER(object);
  mirror_unref(self->mirror);
  g_main_context_unref(self->context);
  g_rec_mutex_clear(&self->lock);
  g_free(self->bundle);
  g_free(self->client);
  g_free(self->socket_path);
  g_strfreev(self->preferred_languages);
  G_OBJECT_CLASS(lprojd_localizer_parent_class)->finalize(object);
}

static void lprojd_localizer_class_init(LprojdLocalizerClass *class) {
  GObjectClass *object_class = G_OBJECT_CLASS(class);
  object_class->dispose = lprojd_localizer_dispose;
  object_class->finalize = lprojd_localizer_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new("changed", LPROJD_TYPE_LOCALIZER, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, LPROJD_TYPE_CHANGE);
}

/* The socket of clients/README.md: $LPROJD_SOCKET, else the user's
 * runtime directory's if it exists, else the system's. */
static char *default_socket_path(void) {
  const char *explicit_path = g_getenv("LPROJD_SOCKET");
  if (explicit_path != NULL && explicit_path[0] != '\0') return g_strdup(explicit_path);
  const char *runtime = g_getenv("XDG_RUNTIME_DIR");
  if (runtime != NULL && runtime[0] != '\0') {
    g_autofree char *path = g_build_filename(runtime, "lprojd", "org.lprojd.Localization", NULL);
    if (g_file_test(path, G_FILE_TEST_EXISTS)) return g_steal_pointer(&path);
  }
  return g_strdup("/run/lprojd/org.lprojd.Localization");
}

LprojdLocalizer *lprojd_localizer_new(const char *bundle, const char *client, const char *socket_path,
                                      GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(bundle != NULL && client != NULL, NULL);
  g_autoptr(LprojdLocalizer) self = g_object_new(LPROJD_TYPE_LOCALIZER, NULL);
  self->bundle = g_strdup(bundle);
  self->client = g_strdup(client);
  self->socket_path = socket_path != NULL ? g_strdup(socket_path) : default_socket_path();
  g_auto(GStrv) environment = g_get_environ();
  self->preferred_languages = lprojd_preferred_languages_from_environ((const char *const *)environment);

  GError *local_error = NULL;
  if (!localizer_subscribe(self, TRUE, cancellable, &local_error)) {
    if (!g_error_matches(local_error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE)) {
      g_propagate_error(error, local_error);
      return NULL;
    }
    /* Without lprojd: the last mirror, and keep trying to connect. */
    g_info("%s; answering from the cached mirror", local_error->message);
    g_error_free(local_error);
    Mirror *cached = cache_load(bundle, client);
    if (cached != NULL) {
      localizer_apply(self, cached, 0);
      self->mirror_is_cached = TRUE;
    }
    localizer_connection_lost(self);
    return g_steal_pointer(&self);
  }
  Mirror *mirror = localizer_fetch_everything(self, error);
  if (mirror == NULL) return NULL;
  self->connected = TRUE;
  localizer_apply(self, mirror, 0);
  return g_steal_pointer(&self);
}

/* ---- swapping mirrors and telling the app ---- */

typedef struct {
  LprojdLocalizer *self;
  guint changes;
  Mirror *retired; /* the mirror swapped out, released once the app was told */
} Notification;

static gboolean deliver_notification(gpointer data) {
  Notification *notification = data;
  if (notification->changes != 0)
    g_signal_emit(notification->self, signals[SIGNAL_CHANGED], 0, (LprojdChange)notification->changes);
  return G_SOURCE_REMOVE;
}

static void free_notification(gpointer data) {
  Notification *notification = data;
  g_clear_pointer(&notification->retired, mirror_unref);
  g_object_unref(notification->self);
  g_free(notification);
}

/* Runs on the localizer's context, always later: the signal reaches the
 * creator's thread, and a retired mirror outlives the strings that thread
 * may still hold from it until it runs again. */
static void schedule_notification(LprojdLocalizer *self, guint changes, Mirror *retired) {
  Notification *notification = g_new0(Notification, 1);
  notification->self = g_object_ref(self);
  notification->changes = changes;
  notification->retired = retired;
  g_autoptr(GSource) source = g_idle_source_new();
  g_source_set_priority(source, G_PRIORITY_DEFAULT);
  g_source_set_callback(source, deliver_notification, notification, free_notification);
  g_source_attach(source, self->context);
}

void localizer_apply(LprojdLocalizer *self, Mirror *mirror, guint changes) {
  Mirror *retired;
  {
    g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
    /* A bundle with no tables left (its directory vanished, during a package
     * upgrade say) keeps the last mirror lprojd gave until tables come back:
     * the last strings are better than keys. The app is told all the same,
     * and the next event fetches everything again (so that a locale chosen
     * meanwhile is not lost). */
    const Mirror *current = self->mirror;
    if (g_hash_table_size(mirror->tables) == 0 && current != NULL && g_hash_table_size(current->tables) > 0 &&
        !self->mirror_is_cached) {
      mirror_unref(mirror);
      /* Told once, and not of a locale: the mirror keeps its own. */
      guint told = changes & ~(guint)LPROJD_CHANGE_LOCALE;
      if (!self->told_of_keeping && told != 0) {
        self->told_of_keeping = TRUE;
        schedule_notification(self, told, NULL);
      }
      self->refetch_everything = TRUE;
      return;
    }
    self->refetch_everything = FALSE;
    self->told_of_keeping = FALSE;
    self->mirror_is_cached = FALSE;
    retired = g_atomic_pointer_exchange(&self->mirror, mirror);
    /* The cache is only for the daemon's mirrors, not one read from it. */
    g_autoptr(GError) error = NULL;
    if (self->connected && !cache_save(mirror, self->bundle, self->client, &error))
      g_info("the mirror is not cached: %s", error->message);
  }
  schedule_notification(self, changes, retired);
}

void localizer_notify(LprojdLocalizer *self, guint changes) { schedule_notification(self, changes, NULL); }

Mirror *localizer_ref_mirror(LprojdLocalizer *self) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  return mirror_ref(self->mirror);
}

/* ---- answers from the mirror ---- */

const char *lprojd_localizer_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                    const char *default_value) {
  const char *value = mirror_lookup(g_atomic_pointer_get(&self->mirror), key, table);
  if (value != NULL) return value;
  return default_value != NULL ? default_value : key;
}

const char *lprojd_localizer_lookup_source(LprojdLocalizer *self, const char *key, const char *table) {
  return mirror_source(g_atomic_pointer_get(&self->mirror), key, table);
}

const char *lprojd_localizer_get_locale(LprojdLocalizer *self) {
  return ((Mirror *)g_atomic_pointer_get(&self->mirror))->locale;
}

gboolean lprojd_localizer_is_connected(LprojdLocalizer *self) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  return self->connected;
}

char *lprojd_localizer_dup_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                  const char *default_value) {
  g_autoptr(Mirror) mirror = localizer_ref_mirror(self);
  const char *value = mirror_lookup(mirror, key, table);
  return g_strdup(value != NULL ? value : default_value != NULL ? default_value : key);
}

char *lprojd_localizer_lookup_with_placeholders(LprojdLocalizer *self, const char *key, const char *table,
                                                const char *default_value, GHashTable *values) {
  g_autofree char *text = lprojd_localizer_dup_lookup(self, key, table, default_value);
  return placeholders_substitute(text, values);
}

void lprojd_locale_name_free(LprojdLocaleName *name) {
  if (name == NULL) return;
  g_free(name->locale);
  g_free(name->name);
  g_free(name->native_name);
  g_free(name->bundle_name);
  g_free(name);
}

static char *dup_member(JsonObject *object, const char *member) {
  JsonNode *node = json_object_get_member(object, member);
  return node != NULL && json_node_get_value_type(node) == G_TYPE_STRING ? g_strdup(json_node_get_string(node)) : NULL;
}

GPtrArray *lprojd_localizer_supported_locales(LprojdLocalizer *self) {
  GPtrArray *names = g_ptr_array_new_with_free_func((GDestroyNotify)lprojd_locale_name_free);
  g_autoptr(Mirror) mirror = localizer_ref_mirror(self);
  JsonNode *locales = mirror->supported != NULL ? json_object_get_member(mirror->supported, "locales") : NULL;
  if (locales == NULL || !JSON_NODE_HOLDS_ARRAY(locales)) return names;
  JsonArray *array = json_node_get_array(locales);
  for (guint i = 0; i < json_array_get_length(array); i++) {
    JsonNode *node = json_array_get_element(array, i);
    if (!JSON_NODE_HOLDS_OBJECT(node)) continue;
    JsonObject *entry = json_node_get_object(node);
    LprojdLocaleName *name = g_new0(LprojdLocaleName, 1);
    name->locale = dup_member(entry, "locale");
    name->name = dup_member(entry, "name");
    name->native_name = dup_member(entry, "nativeName");
    name->bundle_name = dup_member(entry, "bundleName");
    if (name->locale == NULL || name->name == NULL || name->native_name == NULL) {
      lprojd_locale_name_free(name);
      continue;
    }
    g_ptr_array_add(names, name);
  }
  return names;
}

/* ---- asking lprojd ---- */

static gboolean require_connection(LprojdLocalizer *self, GError **error) {
  if (lprojd_localizer_is_connected(self)) return TRUE;
  g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "lprojd is not available at %s", self->socket_path);
  return FALSE;
}

static JsonObject *argument_json(const LprojdArgument *argument) {
  JsonObject *object = json_object_new();
  switch (argument->type) {
    case LPROJD_ARGUMENT_STRING:
      json_object_set_string_member(object, "string", argument->string != NULL ? argument->string : "");
      break;
    case LPROJD_ARGUMENT_INT:
      json_object_set_int_member(object, "int", argument->integer);
      break;
    case LPROJD_ARGUMENT_FLOAT:
      json_object_set_double_member(object, "float", argument->number);
      if (argument->fraction_digits >= 0) json_object_set_int_member(object, "fractionDigits", argument->fraction_digits);
      break;
  }
  return object;
}

static JsonObject *string_map_json(GHashTable *values) {
  JsonObject *object = json_object_new();
  GHashTableIter iter;
  gpointer name, value;
  g_hash_table_iter_init(&iter, values);
  while (g_hash_table_iter_next(&iter, &name, &value)) json_object_set_string_member(object, name, value);
  return object;
}

char *lprojd_localizer_format(LprojdLocalizer *self, const char *key, const char *table,
                              const LprojdArgument *arguments, gsize n_arguments, GHashTable *placeholders,
                              GError **error) {
  if (!require_connection(self, error)) return NULL;
  g_autoptr(Mirror) mirror = localizer_ref_mirror(self);
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", self->bundle);
  json_object_set_string_member(parameters, "key", key);
  if (table != NULL) json_object_set_string_member(parameters, "table", table);
  if (mirror->locale != NULL) json_object_set_string_member(parameters, "locale", mirror->locale);
  json_object_set_string_member(parameters, "client", self->client);
  JsonArray *list = json_array_new();
  for (gsize i = 0; i < n_arguments; i++) json_array_add_object_element(list, argument_json(&arguments[i]));
  json_object_set_array_member(parameters, "arguments", list);
  if (placeholders != NULL) json_object_set_object_member(parameters, "placeholders", string_map_json(placeholders));
  g_autoptr(JsonObject) reply = localizer_call(self, LPROJD_INTERFACE "Lookup", parameters, error);
  if (reply == NULL) return NULL;
  JsonNode *value = json_object_get_member(reply, "value");
  if (value == NULL || json_node_get_value_type(value) != G_TYPE_STRING) {
    g_set_error_literal(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "malformed reply: Lookup without a value");
    return NULL;
  }
  return g_strdup(json_node_get_string(value));
}

/* Applies a Selection reply at once: the mirror in its locale. */
static gboolean apply_selection(LprojdLocalizer *self, JsonObject *reply, GError **error) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  g_autofree char *locale = localizer_selection_locale(reply, error);
  if (locale == NULL) return FALSE;
  if (g_strcmp0(locale, self->mirror->locale) == 0) return TRUE;
  Mirror *mirror = localizer_fetch_locale(self, self->mirror, locale, error);
  if (mirror == NULL) return FALSE;
  localizer_apply(self, mirror, LPROJD_CHANGE_LOCALE);
  return TRUE;
}

static gboolean change_selection(LprojdLocalizer *self, const char *method, const char *locale, GError **error) {
  if (!require_connection(self, error)) return FALSE;
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", self->client);
  json_object_set_string_member(parameters, "bundle", self->bundle);
  if (locale != NULL) json_object_set_string_member(parameters, "locale", locale);
  g_autoptr(JsonObject) reply = localizer_call(self, method, parameters, error);
  return reply != NULL && apply_selection(self, reply, error);
}

gboolean lprojd_localizer_select(LprojdLocalizer *self, const char *locale, GError **error) {
  g_return_val_if_fail(locale != NULL, FALSE);
  return change_selection(self, LPROJD_INTERFACE "SelectLocale", locale, error);
}

gboolean lprojd_localizer_reset(LprojdLocalizer *self, GError **error) {
  return change_selection(self, LPROJD_INTERFACE "ResetSelection", NULL, error);
}
