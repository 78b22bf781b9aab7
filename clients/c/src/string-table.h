/* A compact, immutable table of strings, for the mirror.
 *
 * Every entry lives in one arena as "key\0value\0"; an open-addressing
 * index of 64-bit slots holds 32 bits of the key's hash beside the entry's
 * offset, so a probe past another key's slot compares no string. A table
 * is about the size of its keys and values: a GHashTable of copies took
 * three times that, and the parsed JSON reply it came from nine. A lookup
 * reads one slot and one entry, where the value follows the key. */
#pragma once

#include <glib.h>

typedef struct StringTable StringTable;

/* Collects entries, then builds the table. */
typedef struct {
  GString *arena;
  GArray *offsets; /* guint32: where each entry starts */
} StringTableBuilder;

void string_table_builder_init(StringTableBuilder *builder);
/* Adds an entry; a later entry for the same key replaces it. FALSE once
 * the table would pass 4 GiB (offsets are 32 bits), which no reply is. */
gboolean string_table_builder_add(StringTableBuilder *builder, const char *key, const char *value);
/* The table; the builder is left empty. */
StringTable *string_table_builder_finish(StringTableBuilder *builder);
void string_table_builder_clear(StringTableBuilder *builder);

void string_table_free(StringTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(StringTable, string_table_free)

/* The value for `key` (borrowed, valid while the table lives), or NULL. */
const char *string_table_lookup(const StringTable *table, const char *key);
guint string_table_size(const StringTable *table);
/* Whether both have the same keys with the same values. */
gboolean string_table_equal(const StringTable *a, const StringTable *b);

/* Visits every entry, in no particular order. */
typedef void (*StringTableVisitor)(const char *key, const char *value, gpointer data);
void string_table_foreach(const StringTable *table, StringTableVisitor visit, gpointer data);
