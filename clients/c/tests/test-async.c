/* The localizer as a GNOME app uses it, against the real lprojd: created
 * with new_async, asked with _async calls, followed through notify and
 * property bindings. Above all, the app's main loop never waits for lprojd:
 * while lprojd is stopped (SIGSTOP), a timeout source keeps firing during
 * an async construction and an async select, lookups answer from the
 * mirror, and a cancelled call returns at once. Every wait runs the main
 * context until something happens, with a deadline that fails the test. */
#include <signal.h>

#include <glib/gstdio.h>

#include "daemon-calls.h"
#include "daemon-fixture.h"
#include "lprojd/lprojd.h"

#define BUNDLE "demo"
#define CLIENT "org.example.Async"
#define WAIT_SECONDS 20
/* How many ticks of the main loop's timeout must fire while lprojd is stopped. */
#define TICKS_WHILE_STOPPED 10
#define TICK_MS 20

typedef struct {
  DaemonFixture *daemon;
} Fixture;

static void setup(Fixture *fixture, gconstpointer data) {
  (void)data;
  fixture->daemon = daemon_fixture_new(daemon_fixture_demo_bundle(), BUNDLE, "en");
  daemon_fixture_start(fixture->daemon);
}

static void teardown(Fixture *fixture, gconstpointer data) {
  (void)data;
  while (g_main_context_iteration(NULL, FALSE)) {}
  daemon_fixture_free(fixture->daemon);
}

static gboolean on_deadline(gpointer data) {
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the default context until `*done`, failing the test after WAIT_SECONDS. */
static void run_until(gboolean *done, const char *what) {
  gboolean late = FALSE;
  g_autoptr(GSource) deadline = g_timeout_source_new_seconds(WAIT_SECONDS);
  g_source_set_callback(deadline, on_deadline, &late, NULL);
  g_source_attach(deadline, NULL);
  while (!*done && !late) g_main_context_iteration(NULL, TRUE);
  g_source_destroy(deadline);
  if (late) g_error("timed out waiting for %s", what);
}

/* The result of an async call, kept for the test to finish it. */
typedef struct {
  GAsyncResult *result;
  gboolean done;
} Pending;

static void on_ready(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Pending *pending = data;
  pending->result = g_object_ref(result);
  pending->done = TRUE;
}

static void pending_clear(Pending *pending) {
  g_clear_object(&pending->result);
  pending->done = FALSE;
}

static LprojdLocalizer *new_localizer(const char *socket_path, const char *client, GError **error) {
  Pending pending = {0};
  lprojd_localizer_new_async(BUNDLE, client, socket_path, NULL, on_ready, &pending);
  run_until(&pending.done, "new_async");
  LprojdLocalizer *localizer = lprojd_localizer_new_finish(pending.result, error);
  pending_clear(&pending);
  return localizer;
}

/* ---- a timeout source that counts its ticks: the main loop running ---- */

typedef struct {
  guint ticks;
  GSource *source;
} Ticker;

static gboolean on_tick(gpointer data) {
  ((Ticker *)data)->ticks++;
  return G_SOURCE_CONTINUE;
}

static void ticker_start(Ticker *ticker) {
  ticker->ticks = 0;
  ticker->source = g_timeout_source_new(TICK_MS);
  g_source_set_callback(ticker->source, on_tick, ticker, NULL);
  g_source_attach(ticker->source, NULL);
}

static void ticker_stop(Ticker *ticker) {
  g_source_destroy(ticker->source);
  g_clear_pointer(&ticker->source, g_source_unref);
}

/* Runs the main loop while lprojd is stopped until the ticker fired
 * TICKS_WHILE_STOPPED times; `pending` must not finish meanwhile (lprojd
 * cannot answer). */
static void run_while_stopped(Ticker *ticker, Pending *pending) {
  gint64 start = g_get_monotonic_time();
  while (ticker->ticks < TICKS_WHILE_STOPPED) {
    g_main_context_iteration(NULL, TRUE);
    if (g_get_monotonic_time() - start > WAIT_SECONDS * G_USEC_PER_SEC) g_error("the main loop's timeout did not fire");
  }
  g_assert_false(pending->done);
}

static void test_new_async(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, CLIENT, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "en");
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Welcome to Demo");
  g_assert_true(lprojd_localizer_get_connected(localizer));
  g_assert_cmpint(lprojd_localizer_get_generation(localizer), >, 0);
  g_autofree char *bundle = NULL, *client = NULL, *socket_path = NULL, *locale = NULL;
  gboolean connected = FALSE;
  g_object_get(localizer, "bundle", &bundle, "client-id", &client, "socket-path", &socket_path, "locale", &locale,
               "connected", &connected, NULL);
  g_assert_cmpstr(bundle, ==, BUNDLE);
  g_assert_cmpstr(client, ==, CLIENT);
  g_assert_cmpstr(socket_path, ==, fixture->daemon->socket_path);
  g_assert_cmpstr(locale, ==, "en");
  g_assert_true(connected);
}

