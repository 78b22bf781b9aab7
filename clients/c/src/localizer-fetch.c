/* Fetching from lprojd: the calls that build a mirror (clients/README.md,
 * "Life of a localizer", steps 3 and 5). Blocking, on a connection used for
 * calls only, with io_lock held: on the work queue's thread, or in the
 * thread of a _sync caller. lprojd is a local socket and answers these from
 * memory; a daemon that does not answer is a TIMEOUT after 10 s. */
#include "localizer-private.h"

JsonObject *localizer_call(LprojdLocalizer *self, const char *method, JsonObject *parameters,
                           GCancellable *cancellable, GError **error) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  if (self->calls == NULL) {
    self->calls = varlink_connection_new(self->socket_path, cancellable, error);
    if (self->calls == NULL) {
      if (parameters != NULL) json_object_unref(parameters);
      return NULL;
    }
  }
  GError *local_error = NULL;
  JsonObject *reply = varlink_connection_call(self->calls, method, parameters, cancellable, &local_error);
  /* After a broken, garbled or interrupted exchange the stream cannot be
   * trusted: the next call opens another connection. */
  if (local_error != NULL && (localizer_is_connection_error(local_error) ||
                              g_error_matches(local_error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY) ||
                              g_error_matches(local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    g_clear_pointer(&self->calls, varlink_connection_unref);
  if (local_error != NULL) g_propagate_error(error, local_error);
  return reply;
}

static void malformed(GError **error, const char *what) {
  g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "malformed reply: %s", what);
}

char *localizer_selection_locale(JsonObject *reply, GError **error) {
  const char *locale = member_string(member_object(reply, "selection"), "locale");
  if (locale == NULL) malformed(error, "a selection without a locale");
  return g_strdup(locale);
}

char *localizer_fetch_selection(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", self->client_id);
  json_object_set_string_member(parameters, "bundle", self->bundle);
  JsonArray *languages = json_array_new();
  for (char **language = self->preferred_languages; *language != NULL; language++)
    json_array_add_string_element(languages, *language);
  json_object_set_array_member(parameters, "preferredLanguages", languages);
  g_autoptr(JsonObject) reply = localizer_call(self, LPROJD_INTERFACE "GetSelection", parameters, cancellable, error);
  return reply != NULL ? localizer_selection_locale(reply, error) : NULL;
}

/* The bundle's entry in ListBundles: its tables and development locale. */
static JsonObject *fetch_bundle(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  g_autoptr(JsonObject) reply = localizer_call(self, LPROJD_INTERFACE "ListBundles", NULL, cancellable, error);
  if (reply == NULL) return NULL;
  JsonNode *bundles = json_object_get_member(reply, "bundles");
  if (bundles == NULL || !JSON_NODE_HOLDS_ARRAY(bundles)) {
    malformed(error, "ListBundles without bundles");
    return NULL;
  }
  JsonArray *list = json_node_get_array(bundles);
  for (guint i = 0; i < json_array_get_length(list); i++) {
    JsonNode *node = json_array_get_element(list, i);
    JsonObject *bundle = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
    if (g_strcmp0(member_string(bundle, "name"), self->bundle) == 0) return json_object_ref(bundle);
  }
  g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_BUNDLE_NOT_FOUND, "lprojd serves no bundle named %s", self->bundle);
  return NULL;
}

static MirrorTable *fetch_table(LprojdLocalizer *self, const char *table, const char *locale,
                                GCancellable *cancellable, GError **error) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", self->bundle);
  json_object_set_string_member(parameters, "table", table);
  json_object_set_string_member(parameters, "locale", locale);
  json_object_set_string_member(parameters, "client", self->client_id);
  g_autoptr(JsonObject) reply = localizer_call(self, LPROJD_INTERFACE "GetTable", parameters, cancellable, error);
  return reply != NULL ? mirror_table_new(reply, error) : NULL;
}

