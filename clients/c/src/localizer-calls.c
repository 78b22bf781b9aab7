/* The calls that ask lprojd: each as _async (queued on the work queue),
 * _finish, and _sync (blocking the calling thread), around one blocking
 * function that does the work. */
#include "localizer-private.h"

/* ---- LprojdLocaleName ---- */

G_DEFINE_BOXED_TYPE(LprojdLocaleName, lprojd_locale_name, lprojd_locale_name_copy, lprojd_locale_name_free)

/**
 * lprojd_locale_name_copy:
 * @name: a locale's names
 *
 * Copies @name and its strings.
 *
 * Returns: (transfer full): a copy of @name
 */
LprojdLocaleName *lprojd_locale_name_copy(const LprojdLocaleName *name) {
  g_return_val_if_fail(name != NULL, NULL);
  LprojdLocaleName *copy = g_new0(LprojdLocaleName, 1);
  copy->locale = g_strdup(name->locale);
  copy->name = g_strdup(name->name);
  copy->native_name = g_strdup(name->native_name);
  copy->bundle_name = g_strdup(name->bundle_name);
  return copy;
}

/**
 * lprojd_locale_name_free:
 * @name: (nullable): a locale's names
 *
 * Frees @name and its strings.
 */
void lprojd_locale_name_free(LprojdLocaleName *name) {
  if (name == NULL) return;
  g_free(name->locale);
  g_free(name->name);
  g_free(name->native_name);
  g_free(name->bundle_name);
  g_free(name);
}

static char *dup_member(JsonObject *object, const char *member) { return g_strdup(member_string(object, member)); }

GPtrArray *localizer_locale_names(JsonObject *supported) {
  JsonNode *locales = supported != NULL ? json_object_get_member(supported, "locales") : NULL;
  if (locales == NULL || !JSON_NODE_HOLDS_ARRAY(locales)) return NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func((GDestroyNotify)lprojd_locale_name_free);
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

/* ---- shared ---- */

static gboolean require_connection(LprojdLocalizer *self, GError **error) {
  if (lprojd_localizer_get_connected(self)) return TRUE;
  g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "lprojd is not available at %s", self->socket_path);
  return FALSE;
}

/* Queues `run` for an _async call, or finishes the task at once when the
 * call cannot be made (`error` set, taken). */
static void queue_call(LprojdLocalizer *self, WorkFunc run, gpointer data, GDestroyNotify free_data,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data, gpointer tag,
                       GError *error) {
  if (error != NULL) {
    if (free_data != NULL && data != NULL) free_data(data);
    g_task_report_error(self, callback, user_data, tag, error);
    return;
  }
  work_queue(self, work_task_new(self, run, data, free_data, cancellable, callback, user_data, tag));
}

/* ---- format: Lookup with arguments ---- */

/* One format argument as the interface's Argument; NULL if its type is none
 * of those an Argument can hold. */
