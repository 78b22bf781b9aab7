/* The parts that need no daemon: preferred languages from the environment,
 * placeholders, the cache file, and replies a broken server could send. */
#include <string.h>

#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>

#include "cache.h"
#include "connection-private.h"
#include "localizer-private.h"
#include "lprojd/lprojd.h"
#include "mirror.h"
#include "placeholders.h"
#include "reply-shape.h"
#include "string-table.h"

/* ---- preferred languages (clients/README.md's table, and more) ---- */

static void assert_languages(const char *const *environment, const char *expected) {
  g_auto(GStrv) languages = lprojd_preferred_languages_from_environ(environment);
  g_autofree char *joined = g_strjoinv(" ", languages);
  g_assert_cmpstr(joined, ==, expected);
}

static void test_environ(void) {
  assert_languages((const char *[]){"LANGUAGE=fr:de", "LANG=en_US.UTF-8", NULL}, "fr de");
  assert_languages((const char *[]){"LANG=pt_BR.UTF-8", NULL}, "pt-BR");
  assert_languages((const char *[]){"LC_ALL=C", "LANGUAGE=fr", NULL}, "");
  assert_languages((const char *[]){"LC_MESSAGES=sr_RS@latin", NULL}, "sr-Latn-RS");
  assert_languages((const char *[]){"LANG=C.UTF-8", "LANGUAGE=fr", NULL}, "");
  assert_languages((const char *[]){"LANG=POSIX", "LANGUAGE=fr", NULL}, "");
  /* An unset locale is not C: LANGUAGE applies. */
  assert_languages((const char *[]){"LANGUAGE=fr_FR:de", NULL}, "fr-FR de");
  assert_languages((const char *[]){NULL}, "");
  /* The first non-empty of LC_ALL, LC_MESSAGES, LANG. */
  assert_languages((const char *[]){"LC_ALL=", "LC_MESSAGES=de_DE@euro", "LANG=fr_FR", NULL}, "de-DE");
  /* Empty and C entries skipped, duplicates keep their first place. */
  assert_languages((const char *[]){"LANG=de_DE", "LANGUAGE=:fr:C:de_DE.UTF-8:fr:sr@cyrillic", NULL}, "fr de-DE sr-Cyrl");
  assert_languages((const char *[]){"LANG=en_US", "LANGUAGE=", NULL}, "en-US");
}

/* ---- placeholders, as Placeholders.swift fills them ---- */

static void assert_filled(const char *text, const char *expected) {
  g_autoptr(GHashTable) values = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(values, "name", "Ada");
  g_hash_table_insert(values, "user.first-name_2", "B");
  g_hash_table_insert(values, "loop", "{name}");
  g_autofree char *long_name = g_strnfill(PLACEHOLDER_MAX_NAME, 'x');
  g_autofree char *too_long = g_strnfill(PLACEHOLDER_MAX_NAME + 1, 'y');
  g_hash_table_insert(values, long_name, "64");
  g_hash_table_insert(values, too_long, "65");
  g_autofree char *filled = placeholders_substitute(text, values);
  g_assert_cmpstr(filled, ==, expected);
}

static void test_placeholders(void) {
  assert_filled("Hello, {name}!", "Hello, Ada!");
  assert_filled("{name}{name}", "AdaAda");
  assert_filled("{user.first-name_2}", "B");
  assert_filled("{unknown} {name}", "{unknown} Ada");
  assert_filled("{{name}}", "{Ada}");
  assert_filled("{1name} {.name} {} {name", "{1name} {.name} {} {name");
  assert_filled("{loop}", "{name}"); /* one pass */
  g_autofree char *longest = g_strnfill(PLACEHOLDER_MAX_NAME, 'x');
  g_autofree char *at_limit = g_strdup_printf("{%s}", longest);
  assert_filled(at_limit, "64");
  g_autofree char *over = g_strnfill(PLACEHOLDER_MAX_NAME + 1, 'y');
  g_autofree char *over_limit = g_strdup_printf("{%s}", over);
  assert_filled(over_limit, over_limit);
  g_autofree char *none = placeholders_substitute("{name}", NULL);
  g_assert_cmpstr(none, ==, "{name}");
}

/* ---- the mirror's string table ---- */

