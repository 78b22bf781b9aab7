/* Median nanoseconds of a lookup hit over 10,000 keys: the localizer's
 * mirror (against a real lprojd) beside GNU gettext's dgettext on a .mo of
 * the same keys, and a bare GHashTable as the floor. Batches of lookups are
 * timed with clock_gettime; the figure is the median of batch means.
 * With --memory: the heap a mirror of a 100k-entry table holds, against
 * the file (its own process, so that nothing measured before counts).
 * With --startup: the time from making a localizer to its first string. */
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <glib/gstdio.h>
#include <bench_support.h> /* the Swift benchmarks' heap accounting, shared */

#include "../tests/daemon-fixture.h"
#include <lprojd/lprojd.h>

#define KEYS 10000
#define BATCH 1000
#define BATCHES 500

typedef const char *(*LookupFunction)(gpointer context, const char *key);

static char *keys[KEYS];
static char *values[KEYS];

static void make_keys(void) {
  for (int i = 0; i < KEYS; i++) {
    keys[i] = g_strdup_printf("screen%03d.label.item%05d", i % 97, i);
    values[i] = g_strdup_printf("Translated value number %d", i);
  }
  /* Visit keys in a random order, as an app's screens would. */
  for (int i = KEYS - 1; i > 0; i--) {
    int j = g_random_int_range(0, i + 1);
    char *key = keys[i], *value = values[i];
    keys[i] = keys[j], values[i] = values[j];
    keys[j] = key, values[j] = value;
  }
}

static void write_file(const char *path, GString *text) {
  g_autoptr(GError) error = NULL;
  if (!g_file_set_contents(path, text->str, (gssize)text->len, &error)) g_error("%s", error->message);
}

/* A bundle (`name` under `directory`) whose en.lproj/Localizable.strings
 * holds the first `count` keys. */
static char *make_bundle(const char *directory, const char *name, int count) {
  char *bundle = g_build_filename(directory, name, NULL);
  g_autofree char *lproj = g_build_filename(bundle, "en.lproj", NULL);
  g_mkdir_with_parents(lproj, 0700);
  GString *strings = g_string_new(NULL);
  for (int i = 0; i < count; i++) g_string_append_printf(strings, "\"%s\" = \"%s\";\n", keys[i], values[i]);
  g_autofree char *path = g_build_filename(lproj, "Localizable.strings", NULL);
  write_file(path, strings);
  g_string_free(strings, TRUE);
  return bundle;
}

/* A .mo catalog of the same keys, for the locale in effect, bound to "bench". */
static void make_catalog(const char *directory, const char *locale) {
  g_autofree char *messages = g_build_filename(directory, "locale", locale, "LC_MESSAGES", NULL);
  g_mkdir_with_parents(messages, 0700);
  GString *po = g_string_new("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n");
  for (int i = 0; i < KEYS; i++) g_string_append_printf(po, "msgid \"%s\"\nmsgstr \"%s\"\n\n", keys[i], values[i]);
  g_autofree char *po_path = g_build_filename(directory, "bench.po", NULL);
  g_autofree char *mo_path = g_build_filename(messages, "bench.mo", NULL);
  write_file(po_path, po);
  g_string_free(po, TRUE);
  const char *argv[] = {"msgfmt", "-o", mo_path, po_path, NULL};
  int status = 1;
  if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL) || status != 0)
    g_error("msgfmt failed (Debian: apt-get install gettext)");
  g_autofree char *root = g_build_filename(directory, "locale", NULL);
  bindtextdomain("bench", root);
  bind_textdomain_codeset("bench", "UTF-8");
}

