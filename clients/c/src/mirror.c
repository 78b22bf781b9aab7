#include "mirror.h"

#include <string.h>

#include "json-members.h"
#include "lprojd-interface-private.h"

#define CACHE_FORMAT 1

/* ---- tables ---- */

static gboolean holds_object(JsonObject *object, const char *member) {
  JsonNode *node = json_object_get_member(object, member);
  return node == NULL || JSON_NODE_HOLDS_NULL(node) || JSON_NODE_HOLDS_OBJECT(node);
}

/* Adds every member of `object` to `values`; FALSE if one is not a string. */
static gboolean add_strings(StringTableBuilder *values, JsonObject *object) {
  if (object == NULL) return TRUE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  json_object_iter_init(&iter, object);
  while (json_object_iter_next(&iter, &name, &node)) {
    if (json_node_get_value_type(node) != G_TYPE_STRING) return FALSE;
    if (!string_table_builder_add(values, name, json_node_get_string(node))) return FALSE;
  }
  return TRUE;
}

/* Adds each plural entry's format key, as Lookup without arguments gives it. */
static gboolean add_plural_formats(StringTableBuilder *values, JsonObject *plurals) {
  if (plurals == NULL) return TRUE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  json_object_iter_init(&iter, plurals);
  while (json_object_iter_next(&iter, &name, &node)) {
    const char *format = JSON_NODE_HOLDS_OBJECT(node) ? member_string(json_node_get_object(node), "format") : NULL;
    if (format == NULL || !string_table_builder_add(values, name, format)) return FALSE;
  }
  return TRUE;
}

/* The source most keys have, and the keys with another; FALSE if a source
 * is not a string. */
static gboolean add_sources(MirrorTable *table, JsonObject *sources) {
  StringTableBuilder others;
  string_table_builder_init(&others);
  g_autoptr(GHashTable) counts = g_hash_table_new(g_str_hash, g_str_equal);
  const char *common = NULL;
  guint most = 0;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  gboolean valid = TRUE;
  if (sources != NULL) {
    json_object_iter_init(&iter, sources);
    while (valid && json_object_iter_next(&iter, &name, &node)) {
      if (json_node_get_value_type(node) != G_TYPE_STRING) {
        valid = FALSE;
        break;
      }
      const char *source = json_node_get_string(node);
      guint count = GPOINTER_TO_UINT(g_hash_table_lookup(counts, source)) + 1;
      g_hash_table_insert(counts, (gpointer)source, GUINT_TO_POINTER(count));
      if (count > most) {
        most = count;
        common = source;
      }
    }
    json_object_iter_init(&iter, sources);
    while (valid && json_object_iter_next(&iter, &name, &node)) {
      const char *source = json_node_get_string(node);
      if (g_strcmp0(source, common) != 0) valid = string_table_builder_add(&others, name, source);
    }
  }
  table->common_source = g_strdup(common);
  table->other_sources = string_table_builder_finish(&others);
  string_table_builder_clear(&others);
  return valid;
}

MirrorTable *mirror_table_new(JsonObject *reply, GError **error) {
  MirrorTable *table = g_atomic_rc_box_new0(MirrorTable);
  StringTableBuilder values;
  string_table_builder_init(&values);
  JsonObject *plurals = member_object(reply, "plurals");
  gboolean valid = holds_object(reply, "strings") && holds_object(reply, "plurals") && holds_object(reply, "sources") &&
                   add_plural_formats(&values, plurals) && add_strings(&values, member_object(reply, "strings"));
  table->values = string_table_builder_finish(&values);
  string_table_builder_clear(&values);
  valid = valid && add_sources(table, member_object(reply, "sources"));
  if (plurals != NULL && json_object_get_size(plurals) > 0) table->plurals = json_object_ref(plurals);
  JsonNode *generation = json_object_get_member(reply, "generation");
  if (generation != NULL) table->generation = json_node_copy(generation);
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
  string_table_free(table->values);
  string_table_free(table->other_sources);
  g_free(table->common_source);
  if (table->plurals != NULL) json_object_unref(table->plurals);
  if (table->generation != NULL) json_node_unref(table->generation);
}

void mirror_table_unref(MirrorTable *table) { g_atomic_rc_box_release_full(table, mirror_table_clear); }

/* Where a key's value came from, as Lookup says; NULL if the table lacks it.
 * GetTable gives every key a source (and a key is a string or a plural
 * entry, never both), so a key that is not an exception has the common one. */
static const char *table_source(const MirrorTable *table, const char *key) {
  const char *other = table->other_sources != NULL ? string_table_lookup(table->other_sources, key) : NULL;
  if (other != NULL) return other;
  return string_table_lookup(table->values, key) != NULL ? table->common_source : NULL;
}