static void count_entry(const char *key, const char *value, gpointer data) {
  (void)key, (void)value;
  (*(guint *)data)++;
}

static void test_string_table(void) {
  StringTableBuilder builder;
  string_table_builder_init(&builder);
  /* Keys of every length, the empty key and value, and a key given twice. */
  for (int i = 0; i < 5000; i++) {
    g_autofree char *key = g_strdup_printf("key.%d%.*s", i, i % 23, "kkkkkkkkkkkkkkkkkkkkkkk");
    g_autofree char *value = g_strdup_printf("Wert %d", i);
    g_assert_true(string_table_builder_add(&builder, key, value));
  }
  g_assert_true(string_table_builder_add(&builder, "", "the empty key"));
  g_assert_true(string_table_builder_add(&builder, "empty value", ""));
  g_assert_true(string_table_builder_add(&builder, "twice", "first"));
  g_assert_true(string_table_builder_add(&builder, "twice", "second"));
  g_autoptr(StringTable) table = string_table_builder_finish(&builder);
  string_table_builder_clear(&builder);
  g_assert_cmpuint(string_table_size(table), ==, 5003);
  for (int i = 0; i < 5000; i++) {
    g_autofree char *key = g_strdup_printf("key.%d%.*s", i, i % 23, "kkkkkkkkkkkkkkkkkkkkkkk");
    g_autofree char *value = g_strdup_printf("Wert %d", i);
    g_assert_cmpstr(string_table_lookup(table, key), ==, value);
  }
  g_assert_cmpstr(string_table_lookup(table, ""), ==, "the empty key");
  g_assert_cmpstr(string_table_lookup(table, "empty value"), ==, "");
  g_assert_cmpstr(string_table_lookup(table, "twice"), ==, "second");
  /* Keys it lacks: prefixes, longer keys, another case. */
  g_assert_null(string_table_lookup(table, "key."));
  g_assert_null(string_table_lookup(table, "key.1kk"));
  g_assert_null(string_table_lookup(table, "key.0 "));
  g_assert_null(string_table_lookup(table, "Twice"));
  guint visited = 0;
  string_table_foreach(table, count_entry, &visited);
  g_assert_cmpuint(visited, ==, 5003);

  /* A full index (7 keys in 8 slots) still ends every probe. */
  string_table_builder_init(&builder);
  for (int i = 0; i < 7; i++) {
    char key[8];
    g_snprintf(key, sizeof key, "k%d", i);
    string_table_builder_add(&builder, key, key);
  }
  g_autoptr(StringTable) full = string_table_builder_finish(&builder);
  string_table_builder_clear(&builder);
  g_assert_cmpstr(string_table_lookup(full, "k6"), ==, "k6");
  for (int i = 7; i < 200; i++) {
    char key[8];
    g_snprintf(key, sizeof key, "k%d", i);
    g_assert_null(string_table_lookup(full, key));
  }
  g_assert_false(string_table_equal(table, full));
  g_assert_true(string_table_equal(full, full));
}

/* Sources come back as GetTable gave them, and a change of source alone
 * is a change of the table. */
static void test_mirror_sources(void) {
  const char *text = "{\"strings\": {\"a\": \"A\", \"b\": \"B\", \"c\": \"C\"}, \"plurals\": {},"
                     " \"sources\": {\"a\": \"de\", \"b\": \"de\", \"c\": \"en\"}}";
  const char *moved = "{\"strings\": {\"a\": \"A\", \"b\": \"B\", \"c\": \"C\"}, \"plurals\": {},"
                      " \"sources\": {\"a\": \"de\", \"b\": \"en\", \"c\": \"en\"}}";
  g_autoptr(JsonNode) node = json_from_string(text, NULL);
  g_autoptr(JsonNode) moved_node = json_from_string(moved, NULL);
  GHashTable *tables = mirror_copy_tables(NULL), *moved_tables = mirror_copy_tables(NULL);
  g_hash_table_insert(tables, g_strdup("Localizable"), mirror_table_new(json_node_get_object(node), NULL));
  g_hash_table_insert(moved_tables, g_strdup("Localizable"), mirror_table_new(json_node_get_object(moved_node), NULL));
  g_autoptr(Mirror) mirror = mirror_new("de", "en", tables, NULL);
  g_autoptr(Mirror) other = mirror_new("de", "en", moved_tables, NULL);
  g_assert_cmpstr(mirror_source(mirror, "a", NULL), ==, "de");
  g_assert_cmpstr(mirror_source(mirror, "c", NULL), ==, "en");
  g_assert_cmpstr(mirror_source(other, "b", NULL), ==, "en");
  g_assert_null(mirror_source(mirror, "nothing", NULL));
  g_assert_cmpuint(mirror_difference(mirror, other), ==, LPROJD_CHANGE_TABLES);
  g_assert_cmpuint(mirror_difference(mirror, mirror), ==, 0);
}