/* The preferred languages given as a construction property, through
 * g_async_initable_new_async() as GI bindings construct. */
static void test_preferred_languages_property(Fixture *fixture, gconstpointer data) {
  (void)data;
  const char *languages[] = {"xx", "fr-CA", NULL};
  Pending pending = {0};
  g_async_initable_new_async(LPROJD_TYPE_LOCALIZER, G_PRIORITY_DEFAULT, NULL, on_ready, &pending, "bundle", BUNDLE,
                             "client-id", "org.example.French", "socket-path", fixture->daemon->socket_path,
                             "preferred-languages", languages, NULL);
  run_until(&pending.done, "init_async");
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = lprojd_localizer_new_finish(pending.result, &error);
  g_assert_no_error(error);
  pending_clear(&pending);
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "fr");
  g_assert_cmpstrv(lprojd_localizer_get_preferred_languages(localizer), languages);
}

static void on_notify_count(GObject *object, GParamSpec *pspec, gpointer data) {
  (void)object, (void)pspec;
  (*(guint *)data)++;
}

/* The test the issue asks for: lprojd stopped during an async construction
 * and an async select, and the main loop runs all along. */
static void test_main_loop_runs_while_lprojd_is_stopped(Fixture *fixture, gconstpointer data) {
  (void)data;
  Ticker ticker = {0};
  Pending pending = {0};

  /* Construction: lprojd accepts the connection (the kernel does), then
   * answers nothing until it runs again. */
  daemon_fixture_signal(fixture->daemon, SIGSTOP);
  ticker_start(&ticker);
  lprojd_localizer_new_async(BUNDLE, CLIENT, fixture->daemon->socket_path, NULL, on_ready, &pending);
  run_while_stopped(&ticker, &pending);
  daemon_fixture_signal(fixture->daemon, SIGCONT);
  run_until(&pending.done, "new_async after SIGCONT");
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = lprojd_localizer_new_finish(pending.result, &error);
  g_assert_no_error(error);
  pending_clear(&pending);
  g_assert_true(lprojd_localizer_get_connected(localizer));
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "en");

  /* Select: lprojd stops again. Lookups and properties answer meanwhile,
   * from the mirror, without waiting. */
  guint locale_notified = 0;
  g_signal_connect(localizer, "notify::locale", G_CALLBACK(on_notify_count), &locale_notified);
  daemon_fixture_signal(fixture->daemon, SIGSTOP);
  lprojd_localizer_select_async(localizer, "de", NULL, on_ready, &pending);
  ticker.ticks = 0;
  run_while_stopped(&ticker, &pending);
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Welcome to Demo");
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "en");
  g_assert_true(lprojd_localizer_get_connected(localizer));
  g_assert_cmpint(lprojd_localizer_get_generation(localizer), >, 0);
  g_autoptr(GPtrArray) names = lprojd_localizer_supported_locales(localizer);
  g_assert_cmpuint(names->len, >, 0);
  g_assert_cmpuint(locale_notified, ==, 0);
  daemon_fixture_signal(fixture->daemon, SIGCONT);
  run_until(&pending.done, "select_async after SIGCONT");
  g_assert_true(lprojd_localizer_select_finish(localizer, pending.result, &error));
  g_assert_no_error(error);
  pending_clear(&pending);
  /* Applied before the callback; notified on the context right after. */
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "de");
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Willkommen bei Demo");
  while (locale_notified == 0) g_main_context_iteration(NULL, TRUE);
  ticker_stop(&ticker);
}

/* A call cancelled while lprojd is stopped returns at once: one queued
 * behind a call that still waits for lprojd, and the waiting one itself
 * (its socket call ends). Calls made afterwards are answered. */