static void mirror_table_unref_data(gpointer table) { mirror_table_unref(table); }

/* ---- mirrors ---- */

JsonNode *mirror_supported_node(JsonObject *object) { return json_node_init_object(json_node_alloc(), object); }

Mirror *mirror_new(const char *locale, const char *development_locale, GHashTable *tables, JsonNode *supported) {
  Mirror *mirror = g_atomic_rc_box_new0(Mirror);
  mirror->locale = g_strdup(locale);
  mirror->development_locale = g_strdup(development_locale);
  mirror->tables = tables != NULL ? tables : mirror_copy_tables(NULL);
  mirror->localizable = g_hash_table_lookup(mirror->tables, "Localizable");
  mirror->supported = supported != NULL ? json_node_ref(supported) : NULL;
  /* GetTable gives the bundle's generation: the latest of the tables' is
   * the bundle's as of the last fetch. */
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init(&iter, mirror->tables);
  while (g_hash_table_iter_next(&iter, NULL, &value)) {
    JsonNode *generation = ((MirrorTable *)value)->generation;
    if (generation != NULL && json_node_get_value_type(generation) == G_TYPE_INT64)
      mirror->generation = MAX(mirror->generation, json_node_get_int(generation));
  }
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
  if (mirror->supported != NULL) json_node_unref(mirror->supported);
}

void mirror_unref(Mirror *mirror) { g_atomic_rc_box_release_full(mirror, mirror_clear); }

const char *mirror_source(const Mirror *mirror, const char *key, const char *table) {
  const MirrorTable *found = g_hash_table_lookup(mirror->tables, table != NULL ? table : "Localizable");
  return found != NULL ? table_source(found, key) : NULL;
}

/* ---- differences ---- */

static gboolean same_member(JsonObject *a, JsonObject *b, const char *member) {
  JsonNode *x = json_object_get_member(a, member), *y = json_object_get_member(b, member);
  if (x == NULL || y == NULL) return x == y;
  return json_node_equal(x, y);
}

typedef struct {
  const MirrorTable *a, *b;
  gboolean same;
} SameSources;

static void compare_source(const char *key, const char *value, gpointer data) {
  (void)value;
  SameSources *comparison = data;
  if (comparison->same) comparison->same = g_strcmp0(table_source(comparison->a, key), table_source(comparison->b, key)) == 0;
}

/* Same keys, values, plural entries and sources. */
static gboolean same_table(const MirrorTable *x, const MirrorTable *y) {
  if (x == y) return TRUE;
  if (!string_table_equal(x->values, y->values)) return FALSE;
  if ((x->plurals == NULL) != (y->plurals == NULL) || (x->plurals != NULL && !json_object_equal(x->plurals, y->plurals)))
    return FALSE;
  SameSources comparison = {x, y, TRUE};
  string_table_foreach(x->values, compare_source, &comparison);
  return comparison.same;
}

/* Tables are the same when their contents are (generations differ between
 * daemon runs without meaning anything for the app). */
static gboolean same_tables(GHashTable *a, GHashTable *b) {
  if (g_hash_table_size(a) != g_hash_table_size(b)) return FALSE;
  GHashTableIter iter;
  gpointer name, value;
  g_hash_table_iter_init(&iter, a);
  while (g_hash_table_iter_next(&iter, &name, &value)) {
    MirrorTable *y = g_hash_table_lookup(b, name);
    if (y == NULL || !same_table(value, y)) return FALSE;
  }
  return TRUE;
}

static gboolean same_supported(JsonObject *a, JsonObject *b) {
  if (a == NULL || b == NULL) return a == b;
  return same_member(a, b, "locales") && same_member(a, b, "displayLocale");
}

GPtrArray *mirror_supported_names(const Mirror *mirror) {
  GPtrArray *names = g_ptr_array_new_with_free_func((GDestroyNotify)lprojd_locale_name_unref);
  /* A cached mirror's may be anything: checked as a reply would be. */
  if (mirror->supported == NULL || !lprojd_supported_locales_reply_check(json_node_get_object(mirror->supported), NULL))
    return names;
  g_autoptr(JsonBoxRoot) root = json_box_root_new_for_node(mirror->supported);
  g_autoptr(LprojdSupportedLocalesReply) reply = lprojd_supported_locales_reply_wrap_member(root, root->object);
  GPtrArray *locales = lprojd_supported_locales_reply_get_locales(reply);
  for (guint i = 0; i < locales->len; i++) g_ptr_array_add(names, lprojd_locale_name_ref(locales->pdata[i]));
  return names;
}

