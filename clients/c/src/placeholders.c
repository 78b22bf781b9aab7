#include "placeholders.h"

#include <string.h>

static gboolean is_name_start(char c) { return g_ascii_isalpha(c) || c == '_'; }
static gboolean is_name_char(char c) { return is_name_start(c) || g_ascii_isdigit(c) || c == '.' || c == '-'; }

/* The length of a well-formed name starting at `start` and closed by '}',
 * or 0. Stops at the first byte that cannot be in a name, so a scan never
 * passes the next '{' and the whole substitution stays linear. */
static gsize name_length(const char *start) {
  if (!is_name_start(start[0])) return 0;
  gsize length = 1;
  while (length <= PLACEHOLDER_MAX_NAME && is_name_char(start[length])) length++;
  return length <= PLACEHOLDER_MAX_NAME && start[length] == '}' ? length : 0;
}

char *placeholders_substitute(const char *text, GHashTable *values) {
  if (values == NULL || g_hash_table_size(values) == 0 || strchr(text, '{') == NULL) return g_strdup(text);
  GString *output = g_string_sized_new(strlen(text));
  const char *run = text; /* the literal text not yet copied starts here */
  const char *at = text;
  while ((at = strchr(at, '{')) != NULL) {
    gsize length = name_length(at + 1);
    g_autofree char *name = length > 0 ? g_strndup(at + 1, length) : NULL;
    const char *value = name != NULL ? g_hash_table_lookup(values, name) : NULL;
    if (value == NULL) {
      at++;
      continue;
    }
    g_string_append_len(output, run, at - run);
    g_string_append(output, value);
    at += length + 2;
    run = at;
  }
  g_string_append(output, run);
  return g_string_free(output, FALSE);
}