static void test_cancel_while_lprojd_is_stopped(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, CLIENT, &error);
  g_assert_no_error(error);
  daemon_fixture_signal(fixture->daemon, SIGSTOP);

  Pending waiting = {0}, queued = {0};
  g_autoptr(GCancellable) waiting_cancellable = g_cancellable_new();
  g_autoptr(GCancellable) queued_cancellable = g_cancellable_new();
  lprojd_localizer_format_async(localizer, "files.selected", NULL, g_variant_new("(x)", (gint64)2), NULL,
                                waiting_cancellable, on_ready, &waiting);
  lprojd_localizer_select_async(localizer, "fr", queued_cancellable, on_ready, &queued);
  Ticker ticker = {0};
  ticker_start(&ticker);
  run_while_stopped(&ticker, &queued);
  g_assert_false(waiting.done);

  gint64 start = g_get_monotonic_time();
  g_cancellable_cancel(queued_cancellable);
  run_until(&queued.done, "the cancelled select");
  g_assert_cmpint(g_get_monotonic_time() - start, <, G_USEC_PER_SEC);
  g_assert_false(lprojd_localizer_select_finish(localizer, queued.result, &error));
  g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error(&error);
  pending_clear(&queued);
  g_assert_false(waiting.done);

  start = g_get_monotonic_time();
  g_cancellable_cancel(waiting_cancellable);
  run_until(&waiting.done, "the cancelled format");
  g_assert_cmpint(g_get_monotonic_time() - start, <, G_USEC_PER_SEC);
  g_assert_null(lprojd_localizer_format_finish(localizer, waiting.result, &error));
  g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error(&error);
  pending_clear(&waiting);

  /* A call made while lprojd is still stopped is answered once it runs. */
  Pending later = {0};
  lprojd_localizer_format_async(localizer, "files.selected", NULL, g_variant_new("(x)", (gint64)2), NULL, NULL,
                                on_ready, &later);
  ticker.ticks = 0;
  run_while_stopped(&ticker, &later);
  daemon_fixture_signal(fixture->daemon, SIGCONT);
  run_until(&later.done, "the format after SIGCONT");
  g_autofree char *text = lprojd_localizer_format_finish(localizer, later.result, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(text, ==, "2 files selected");
  pending_clear(&later);
  /* The cancelled select was not made. */
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "en");
  ticker_stop(&ticker);
}

/* ---- properties: notify, and a binding to a label ---- */

/* A stand-in for GtkLabel: an object with a "label" string property. */
#define TEST_TYPE_LABEL (test_label_get_type())
G_DECLARE_FINAL_TYPE(TestLabel, test_label, TEST, LABEL, GObject)
struct _TestLabel {
  GObject parent_instance;
  char *label;
};
G_DEFINE_TYPE(TestLabel, test_label, G_TYPE_OBJECT)

static void test_label_init(TestLabel *self) { (void)self; }

static void test_label_finalize(GObject *object) {
  g_free(TEST_LABEL(object)->label);
  G_OBJECT_CLASS(test_label_parent_class)->finalize(object);
}

static void test_label_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  (void)id, (void)pspec;
  g_value_set_string(value, TEST_LABEL(object)->label);
}

static void test_label_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  (void)id, (void)pspec;
  g_free(TEST_LABEL(object)->label);
  TEST_LABEL(object)->label = g_value_dup_string(value);
}

static void test_label_class_init(TestLabelClass *class) {
  G_OBJECT_CLASS(class)->finalize = test_label_finalize;
  G_OBJECT_CLASS(class)->get_property = test_label_get_property;
  G_OBJECT_CLASS(class)->set_property = test_label_set_property;
  g_object_class_install_property(G_OBJECT_CLASS(class), 1,
                                  g_param_spec_string("label", NULL, NULL, NULL, G_PARAM_READWRITE));
}

typedef struct {
  TestLabel *label;
  const char *wanted;
} LabelWait;

static gboolean label_shows(LabelWait *wait) { return g_strcmp0(wait->label->label, wait->wanted) == 0; }

static void wait_label(TestLabel *label, const char *wanted) {
  LabelWait wait = {label, wanted};
  gint64 deadline = g_get_monotonic_time() + WAIT_SECONDS * G_USEC_PER_SEC;
  while (!label_shows(&wait)) {
    if (g_get_monotonic_time() > deadline) g_error("the label shows %s, not %s", label->label, wanted);
    g_main_context_iteration(NULL, FALSE);
    g_usleep(1000);
  }
}