/* ---- the cache file ---- */

static void test_cache_path(void) {
  g_setenv("XDG_CACHE_HOME", "/cache", TRUE);
  g_autofree char *plain = cache_path("demo", "org.example.App");
  g_assert_cmpstr(plain, ==, "/cache/lprojd/mirrors/demo@org.example.App.json");
  g_autofree char *escaped = cache_path("../x", ".hidden/é");
  g_assert_cmpstr(escaped, ==, "/cache/lprojd/mirrors/%2E.%2Fx@%2Ehidden%2F%C3%A9.json");
  g_unsetenv("XDG_CACHE_HOME");
  g_autofree char *home = cache_path("a", "b");
  g_autofree char *expected = g_build_filename(g_get_home_dir(), ".cache", "lprojd", "mirrors", "a@b.json", NULL);
  g_assert_cmpstr(home, ==, expected);
}

static const char *cache_example =
    "{\"format\": 1, \"bundle\": \"demo\", \"client\": \"org.example.App\", \"locale\": \"fr\","
    " \"developmentLocale\": \"en\", \"tables\": {\"Localizable\": {\"strings\": {\"a\": \"A\","
    " \"q\\\"\\\\\\n\\t\\u0001/\u00e9\": \"\\\"quoted\\\" \\\\ \\r\\u001f\"},"
    " \"plurals\": {\"p\": {\"format\": \"%#@n@\", \"variables\": {}, \"locale\": \"fr\"}}, \"sources\": {\"a\": \"fr\","
    " \"q\\\"\\\\\\n\\t\\u0001/\u00e9\": \"fr\", \"p\": \"en\"}, \"generation\": 3}}, \"supportedLocales\": {\"displayLocale\": \"fr\", \"locales\": "
    "[{\"locale\": \"fr\", \"name\": \"français\", \"nativeName\": \"français\"}]}}";

static void test_cache_round_trip(void) {
  g_autoptr(Mirror) mirror = mirror_from_cache_json(cache_example, strlen(cache_example), "demo", "org.example.App");
  g_assert_nonnull(mirror);
  g_assert_cmpstr(mirror->locale, ==, "fr");
  g_assert_cmpstr(mirror_lookup(mirror, "a", NULL), ==, "A");
  g_assert_cmpstr(mirror_lookup(mirror, "p", "Localizable"), ==, "%#@n@");
  g_assert_cmpstr(mirror_source(mirror, "p", NULL), ==, "en");
  g_assert_cmpstr(mirror_source(mirror, "a", NULL), ==, "fr");
  g_autofree char *written = mirror_to_cache_json(mirror, "demo", "org.example.App");
  g_autoptr(Mirror) again = mirror_from_cache_json(written, strlen(written), "demo", "org.example.App");
  g_assert_nonnull(again);
  g_assert_cmpuint(mirror_difference(mirror, again), ==, 0);
  /* Quotes, backslashes and control characters are escaped in the file. */
  g_assert_cmpstr(mirror_lookup(again, "q\"\\\n\t\001/\u00e9", NULL), ==, "\"quoted\" \\ \r\037");
  g_assert_cmpstr(mirror_source(again, "q\"\\\n\t\001/\u00e9", NULL), ==, "fr");
  /* Another bundle's or client's file is not ours. */
  g_assert_null(mirror_from_cache_json(written, strlen(written), "demo", "org.example.Other"));
}