static JsonNode *argument_json(GVariant *value) {
  g_autoptr(GVariant) inner = g_variant_is_of_type(value, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant(value)
                                                                                 : g_variant_ref(value);
  g_autoptr(JsonObject) argument = json_object_new();
  if (g_variant_is_of_type(inner, G_VARIANT_TYPE_VARDICT)) {
    /* The Argument itself: {"float": <1.5>, "fractionDigits": <2>}. */
    g_autoptr(JsonNode) node = json_gvariant_serialize(inner);
    return g_steal_pointer(&node);
  }
  const GVariantType *type = g_variant_get_type(inner);
  if (g_variant_type_equal(type, G_VARIANT_TYPE_INT64))
    json_object_set_int_member(argument, "int", g_variant_get_int64(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_INT32))
    json_object_set_int_member(argument, "int", g_variant_get_int32(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT32))
    json_object_set_int_member(argument, "int", g_variant_get_uint32(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_INT16))
    json_object_set_int_member(argument, "int", g_variant_get_int16(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT16))
    json_object_set_int_member(argument, "int", g_variant_get_uint16(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_BYTE))
    json_object_set_int_member(argument, "int", g_variant_get_byte(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT64) && g_variant_get_uint64(inner) <= G_MAXINT64)
    json_object_set_int_member(argument, "int", (gint64)g_variant_get_uint64(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_DOUBLE))
    json_object_set_double_member(argument, "float", g_variant_get_double(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_STRING))
    json_object_set_string_member(argument, "string", g_variant_get_string(inner, NULL));
  else
    return NULL;
  return json_node_init_object(json_node_alloc(), argument);
}

/* The arguments as the interface's list: a tuple or an array holds them,
 * any other value is the only one. */
static JsonArray *arguments_json(GVariant *arguments, GError **error) {
  JsonArray *list = json_array_new();
  if (arguments == NULL) return list;
  gboolean container = g_variant_is_of_type(arguments, G_VARIANT_TYPE_TUPLE) ||
                       (g_variant_is_of_type(arguments, G_VARIANT_TYPE_ARRAY) &&
                        !g_variant_is_of_type(arguments, G_VARIANT_TYPE_VARDICT));
  gsize count = container ? g_variant_n_children(arguments) : 1;
  for (gsize i = 0; i < count; i++) {
    g_autoptr(GVariant) child = container ? g_variant_get_child_value(arguments, i) : g_variant_ref(arguments);
    JsonNode *node = argument_json(child);
    if (node == NULL) {
      g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_ARGUMENTS,
                  "argument %" G_GSIZE_FORMAT " is of type %s: an argument is an integer, a double, a string or an "
                  "a{sv} Argument",
                  i + 1, g_variant_get_type_string(child));
      json_array_unref(list);
      return NULL;
    }
    json_array_add_element(list, node);
  }
  return list;
}

static JsonObject *string_map_json(GHashTable *values) {
  JsonObject *object = json_object_new();
  GHashTableIter iter;
  gpointer name, value;
  g_hash_table_iter_init(&iter, values);
  while (g_hash_table_iter_next(&iter, &name, &value)) json_object_set_string_member(object, name, value);
  return object;
}

/* A reply's string member, or MALFORMED_REPLY. */
static char *reply_string(JsonObject *reply, const char *method, const char *member, GError **error) {
  const char *value = member_string(reply, member);
  if (value == NULL)
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "malformed reply: %s without a %s", method, member);
  return g_strdup(value);
}

/* Lookup's parameters for a format, all but the locale (the mirror's at the time of the call). */
static JsonObject *format_parameters(LprojdLocalizer *self, const char *key, const char *table, GVariant *arguments,
                                     GHashTable *placeholders, GError **error) {
  JsonArray *list = arguments_json(arguments, error);
  if (list == NULL) return NULL;
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", self->bundle);
  json_object_set_string_member(parameters, "key", key);
  if (table != NULL) json_object_set_string_member(parameters, "table", table);
  json_object_set_string_member(parameters, "client", self->client_id);
  json_object_set_array_member(parameters, "arguments", list);
  if (placeholders != NULL) json_object_set_object_member(parameters, "placeholders", string_map_json(placeholders));
  return parameters;
}

/* Asks lprojd, in the mirror's locale: `parameters` is taken. */
static char *do_ask(LprojdLocalizer *self, const char *method, const char *member, JsonObject *parameters,
                    GCancellable *cancellable, GError **error) {
  if (!require_connection(self, error)) {
    json_object_unref(parameters);
    return NULL;
  }
  if (!json_object_has_member(parameters, "locale")) {
    g_autoptr(Mirror) mirror = localizer_ref_mirror(self);
    if (mirror->locale != NULL) json_object_set_string_member(parameters, "locale", mirror->locale);
  }
  g_autofree char *name = g_strconcat(LPROJD_INTERFACE, method, NULL);
  g_autoptr(JsonObject) reply = localizer_call(self, name, parameters, cancellable, error);
  return reply != NULL ? reply_string(reply, method, member, error) : NULL;
}

/* A call whose reply's `value` is the answer. */
typedef struct {
  const char *method;
  JsonObject *parameters;
} Ask;