typedef struct {
  guint locale, generation, connected;
} Notified;

static void on_notify(GObject *object, GParamSpec *pspec, gpointer data) {
  (void)object;
  Notified *notified = data;
  if (g_str_equal(pspec->name, "locale")) notified->locale++;
  if (g_str_equal(pspec->name, "generation")) notified->generation++;
  if (g_str_equal(pspec->name, "connected")) notified->connected++;
}

static gboolean notified_connected(gpointer data) { return ((Notified *)data)->connected > 0; }

static void wait_for(gboolean (*condition)(gpointer), gpointer data, const char *what) {
  gint64 deadline = g_get_monotonic_time() + WAIT_SECONDS * G_USEC_PER_SEC;
  while (!condition(data)) {
    if (g_get_monotonic_time() > deadline) g_error("timed out waiting for %s", what);
    g_main_context_iteration(NULL, FALSE);
    g_usleep(1000);
  }
}

static void replace_file(const char *path, const char *contents) {
  g_autofree char *temporary = g_strconcat(path, ".tmp", NULL);
  g_assert_true(g_file_set_contents(temporary, contents, -1, NULL));
  g_assert_cmpint(g_rename(temporary, path), ==, 0);
}

static gboolean generation_notified(gpointer data) { return ((Notified *)data)->generation > 0; }

static void test_properties_notify_and_bind(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, CLIENT, &error);
  g_assert_no_error(error);
  while (g_main_context_iteration(NULL, FALSE)) {}

  /* The label shows the locale, from the start and after every change. */
  g_autoptr(TestLabel) label = g_object_new(TEST_TYPE_LABEL, NULL);
  g_object_bind_property(localizer, "locale", label, "label", G_BINDING_SYNC_CREATE);
  g_assert_cmpstr(label->label, ==, "en");
  Notified notified = {0};
  g_signal_connect(localizer, "notify", G_CALLBACK(on_notify), &notified);

  /* Another process selects French for the app. */
  daemon_select(fixture->daemon->socket_path, CLIENT, BUNDLE, "fr");
  wait_label(label, "fr");
  g_assert_cmpuint(notified.locale, ==, 1);
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Bienvenue dans Demo");

  /* A translator edits French: the generation counts up. */
  gint64 before = lprojd_localizer_get_generation(localizer);
  g_autofree char *path = g_build_filename(fixture->daemon->bundle_dir, "fr.lproj", "Localizable.strings", NULL);
  g_autofree char *original = NULL;
  g_assert_true(g_file_get_contents(path, &original, NULL, NULL));
  g_autofree char *edited = g_strconcat(original, "\n\"welcome.title\" = \"Bienvenue, v2\";\n", NULL);
  replace_file(path, edited);
  wait_for(generation_notified, &notified, "notify::generation");
  g_assert_cmpint(lprojd_localizer_get_generation(localizer), >, before);
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Bienvenue, v2");

  /* lprojd goes away, then comes back. */
  daemon_fixture_stop(fixture->daemon, SIGTERM);
  wait_for(notified_connected, &notified, "notify::connected (lost)");
  g_assert_false(lprojd_localizer_get_connected(localizer));
  notified.connected = 0;
  daemon_fixture_start(fixture->daemon);
  wait_for(notified_connected, &notified, "notify::connected (back)");
  g_assert_true(lprojd_localizer_get_connected(localizer));
  g_assert_cmpstr(label->label, ==, "fr");
  g_assert_cmpuint(notified.locale, ==, 1);
}

/* ---- the other calls, async ---- */

