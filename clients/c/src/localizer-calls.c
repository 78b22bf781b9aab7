/* The calls that ask lprojd: each as _async (made on the live mirror, which
 * completes it on the caller's context), _finish, and _sync (the _async
 * call waited for in a context of its own, as GIO's _sync calls are). */
#include "localizer-private.h"
#include "lprojd-interface-private.h"
#include "sync-wait.h"

#include <string.h>

/* A task of the localizer for an _async call. */
static GTask *call_task(LprojdLocalizer *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data, gpointer tag) {
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_source_tag(task, tag);
  return task;
}

/* ---- format: Lookup with arguments ---- */

/* One format argument as the interface's Argument; NULL (with the error)
 * if it is none of the types an Argument can hold. */
static LprojdArgument *argument_of(GVariant *value, gsize position, GError **error) {
  g_autoptr(GVariant) inner = g_variant_is_of_type(value, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant(value)
                                                                                 : g_variant_ref(value);
  g_autoptr(LprojdArgument) argument = lprojd_argument_new();
  if (g_variant_is_of_type(inner, G_VARIANT_TYPE_VARDICT)) {
    /* The Argument itself: {"float": <1.5>, "fractionDigits": <2>}. */
    GVariantIter iter;
    const char *name;
    GVariant *member;
    g_variant_iter_init(&iter, inner);
    while (g_variant_iter_loop(&iter, "{&sv}", &name, &member)) {
      g_autoptr(LprojdArgument) single = argument_of(member, position, error);
      if (single == NULL) return NULL;
      if (strcmp(name, "string") == 0 && lprojd_argument_get_string(single) != NULL)
        lprojd_argument_set_string(argument, lprojd_argument_get_string(single));
      else if (strcmp(name, "int") == 0 && lprojd_argument_has_int(single))
        lprojd_argument_set_int(argument, lprojd_argument_get_int(single));
      else if (strcmp(name, "float") == 0 && (lprojd_argument_has_float(single) || lprojd_argument_has_int(single)))
        lprojd_argument_set_float(argument, lprojd_argument_has_float(single) ? lprojd_argument_get_float(single)
                                                                              : (gdouble)lprojd_argument_get_int(single));
      else if (strcmp(name, "fractionDigits") == 0 && lprojd_argument_has_int(single))
        lprojd_argument_set_fraction_digits(argument, lprojd_argument_get_int(single));
      else {
        g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_ARGUMENTS,
                    "argument %" G_GSIZE_FORMAT ": an Argument has no member %s of type %s", position, name,
                    g_variant_get_type_string(member));
        return NULL;
      }
    }
    return g_steal_pointer(&argument);
  }
  const GVariantType *type = g_variant_get_type(inner);
  if (g_variant_type_equal(type, G_VARIANT_TYPE_INT64))
    lprojd_argument_set_int(argument, g_variant_get_int64(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_INT32))
    lprojd_argument_set_int(argument, g_variant_get_int32(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT32))
    lprojd_argument_set_int(argument, g_variant_get_uint32(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_INT16))
    lprojd_argument_set_int(argument, g_variant_get_int16(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT16))
    lprojd_argument_set_int(argument, g_variant_get_uint16(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_BYTE))
    lprojd_argument_set_int(argument, g_variant_get_byte(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT64) && g_variant_get_uint64(inner) <= G_MAXINT64)
    lprojd_argument_set_int(argument, (gint64)g_variant_get_uint64(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_DOUBLE))
    lprojd_argument_set_float(argument, g_variant_get_double(inner));
  else if (g_variant_type_equal(type, G_VARIANT_TYPE_STRING))
    lprojd_argument_set_string(argument, g_variant_get_string(inner, NULL));
  else {
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_ARGUMENTS,
                "argument %" G_GSIZE_FORMAT " is of type %s: an argument is an integer, a double, a string or an "
                "a{sv} Argument",
                position, g_variant_get_type_string(inner));
    return NULL;
  }
  return g_steal_pointer(&argument);
}

/* The arguments as the interface's list: a tuple or an array holds them,
 * any other value is the only one. */
