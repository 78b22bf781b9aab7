/* The mirror: an immutable snapshot of one bundle for one client (locale,
 * tables, supported locales). A refresh builds a new one and swaps it in
 * whole; readers hold a reference, so a swap never pulls strings from under
 * them. */
#pragma once

#include <json-glib/json-glib.h>

#include "string-table.h"

/* One table as GetTable gave it. `values` maps each key to its string, or a
 * plural entry's format key, in a compact StringTable: a mirror of a table
 * is about the size of the table's file (the parsed JSON reply, kept whole
 * before, took eleven times that). Where each key came from is kept as the
 * table's most common source and the keys that differ, since most keys of
 * a table come from one folder. */
typedef struct {
  StringTable *values;
  char *common_source;        /* NULL when the table has no keys */
  StringTable *other_sources; /* key -> source, for keys not from common_source */
  JsonObject *plurals;        /* the plural entries as GetTable gave them (for the cache), or NULL */
  JsonNode *generation;       /* as GetTable gave it (for the cache), or NULL */
} MirrorTable;

typedef struct {
  char *locale;             /* NULL in the empty mirror */
  char *development_locale; /* may be NULL */
  GHashTable *tables;       /* name -> MirrorTable (refcounted, shared between mirrors) */
  MirrorTable *localizable; /* the "Localizable" table, if any: the common lookup skips a hash */
  /* SupportedLocales' reply, or NULL. Held through a node, shared between
   * mirrors made on the work queue's thread and released on the app's:
   * json-glib counts a JsonObject's references without atomics, a
   * JsonNode's with them, so mirrors share the node and never reference
   * the object itself. */
  JsonNode *supported;
  gint64 generation;        /* the bundle's generation its tables were fetched at (the latest), 0 if unknown */
} Mirror;

/* A table from a GetTable reply, or NULL with LPROJD_ERROR_MALFORMED_REPLY. */
MirrorTable *mirror_table_new(JsonObject *reply, GError **error);
MirrorTable *mirror_table_ref(MirrorTable *table);
void mirror_table_unref(MirrorTable *table);

/* A mirror; tables maps names to MirrorTable and is taken (NULL: none). */
Mirror *mirror_new(const char *locale, const char *development_locale, GHashTable *tables, JsonNode *supported);
/* A node holding `object`, its only owner once the caller lets `object` go
 * (for mirror_new). */
JsonNode *mirror_supported_node(JsonObject *object);
/* The mirror's SupportedLocales reply (borrowed), or NULL. */
static inline JsonObject *mirror_supported(const Mirror *mirror) {
  return mirror->supported != NULL ? json_node_get_object(mirror->supported) : NULL;
}
/* A table map for mirror_new, holding a reference to each table of `from` (NULL: empty). */
GHashTable *mirror_copy_tables(const Mirror *from);
Mirror *mirror_ref(Mirror *mirror);
void mirror_unref(Mirror *mirror);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Mirror, mirror_unref)

/* The value (and source) of a key: NULL when no table has it. */
static inline const char *mirror_lookup(const Mirror *mirror, const char *key, const char *table) {
  const MirrorTable *found = table == NULL ? mirror->localizable : g_hash_table_lookup(mirror->tables, table);
  return found != NULL ? string_table_lookup(found->values, key) : NULL;
}
const char *mirror_source(const Mirror *mirror, const char *key, const char *table);

/* The mirror's supported locales and their names, each a LprojdLocaleName
 * (a new array, empty without any). */
GPtrArray *mirror_supported_names(const Mirror *mirror);

/* What differs between two mirrors, as LprojdChange flags. */
guint mirror_difference(const Mirror *old, const Mirror *new);

/* The cache file's JSON (clients/README.md), and back: NULL for anything
 * that does not parse, is of another format, or of another bundle/client. */
char *mirror_to_cache_json(const Mirror *mirror, const char *bundle, const char *client);
Mirror *mirror_from_cache_json(const char *text, gsize length, const char *bundle, const char *client);