static void test_format_value_and_supported_locales(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, CLIENT, &error);
  g_assert_no_error(error);
  g_assert_true(lprojd_localizer_select_sync(localizer, "de", NULL, &error));

  Pending pending = {0};
  GVariantDict parameters;
  g_variant_dict_init(&parameters, NULL);
  g_variant_dict_insert(&parameters, "number", "d", 1234567.891);
  lprojd_localizer_format_value_async(localizer, "decimal", g_variant_dict_end(&parameters), NULL, on_ready, &pending);
  run_until(&pending.done, "format_value_async");
  g_autofree char *number = lprojd_localizer_format_value_finish(localizer, pending.result, &error);
  g_assert_no_error(error);
  pending_clear(&pending);
  JsonObject *request = json_object_new();
  json_object_set_string_member(request, "style", "decimal");
  json_object_set_double_member(request, "number", 1234567.891);
  json_object_set_string_member(request, "locale", "de");
  json_object_set_string_member(request, "bundle", BUNDLE);
  g_autoptr(JsonObject) expected = daemon_call(fixture->daemon->socket_path, "Format", request);
  g_assert_cmpstr(number, ==, json_object_get_string_member(expected, "value"));

  /* A pattern lprojd cannot use is its InvalidValue. */
  g_autofree char *refused = lprojd_localizer_format_value_sync(
      localizer, "pattern", g_variant_new_parsed("{'pattern': <'yyyy-MM-dd \\'unterminated'>, 'date': <0.0>}"), NULL,
      &error);
  g_assert_null(refused);
  g_assert_true(error != NULL && error->domain == LPROJD_ERROR);
  g_clear_error(&error);

  lprojd_localizer_fetch_supported_locales_async(localizer, "ja", NULL, on_ready, &pending);
  run_until(&pending.done, "fetch_supported_locales_async");
  g_autoptr(GPtrArray) names = lprojd_localizer_fetch_supported_locales_finish(localizer, pending.result, &error);
  g_assert_no_error(error);
  pending_clear(&pending);
  JsonObject *supported_request = json_object_new();
  json_object_set_string_member(supported_request, "bundle", BUNDLE);
  json_object_set_string_member(supported_request, "locale", "ja");
  g_autoptr(JsonObject) supported = daemon_call(fixture->daemon->socket_path, "SupportedLocales", supported_request);
  JsonArray *locales = json_object_get_array_member(supported, "locales");
  g_assert_cmpuint(names->len, ==, json_array_get_length(locales));
  for (guint i = 0; i < names->len; i++) {
    LprojdLocaleName *name = g_ptr_array_index(names, i);
    JsonObject *entry = json_array_get_object_element(locales, i);
    g_assert_cmpstr(lprojd_locale_name_get_locale(name), ==, json_object_get_string_member(entry, "locale"));
    g_assert_cmpstr(lprojd_locale_name_get_name(name), ==, json_object_get_string_member(entry, "name"));
    g_assert_cmpstr(lprojd_locale_name_get_native_name(name), ==, json_object_get_string_member(entry, "nativeName"));
  }
  /* The entries outlive the array that held them. */
  g_autoptr(LprojdLocaleName) kept = lprojd_locale_name_ref(g_ptr_array_index(names, 0));
  g_autofree char *first = g_strdup(lprojd_locale_name_get_locale(kept));
  g_clear_pointer(&names, g_ptr_array_unref);
  g_assert_cmpstr(lprojd_locale_name_get_locale(kept), ==, first);

  /* reset_async: back to the preferred languages' choice. */
  lprojd_localizer_reset_async(localizer, NULL, on_ready, &pending);
  run_until(&pending.done, "reset_async");
  g_assert_true(lprojd_localizer_reset_finish(localizer, pending.result, &error));
  g_assert_no_error(error);
  pending_clear(&pending);
}

static void test_errors(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  Pending pending = {0};
  lprojd_localizer_new_async("no-such-bundle", CLIENT, fixture->daemon->socket_path, NULL, on_ready, &pending);
  run_until(&pending.done, "new_async of an unknown bundle");
  g_assert_null(lprojd_localizer_new_finish(pending.result, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_BUNDLE_NOT_FOUND);
  g_clear_error(&error);
  pending_clear(&pending);

  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, CLIENT, &error);
  g_assert_no_error(error);
  lprojd_localizer_select_async(localizer, "not a locale!", NULL, on_ready, &pending);
  run_until(&pending.done, "select_async of a bad locale");
  g_assert_false(lprojd_localizer_select_finish(localizer, pending.result, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_LOCALE);
  g_clear_error(&error);
  pending_clear(&pending);

  /* An argument of a type no Argument holds fails before lprojd is asked. */
  lprojd_localizer_format_async(localizer, "files.selected", NULL, g_variant_new("(b)", TRUE), NULL, NULL, on_ready,
                                &pending);
  run_until(&pending.done, "format_async with a boolean");
  g_assert_null(lprojd_localizer_format_finish(localizer, pending.result, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_INVALID_ARGUMENTS);
  g_clear_error(&error);
  pending_clear(&pending);

  /* Without lprojd: created all the same, not connected; calls that need it are UNAVAILABLE. */
  g_autofree char *nowhere = g_build_filename(fixture->daemon->directory, "no-socket", NULL);
  g_autoptr(LprojdLocalizer) alone = new_localizer(nowhere, "org.example.Alone", &error);
  g_assert_no_error(error);
  g_assert_false(lprojd_localizer_get_connected(alone));
  g_assert_null(lprojd_localizer_get_locale(alone));
  g_assert_cmpstr(lprojd_localizer_lookup(alone, "welcome.title", NULL, "Welcome"), ==, "Welcome");
  lprojd_localizer_select_async(alone, "de", NULL, on_ready, &pending);
  run_until(&pending.done, "select_async without lprojd");
  g_assert_false(lprojd_localizer_select_finish(alone, pending.result, &error));
  g_assert_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE);
  g_clear_error(&error);
  pending_clear(&pending);
}

/* lprojd stopped for longer than a call may wait (10 s): the localizer is
 * created from its cache, not connected, and connects once lprojd runs. */
static void on_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer;
  *(guint *)data |= what;
}