static GPtrArray *arguments_of(GVariant *arguments, GError **error) {
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func((GDestroyNotify)lprojd_argument_unref);
  if (arguments == NULL) return g_steal_pointer(&list);
  gboolean container = g_variant_is_of_type(arguments, G_VARIANT_TYPE_TUPLE) ||
                       (g_variant_is_of_type(arguments, G_VARIANT_TYPE_ARRAY) &&
                        !g_variant_is_of_type(arguments, G_VARIANT_TYPE_VARDICT));
  gsize count = container ? g_variant_n_children(arguments) : 1;
  for (gsize i = 0; i < count; i++) {
    g_autoptr(GVariant) child = container ? g_variant_get_child_value(arguments, i) : g_variant_ref(arguments);
    LprojdArgument *argument = argument_of(child, i + 1, error);
    if (argument == NULL) return NULL;
    g_ptr_array_add(list, argument);
  }
  return g_steal_pointer(&list);
}

/* Lookup's parameters for a format, all but the locale (the mirror's when the call is made). */
static LprojdLookupParameters *format_parameters(LprojdLocalizer *self, const char *key, const char *table,
                                                 GVariant *arguments, GHashTable *placeholders, GError **error) {
  g_autoptr(GPtrArray) list = arguments_of(arguments, error);
  if (list == NULL) return NULL;
  LprojdLookupParameters *parameters = lprojd_lookup_parameters_new(self->bundle, key);
  lprojd_lookup_parameters_set_table(parameters, table);
  lprojd_lookup_parameters_set_client(parameters, self->client_id);
  lprojd_lookup_parameters_set_arguments(parameters, (LprojdArgument **)list->pdata, list->len);
  lprojd_lookup_parameters_set_placeholders(parameters, placeholders);
  return parameters;
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
  g_autoptr(GTask) task = call_task(self, cancellable, callback, user_data, lprojd_localizer_format_async);
  GError *error = NULL;
  g_autoptr(LprojdLookupParameters) parameters = format_parameters(self, key, table, owned, placeholders, &error);
  if (parameters == NULL)
    g_task_return_error(task, error);
  else
    live_mirror_lookup(self->live, parameters, g_steal_pointer(&task));
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
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_format_async(self, key, table, arguments, placeholders, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_format_finish(self, result, error);
}

/* ---- format_value: Format ---- */

/* Format's parameters: `style`, the localizer's bundle and client, and an
 * a{sv} of the others as the interface names them. */
static LprojdFormatParameters *format_value_parameters(LprojdLocalizer *self, const char *style, GVariant *parameters,
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
  g_autoptr(GError) wrong = NULL;
  LprojdFormatParameters *made = lprojd_format_parameters_from_json(object, &wrong);
  json_object_unref(object);
  if (made == NULL)
    g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Format's parameters are not as the interface says (%s)",
                wrong->message);
  return made;
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
  g_autoptr(GTask) task = call_task(self, cancellable, callback, user_data, lprojd_localizer_format_value_async);
  GError *error = NULL;
  g_autoptr(LprojdFormatParameters) made = format_value_parameters(self, style, owned, &error);
  if (made == NULL)
    g_task_return_error(task, error);
  else
    live_mirror_format(self->live, made, g_steal_pointer(&task));
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
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_format_value_async(self, style, parameters, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_format_value_finish(self, result, error);
}

/* ---- select and reset ---- */

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
  live_mirror_select(self->live, locale, call_task(self, cancellable, callback, user_data, lprojd_localizer_select_async));
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
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_select_async(self, locale, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_select_finish(self, result, error);
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
  live_mirror_select(self->live, NULL, call_task(self, cancellable, callback, user_data, lprojd_localizer_reset_async));
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
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_reset_async(self, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_reset_finish(self, result, error);
}

/* ---- supported locales, named in any language ---- */

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
  live_mirror_fetch_supported(
      self->live, display_locale,
      call_task(self, cancellable, callback, user_data, lprojd_localizer_fetch_supported_locales_async));
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
  SyncWait wait;
  sync_wait_begin(&wait);
  lprojd_localizer_fetch_supported_locales_async(self, display_locale, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_localizer_fetch_supported_locales_finish(self, result, error);
}
