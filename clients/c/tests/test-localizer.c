/* The localizer against the real lprojd serving a copy of the demo bundle:
 * every answer is compared with the daemon's own over the socket. Changes
 * are awaited by running the main context until the `changed` signal comes
 * (or a timeout fails the test), never by sleeping. */
#include <signal.h>

#include <glib/gstdio.h>

#include "daemon-calls.h"
#include "daemon-fixture.h"
#include "lprojd/lprojd.h"

#define BUNDLE "demo"
#define CLIENT "org.example.Demo"
#define WAIT_SECONDS 20

typedef struct {
  DaemonFixture *daemon;
  LprojdLocalizer *localizer;
  guint changes; /* every LprojdChange seen since the last wait */
} Fixture;

static void on_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer;
  Fixture *fixture = data;
  fixture->changes |= what;
}

static LprojdLocalizer *new_localizer(Fixture *fixture, const char *client) {
  g_autoptr(GError) error = NULL;
  LprojdLocalizer *localizer = lprojd_localizer_new_sync(BUNDLE, client, fixture->daemon->socket_path, NULL, &error);
  g_assert_no_error(error);
  g_signal_connect(localizer, "changed", G_CALLBACK(on_changed), fixture);
  return localizer;
}

static void setup(Fixture *fixture, gconstpointer data) {
  (void)data;
  fixture->daemon = daemon_fixture_new(daemon_fixture_demo_bundle(), BUNDLE, "en");
  daemon_fixture_start(fixture->daemon);
  fixture->localizer = new_localizer(fixture, CLIENT);
}

static void teardown(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_clear_object(&fixture->localizer);
  /* Let pending notifications run and release what they hold. */
  while (g_main_context_iteration(NULL, FALSE)) {}
  daemon_fixture_free(fixture->daemon);
}

static gboolean on_timeout(gpointer data) {
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs `context` until `condition` holds, failing the test after WAIT_SECONDS. */
static void run_until(GMainContext *context, gboolean (*condition)(gpointer), gpointer data, const char *what) {
  gboolean timed_out = FALSE;
  g_autoptr(GSource) timeout = g_timeout_source_new_seconds(WAIT_SECONDS);
  g_source_set_callback(timeout, on_timeout, &timed_out, NULL);
  g_source_attach(timeout, context);
  while (!condition(data) && !timed_out) g_main_context_iteration(context, TRUE);
  g_source_destroy(timeout);
  if (timed_out) g_error("timed out waiting for %s", what);
}

typedef struct {
  Fixture *fixture;
  guint wanted;
} ChangeWait;

static gboolean change_arrived(gpointer data) {
  ChangeWait *wait = data;
  return (wait->fixture->changes & wait->wanted) == wait->wanted;
}

/* Waits for `changed` with every flag of `wanted`; returns all flags seen. */
static guint wait_changed(Fixture *fixture, guint wanted) {
  ChangeWait wait = {fixture, wanted};
  run_until(NULL, change_arrived, &wait, "the changed signal");
  guint changes = fixture->changes;
  fixture->changes = 0;
  return changes;
}

static JsonObject *lookup_parameters(const char *key, const char *table, const char *locale) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", BUNDLE);
  json_object_set_string_member(parameters, "key", key);
  json_object_set_string_member(parameters, "table", table);
  json_object_set_string_member(parameters, "locale", locale);
  json_object_set_string_member(parameters, "client", CLIENT);
  return parameters;
}

