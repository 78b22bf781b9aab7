/* lprojd-c-demo: a terminal app on the C localizer, for the demo bundle.
 *
 *   make -C Examples/CDemo && Examples/CDemo/build/lprojd-c-demo [--socket PATH] [--client ID]
 *
 * It prints what a window would show, as one JSON line at start and again
 * on every `changed` signal (a language chosen here or by another process,
 * an edited table, lprojd found again after losing it), and takes commands
 * on standard input: `select LOCALE`, `reset`, `quit`; the end of input
 * quits too. Lookups come from the mirror; the plural count is formatted by
 * lprojd (the C library asks the daemon for formats). The tests drive it
 * (clients/python/tests/test_example_apps.py). */
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <lprojd/localizer.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  LprojdLocalizer *localizer;
  GMainLoop *loop;
  GString *input;
  int renders;
  gboolean quitting;
} Demo;

static void write_record(JsonBuilder *builder) {
  g_autoptr(JsonNode) root = json_builder_get_root(builder);
  g_autofree char *text = json_to_string(root, FALSE);
  printf("%s\n", text);
  fflush(stdout);
}

static void report(const char *message) {
  g_autoptr(JsonBuilder) builder = json_builder_new();
  json_builder_begin_object(builder);
  json_builder_set_member_name(builder, "event");
  json_builder_add_string_value(builder, "error");
  json_builder_set_member_name(builder, "message");
  json_builder_add_string_value(builder, message);
  json_builder_end_object(builder);
  write_record(builder);
}

static void add_label(JsonBuilder *builder, const char *name, const char *text) {
  json_builder_set_member_name(builder, name);
  json_builder_add_string_value(builder, text);
}

static void render(Demo *demo, LprojdChange reasons) {
  LprojdLocalizer *l = demo->localizer;
  g_autoptr(GHashTable) placeholders = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(placeholders, "name", "Ada");
  g_autofree char *greeting = lprojd_localizer_lookup_with_placeholders(l, "greeting", NULL, NULL, placeholders);
  LprojdArgument count = LPROJD_ARG_INT(3);
  g_autoptr(GError) error = NULL;
  g_autofree char *files = lprojd_localizer_format(l, "files.selected", NULL, &count, 1, NULL, &error);
  if (files == NULL) files = g_strdup_printf("(%s)", error->message);

  g_autoptr(JsonBuilder) builder = json_builder_new();
  json_builder_begin_object(builder);
  json_builder_set_member_name(builder, "event");
  json_builder_add_string_value(builder, "render");
  json_builder_set_member_name(builder, "render");
  json_builder_add_int_value(builder, demo->renders++);
  json_builder_set_member_name(builder, "reasons");
  json_builder_begin_array(builder);
  GFlagsClass *flags = g_type_class_ref(LPROJD_TYPE_CHANGE);
  for (guint i = 0; i < flags->n_values; i++) {
    if (reasons & flags->values[i].value) json_builder_add_string_value(builder, flags->values[i].value_nick);
  }
  g_type_class_unref(flags);
  json_builder_end_array(builder);
  json_builder_set_member_name(builder, "locale");
  const char *locale = lprojd_localizer_get_locale(l);
  if (locale != NULL) json_builder_add_string_value(builder, locale);
  else json_builder_add_null_value(builder);
  json_builder_set_member_name(builder, "connected");
  json_builder_add_boolean_value(builder, lprojd_localizer_is_connected(l));
  json_builder_set_member_name(builder, "labels");
  json_builder_begin_object(builder);
  add_label(builder, "title", lprojd_localizer_lookup(l, "welcome.title", NULL, NULL));
  add_label(builder, "greeting", greeting);
  add_label(builder, "settings", lprojd_localizer_lookup(l, "settings.title", NULL, NULL));
  add_label(builder, "menu.file", lprojd_localizer_lookup(l, "menu.file", "Menu", NULL));
  add_label(builder, "files", files);
  json_builder_end_object(builder);
  json_builder_end_object(builder);
  write_record(builder);
}

static void on_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer;
  render(data, what);
}

static void run_command(Demo *demo, const char *line) {
  g_auto(GStrv) words = g_strsplit(line, " ", -1);
  guint count = g_strv_length(words);
  g_autoptr(GError) error = NULL;
  gboolean done = TRUE;
  if (count == 2 && strcmp(words[0], "select") == 0) {
    done = lprojd_localizer_select(demo->localizer, words[1], &error);
  } else if (count == 1 && strcmp(words[0], "reset") == 0) {
    done = lprojd_localizer_reset(demo->localizer, &error);
  } else if (count == 1 && strcmp(words[0], "quit") == 0) {
    demo->quitting = TRUE;
    g_main_loop_quit(demo->loop);
  } else {
    g_autofree char *message = g_strdup_printf("unknown command: %s", line);
    report(message);
  }
  if (!done) {
    g_autofree char *message = g_strdup_printf("%s: %s", line, error->message);
    report(message);
  }
}

/* Standard input is read as it comes, on the main loop, a line at a time;
 * its end ends the app, after a last line without a newline. */
static gboolean on_input(int fd, GIOCondition condition, gpointer data) {
  (void)condition;
  Demo *demo = data;
  char chunk[4096];
  ssize_t length = read(fd, chunk, sizeof chunk);
  if (length < 0 && (errno == EINTR || errno == EAGAIN)) return G_SOURCE_CONTINUE;
  if (length <= 0) {
    if (demo->input->len > 0) run_command(demo, g_strstrip(demo->input->str));
    g_main_loop_quit(demo->loop);
    return G_SOURCE_REMOVE;
  }
  g_string_append_len(demo->input, chunk, length);
  char *end;
  while (!demo->quitting && (end = memchr(demo->input->str, '\n', demo->input->len)) != NULL) {
    g_autofree char *line = g_strndup(demo->input->str, (gsize)(end - demo->input->str));
    g_string_erase(demo->input, 0, end - demo->input->str + 1);
    run_command(demo, g_strstrip(line));
  }
  return demo->quitting ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  const char *socket_path = NULL, *client = "org.lprojd.CDemo";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket_path = argv[++i];
    else if (strcmp(argv[i], "--client") == 0 && i + 1 < argc) client = argv[++i];
    else {
      fprintf(stderr, "usage: lprojd-c-demo [--socket PATH] [--client ID]\n");
      return 2;
    }
  }
  /* Standard output carries the JSON lines only: GLib's info and debug
   * messages (G_MESSAGES_DEBUG) go to standard error. */
  g_log_writer_default_set_use_stderr(TRUE);
  g_autoptr(GError) error = NULL;
  Demo demo = {.loop = g_main_loop_new(NULL, FALSE), .input = g_string_new(NULL)};
  demo.localizer = lprojd_localizer_new("demo", client, socket_path, NULL, &error);
  if (demo.localizer == NULL) {
    fprintf(stderr, "lprojd-c-demo: %s\n", error->message);
    return 1;
  }
  render(&demo, 0);
  g_signal_connect(demo.localizer, "changed", G_CALLBACK(on_changed), &demo);
  g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP, on_input, &demo);
  g_main_loop_run(demo.loop);
  g_object_unref(demo.localizer);
  g_main_loop_unref(demo.loop);
  g_string_free(demo.input, TRUE);
  return 0;
}
