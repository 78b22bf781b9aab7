/* libFuzzer: what a server (lprojd, or whatever listens at LPROJD_SOCKET)
 * may send the library, read as the library reads it. The input is a
 * stream, cut into messages at its NULs as a connection cuts it; each
 * message is parsed (its nesting checked first) and read every way the
 * localizer reads a reply: a table into a mirror and looked up, a
 * selection, supported locales, an event, a bundle list. Never a crash,
 * a leak, or an error of another domain than LPROJD_ERROR.
 *
 *   make -C clients/c fuzz-build; clients/c/build-fuzz/fuzz/fuzz-reply -runs=1000000
 */
#include <stdint.h>
#include <string.h>

#include "localizer-private.h"
#include "mirror.h"
#include "varlink.h"

static void read_reply(JsonObject *reply) {
  MirrorTable *table = mirror_table_new(reply, NULL);
  if (table != NULL) {
    GHashTable *tables = mirror_copy_tables(NULL);
    g_hash_table_replace(tables, g_strdup("Localizable"), table);
    Mirror *mirror = mirror_new("en", "en", tables, mirror_supported_node(reply));
    (void)mirror_lookup(mirror, "k", NULL);
    (void)mirror_source(mirror, "k", "Localizable");
    g_autofree char *cached = mirror_to_cache_json(mirror, "demo", "c");
    Mirror *again = mirror_from_cache_json(cached, strlen(cached), "demo", "c");
    if (again != NULL) mirror_unref(again);
    mirror_unref(mirror);
  }
  g_autofree char *locale = localizer_selection_locale(reply, NULL);
  GPtrArray *names = localizer_locale_names(reply);
  if (names != NULL) g_ptr_array_unref(names);
  JsonObject *event = member_object(reply, "event");
  (void)member_string(event, "type");
  g_auto(GStrv) tables = member_strv(event, "tables");
  JsonNode *bundles = json_object_get_member(reply, "bundles");
  if (bundles != NULL && JSON_NODE_HOLDS_ARRAY(bundles)) {
    JsonArray *list = json_node_get_array(bundles);
    for (guint i = 0; i < json_array_get_length(list); i++) {
      JsonNode *node = json_array_get_element(list, i);
      JsonObject *bundle = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
      g_auto(GStrv) names = member_strv(bundle, "tables");
      (void)member_string(bundle, "developmentLocale");
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  size_t start = 0;
  for (;;) {
    const char *end = memchr(text + start, '\0', size - start);
    size_t length = end != NULL ? (size_t)(end - (text + start)) : size - start;
    gboolean continues = FALSE;
    GError *error = NULL;
    JsonObject *reply = varlink_parse_message(text + start, length, &continues, &error);
    if (reply != NULL) {
      read_reply(reply);
      json_object_unref(reply);
    } else {
      g_assert_nonnull(error);
      g_assert_true(error->domain == LPROJD_ERROR);
      g_error_free(error);
    }
    if (end == NULL) break;
    start += length + 1;
  }
  return 0;
}