static gint64 now_ns(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (gint64)time.tv_sec * 1000000000 + time.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median over BATCHES of the mean ns per lookup in a batch of BATCH. */
static double median_ns(LookupFunction lookup, gpointer context) {
  static double means[BATCHES];
  volatile guintptr sink = 0;
  int next = 0;
  for (int i = 0; i < KEYS; i++) sink += (guintptr)lookup(context, keys[i]); /* warm up */
  for (int b = 0; b < BATCHES; b++) {
    gint64 start = now_ns();
    for (int i = 0; i < BATCH; i++) {
      sink += (guintptr)lookup(context, keys[next]);
      next = (next + 1) % KEYS;
    }
    means[b] = (double)(now_ns() - start) / BATCH;
  }
  (void)sink;
  qsort(means, BATCHES, sizeof means[0], compare_doubles);
  return means[BATCHES / 2];
}

static const char *localizer_lookup(gpointer localizer, const char *key) {
  return lprojd_localizer_lookup(localizer, key, NULL, NULL);
}

static const char *gettext_lookup(gpointer unused, const char *key) {
  (void)unused;
  return dgettext("bench", key);
}

static const char *hash_lookup(gpointer table, const char *key) { return g_hash_table_lookup(table, key); }

static void check(const char *what, LookupFunction lookup, gpointer context) {
  for (int i = 0; i < KEYS; i++)
    if (g_strcmp0(lookup(context, keys[i]), values[i]) != 0) g_error("%s answers %s wrongly", what, keys[i]);
}

/* The heap a localizer holds once started on a 100k-entry table (its
 * connection too), as glibc counts bytes in use, against the file's size. */
static void measure_mirror_memory(const char *directory) {
  enum { ENTRIES = 100000 };
  g_autofree char *bundle = g_build_filename(directory, "memory", NULL);
  g_autofree char *lproj = g_build_filename(bundle, "de.lproj", NULL);
  g_autofree char *english = g_build_filename(bundle, "en.lproj", NULL);
  g_mkdir_with_parents(lproj, 0700);
  g_mkdir_with_parents(english, 0700);
  GString *strings = g_string_new(NULL);
  for (int i = 0; i < ENTRIES; i++) g_string_append_printf(strings, "\"screen%d.label.%d\" = \"Beschriftung Nummer %d\";\n", i / 10, i % 10, i);
  g_autofree char *path = g_build_filename(lproj, "Localizable.strings", NULL);
  write_file(path, strings);
  g_string_free(strings, TRUE);
  g_autofree char *english_path = g_build_filename(english, "Localizable.strings", NULL);
  write_file(english_path, g_string_new("\"screen0.label.0\" = \"Label\";\n"));
  struct stat file;
  if (g_stat(path, &file) != 0) g_error("no table");

  DaemonFixture *daemon = daemon_fixture_new(bundle, "memory", "en");
  daemon_fixture_start(daemon);
  g_setenv("LANGUAGE", "de", TRUE);
  g_setenv("LC_ALL", "de_DE.UTF-8", TRUE); /* gettext reads no LANGUAGE in the C locale */
  heap_trim();
  size_t before = heap_bytes_in_use();
  g_autoptr(GError) error = NULL;
  LprojdLocalizer *localizer = lprojd_localizer_new_sync("memory", "org.example.Memory", daemon->socket_path, NULL, &error);
  if (localizer == NULL) g_error("%s", error->message);
  heap_trim();
  size_t held = heap_bytes_in_use() - before;
  if (g_strcmp0(lprojd_localizer_lookup(localizer, "screen1.label.1", NULL, NULL), "Beschriftung Nummer 11") != 0)
    g_error("the mirror is wrong: %s", lprojd_localizer_lookup(localizer, "screen1.label.1", NULL, NULL));
  printf("mirror of a 100k-entry table: %.1f MB held, file %.1f MB: %.2fx\n", held / 1e6, file.st_size / 1e6,
         (double)held / (double)file.st_size);
  g_object_unref(localizer);
  daemon_fixture_free(daemon);
}

static void remove_tree(const char *path) {
  const char *remove[] = {"rm", "-rf", path, NULL};
  g_spawn_sync(NULL, (char **)remove, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* An app's start-up as its first frame waits for it: a localizer made
 * (connect, fetch the bundle's table into its mirror) and its first string
 * looked up, with no mirror cached before (the cache is emptied between
 * runs). Only the library's API of every version is used, so that the same
 * source measures an older library too (bench/against-revision). */
static void measure_startup(const char *directory, int count) {
  enum { RUNS = 40 };
  g_autofree char *name = g_strdup_printf("startup%d", count);
  g_autofree char *bundle = make_bundle(directory, name, count);
  g_autofree char *cache = g_build_filename(directory, "startup-cache", NULL);
  g_setenv("XDG_CACHE_HOME", cache, TRUE);
  DaemonFixture *daemon = daemon_fixture_new(bundle, name, "en");
  daemon_fixture_start(daemon);
  static double runs[RUNS];
  for (int run = 0; run < RUNS; run++) {
    remove_tree(cache);
    g_autoptr(GError) error = NULL;
    gint64 start = now_ns();
    LprojdLocalizer *localizer = lprojd_localizer_new_sync(name, "org.example.Startup", daemon->socket_path, NULL, &error);
    if (localizer == NULL) g_error("%s", error->message);
    const char *first = lprojd_localizer_lookup(localizer, keys[0], NULL, NULL);
    runs[run] = (double)(now_ns() - start) / 1e6;
    if (g_strcmp0(first, values[0]) != 0) g_error("the first string is wrong: %s", first);
    g_object_unref(localizer);
  }
  qsort(runs, RUNS, sizeof runs[0], compare_doubles);
  printf("start-up to the first string, %5d keys: median %6.2f ms, slowest %6.2f ms (%d runs)\n", count,
         runs[RUNS / 2], runs[RUNS - 1], RUNS);
  daemon_fixture_free(daemon);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--startup") == 0) {
    make_keys();
    g_autofree char *directory = g_dir_make_tmp("lprojd-bench-XXXXXX", NULL);
    measure_startup(directory, 50);
    measure_startup(directory, KEYS);
    remove_tree(directory);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--memory") == 0) {
    g_autofree char *directory = g_dir_make_tmp("lprojd-bench-XXXXXX", NULL);
    /* The mirror's cache file goes with the rest, not into the user's cache. */
    g_autofree char *cache = g_build_filename(directory, "cache", NULL);
    g_setenv("XDG_CACHE_HOME", cache, TRUE);
    measure_mirror_memory(directory);
    remove_tree(directory);
    return 0;
  }
  /* gettext reads no catalog in the C locale; C.UTF-8 is always there. */
  const char *locale = setlocale(LC_ALL, "C.UTF-8");
  if (locale == NULL) g_error("no C.UTF-8 locale");
  make_keys();
  g_autofree char *directory = g_dir_make_tmp("lprojd-bench-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename(directory, "cache", NULL);
  g_setenv("XDG_CACHE_HOME", cache, TRUE);
  g_autofree char *bundle = make_bundle(directory, "bundle", KEYS);
  make_catalog(directory, locale);

  DaemonFixture *daemon = daemon_fixture_new(bundle, "bench", "en");
  daemon_fixture_start(daemon);
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdLocalizer) localizer = lprojd_localizer_new_sync("bench", "org.example.Bench", daemon->socket_path, NULL, &error);
  if (localizer == NULL) g_error("%s", error->message);

  /* Copies, as any table holds: the probe must not be the stored key itself. */
  g_autoptr(GHashTable) table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int i = 0; i < KEYS; i++) g_hash_table_insert(table, g_strdup(keys[i]), values[i]);

  check("lprojd_localizer_lookup", localizer_lookup, localizer);
  check("dgettext", gettext_lookup, NULL);
  check("GHashTable", hash_lookup, table);

  printf("%d keys, %d batches of %d hits, median of batch means\n", KEYS, BATCHES, BATCH);
  printf("%-28s %8s\n", "lookup", "ns");
  printf("%-28s %8.1f\n", "lprojd_localizer_lookup", median_ns(localizer_lookup, localizer));
  printf("%-28s %8.1f\n", "dgettext (GNU gettext .mo)", median_ns(gettext_lookup, NULL));
  printf("%-28s %8.1f\n", "GHashTable (floor)", median_ns(hash_lookup, table));

  g_clear_object(&localizer);
  daemon_fixture_free(daemon);
  remove_tree(directory);
  return 0;
}