static void free_ask(gpointer data) {
  Ask *ask = data;
  json_object_unref(ask->parameters);
  g_free(ask);
}

static void work_ask(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable) {
  Ask *ask = data;
  GError *error = NULL;
  char *text = do_ask(self, ask->method, "value", json_object_ref(ask->parameters), cancellable, &error);
  if (text != NULL)
    work_return_pointer(task, text, g_free);
  else
    work_return_error(task, error);
}

static void queue_ask(LprojdLocalizer *self, const char *method, JsonObject *parameters, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data, gpointer tag, GError *error) {
  Ask *ask = NULL;
  if (error == NULL) {
    ask = g_new0(Ask, 1);
    ask->method = method;
    ask->parameters = parameters;
  }
  queue_call(self, work_ask, ask, free_ask, cancellable, callback, user_data, tag, error);
}

/**
 * lprojd_localizer_format_async:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 * @arguments: (nullable): the format's arguments: a tuple or an array of
 *   them (`(xs)`, `av`), or a single one. Each is an integer (any of
 *   GVariant's integer types), a double, a string, or an `a{sv}` holding the
 *   interface's `Argument` (`{'float': <1.5>, 'fractionDigits': <2>}`). A
 *   floating reference is taken.
 * @placeholders: (nullable) (element-type utf8 utf8): values for `{name}`
 *   placeholders, by name
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called with the text
 * @user_data: data for @callback
 *
 * Formats a key with arguments (plurals, `%d`, `%@`, `%.1f`…) and
 * placeholders by asking lprojd (`Lookup` in the mirror's locale for this
 * app), so that plural rules and numbers are CLDR's and ICU's, and the
 * text is exactly the daemon's. Without lprojd it fails with
 * %LPROJD_ERROR_UNAVAILABLE, never an approximation; arguments that do not
 * fit the format fail with %LPROJD_ERROR_INVALID_ARGUMENTS.
 *
 * For example, a plural count in C:
 * |[<!-- language="C" -->
 * lprojd_localizer_format_async (localizer, "files.selected", NULL,
 *                                g_variant_new ("(x)", (gint64) count), NULL,
 *                                cancellable, on_formatted, label);
 * ]|
 */
void lprojd_localizer_format_async(LprojdLocalizer *self, const char *key, const char *table, GVariant *arguments,
                                   GHashTable *placeholders, GCancellable *cancellable, GAsyncReadyCallback callback,
                                   gpointer user_data) {
  g_return_if_fail(LPROJD_IS_LOCALIZER(self));
  g_return_if_fail(key != NULL);
  g_autoptr(GVariant) owned = arguments != NULL ? g_variant_ref_sink(arguments) : NULL;
  GError *error = NULL;
  JsonObject *parameters = format_parameters(self, key, table, owned, placeholders, &error);
  queue_ask(self, "Lookup", parameters, cancellable, callback, user_data, lprojd_localizer_format_async, error);
}

/**
 * lprojd_localizer_format_finish:
 * @self: a localizer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Lprojd.Localizer.format_async].
 *
 * Returns: (transfer full) (nullable): the formatted text, or %NULL with @error set
 */
char *lprojd_localizer_format_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), NULL);
  return g_task_propagate_pointer(G_TASK(result), error);
}

/**
 * lprojd_localizer_format_sync:
 * @self: a localizer
 * @key: the key
 * @table: (nullable): the table, or %NULL for `Localizable`
 * @arguments: (nullable): the format's arguments, as for
 *   [method@Lprojd.Localizer.format_async]
 * @placeholders: (nullable) (element-type utf8 utf8): values for `{name}`
 *   placeholders, by name
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * As [method@Lprojd.Localizer.format_async], blocking the calling thread
 * for one local round trip (up to 10 seconds when lprojd is stuck).
 *
 * Returns: (transfer full) (nullable): the formatted text, or %NULL with @error set
 */
