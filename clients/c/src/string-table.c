#include "string-table.h"

#include <string.h>

struct StringTable {
  char *arena;
  gsize arena_size;
  guint64 *slots; /* 0: empty; else the hash's high 32 bits, and offset + 1 */
  gsize mask;     /* slots - 1: a power of two at most 7/8 full */
  guint count;
};

/* FNV-1a over the key's bytes, mixed so that both halves are usable: the
 * low bits pick a slot, the high 32 are kept in it. Sets the key's length. */
static inline guint64 hash_key(const char *key, gsize *length) {
  guint64 hash = 0xcbf29ce484222325u;
  const unsigned char *byte = (const unsigned char *)key;
  for (; *byte != 0; byte++) hash = (hash ^ *byte) * 0x100000001b3u;
  *length = (gsize)(byte - (const unsigned char *)key);
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdu;
  hash ^= hash >> 33;
  return hash;
}

#define HASH_BITS G_GUINT64_CONSTANT(0xffffffff00000000)

/* The slot holding `key`'s entry, or the empty slot where it would go;
 * `hash` and `length` are hash_key's for it. */
static gsize find_slot(const StringTable *table, const char *key, guint64 hash, gsize length) {
  guint64 bits = hash & HASH_BITS;
  gsize slot = (gsize)hash & table->mask;
  for (;;) {
    guint64 word = table->slots[slot];
    if (word == 0) return slot;
    if ((word & HASH_BITS) == bits) {
      /* The key's length and its NUL compared at once (faster than strcmp),
       * where the arena holds that many bytes from the entry on: a shorter
       * stored key may end the arena. */
      gsize offset = (guint32)word - 1;
      if (offset + length + 1 <= table->arena_size && memcmp(table->arena + offset, key, length + 1) == 0) return slot;
    }
    slot = (slot + 1) & table->mask;
  }
}

void string_table_builder_init(StringTableBuilder *builder) {
  builder->arena = g_string_new(NULL);
  builder->offsets = g_array_new(FALSE, FALSE, sizeof(guint32));
}

gboolean string_table_builder_add(StringTableBuilder *builder, const char *key, const char *value) {
  gsize key_size = strlen(key) + 1, value_size = strlen(value) + 1;
  if (builder->arena->len + key_size + value_size >= G_MAXUINT32) return FALSE;
  guint32 offset = (guint32)builder->arena->len;
  g_string_append_len(builder->arena, key, (gssize)key_size);
  g_string_append_len(builder->arena, value, (gssize)value_size);
  g_array_append_val(builder->offsets, offset);
  return TRUE;
}

StringTable *string_table_builder_finish(StringTableBuilder *builder) {
  StringTable *table = g_new0(StringTable, 1);
  gsize capacity = 8;
  while (capacity - capacity / 8 < builder->offsets->len) capacity *= 2;
  table->slots = g_new0(guint64, capacity);
  table->mask = capacity - 1;
  /* Exactly the bytes used: the builder's doubling slack is not kept. */
  gsize used = builder->arena->len;
  table->arena = g_realloc(g_string_free(builder->arena, FALSE), MAX(used, 1));
  table->arena_size = used;
  for (guint i = 0; i < builder->offsets->len; i++) {
    guint32 offset = g_array_index(builder->offsets, guint32, i);
    const char *key = table->arena + offset;
    gsize length;
    guint64 hash = hash_key(key, &length);
    gsize slot = find_slot(table, key, hash, length);
    if (table->slots[slot] == 0) table->count++;
    table->slots[slot] = (hash & HASH_BITS) | ((guint64)offset + 1);
  }
  g_array_free(builder->offsets, TRUE);
  string_table_builder_init(builder);
  return table;
}

void string_table_builder_clear(StringTableBuilder *builder) {
  if (builder->arena != NULL) g_string_free(builder->arena, TRUE);
  if (builder->offsets != NULL) g_array_free(builder->offsets, TRUE);
  builder->arena = NULL;
  builder->offsets = NULL;
}

void string_table_free(StringTable *table) {
  if (table == NULL) return;
  g_free(table->arena);
  g_free(table->slots);
  g_free(table);
}

const char *string_table_lookup(const StringTable *table, const char *key) {
  gsize length;
  guint64 hash = hash_key(key, &length);
  guint64 word = table->slots[find_slot(table, key, hash, length)];
  if (word == 0) return NULL;
  const char *entry = table->arena + (guint32)word - 1;
  return entry + strlen(entry) + 1;
}

guint string_table_size(const StringTable *table) { return table->count; }

void string_table_foreach(const StringTable *table, StringTableVisitor visit, gpointer data) {
  for (gsize slot = 0; slot <= table->mask; slot++) {
    guint64 word = table->slots[slot];
    if (word == 0) continue;
    const char *entry = table->arena + (guint32)word - 1;
    visit(entry, entry + strlen(entry) + 1, data);
  }
}

gboolean string_table_equal(const StringTable *a, const StringTable *b) {
  if (a == b) return TRUE;
  if (a->count != b->count) return FALSE;
  for (gsize slot = 0; slot <= a->mask; slot++) {
    guint64 word = a->slots[slot];
    if (word == 0) continue;
    const char *entry = a->arena + (guint32)word - 1;
    const char *other = string_table_lookup(b, entry);
    if (other == NULL || strcmp(other, entry + strlen(entry) + 1) != 0) return FALSE;
  }
  return TRUE;
}