guint mirror_difference(const Mirror *old, const Mirror *new) {
  guint changes = 0;
  if (g_strcmp0(old->locale, new->locale) != 0) changes |= LPROJD_CHANGE_LOCALE;
  if (!same_tables(old->tables, new->tables)) changes |= LPROJD_CHANGE_TABLES;
  if (!same_supported(mirror_supported(old), mirror_supported(new))) changes |= LPROJD_CHANGE_LOCALES;
  return changes;
}

/* ---- the cache file ---- */

/* The cache file is written straight into one string: building it as a
 * JSON tree would make a node per key, value and source (for a large table
 * several times the mirror's own memory, briefly, on every swap). */

/* `text` (valid UTF-8, as every string of a parsed reply) as a JSON string. */
static void append_json_string(GString *out, const char *text) {
  g_string_append_c(out, '"');
  for (const unsigned char *byte = (const unsigned char *)text; *byte != 0; byte++) {
    switch (*byte) {
    case '"': g_string_append(out, "\\\""); break;
    case '\\': g_string_append(out, "\\\\"); break;
    case '\n': g_string_append(out, "\\n"); break;
    case '\r': g_string_append(out, "\\r"); break;
    case '\t': g_string_append(out, "\\t"); break;
    default:
      if (*byte < 0x20) g_string_append_printf(out, "\\u%04x", *byte);
      else g_string_append_c(out, (char)*byte);
    }
  }
  g_string_append_c(out, '"');
}

static void append_json_node(GString *out, JsonNode *node) {
  g_autofree char *text = json_to_string(node, FALSE);
  g_string_append(out, text);
}

static void append_json_object(GString *out, JsonObject *object) {
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), object);
  append_json_node(out, node);
}

/* Starts an object's next member: a comma after the first. */
static void append_member_name(GString *out, gboolean *first, const char *name) {
  if (!*first) g_string_append_c(out, ',');
  *first = FALSE;
  append_json_string(out, name);
  g_string_append_c(out, ':');
}

typedef struct {
  const MirrorTable *table;
  GString *out;
  gboolean first;
} CacheWriter;

/* "key": "value" for the plain strings (a plural entry's format key is in `plurals`). */
static void write_string(const char *key, const char *value, gpointer data) {
  CacheWriter *writer = data;
  if (writer->table->plurals != NULL && json_object_has_member(writer->table->plurals, key)) return;
  append_member_name(writer->out, &writer->first, key);
  append_json_string(writer->out, value);
}

/* "key": "source" for every key. */
static void write_source(const char *key, const char *value, gpointer data) {
  (void)value;
  CacheWriter *writer = data;
  const char *source = table_source(writer->table, key);
  if (source == NULL) return;
  append_member_name(writer->out, &writer->first, key);
  append_json_string(writer->out, source);
}

/* A table as GetTable gave it: strings, plurals, sources, generation. */
static void append_table(GString *out, const MirrorTable *table) {
  CacheWriter writer = {table, out, TRUE};
  g_string_append(out, "{\"strings\":{");
  string_table_foreach(table->values, write_string, &writer);
  g_string_append(out, "},\"plurals\":");
  if (table->plurals != NULL) append_json_object(out, table->plurals);
  else g_string_append(out, "{}");
  g_string_append(out, ",\"sources\":{");
  writer.first = TRUE;
  string_table_foreach(table->values, write_source, &writer);
  g_string_append_c(out, '}');
  if (table->generation != NULL) {
    g_string_append(out, ",\"generation\":");
    append_json_node(out, table->generation);
  }
  g_string_append_c(out, '}');
}

char *mirror_to_cache_json(const Mirror *mirror, const char *bundle, const char *client) {
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "{\"format\":%d,\"bundle\":", CACHE_FORMAT);
  append_json_string(out, bundle);
  g_string_append(out, ",\"client\":");
  append_json_string(out, client);
  g_string_append(out, ",\"locale\":");
  if (mirror->locale != NULL) append_json_string(out, mirror->locale);
  else g_string_append(out, "null");
  if (mirror->development_locale != NULL) {
    g_string_append(out, ",\"developmentLocale\":");
    append_json_string(out, mirror->development_locale);
  }
  g_string_append(out, ",\"tables\":{");
  GHashTableIter iter;
  gpointer name, value;
  gboolean first = TRUE;
  g_hash_table_iter_init(&iter, mirror->tables);
  while (g_hash_table_iter_next(&iter, &name, &value)) {
    append_member_name(out, &first, name);
    append_table(out, value);
  }
  g_string_append_c(out, '}');
  if (mirror->supported != NULL) {
    g_string_append(out, ",\"supportedLocales\":");
    append_json_node(out, mirror->supported);
  }
  g_string_append_c(out, '}');
  return g_string_free(out, FALSE);
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
  g_autoptr(JsonNode) supported = mirror_supported_node(member_object(root, "supportedLocales"));
  return mirror_new(locale, member_string(root, "developmentLocale"), table_map, supported);
}