char *lprojd_localizer_format_sync(LprojdLocalizer *self, const char *key, const char *table, GVariant *arguments,
                                   GHashTable *placeholders, GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_return_val_if_fail(key != NULL, NULL);
  g_autoptr(GVariant) owned = arguments != NULL ? g_variant_ref_sink(arguments) : NULL;
  JsonObject *parameters = format_parameters(self, key, table, owned, placeholders, error);
  if (parameters == NULL) return NULL;
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  return do_ask(self, "Lookup", "value", parameters, cancellable, error);
}

/* ---- format_value: Format ---- */

static JsonObject *format_value_parameters(LprojdLocalizer *self, const char *style, GVariant *parameters,
                                           GError **error) {
  JsonObject *object = NULL;
  if (parameters != NULL) {
    if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE_VARDICT)) {
      g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Format's parameters are an a{sv}, not %s",
                  g_variant_get_type_string(parameters));
      return NULL;
    }
    g_autoptr(JsonNode) node = json_gvariant_serialize(parameters);
    object = json_object_ref(json_node_get_object(node));
  } else {
    object = json_object_new();
  }
  json_object_set_string_member(object, "style", style);
  json_object_set_string_member(object, "bundle", self->bundle);
  json_object_set_string_member(object, "client", self->client_id);
  return object;
}

/**
 * lprojd_localizer_format_value_async:
 * @self: a localizer
 * @style: the style, as lprojd's `Format` names it: `decimal`, `percent`,
 *   `currency`, `distance`, `speed`, `template`, `simpleDate`, `uppercase`…
 * @parameters: (nullable): `Format`'s other parameters as an `a{sv}`
 *   (`number`, `date`, `template`, `currency`, `unit`, `timeZone`…; numbers
 *   and dates as doubles). A floating reference is taken.
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called with the text
 * @user_data: data for @callback
 *
 * Writes a number, an amount, a distance, a speed or a date the way the
 * app's language does, with the app's saved preferences, by asking lprojd
 * (`Format`, in the mirror's locale unless @parameters has a `locale`).
 * Without lprojd it fails with %LPROJD_ERROR_UNAVAILABLE.
 */
void lprojd_localizer_format_value_async(LprojdLocalizer *self, const char *style, GVariant *parameters,
                                         GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
  g_return_if_fail(LPROJD_IS_LOCALIZER(self));
  g_return_if_fail(style != NULL);
  g_autoptr(GVariant) owned = parameters != NULL ? g_variant_ref_sink(parameters) : NULL;
  GError *error = NULL;
  JsonObject *object = format_value_parameters(self, style, owned, &error);
  queue_ask(self, "Format", object, cancellable, callback, user_data, lprojd_localizer_format_value_async, error);
}

/**
 * lprojd_localizer_format_value_finish:
 * @self: a localizer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Lprojd.Localizer.format_value_async].
 *
 * Returns: (transfer full) (nullable): the text, or %NULL with @error set
 */
char *lprojd_localizer_format_value_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), NULL);
  return g_task_propagate_pointer(G_TASK(result), error);
}

/**
 * lprojd_localizer_format_value_sync:
 * @self: a localizer
 * @style: the style, as for [method@Lprojd.Localizer.format_value_async]
 * @parameters: (nullable): `Format`'s other parameters as an `a{sv}`
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * As [method@Lprojd.Localizer.format_value_async], blocking the calling
 * thread for one local round trip (up to 10 seconds when lprojd is stuck).
 *
 * Returns: (transfer full) (nullable): the text, or %NULL with @error set
 */
char *lprojd_localizer_format_value_sync(LprojdLocalizer *self, const char *style, GVariant *parameters,
                                         GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_return_val_if_fail(style != NULL, NULL);
  g_autoptr(GVariant) owned = parameters != NULL ? g_variant_ref_sink(parameters) : NULL;
  JsonObject *object = format_value_parameters(self, style, owned, error);
  if (object == NULL) return NULL;
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  return do_ask(self, "Format", "value", object, cancellable, error);
}

/* ---- select and reset ---- */

