/* libFuzzer: what a server (lprojd, or whatever listens at LPROJD_SOCKET)
 * may send the library, read as the library reads it. The input is a
 * stream, cut into messages at its NULs as a connection cuts it; each
 * message is parsed (its nesting checked first) and read every way the
 * localizer reads a reply, through the generated types: a table into a
 * mirror and looked up, a selection, supported locales, an event, a bundle
 * list. Never a crash,
 * a leak, or an error of another domain than LPROJD_ERROR.
 *
 *   make -C clients/c fuzz-build; clients/c/build-fuzz/fuzz/fuzz-reply -runs=1000000
 */
#include <stdint.h>
#include <string.h>

#include "connection-private.h"
#include "lprojd-interface-private.h"
#include "mirror.h"

/* Each reply as the localizer reads it, through the generated types (whose
 * checks decide what is malformed), every getter asked twice (the second
 * from its cache). */
static void read_reply(JsonObject *reply) {
  g_autoptr(LprojdGetTableReply) table_reply = lprojd_get_table_reply_from_json(reply, NULL);
  if (table_reply != NULL) {
    MirrorTable *table = mirror_table_new(lprojd_get_table_reply_json(table_reply), NULL);
    g_assert_nonnull(table); /* a checked reply is a table */
    GHashTable *tables = mirror_copy_tables(NULL);
    g_hash_table_replace(tables, g_strdup("Localizable"), table);
    g_autoptr(JsonNode) supported = mirror_supported_node(reply);
    Mirror *mirror = mirror_new("en", "en", tables, supported);
    (void)mirror_lookup(mirror, "k", NULL);
    (void)mirror_source(mirror, "k", "Localizable");
    g_autoptr(GPtrArray) names = mirror_supported_names(mirror);
    g_autofree char *cached = mirror_to_cache_json(mirror, "demo", "c");
    Mirror *again = mirror_from_cache_json(cached, strlen(cached), "demo", "c");
    if (again != NULL) mirror_unref(again);
    mirror_unref(mirror);
    GHashTable *plurals = lprojd_get_table_reply_get_plurals(table_reply);
    GHashTableIter iter;
    gpointer entry;
    g_hash_table_iter_init(&iter, plurals);
    while (g_hash_table_iter_next(&iter, NULL, &entry)) (void)lprojd_plural_entry_get_variables(entry);
  }
  g_autoptr(LprojdGetSelectionReply) selection = lprojd_get_selection_reply_from_json(reply, NULL);
  if (selection != NULL) {
    LprojdSelection *chosen = lprojd_get_selection_reply_get_selection(selection);
    (void)lprojd_selection_get_locale(chosen);
    (void)lprojd_selection_get_reason(chosen);
  }
  g_autoptr(LprojdSupportedLocalesReply) supported = lprojd_supported_locales_reply_from_json(reply, NULL);
  if (supported != NULL) {
    GPtrArray *locales = lprojd_supported_locales_reply_get_locales(supported);
    for (guint i = 0; i < locales->len; i++) (void)lprojd_locale_name_get_native_name(locales->pdata[i]);
  }
  g_autoptr(LprojdSubscribeReply) event_reply = lprojd_subscribe_reply_from_json(reply, NULL);
  if (event_reply != NULL) {
    LprojdEvent *event = lprojd_subscribe_reply_get_event(event_reply);
    (void)lprojd_event_get_kind(event);
    (void)lprojd_event_get_tables(event);
    (void)lprojd_event_get_tables(event);
    if (lprojd_event_get_preferences(event) != NULL) (void)lprojd_preferences_get_calendar(lprojd_event_get_preferences(event));
  }
  g_autoptr(LprojdListBundlesReply) bundles = lprojd_list_bundles_reply_from_json(reply, NULL);
  if (bundles != NULL) {
    GPtrArray *list = lprojd_list_bundles_reply_get_bundles(bundles);
    for (guint i = 0; i < list->len; i++) {
      (void)lprojd_bundle_get_tables(list->pdata[i]);
      (void)lprojd_bundle_get_development_locale(list->pdata[i]);
      (void)lprojd_bundle_get_problems(list->pdata[i]);
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
    JsonObject *reply = connection_parse_message(text + start, length, &continues, &error);
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