/* Every key of `table` in the mirror's locale, as Lookup answers it. */
static void assert_table_matches_daemon(Fixture *fixture, const char *table) {
  const char *locale = lprojd_localizer_get_locale(fixture->localizer);
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", BUNDLE);
  json_object_set_string_member(parameters, "table", table);
  json_object_set_string_member(parameters, "locale", locale);
  json_object_set_string_member(parameters, "client", CLIENT);
  g_autoptr(JsonObject) reply = daemon_call(fixture->daemon->socket_path, "GetTable", parameters);
  g_autoptr(GList) keys = json_object_get_members(json_object_get_object_member(reply, "sources"));
  g_assert_cmpuint(g_list_length(keys), >, 0);
  for (GList *key = keys; key != NULL; key = key->next) {
    g_autoptr(JsonObject) answer = daemon_call(fixture->daemon->socket_path, "Lookup", lookup_parameters(key->data, table, locale));
    g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, key->data, table, NULL), ==,
                    json_object_get_string_member(answer, "value"));
    g_assert_true(json_object_get_boolean_member(answer, "found"));
    g_assert_cmpstr(lprojd_localizer_lookup_source(fixture->localizer, key->data, table), ==,
                    json_object_get_string_member_with_default(answer, "locale", NULL));
  }
}

static void test_lookups_match_daemon(Fixture *fixture, gconstpointer data) {
  (void)data;
  const char *locales[] = {"en", "de", "fr", "ru", "ar", "ja", "pt-BR", "en-GB", "zh-Hant"};
  for (gsize i = 0; i < G_N_ELEMENTS(locales); i++) {
    g_autoptr(GError) error = NULL;
    g_assert_true(lprojd_localizer_select_sync(fixture->localizer, locales[i], NULL, &error));
    g_assert_no_error(error);
    g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, locales[i]);
    assert_table_matches_daemon(fixture, "Localizable");
    assert_table_matches_daemon(fixture, "Menu");
  }
  /* A missing key: the default, else the key; not found. */
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "no.such.key", NULL, "Fallback"), ==, "Fallback");
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "no.such.key", NULL, NULL), ==, "no.such.key");
  g_assert_null(lprojd_localizer_lookup_source(fixture->localizer, "no.such.key", NULL));
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "menu.file", "NoSuchTable", NULL), ==, "menu.file");
}

static void test_placeholders(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GHashTable) values = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(values, "name", "Ada {name}");
  const char *locales[] = {"en", "de", "ru"};
  for (gsize i = 0; i < G_N_ELEMENTS(locales); i++) {
    g_assert_true(lprojd_localizer_select_sync(fixture->localizer, locales[i], NULL, NULL));
    JsonObject *parameters = lookup_parameters("greeting", "Localizable", locales[i]);
    JsonObject *placeholders = json_object_new();
    json_object_set_string_member(placeholders, "name", "Ada {name}");
    json_object_set_object_member(parameters, "placeholders", placeholders);
    g_autoptr(JsonObject) answer = daemon_call(fixture->daemon->socket_path, "Lookup", parameters);
    g_autofree char *filled =
        lprojd_localizer_lookup_with_placeholders(fixture->localizer, "greeting", NULL, NULL, values);
    g_assert_cmpstr(filled, ==, json_object_get_string_member(answer, "value"));
  }
}

static void test_formatted_plurals(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "ru", NULL, NULL));
  const gint64 counts[] = {0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111, 1000};
  for (gsize i = 0; i < G_N_ELEMENTS(counts); i++) {
    const char *keys[] = {"files.selected", "inbox.unread"};
    for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
      g_autoptr(GError) error = NULL;
      g_autofree char *text = lprojd_localizer_format_sync(fixture->localizer, keys[k], NULL,
                                                           g_variant_new("(x)", counts[i]), NULL, NULL, &error);
      g_assert_no_error(error);
      JsonObject *parameters = lookup_parameters(keys[k], "Localizable", "ru");
      JsonArray *arguments = json_array_new();
      JsonObject *number = json_object_new();
      json_object_set_int_member(number, "int", counts[i]);
      json_array_add_object_element(arguments, number);
      json_object_set_array_member(parameters, "arguments", arguments);
      g_autoptr(JsonObject) answer = daemon_call(fixture->daemon->socket_path, "Lookup", parameters);
      g_assert_cmpstr(text, ==, json_object_get_string_member(answer, "value"));
    }
  }
  g_autoptr(GError) error = NULL;
  /* A single value is the only argument; an array holds them too; any integer type is an int. */
  g_autofree char *single =
      lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL, g_variant_new_int32(1), NULL, NULL, &error);
  g_autofree char *many =
      lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL, g_variant_new_parsed("[5]"), NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(single, ==, "Выбрано: 1 файл");
  g_assert_cmpstr(many, ==, "Выбрано: 5 файлов");

  /* A float and a string in English; a string where %d wants a number is the daemon's error. */
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "en", NULL, NULL));
  g_autofree char *text = lprojd_localizer_format_sync(fixture->localizer, "download.progress", NULL,
                                                       g_variant_new("(ds)", 42.5, "a.zip"), NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(text, ==, "Downloaded 42.5% of a.zip");
  g_autofree char *refused = lprojd_localizer_format_sync(fixture->localizer, "inbox.unread", NULL,
                                                          g_variant_new("(s)", "three"), NULL, NULL, &error);
  g_assert_null(refused);
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_ARGUMENTS);
}