/* Applies a Selection reply at once: the mirror in its locale. */
static gboolean apply_selection(LprojdLocalizer *self, JsonObject *reply, GCancellable *cancellable, GError **error) {
  g_autofree char *locale = localizer_selection_locale(reply, error);
  if (locale == NULL) return FALSE;
  g_autoptr(Mirror) base = localizer_ref_mirror(self);
  if (g_strcmp0(locale, base->locale) == 0) return TRUE;
  Mirror *mirror = localizer_fetch_locale(self, base, locale, cancellable, error);
  if (mirror == NULL) return FALSE;
  localizer_apply(self, mirror, LPROJD_CHANGE_LOCALE);
  return TRUE;
}

/* SelectLocale (locale) or ResetSelection (NULL), then the new locale's mirror; io_lock held. */
static gboolean do_change_selection(LprojdLocalizer *self, const char *locale, GCancellable *cancellable,
                                    GError **error) {
  if (!require_connection(self, error)) return FALSE;
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", self->client_id);
  json_object_set_string_member(parameters, "bundle", self->bundle);
  if (locale != NULL) json_object_set_string_member(parameters, "locale", locale);
  const char *method = locale != NULL ? LPROJD_INTERFACE "SelectLocale" : LPROJD_INTERFACE "ResetSelection";
  g_autoptr(JsonObject) reply = localizer_call(self, method, parameters, cancellable, error);
  return reply != NULL && apply_selection(self, reply, cancellable, error);
}

static void work_change_selection(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable) {
  GError *error = NULL;
  if (do_change_selection(self, data, cancellable, &error))
    work_return_boolean(task, TRUE);
  else
    work_return_error(task, error);
}

/**
 * lprojd_localizer_select_async:
 * @self: a localizer
 * @locale: the locale the user chose (`de`, `pt-BR`)
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called once the new strings answer lookups
 * @user_data: data for @callback
 *
 * Saves the app's language in lprojd (`SelectLocale`), then fetches the
 * new locale's strings and swaps them in: when @callback runs, lookups are
 * in the locale lprojd chose ([property@Lprojd.Localizer:locale]; an
 * unsupported locale falls back to its language, then to the bundle's
 * development locale), and `notify::locale` and
 * [signal@Lprojd.Localizer::changed] follow. lprojd keeps the choice per
 * user and app id: every process of the app follows it, and the app finds
 * it on its next start. Without lprojd it fails with
 * %LPROJD_ERROR_UNAVAILABLE; a malformed locale with
 * %LPROJD_ERROR_INVALID_LOCALE.
 */
void lprojd_localizer_select_async(LprojdLocalizer *self, const char *locale, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data) {
  g_return_if_fail(LPROJD_IS_LOCALIZER(self));
  g_return_if_fail(locale != NULL);
  queue_call(self, work_change_selection, g_strdup(locale), g_free, cancellable, callback, user_data,
             lprojd_localizer_select_async, NULL);
}

/**
 * lprojd_localizer_select_finish:
 * @self: a localizer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Lprojd.Localizer.select_async].
 *
 * Returns: %TRUE once the choice is saved and applied, %FALSE with @error set
 */
gboolean lprojd_localizer_select_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
  return g_task_propagate_boolean(G_TASK(result), error);
}

/**
 * lprojd_localizer_select_sync:
 * @self: a localizer
 * @locale: the locale the user chose
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * As [method@Lprojd.Localizer.select_async], blocking the calling thread
 * for a few local round trips (up to 10 seconds each when lprojd is stuck).
 *
 * Returns: %TRUE once the choice is saved and applied, %FALSE with @error set
 */
gboolean lprojd_localizer_select_sync(LprojdLocalizer *self, const char *locale, GCancellable *cancellable,
                                      GError **error) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), FALSE);
  g_return_val_if_fail(locale != NULL, FALSE);
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  return do_change_selection(self, locale, cancellable, error);
}

/**
 * lprojd_localizer_reset_async:
 * @self: a localizer
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called once the strings answer lookups
 * @user_data: data for @callback
 *
 * Forgets the app's saved language in lprojd (`ResetSelection`) and applies
 * the locale that applies now (from the user's preferred languages), as
 * [method@Lprojd.Localizer.select_async] applies a choice.
 */