static void test_cache_rejects(void) {
  const char *bad[] = {
      "", "not json", "[]", "{\"format\": 2, \"bundle\": \"demo\", \"client\": \"c\", \"locale\": \"fr\", \"tables\": {}}",
      "{\"format\": 1, \"bundle\": \"demo\", \"client\": \"c\", \"tables\": {}}",
      "{\"format\": 1, \"bundle\": \"demo\", \"client\": \"c\", \"locale\": \"fr\", \"tables\": {\"T\": {\"strings\": {\"a\": 1}}}}",
      "{\"format\": 1, \"bundle\": \"demo\", \"client\": \"c\", \"locale\": \"fr\", \"tables\": {\"T\": {\"plurals\": {\"p\": {}}}}}",
      "{\"format\": 1, \"bundle\": \"demo\", \"client\": \"c\", \"locale\": \"fr\", \"tables\": [] }",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) g_assert_null(mirror_from_cache_json(bad[i], strlen(bad[i]), "demo", "c"));
}

/* ---- a server that answers the first call with `reply` ---- */

typedef struct {
  GSocket *listener;
  const char *reply;
  gsize length;
} BrokenServer;

static gpointer serve_once(gpointer data) {
  BrokenServer *server = data;
  g_autoptr(GSocket) peer = g_socket_accept(server->listener, NULL, NULL);
  if (peer == NULL) return NULL;
  char call[4096];
  g_socket_receive(peer, call, sizeof call, NULL, NULL); /* the call: one small message */
  for (gsize sent = 0; sent < server->length;) {
    gssize count = g_socket_send(peer, server->reply + sent, server->length - sent, NULL, NULL);
    if (count <= 0) break;
    sent += (gsize)count;
  }
  return NULL;
}

/* Creates a localizer against a server sending `reply`; returns the error. */
static GError *error_from_server(const char *reply, gsize length) {
  g_autofree char *directory = g_dir_make_tmp("lprojd-broken-XXXXXX", NULL);
  g_autofree char *path = g_build_filename(directory, "sock", NULL);
  BrokenServer server = {g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, NULL), reply, length};
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new(path);
  g_assert_true(g_socket_bind(server.listener, address, TRUE, NULL));
  g_assert_true(g_socket_listen(server.listener, NULL));
  GThread *thread = g_thread_new("broken-server", serve_once, &server);
  GError *error = NULL;
  g_autoptr(LprojdLocalizer) localizer = lprojd_localizer_new_sync("demo", "c", path, NULL, &error);
  g_assert_null(localizer);
  g_socket_close(server.listener, NULL);
  g_thread_join(thread);
  g_object_unref(server.listener);
  g_remove(path);
  g_rmdir(directory);
  return error;
}

static void test_malformed_replies(void) {
  const char *cases[] = {"not json", "[1, 2]", "{\"parameters\": [1]}", "{\"parameters\": {\"event\": {\"type\": 7}}}"};
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *framed = g_strdup(cases[i]);
    g_autoptr(GError) error = error_from_server(framed, strlen(framed) + 1);
    g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY);
  }
  /* A reply that never ends is refused once over the limit. */
  gsize huge = CONNECTION_MAX_REPLY + 128 * 1024;
  g_autofree char *endless = g_malloc(huge);
  memset(endless, ' ', huge);
  g_autoptr(GError) error = error_from_server(endless, huge);
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY);
  /* The daemon's errors map by name. */
  const char *refusal = "{\"error\": \"org.lprojd.Localization.BundleNotFound\", \"parameters\": {\"bundle\": \"demo\"}}";
  g_autoptr(GError) not_found = error_from_server(refusal, strlen(refusal) + 1);
  g_assert_error(not_found, LPROJD_ERROR, LPROJD_ERROR_BUNDLE_NOT_FOUND);
  const char *other = "{\"error\": \"org.varlink.service.InvalidParameter\", \"parameters\": {\"parameter\": \"x\"}}";
  g_autoptr(GError) protocol = error_from_server(other, strlen(other) + 1);
  g_assert_error(protocol, LPROJD_ERROR, LPROJD_ERROR_PROTOCOL);
}

/* json-glib parses any depth by recursion: a reply of 80,000 '[' crashed
 * the app on its main thread. Such a reply is refused before it is parsed. */
