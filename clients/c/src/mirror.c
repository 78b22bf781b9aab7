#include "mirror.h"

#include <string.h>

#include "json-members.h"
#include "lprojd/localizer.h"

#define CACHE_FORMAT 1

/* ---- tables ---- */

static gboolean holds_object(JsonObject *object, const char *member) {
  JsonNode *node = json_object_get_member(object, member);
  return node == NULL || JSON_NODE_HOLDS_NULL(node) || JSON_NODE_HOLDS_OBJECT(node);
}

/* Adds every string member of `object` to `map`, copied into `text` if
 * given; FALSE if one is not a string. */
static gboolean add_strings(GHashTable *map, JsonObject *object, GStringChunk *text) {
  if (object == NULL) return TRUE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  json_object_iter_init(&iter, object);
  while (json_object_iter_next(&iter, &name, &node)) {
    if (json_node_get_value_type(node) != G_TYPE_STRING) return FALSE;
    const char *value = json_node_get_string(node);
    if (text != NULL) g_hash_table_insert(map, g_string_chunk_insert(text, name), g_string_chunk_insert(text, value));
    else g_hash_table_insert(map, (gpointer)name, (gpointer)value);
  }
  return TRUE;
}

/* Adds each plural entry's format key, as Lookup without arguments gives it. */
static gboolean add_plural_formats(GHashTable *map, JsonObject *plurals, GStringChunk *text) {
  if (plurals == NULL) return TRUE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  json_object_iter_init(&iter, plurals);
  while (json_object_iter_next(&iter, &name, &node)) {
    const char *format = JSON_NODE_HOLDS_OBJECT(node) ? member_string(json_node_get_object(node), "format") : NULL;
    if (format == NULL) return FALSE;
    g_hash_table_insert(map, g_string_chunk_insert(text, name), g_string_chunk_insert(text, format));
  }
  return TRUE;
}

MirrorTable *mirror_table_new(JsonObject *reply, GError **error) {
  MirrorTable *table = g_atomic_rc_box_new0(MirrorTable);
  table->reply = json_object_ref(reply);
  table->text = g_string_chunk_new(4096);
  table->values = g_hash_table_new(g_str_hash, g_str_equal);
  table->sources = g_hash_table_new(g_str_hash, g_str_equal);
  gboolean valid = holds_object(reply, "strings") && holds_object(reply, "plurals") &&
                   holds_object(reply, "sources") && add_plural_formats(table->values, member_object(reply, "plurals"), table->text) &&
                   add_strings(table->values, member_object(reply, "strings"), table->text) &&
                   add_strings(table->sources, member_object(reply, "sources"), NULL);
  if (!valid) {
    g_set_error_literal(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a table is not as GetTable describes it");
    mirror_table_unref(table);
    return NULL;
  }
  return table;
}

MirrorTable *mirror_table_ref(MirrorTable *table) { return g_atomic_rc_box_acquire(table); }

static void mirror_table_clear(gpointer data) {
  MirrorTable *table = data;
  g_hash_table_unref(table->values);
  g_hash_table_unref(table->sources);
  g_string_chunk_free(table->text);
  json_object_unref(table->reply);
}

void mirror_table_unref(MirrorTable *table) { g_atomic_rc_box_release_full(table, mirror_table_clear); }

static void mirror_table_unref_data(gpointer table) { mirror_table_unref(table); }

/* ---- mirrors ---- */

Mirror *mirror_new(const char *locale, const char *development_locale, GHashTable *tables, JsonObject *supported) {
  Mirror *mirror = g_atomic_rc_box_new0(Mirror);
  mirror->locale = g_strdup(locale);
  mirror->development_locale = g_strdup(development_locale);
  mirror->tables = tables != NULL ? tables : mirror_copy_tables(NULL);
  mirror->localizable = g_hash_table_lookup(mirror->tables, "Localizable");
  mirror->supported = supported != NULL ? json_object_ref(supported) : NULL;
  return mirror;
}

GHashTable *mirror_copy_tables(const Mirror *from) {
  GHashTable *tables = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, mirror_table_unref_data);
  if (from == NULL) return tables;
  GHashTableIter iter;
  gpointer name, table;
  g_hash_table_iter_init(&iter, from->tables);
  while (g_hash_table_iter_next(&iter, &name, &table))
    g_hash_table_insert(tables, g_strdup(name), mirror_table_ref(table));
  return tables;
}

Mirror *mirror_ref(Mirror *mirror) { return g_atomic_rc_box_acquire(mirror); }

static void mirror_clear(gpointer data) {
  Mirror *mirror = data;
  g_free(mirror->locale);
  g_free(mirror->development_locale);
  g_hash_table_unref(mirror->tables);
  if (mirror->supported != NULL) json_object_unref(mirror->supported);
}

void mirror_unref(Mirror *mirror) { g_atomic_rc_box_release_full(mirror, mirror_clear); }

const char *mirror_source(const Mirror *mirror, const char *key, const char *table) {
  const MirrorTable *found = g_hash_table_lookup(mirror->tables, table != NULL ? table : "Localizable");
  return found != NULL ? g_hash_table_lookup(found->sources, key) : NULL;
}