void lprojd_localizer_reset_async(LprojdLocalizer *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data) {
  g_return_if_fail(LPROJD_IS_LOCALIZER(self));
  queue_call(self, work_change_selection, NULL, NULL, cancellable, callback, user_data, lprojd_localizer_reset_async,
             NULL);
}

/**
 * lprojd_localizer_reset_finish:
 * @self: a localizer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Lprojd.Localizer.reset_async].
 *
 * Returns: %TRUE once the saved choice is forgotten and the strings
 *   applied, %FALSE with @error set
 */
gboolean lprojd_localizer_reset_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
  return g_task_propagate_boolean(G_TASK(result), error);
}

/**
 * lprojd_localizer_reset_sync:
 * @self: a localizer
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * As [method@Lprojd.Localizer.reset_async], blocking the calling thread.
 *
 * Returns: %TRUE once the saved choice is forgotten and the strings
 *   applied, %FALSE with @error set
 */
gboolean lprojd_localizer_reset_sync(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), FALSE);
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  return do_change_selection(self, NULL, cancellable, error);
}

/* ---- supported locales, named in any language ---- */

static GPtrArray *do_fetch_supported(LprojdLocalizer *self, const char *display_locale, GCancellable *cancellable,
                                     GError **error) {
  if (!require_connection(self, error)) return NULL;
  g_autoptr(JsonObject) reply = localizer_fetch_supported(self, display_locale, cancellable, error);
  return reply != NULL ? localizer_locale_names(reply) : NULL;
}

static void work_fetch_supported(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable) {
  GError *error = NULL;
  GPtrArray *names = do_fetch_supported(self, data, cancellable, &error);
  if (names != NULL)
    work_return_pointer(task, names, (GDestroyNotify)g_ptr_array_unref);
  else
    work_return_error(task, error);
}

/**
 * lprojd_localizer_fetch_supported_locales_async:
 * @self: a localizer
 * @display_locale: (nullable): the locale to name them in, or %NULL for the
 *   app's (lprojd's answer for the app's current choice)
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async) (closure user_data): called with the locales
 * @user_data: data for @callback
 *
 * Asks lprojd for the bundle's supported locales with their names in
 * @display_locale and in their own (`SupportedLocales`). The mirror's
 * [method@Lprojd.Localizer.supported_locales] answers in the app's
 * language without asking.
 */
void lprojd_localizer_fetch_supported_locales_async(LprojdLocalizer *self, const char *display_locale,
                                                    GCancellable *cancellable, GAsyncReadyCallback callback,
                                                    gpointer user_data) {
  g_return_if_fail(LPROJD_IS_LOCALIZER(self));
  queue_call(self, work_fetch_supported, g_strdup(display_locale), g_free, cancellable, callback, user_data,
             lprojd_localizer_fetch_supported_locales_async, NULL);
}

/**
 * lprojd_localizer_fetch_supported_locales_finish:
 * @self: a localizer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Lprojd.Localizer.fetch_supported_locales_async].
 *
 * Returns: (transfer container) (element-type LprojdLocaleName) (nullable):
 *   the locales, or %NULL with @error set. The array frees its entries.
 */
GPtrArray *lprojd_localizer_fetch_supported_locales_finish(LprojdLocalizer *self, GAsyncResult *result,
                                                           GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), NULL);
  return g_task_propagate_pointer(G_TASK(result), error);
}

/**
 * lprojd_localizer_fetch_supported_locales_sync:
 * @self: a localizer
 * @display_locale: (nullable): the locale to name them in, or %NULL for the app's
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * As [method@Lprojd.Localizer.fetch_supported_locales_async], blocking the
 * calling thread for one local round trip.
 *
 * Returns: (transfer container) (element-type LprojdLocaleName) (nullable):
 *   the locales, or %NULL with @error set. The array frees its entries.
 */
GPtrArray *lprojd_localizer_fetch_supported_locales_sync(LprojdLocalizer *self, const char *display_locale,
                                                         GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(LPROJD_IS_LOCALIZER(self), NULL);
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  return do_fetch_supported(self, display_locale, cancellable, error);
}