static void test_deep_replies(void) {
  const char *nested = "{\"a\": [[{\"b\": \"[[[[[\"}]]}";
  g_assert_true(reply_shape_ok(nested, strlen(nested), 4));
  g_assert_false(reply_shape_ok(nested, strlen(nested), 3));
  g_assert_false(reply_shape_ok("[[[[", 4, 3));
  /* Brackets in strings, escaped quotes included, are text. */
  const char *text = "{\"k\": \"\\\"[[[[[[\"}";
  g_assert_true(reply_shape_ok(text, strlen(text), 1));
  gsize depth = 80000;
  g_autofree char *deep = g_malloc(2 * depth + 32);
  gsize length = 0;
  length += (gsize)g_snprintf(deep, 32, "{\"parameters\": {\"x\": ");
  memset(deep + length, '[', depth);
  length += depth;
  memset(deep + length, ']', depth);
  length += depth;
  deep[length++] = '}';
  deep[length++] = '}';
  deep[length++] = '\0';
  g_autoptr(GError) error = error_from_server(deep, length);
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY);
  g_assert_nonnull(strstr(error->message, "more than 64 deep"));
}

/* ---- a server that floods a subscription while a fetch never ends ---- */

/* 32 MB of events: read whole well within the library's 10 s timeout of
 * the stuck fetch, under AddressSanitizer too. */
#define FLOOD_EVENTS 4000

typedef struct {
  GSocket *listener;
  gint events_sent; /* atomic */
  gint flooded;     /* atomic: every event was written (or the client is gone) */
} FloodServer;

/* The next NUL-terminated message from `peer` (NULL at the end). */
static char *receive_message(GSocket *peer, GString *buffer) {
  for (;;) {
    const char *end = memchr(buffer->str, '\0', buffer->len);
    if (end != NULL) {
      char *message = g_strndup(buffer->str, (gsize)(end - buffer->str));
      g_string_erase(buffer, 0, (gssize)(end - buffer->str) + 1);
      return message;
    }
    char chunk[4096];
    gssize count = g_socket_receive(peer, chunk, sizeof chunk, NULL, NULL);
    if (count <= 0) return NULL;
    g_string_append_len(buffer, chunk, count);
  }
}

static void send_message(GSocket *peer, const char *text) {
  gsize length = strlen(text) + 1;
  for (gsize sent = 0; sent < length;) {
    gssize count = g_socket_send(peer, text + sent, length - sent, NULL, NULL);
    if (count <= 0) return;
    sent += (gsize)count;
  }
}

/* The calls' connection: the first fetch of everything is answered; every
 * GetTable after it never is. */
static gpointer serve_calls(gpointer data) {
  GSocket *peer = data;
  g_autoptr(GString) buffer = g_string_new(NULL);
  gboolean fetched = FALSE;
  char *call;
  while ((call = receive_message(peer, buffer)) != NULL) {
    if (strstr(call, "GetSelection") != NULL) {
      send_message(peer, "{\"parameters\": {\"selection\": {\"client\": \"c\", \"bundle\": \"demo\", "
                         "\"locale\": \"en\", \"reason\": \"default\"}}}");
    } else if (strstr(call, "ListBundles") != NULL) {
      send_message(peer, "{\"parameters\": {\"bundles\": [{\"name\": \"demo\", \"directory\": \"/\", "
                         "\"developmentLocale\": \"en\", \"supportedLocales\": [\"en\"], \"tables\": [\"Localizable\"], "
                         "\"hasBase\": false, \"generation\": 1, \"entries\": 1}]}}");
    } else if (strstr(call, "GetTable") != NULL && !fetched) {
      send_message(peer, "{\"parameters\": {\"bundle\": \"demo\", \"table\": \"Localizable\", \"locale\": \"en\", "
                         "\"strings\": {\"k\": \"v\"}, \"plurals\": {}, \"sources\": {\"k\": \"en\"}, \"generation\": 1}}");
    } else if (strstr(call, "SupportedLocales") != NULL) {
      send_message(peer, "{\"parameters\": {\"displayLocale\": \"en\", \"locales\": []}}");
      fetched = TRUE;
    }
    g_free(call);
  }
  g_object_unref(peer);
  return NULL;
}