JsonObject *localizer_fetch_supported(LprojdLocalizer *self, const char *locale, GCancellable *cancellable,
                                      GError **error) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", self->bundle);
  json_object_set_string_member(parameters, "client", self->client_id);
  if (locale != NULL) json_object_set_string_member(parameters, "locale", locale);
  JsonObject *reply = localizer_call(self, LPROJD_INTERFACE "SupportedLocales", parameters, cancellable, error);
  JsonNode *locales = reply != NULL ? json_object_get_member(reply, "locales") : NULL;
  if (reply != NULL && (locales == NULL || !JSON_NODE_HOLDS_ARRAY(locales))) {
    malformed(error, "SupportedLocales without locales");
    g_clear_pointer(&reply, json_object_unref);
  }
  return reply;
}

/* Fetches each table named into `tables` (name -> MirrorTable). A table
 * that no longer exists leaves the map. */
static gboolean fetch_into(LprojdLocalizer *self, GHashTable *tables, const char *const *names, const char *locale,
                           GCancellable *cancellable, GError **error) {
  for (const char *const *name = names; *name != NULL; name++) {
    GError *local_error = NULL;
    MirrorTable *table = fetch_table(self, *name, locale, cancellable, &local_error);
    if (table != NULL) {
      g_hash_table_replace(tables, g_strdup(*name), table);
    } else if (g_error_matches(local_error, LPROJD_ERROR, LPROJD_ERROR_TABLE_NOT_FOUND)) {
      g_hash_table_remove(tables, *name);
      g_clear_error(&local_error);
    } else {
      g_propagate_error(error, local_error);
      return FALSE;
    }
  }
  return TRUE;
}

static Mirror *fetch_mirror(LprojdLocalizer *self, const char *locale, const char *development_locale,
                            const char *const *table_names, GCancellable *cancellable, GError **error) {
  g_autoptr(GHashTable) tables = mirror_copy_tables(NULL);
  if (!fetch_into(self, tables, table_names, locale, cancellable, error)) return NULL;
  JsonObject *reply = localizer_fetch_supported(self, locale, cancellable, error);
  if (reply == NULL) return NULL;
  g_autoptr(JsonNode) supported = mirror_supported_node(reply);
  json_object_unref(reply);
  return mirror_new(locale, development_locale, g_steal_pointer(&tables), supported);
}

/* The bundle's table names from its ListBundles entry. */
static char **table_names(JsonObject *bundle, GError **error) {
  char **names = member_strv(bundle, "tables");
  if (names == NULL) malformed(error, "a bundle without tables");
  return names;
}

Mirror *localizer_fetch_everything(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  g_autofree char *locale = localizer_fetch_selection(self, cancellable, error);
  if (locale == NULL) return NULL;
  g_autoptr(JsonObject) bundle = fetch_bundle(self, cancellable, error);
  if (bundle == NULL) return NULL;
  g_auto(GStrv) names = table_names(bundle, error);
  if (names == NULL) return NULL;
  return fetch_mirror(self, locale, member_string(bundle, "developmentLocale"), (const char *const *)names,
                      cancellable, error);
}

Mirror *localizer_fetch_locale(LprojdLocalizer *self, const Mirror *base, const char *locale,
                               GCancellable *cancellable, GError **error) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  g_autofree const char **names = (const char **)g_hash_table_get_keys_as_array(base->tables, NULL);
  return fetch_mirror(self, locale, base->development_locale, names, cancellable, error);
}

Mirror *localizer_fetch_tables(LprojdLocalizer *self, const Mirror *base, const char *const *names,
                               GCancellable *cancellable, GError **error) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->io_lock);
  g_autoptr(GHashTable) tables = mirror_copy_tables(base);
  g_autofree const char **all = (const char **)g_hash_table_get_keys_as_array(base->tables, NULL);
  if (!fetch_into(self, tables, names != NULL ? names : all, base->locale, cancellable, error)) return NULL;
  return mirror_new(base->locale, base->development_locale, g_steal_pointer(&tables), base->supported);
}