static void test_stuck_lprojd_times_out(Fixture *fixture, gconstpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  {
    /* A first run caches the mirror. */
    g_autoptr(LprojdLocalizer) first = new_localizer(fixture->daemon->socket_path, "org.example.Stuck", &error);
    g_assert_no_error(error);
    g_assert_true(lprojd_localizer_select_sync(first, "ru", NULL, &error));
  }
  while (g_main_context_iteration(NULL, FALSE)) {}
  daemon_fixture_signal(fixture->daemon, SIGSTOP);
  gint64 start = g_get_monotonic_time();
  g_autoptr(LprojdLocalizer) localizer = new_localizer(fixture->daemon->socket_path, "org.example.Stuck", &error);
  g_assert_no_error(error);
  g_assert_cmpint(g_get_monotonic_time() - start, >=, 9 * G_USEC_PER_SEC);
  g_assert_false(lprojd_localizer_get_connected(localizer));
  g_assert_cmpstr(lprojd_localizer_get_locale(localizer), ==, "ru");
  g_assert_cmpstr(lprojd_localizer_lookup(localizer, "welcome.title", NULL, NULL), ==, "Добро пожаловать в Demo");
  guint changes = 0;
  g_signal_connect(localizer, "changed", G_CALLBACK(on_changed), &changes);
  daemon_fixture_signal(fixture->daemon, SIGCONT);
  gint64 deadline = g_get_monotonic_time() + WAIT_SECONDS * G_USEC_PER_SEC;
  while (!(changes & LPROJD_CHANGE_RECONNECTED)) {
    if (g_get_monotonic_time() > deadline) g_error("no reconnection after SIGCONT");
    g_main_context_iteration(NULL, TRUE);
  }
  g_assert_true(lprojd_localizer_get_connected(localizer));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_autofree char *cache = g_dir_make_tmp("lprojd-async-cache-XXXXXX", NULL);
  g_setenv("XDG_CACHE_HOME", cache, TRUE);
  /* English unless a test says otherwise. */
  g_setenv("LANGUAGE", "", TRUE);
  g_setenv("LC_ALL", "C.UTF-8", TRUE);
  const char *binary = g_getenv("LPROJD_BINARY") ? g_getenv("LPROJD_BINARY") : "../../.build/release/lprojd";
  if (!g_file_test(binary, G_FILE_TEST_IS_EXECUTABLE)) g_error("no lprojd to test against: build it, or set LPROJD_BINARY");
#define ADD(path, test) g_test_add(path, Fixture, NULL, setup, test, teardown)
  ADD("/async/new-async", test_new_async);
  ADD("/async/preferred-languages-property", test_preferred_languages_property);
  ADD("/async/main-loop-runs-while-lprojd-is-stopped", test_main_loop_runs_while_lprojd_is_stopped);
  ADD("/async/cancel-while-lprojd-is-stopped", test_cancel_while_lprojd_is_stopped);
  ADD("/async/properties-notify-and-bind", test_properties_notify_and_bind);
  ADD("/async/format-value-and-supported-locales", test_format_value_and_supported_locales);
  ADD("/async/errors", test_errors);
  ADD("/async/stuck-lprojd-times-out", test_stuck_lprojd_times_out);
  int status = g_test_run();
  const char *remove[] = {"rm", "-rf", cache, NULL};
  g_spawn_sync(NULL, (char **)remove, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  return status;
}