static void test_select_and_external_selection(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "de", NULL, &error));
  g_assert_no_error(error);
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "de");
  g_assert_cmpuint(wait_changed(fixture, LPROJD_CHANGE_LOCALE) & LPROJD_CHANGE_LOCALE, !=, 0);
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "menu.file", "Menu", NULL), ==, "Ablage");

  /* Another process selects for the same app: this one follows. */
  daemon_select(fixture->daemon->socket_path, CLIENT, BUNDLE, "fr");
  wait_changed(fixture, LPROJD_CHANGE_LOCALE);
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "fr");
  g_autoptr(JsonObject) answer = daemon_call(fixture->daemon->socket_path, "Lookup", lookup_parameters("welcome.title", "Localizable", "fr"));
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "welcome.title", NULL, NULL), ==,
                  json_object_get_string_member(answer, "value"));

  /* The language menu, named in the new locale as lprojd names them. */
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "bundle", BUNDLE);
  json_object_set_string_member(parameters, "locale", "fr");
  g_autoptr(JsonObject) supported = daemon_call(fixture->daemon->socket_path, "SupportedLocales", parameters);
  JsonArray *expected = json_object_get_array_member(supported, "locales");
  g_autoptr(GPtrArray) names = lprojd_localizer_supported_locales(fixture->localizer);
  g_assert_cmpuint(names->len, ==, json_array_get_length(expected));
  for (guint i = 0; i < names->len; i++) {
    LprojdLocaleName *name = g_ptr_array_index(names, i);
    JsonObject *entry = json_array_get_object_element(expected, i);
    g_assert_cmpstr(lprojd_locale_name_get_locale(name), ==, json_object_get_string_member(entry, "locale"));
    g_assert_cmpstr(lprojd_locale_name_get_name(name), ==, json_object_get_string_member(entry, "name"));
    g_assert_cmpstr(lprojd_locale_name_get_native_name(name), ==, json_object_get_string_member(entry, "nativeName"));
  }

  g_assert_true(lprojd_localizer_reset_sync(fixture->localizer, NULL, &error));
  g_assert_no_error(error);
  g_assert_false(lprojd_localizer_select_sync(fixture->localizer, "not a locale!", NULL, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_LOCALE);
}

/* Replaces a file the way editors do: a new file renamed over the old one. */
static void replace_file(const char *path, const char *contents) {
  g_autofree char *temporary = g_strconcat(path, ".tmp", NULL);
  g_autoptr(GError) error = NULL;
  g_file_set_contents(temporary, contents, -1, &error);
  g_assert_no_error(error);
  g_assert_cmpint(g_rename(temporary, path), ==, 0);
}