/* ---- differences ---- */

static gboolean same_member(JsonObject *a, JsonObject *b, const char *member) {
  JsonNode *x = json_object_get_member(a, member), *y = json_object_get_member(b, member);
  if (x == NULL || y == NULL) return x == y;
  return json_node_equal(x, y);
}

/* Tables are the same when their contents are (generations differ between
 * daemon runs without meaning anything for the app). */
static gboolean same_tables(GHashTable *a, GHashTable *b) {
  if (g_hash_table_size(a) != g_hash_table_size(b)) return FALSE;
  GHashTableIter iter;
  gpointer name, value;
  g_hash_table_iter_init(&iter, a);
  while (g_hash_table_iter_next(&iter, &name, &value)) {
    MirrorTable *x = value, *y = g_hash_table_lookup(b, name);
    if (y == NULL) return FALSE;
    if (x == y) continue;
    if (!same_member(x->reply, y->reply, "strings") || !same_member(x->reply, y->reply, "plurals") ||
        !same_member(x->reply, y->reply, "sources"))
      return FALSE;
  }
  return TRUE;
}

static gboolean same_supported(JsonObject *a, JsonObject *b) {
  if (a == NULL || b == NULL) return a == b;
  return same_member(a, b, "locales") && same_member(a, b, "displayLocale");
}

guint mirror_difference(const Mirror *old, const Mirror *new) {
  guint changes = 0;
  if (g_strcmp0(old->locale, new->locale) != 0) changes |= LPROJD_CHANGE_LOCALE;
  if (!same_tables(old->tables, new->tables)) changes |= LPROJD_CHANGE_TABLES;
  if (!same_supported(old->supported, new->supported)) changes |= LPROJD_CHANGE_LOCALES;
  return changes;
}

/* ---- the cache file ---- */

static void copy_member(JsonObject *to, JsonObject *from, const char *member) {
  JsonNode *node = json_object_get_member(from, member);
  if (node != NULL) json_object_set_member(to, member, json_node_ref(node));
}

char *mirror_to_cache_json(const Mirror *mirror, const char *bundle, const char *client) {
  g_autoptr(JsonObject) root = json_object_new();
  json_object_set_int_member(root, "format", CACHE_FORMAT);
  json_object_set_string_member(root, "bundle", bundle);
  json_object_set_string_member(root, "client", client);
  json_object_set_string_member(root, "locale", mirror->locale);
  if (mirror->development_locale != NULL)
    json_object_set_string_member(root, "developmentLocale", mirror->development_locale);
  JsonObject *tables = json_object_new();
  GHashTableIter iter;
  gpointer name, value;
  g_hash_table_iter_init(&iter, mirror->tables);
  while (g_hash_table_iter_next(&iter, &name, &value)) {
    MirrorTable *table = value;
    JsonObject *entry = json_object_new();
    copy_member(entry, table->reply, "strings");
    copy_member(entry, table->reply, "plurals");
    copy_member(entry, table->reply, "sources");
    copy_member(entry, table->reply, "generation");
    json_object_set_object_member(tables, name, entry);
  }
  json_object_set_object_member(root, "tables", tables);
  if (mirror->supported != NULL) json_object_set_object_member(root, "supportedLocales", json_object_ref(mirror->supported));
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), root);
  return json_to_string(node, FALSE);
}

static GHashTable *tables_from_cache(JsonObject *tables) {
  g_autoptr(GHashTable) map = mirror_copy_tables(NULL);
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  json_object_iter_init(&iter, tables);
  while (json_object_iter_next(&iter, &name, &node)) {
    if (!JSON_NODE_HOLDS_OBJECT(node)) return NULL;
    MirrorTable *table = mirror_table_new(json_node_get_object(node), NULL);
    if (table == NULL) return NULL;
    g_hash_table_insert(map, g_strdup(name), table);
  }
  return g_steal_pointer(&map);
}

Mirror *mirror_from_cache_json(const char *text, gsize length, const char *bundle, const char *client) {
  g_autoptr(JsonParser) parser = json_parser_new_immutable();
  if (!json_parser_load_from_data(parser, text, (gssize)length, NULL)) return NULL;
  JsonNode *root_node = json_parser_get_root(parser);
  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT(root_node)) return NULL;
  JsonObject *root = json_node_get_object(root_node);
  JsonNode *format = json_object_get_member(root, "format");
  if (format == NULL || json_node_get_value_type(format) != G_TYPE_INT64 || json_node_get_int(format) != CACHE_FORMAT)
    return NULL;
  const char *locale = member_string(root, "locale");
  JsonObject *tables = member_object(root, "tables");
  if (g_strcmp0(member_string(root, "bundle"), bundle) != 0 || g_strcmp0(member_string(root, "client"), client) != 0 ||
      locale == NULL || tables == NULL || !holds_object(root, "supportedLocales"))
    return NULL;
  GHashTable *table_map = tables_from_cache(tables);
  if (table_map == NULL) return NULL;
  return mirror_new(locale, member_string(root, "developmentLocale"), table_map, member_object(root, "supportedLocales"));
}