static gpointer serve_flood(gpointer data) {
  FloodServer *server = data;
  /* The subscription first, then the calls. */
  g_autoptr(GSocket) subscription = g_socket_accept(server->listener, NULL, NULL);
  g_autoptr(GString) buffer = g_string_new(NULL);
  g_free(receive_message(subscription, buffer));
  send_message(subscription, "{\"parameters\": {\"event\": {\"type\": \"ready\", \"generation\": 1}}, \"continues\": true}");
  g_autoptr(GSocket) calls = g_socket_accept(server->listener, NULL, NULL);
  GThread *answering = g_thread_new("flood-calls", serve_calls, g_object_ref(calls));
  /* Wait for the first fetch to be answered, then flood. */
  g_usleep(200 * 1000);
  g_autofree char *event = g_strdup_printf("{\"parameters\": {\"event\": {\"type\": \"tablesChanged\", \"bundle\": \"demo\", "
                                           "\"tables\": [\"Localizable\"], \"locales\": [\"en\"], \"generation\": 2, "
                                           "\"padding\": \"%0*d\"}}, \"continues\": true}", 8000, 0);
  for (gint i = 0; i < FLOOD_EVENTS; i++) {
    gsize length = strlen(event) + 1;
    gboolean failed = FALSE;
    for (gsize sent = 0; sent < length && !failed;) {
      gssize count = g_socket_send(subscription, event + sent, length - sent, NULL, NULL);
      if (count <= 0) failed = TRUE;
      else sent += (gsize)count;
    }
    if (failed) break;
    g_atomic_int_inc(&server->events_sent);
  }
  g_atomic_int_set(&server->flooded, 1);
  /* The stuck fetch ends with the connection. */
  g_socket_shutdown(calls, TRUE, TRUE, NULL);
  g_thread_join(answering);
  return NULL;
}

/* Events that come while a fetch never ends are merged into the one
 * refresh that waits for it: the events are read as they come (all of
 * them are), and nothing piles up. (A queue of them once grew by 2 GB in 25 s.) */
static void test_flooding_events_are_bounded(void) {
  g_autofree char *directory = g_dir_make_tmp("lprojd-flood-XXXXXX", NULL);
  g_autofree char *path = g_build_filename(directory, "sock", NULL);
  FloodServer server = {g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, NULL), 0, 0};
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new(path);
  g_assert_true(g_socket_bind(server.listener, address, TRUE, NULL));
  g_assert_true(g_socket_listen(server.listener, NULL));
  GThread *thread = g_thread_new("flood-server", serve_flood, &server);
  GError *error = NULL;
  LprojdLocalizer *localizer = lprojd_localizer_new_sync("demo", "c", path, NULL, &error);
  g_assert_no_error(error);
  g_assert_true(lprojd_localizer_get_connected(localizer));
  /* The events are read on the library's thread as they come; the fetch of
   * the first is stuck. */
  gint64 deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
  guint most = 0;
  while (!g_atomic_int_get(&server.flooded)) {
    if (g_get_monotonic_time() > deadline) g_error("the flood was not read within 60 s");
    g_main_context_iteration(NULL, FALSE);
    most = MAX(most, live_mirror_queued_refreshes(localizer->live));
  }
  while (g_main_context_iteration(NULL, FALSE)) most = MAX(most, live_mirror_queued_refreshes(localizer->live));
  g_assert_cmpint(g_atomic_int_get(&server.events_sent), ==, FLOOD_EVENTS);
  /* One refresh ran (stuck), and one waited behind it with every event merged. */
  g_assert_cmpuint(most, ==, 2);
  g_object_unref(localizer);
  g_socket_close(server.listener, NULL);
  g_thread_join(thread);
  g_object_unref(server.listener);
  g_remove(path);
  g_rmdir(directory);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/pure/preferred-languages", test_environ);
  g_test_add_func("/pure/placeholders", test_placeholders);
  g_test_add_func("/pure/string-table", test_string_table);
  g_test_add_func("/pure/mirror-sources", test_mirror_sources);
  g_test_add_func("/pure/cache-path", test_cache_path);
  g_test_add_func("/pure/cache-round-trip", test_cache_round_trip);
  g_test_add_func("/pure/cache-rejects", test_cache_rejects);
  g_test_add_func("/pure/malformed-replies", test_malformed_replies);
  g_test_add_func("/pure/deep-replies", test_deep_replies);
  g_test_add_func("/pure/flooding-events-are-bounded", test_flooding_events_are_bounded);
  return g_test_run();
}