static void test_table_edit(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "fr", NULL, NULL));
  wait_changed(fixture, LPROJD_CHANGE_LOCALE);
  g_autofree char *path = g_build_filename(fixture->daemon->bundle_dir, "fr.lproj", "Localizable.strings", NULL);
  g_autofree char *original = NULL;
  g_file_get_contents(path, &original, NULL, NULL);
  g_autofree char *edited = g_strconcat(original, "\n\"welcome.title\" = \"Bienvenue, version 2\";\n", NULL);
  replace_file(path, edited);
  wait_changed(fixture, LPROJD_CHANGE_TABLES);
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "welcome.title", NULL, NULL), ==, "Bienvenue, version 2");
}

/* A folder for the language the user prefers appears, renamed in whole as a
 * package installs it: the app takes it. */
static void test_new_locale_folder(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_clear_object(&fixture->localizer);
  /* The user's languages, as LC_ALL=it_IT.UTF-8 gives them (setenv is not
   * for a process with threads: test-pure tests reading them). */
  const char *italian[] = {"it-IT", NULL};
  g_autoptr(GError) error = NULL;
  fixture->localizer = g_initable_new(LPROJD_TYPE_LOCALIZER, NULL, &error, "bundle", BUNDLE, "client-id",
                                      "org.example.Italian", "socket-path", fixture->daemon->socket_path,
                                      "preferred-languages", italian, NULL);
  g_assert_no_error(error);
  g_signal_connect(fixture->localizer, "changed", G_CALLBACK(on_changed), fixture);
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "en");

  g_autofree char *staged = g_build_filename(fixture->daemon->directory, "it.lproj", NULL);
  g_assert_cmpint(g_mkdir(staged, 0755), ==, 0);
  g_autofree char *file = g_build_filename(staged, "Localizable.strings", NULL);
  g_assert_true(g_file_set_contents(file, "\"welcome.title\" = \"Benvenuto in Demo\";\n", -1, NULL));
  g_autofree char *target = g_build_filename(fixture->daemon->bundle_dir, "it.lproj", NULL);
  g_assert_cmpint(g_rename(staged, target), ==, 0);
  wait_changed(fixture, LPROJD_CHANGE_LOCALES | LPROJD_CHANGE_LOCALE);
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "it");
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "welcome.title", NULL, NULL), ==, "Benvenuto in Demo");
}

static gboolean any_change(gpointer data) { return ((Fixture *)data)->changes != 0; }

static gboolean shows_wieder_da(gpointer localizer) {
  return g_strcmp0(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), "Wieder da") == 0;
}

/* The bundle's directory vanishes (lprojd then answers keys) and comes
 * back: the app keeps its last strings meanwhile, then takes the new ones. */
static void test_vanished_bundle(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "de", NULL, NULL));
  wait_changed(fixture, LPROJD_CHANGE_LOCALE);
  g_autofree char *saved = g_build_filename(fixture->daemon->directory, "saved-bundle", NULL);
  g_assert_cmpint(g_rename(fixture->daemon->bundle_dir, saved), ==, 0);
  /* Told once, of whichever event came first (bundle, locales, tables). */
  run_until(NULL, any_change, fixture, "a change");
  fixture->changes = 0;
  g_autoptr(JsonObject) answer = daemon_call(fixture->daemon->socket_path, "Lookup", lookup_parameters("welcome.title", "Localizable", "de"));
  g_assert_cmpstr(json_object_get_string_member(answer, "value"), ==, "welcome.title");
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "welcome.title", NULL, NULL), ==, "Willkommen bei Demo");

  g_autofree char *file = g_build_filename(saved, "de.lproj", "Localizable.strings", NULL);
  replace_file(file, "\"welcome.title\" = \"Wieder da\";\n");
  g_assert_cmpint(g_rename(saved, fixture->daemon->bundle_dir), ==, 0);
  /* Events while it comes back may show a moment of it first. */
  run_until(NULL, shows_wieder_da, fixture->localizer, "the bundle's new strings");
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "de");
}

static gboolean disconnected(gpointer data) { return !lprojd_localizer_get_connected(data); }

static void test_reconnect(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "de", NULL, NULL));
  const int signals_to_stop[] = {SIGTERM, SIGKILL};
  for (gsize i = 0; i < G_N_ELEMENTS(signals_to_stop); i++) {
    daemon_fixture_stop(fixture->daemon, signals_to_stop[i]);
    run_until(NULL, disconnected, fixture->localizer, "the localizer to notice the outage");
    /* The outage: the last mirror answers. */
    g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "menu.file", "Menu", NULL), ==, "Ablage");
    g_autoptr(GError) error = NULL;
    g_assert_null(lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL, g_variant_new("(x)", 2),
                                               NULL, NULL, &error));
    g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE);
    g_clear_error(&error);
    fixture->changes = 0;
    daemon_fixture_start(fixture->daemon);
    wait_changed(fixture, LPROJD_CHANGE_RECONNECTED);
    g_assert_true(lprojd_localizer_get_connected(fixture->localizer));
    g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "de");
    g_autofree char *text = lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL,
                                                         g_variant_new("(x)", 2), NULL, NULL, &error);
    g_assert_no_error(error);
    g_assert_nonnull(text);
  }
}

static void test_without_daemon(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_assert_true(lprojd_localizer_select_sync(fixture->localizer, "de", NULL, NULL));
  g_clear_object(&fixture->localizer);
  daemon_fixture_stop(fixture->daemon, SIGTERM);

  /* The cached mirror answers plain lookups and placeholders. */
  fixture->localizer = new_localizer(fixture, CLIENT);
  g_assert_false(lprojd_localizer_get_connected(fixture->localizer));
  g_assert_cmpstr(lprojd_localizer_get_locale(fixture->localizer), ==, "de");
  g_assert_cmpstr(lprojd_localizer_lookup(fixture->localizer, "menu.file", "Menu", NULL), ==, "Ablage");
  g_autoptr(GHashTable) values = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(values, "name", "Ada");
  g_autofree char *greeting = lprojd_localizer_lookup_with_placeholders(fixture->localizer, "greeting", NULL, NULL, values);
  g_assert_cmpstr(greeting, ==, "Hallo, Ada!");
  g_autoptr(GPtrArray) names = lprojd_localizer_supported_locales(fixture->localizer);
  g_assert_cmpuint(names->len, >, 0);

  /* What needs the daemon says it is unavailable. */
  g_autoptr(GError) error = NULL;
  g_assert_null(lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL, g_variant_new("(x)", 3), NULL,
                                             NULL, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE);
  g_clear_error(&error);
  g_assert_false(lprojd_localizer_select_sync(fixture->localizer, "fr", NULL, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE);

  /* No cached mirror for another client: the default, else the key. (Its
   * changes are not the fixture's: once lprojd is back, its reconnection
   * must not pass for the first localizer's.) */
  g_autoptr(GError) stranger_error = NULL;
  g_autoptr(LprojdLocalizer) stranger =
      lprojd_localizer_new_sync(BUNDLE, "org.example.Other", fixture->daemon->socket_path, NULL, &stranger_error);
  g_assert_no_error(stranger_error);
  g_assert_null(lprojd_localizer_get_locale(stranger));
  g_assert_cmpstr(lprojd_localizer_lookup(stranger, "menu.file", "Menu", "File"), ==, "File");
  g_assert_cmpstr(lprojd_localizer_lookup(stranger, "menu.file", "Menu", NULL), ==, "menu.file");

  /* lprojd comes up: the localizer connects by itself. */
  g_clear_error(&error);
  daemon_fixture_start(fixture->daemon);
  wait_changed(fixture, LPROJD_CHANGE_RECONNECTED);
  g_autofree char *text = lprojd_localizer_format_sync(fixture->localizer, "files.selected", NULL,
                                                       g_variant_new("(x)", 3), NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(text, ==, "3 Dateien ausgewählt");
}

static void test_unknown_bundle(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer =
      lprojd_localizer_new_sync("no-such-bundle", CLIENT, fixture->daemon->socket_path, NULL, &error);
  g_assert_null(localizer);
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_BUNDLE_NOT_FOUND);
}

/* ---- the signal reaches the creating thread's context ---- */

typedef struct {
  const char *socket_path;
  GMainContext *context;
  GThread *signalled_on;
  gboolean created;
  GMutex mutex;
  GCond cond;
} ThreadTest;

static void on_thread_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer;
  if (what & LPROJD_CHANGE_LOCALE) ((ThreadTest *)data)->signalled_on = g_thread_self();
}

static gboolean thread_signalled(gpointer data) { return ((ThreadTest *)data)->signalled_on != NULL; }

static gpointer localizer_thread(gpointer data) {
  ThreadTest *test = data;
  g_main_context_push_thread_default(test->context);
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = lprojd_localizer_new_sync(BUNDLE, CLIENT, test->socket_path, NULL, &error);
  g_assert_no_error(error);
  g_signal_connect(localizer, "changed", G_CALLBACK(on_thread_changed), test);
  g_mutex_lock(&test->mutex);
  test->created = TRUE;
  g_cond_signal(&test->cond);
  g_mutex_unlock(&test->mutex);
  run_until(test->context, thread_signalled, test, "the changed signal on the localizer's thread");
  g_clear_object(&localizer);
  while (g_main_context_iteration(test->context, FALSE)) {}
  g_main_context_pop_thread_default(test->context);
  return NULL;
}

static void test_signal_on_creating_context(Fixture *fixture, gconstpointer data) {
  (void)data;
  ThreadTest test = {.socket_path = fixture->daemon->socket_path, .context = g_main_context_new()};
  g_mutex_init(&test.mutex);
  g_cond_init(&test.cond);
  GThread *thread = g_thread_new("localizer", localizer_thread, &test);
  g_mutex_lock(&test.mutex);
  while (!test.created) g_cond_wait(&test.cond, &test.mutex);
  g_mutex_unlock(&test.mutex);
  daemon_select(fixture->daemon->socket_path, CLIENT, BUNDLE, "ja");
  g_thread_join(thread);
  g_assert_true(test.signalled_on == thread);
  g_main_context_unref(test.context);
  g_mutex_clear(&test.mutex);
  g_cond_clear(&test.cond);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  /* Cached mirrors go to a directory of this run (set before any thread). */
  g_autofree char *cache = g_dir_make_tmp("lprojd-client-cache-XXXXXX", NULL);
  g_setenv("XDG_CACHE_HOME", cache, TRUE);
  if (!g_file_test(g_getenv("LPROJD_BINARY") ? g_getenv("LPROJD_BINARY") : "../../.build/release/lprojd",
                   G_FILE_TEST_IS_EXECUTABLE))
    g_error("no lprojd to test against: build it, or set LPROJD_BINARY");
#define ADD(path, test) g_test_add(path, Fixture, NULL, setup, test, teardown)
  ADD("/localizer/lookups-match-daemon", test_lookups_match_daemon);
  ADD("/localizer/placeholders", test_placeholders);
  ADD("/localizer/formatted-plurals", test_formatted_plurals);
  ADD("/localizer/select-and-external-selection", test_select_and_external_selection);
  ADD("/localizer/table-edit", test_table_edit);
  ADD("/localizer/new-locale-folder", test_new_locale_folder);
  ADD("/localizer/vanished-bundle", test_vanished_bundle);
  ADD("/localizer/reconnect", test_reconnect);
  ADD("/localizer/without-daemon", test_without_daemon);
  ADD("/localizer/unknown-bundle", test_unknown_bundle);
  ADD("/localizer/signal-on-creating-context", test_signal_on_creating_context);
  int status = g_test_run();
  const char *remove[] = {"rm", "-rf", cache, NULL};
  g_spawn_sync(NULL, (char **)remove, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  return status;
}
